package workloads

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// daemonExpectationsTimeout is how long the controller waits for the
// creates and deletes of a sync to be observed before it syncs again
// regardless (pkg/controller ExpectationsTimeout).
const daemonExpectationsTimeout = 5 * time.Minute

// DaemonSetController is kube-controller-manager's DaemonSet controller
// (pkg/controller/daemon) for one DaemonSet, as a state machine: each Step
// is one syncDaemonSet over what the controller's informers show at now,
// and the controller's memory between syncs is kept here:
//
//   - expectations: after a sync creates or deletes pods, later steps only
//     update the status (without raising observedGeneration) until every
//     create has been observed (a new pod controlled by the DaemonSet
//     appears in Pods) and every delete too (a controlled pod gets a
//     deletionTimestamp or disappears), or five minutes have passed;
//   - the failed-pod back-off: a Failed daemon pod on a node is deleted at
//     most once per back-off period, 1 s doubling to 15 min per node (and
//     per observed generation), forgotten after 30 idle minutes;
//   - the workqueue's back-off after a failed sync (DaemonSetSync.Err, a
//     create the API server refused among them: DaemonSetInput.AcceptCreates):
//     the sync is retried 5 ms later, doubling with each failure in a row
//     up to 1000 s.
//
// Observations are made by comparing each input's pods with the previous
// step's, the way the informer's add, update and delete events reach
// upstream's handlers; a pod that changes several times between two steps
// counts once. Accepted creates are expected; a create that never shows
// up is waited out by the five-minute expiry, as upstream waits.
//
// The zero value is a controller that has just started. A DaemonSet
// replaced by another of the same name (another uid) starts afresh.
type DaemonSetController struct {
	uid     string
	mem     daemonMemory
	exp     daemonExpectations
	seen    map[string]seenPod
	next    time.Time
	started bool
	// failures counts the syncs in a row that failed (DaemonSetSync.Err).
	failures int
}

// The DaemonSet controller's workqueue back-off for a failed sync
// (workqueue.DefaultTypedControllerRateLimiter).
const (
	daemonRetryBase = 5 * time.Millisecond
	daemonRetryMax  = 1000 * time.Second
)

// daemonExpectations is ControllerExpectations' record for the DaemonSet.
type daemonExpectations struct {
	set      bool
	add, del int
	at       time.Time
}

func (e *daemonExpectations) satisfied(now time.Time) bool {
	return !e.set || e.add <= 0 && e.del <= 0 || now.Sub(e.at) > daemonExpectationsTimeout
}

// seenPod is what the controller last saw of a pod.
type seenPod struct {
	owned, deleting, ready bool
}

// Step syncs the DaemonSet once at now with what the controller observes
// (see SyncDaemonSet for the sync itself) and returns what that sync does.
// A nil controller or a nil DaemonSet is an error wrapping
// api.ErrInvalidInput and changes nothing.
func (c *DaemonSetController) Step(in DaemonSetInput, now time.Time) (DaemonSetSync, error) {
	if c == nil {
		return DaemonSetSync{}, fmt.Errorf("%w: daemonset controller: nil", errInvalidInput)
	}
	ds := in.DaemonSet
	if ds == nil {
		return DaemonSetSync{}, fmt.Errorf("%w: daemonset: nil", errInvalidInput)
	}
	if c.started && c.uid != ds.UID {
		*c = DaemonSetController{}
	}
	c.started, c.uid = true, ds.UID
	// A requeue still waiting (the controller's delaying queue keeps a
	// key's earliest time until it fires, whatever syncs come between)
	// stays; one whose time has come is this sync or was passed by one.
	pending := c.next
	if !pending.After(now) {
		pending = time.Time{}
	}
	if c.observe(ds, in.Pods) && ds.Spec.MinReadySeconds > 0 {
		// updatePod: a pod of the DaemonSet turned ready; look again
		// once it can be available, a second later for clock skew.
		pending = api.EarliestDeadline(pending, now.Add(time.Duration(ds.Spec.MinReadySeconds)*time.Second+time.Second))
	}
	c.gcBackoff(now)

	c.mem.unsatisfied = !c.exp.satisfied(now)
	c.mem.ranManage = false
	out, err := syncDaemonSet(in, now, &c.mem)
	if err != nil {
		return out, err
	}
	if c.mem.ranManage {
		c.exp = daemonExpectations{set: true, add: c.mem.creates, del: c.mem.deletes, at: now}
	}
	if out.RequeueAfter > 0 {
		pending = api.EarliestDeadline(pending, now.Add(out.RequeueAfter))
	}
	if out.Err != nil {
		// The sync failed: the workqueue's rate limiter retries it, 5 ms
		// doubled with each failure in a row, at most 1000 s.
		d := daemonRetryMax
		if c.failures < 30 {
			d = min(daemonRetryBase<<c.failures, daemonRetryMax)
		}
		c.failures++
		pending = api.EarliestDeadline(pending, now.Add(d))
	} else {
		c.failures = 0
	}
	c.next = pending
	return out, nil
}

// NextDeadline is when the controller syncs the DaemonSet again with no
// new input: a failed pod's back-off expiry, a minReadySeconds requeue or
// the retry of a failed sync, as the last Step reported it. The zero time means not until an input
// arrives; a nil controller has none.
func (c *DaemonSetController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}

// observe turns the difference between the previous and the current pods
// into the creation and deletion observations the informer handlers make;
// it reports whether a pod the DaemonSet owns turned ready.
func (c *DaemonSetController) observe(ds *api.DaemonSet, pods []*api.Pod) (turnedReady bool) {
	cur := make(map[string]seenPod, len(pods))
	for _, p := range pods {
		if p == nil || p.Namespace != ds.Namespace {
			continue
		}
		ref := p.ControllerRef()
		now := seenPod{owned: ref != nil && ref.UID == ds.UID, deleting: p.DeletionTimestamp != nil, ready: api.IsPodReady(p)}
		key := podKey(p)
		cur[key] = now
		was, known := c.seen[key]
		if known && now.owned && now.ready && !was.ready {
			turnedReady = true
		}
		switch {
		case !known && now.owned && !now.deleting:
			c.exp.add--
		case !known && now.owned && now.deleting, known && now.owned && now.deleting && !was.deleting:
			c.exp.del--
		}
	}
	for key, was := range c.seen {
		if _, still := cur[key]; !still && was.owned {
			c.exp.del--
		}
	}
	c.seen = cur
	return turnedReady
}

func podKey(p *api.Pod) string {
	if p.UID != "" {
		return p.UID
	}
	return p.Namespace + "/" + p.Name
}

// gcBackoff forgets back-off entries idle for twice the maximum delay, as
// the controller's periodic back-off GC does.
func (c *DaemonSetController) gcBackoff(now time.Time) {
	for k, e := range c.mem.backoff {
		if now.Sub(e.last) > 2*daemonFailedPodBackoffMax {
			delete(c.mem.backoff, k)
		}
	}
}
