package workloads

import (
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// ExpectationsTimeout is how long a ReplicaSet controller waits to observe
// the creations and deletions it asked for before it syncs the set anyway
// (pkg/controller ExpectationsTimeout): a create whose pod it never sees
// cannot stall the set for longer.
const ExpectationsTimeout = 5 * time.Minute

// ReplicaSetController is kube-controller-manager's ReplicaSet controller
// (pkg/controller/replicaset ReplicaSetController) as a state machine of
// podsem's one convention: each Step syncs one ReplicaSet with
// SyncReplicaSet against the world the input shows, and the machine keeps
// what the real controller remembers between syncs:
//
//   - expectations, per ReplicaSet: after a sync creates n pods or deletes
//     some, the next syncs only write status until the creations and
//     deletions are observed or ExpectationsTimeout has passed. The
//     machine observes them in the input itself, as the informer's add
//     and delete events would: a pod the set controls that was not in the
//     previous step's input is an observed creation; an expected victim
//     that is gone from the input or terminating is an observed deletion;
//   - the work queue's delays: the minReadySeconds requeue and, after a
//     failed sync, the exponential back-off, each kept as the set's
//     earliest pending time, as the delaying queue keeps the earliest.
//
// The zero value is a controller with v1.36.3's defaults and no memory.
// It does nothing itself: the caller applies the adoptions, releases,
// creations, deletions and status of each step's result.
type ReplicaSetController struct {
	sets map[string]*rsMemory
	// cache is the incremental controller's copy of the pod informer
	// cache and its counts per ReplicaSet; nil for a controller that is
	// given the pods whole at every step.
	cache *rsCache
}

// rsMemory is what the controller remembers of one ReplicaSet.
type rsMemory struct {
	uid string
	// expectations: creations asked for at expectedAt, those not yet
	// observed counted down in add, and the keys of the pods deleted.
	expecting bool
	add       int
	// seen holds the pods (by UID, or namespace/name without one) of the
	// previous step's input: a controlled pod not among them is new.
	// spare is the map of the step before, cleared and refilled as the
	// next seen, so that observing allocates nothing once sized.
	seen, spare map[string]bool
	deleted     map[string]bool
	expectedAt  time.Time
	// An incremental controller observes creations in the pod events
	// instead of seen: fresh holds the pods (by UID, or key) added to the
	// cache since the set's previous step (their cache key), gone those
	// of that step's cache deleted since. They are kept only while
	// creations are awaited (expecting, add > 0).
	fresh map[string]string
	gone  map[string]bool
	// failures counts consecutive failed syncs; deadline is the earliest
	// time the set is queued for, zero when none.
	failures int
	deadline time.Time
}

// NewReplicaSetController returns a controller with v1.36.3's defaults
// and no memory, the same as the zero value.
func NewReplicaSetController() *ReplicaSetController { return &ReplicaSetController{} }

// Step syncs in.ReplicaSet at now with the expectations the controller
// still holds for it, as the controller's worker does when the set's key
// comes off the queue (a pod or ReplicaSet event, a resync or a deadline of
// NextDeadline), and remembers the new expectations and requeue times. A
// ReplicaSet recreated under the same name (another uid) starts afresh.
// An incremental controller (NewIncrementalReplicaSetController) first
// applies in.PodEvents to its copy of the pod cache and syncs from that.
// Errors are SyncReplicaSet's (bad input); a nil controller is an error
// too, and so are in.Pods given to an incremental controller,
// in.PodEvents given to another, or a malformed pod event. All wrap
// api.ErrInvalidInput and leave the memory as it was (but for the pod
// events of a step whose ReplicaSet is bad input: the copy of the cache
// takes them).
func (c *ReplicaSetController) Step(in ReplicaSetInput, now time.Time) (ReplicaSetSync, error) {
	if c == nil {
		return ReplicaSetSync{}, fmt.Errorf("%w: replicaset controller: nil", errInvalidInput)
	}
	if c.cache != nil {
		return c.stepIncremental(in, now)
	}
	if len(in.PodEvents) > 0 {
		return ReplicaSetSync{}, fmt.Errorf("%w: podEvents: %d given to a controller that is given its pods whole (only NewIncrementalReplicaSetController's reads them)", errInvalidInput, len(in.PodEvents))
	}
	rs := in.ReplicaSet
	if rs == nil {
		return ReplicaSetSync{}, fmt.Errorf("%w: replicaset: nil", errInvalidInput)
	}
	if in.Deleted {
		c.forget(rs)
		return ReplicaSetSync{}, nil
	}
	key, mem := c.memory(rs)
	pending := mem.pending(rs, in.Pods, now)
	res, err := SyncReplicaSet(in, pending, now)
	if err != nil {
		return res, err
	}
	c.remember(key, mem, res, now)
	return res, nil
}

// memory is the key of rs and what the controller remembers of it: a new
// memory when it has none or holds one of another set of the same name.
func (c *ReplicaSetController) memory(rs *api.ReplicaSet) (string, *rsMemory) {
	key := rs.Namespace + "/" + rs.Name
	mem := c.sets[key]
	if mem != nil && mem.uid != rs.UID {
		mem = nil
	}
	if mem == nil {
		mem = &rsMemory{uid: rs.UID}
	}
	return key, mem
}

// remember keeps what the controller holds after the sync res of the set
// key at now: the new expectations, the failure count and the requeue.
func (c *ReplicaSetController) remember(key string, mem *rsMemory, res ReplicaSetSync, now time.Time) {
	if res.Managed && (res.Create > 0 || len(res.Delete) > 0) {
		mem.expecting = true
		mem.add = res.Created
		mem.deleted = make(map[string]bool, len(res.Delete))
		for _, p := range res.Delete {
			mem.deleted[p.Key()] = true
		}
		mem.expectedAt = now
	}
	if !mem.deadline.After(now) {
		mem.deadline = time.Time{}
	}
	var requeue time.Duration
	if res.Err != nil {
		mem.failures++
		requeue = retryDelay(mem.failures)
	} else {
		mem.failures = 0
		requeue = res.RequeueAfter
	}
	if requeue > 0 {
		if at := now.Add(requeue); mem.deadline.IsZero() || at.Before(mem.deadline) {
			mem.deadline = at
		}
	}
	if c.sets == nil {
		c.sets = map[string]*rsMemory{}
	}
	c.sets[key] = mem
}

// Queued returns the keys (namespace/name, sorted) of the ReplicaSets
// whose requeue has come at now — a minReadySeconds requeue or a back-off
// after a failed sync: upstream's workqueue hands out those keys alone,
// not every set. NextDeadline is the earliest such time. A nil controller
// has none.
func (c *ReplicaSetController) Queued(now time.Time) []string {
	if c == nil {
		return nil
	}
	var keys []string
	for key, m := range c.sets {
		if !m.deadline.IsZero() && !m.deadline.After(now) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// forget drops what the controller remembers of the deleted set rs: its
// expectations, failure count and requeue.
func (c *ReplicaSetController) forget(rs *api.ReplicaSet) {
	key := rs.Namespace + "/" + rs.Name
	mem := c.sets[key]
	if mem == nil || mem.uid != rs.UID {
		return
	}
	if c.cache != nil {
		c.cache.forget(key, rs.Namespace, mem)
	}
	delete(c.sets, key)
}

// NextDeadline is the earliest time a ReplicaSet is queued for — its
// minReadySeconds requeue or its back-off after a failed sync — or the
// zero time when none is. Expectations do not set a deadline: upstream
// syncs again on the next pod event or resync, and the expired
// expectations then no longer hold it back. A nil controller has none.
func (c *ReplicaSetController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	var next time.Time
	for _, m := range c.sets {
		if !m.deadline.IsZero() && (next.IsZero() || m.deadline.Before(next)) {
			next = m.deadline
		}
	}
	return next
}

// pending observes the pods the controller's cache holds now — counting
// down the expected creations by the controlled pods new since the
// previous step, and remembering the pods for the next — and returns what
// remains of the expectations: nothing once they are expired.
func (m *rsMemory) pending(rs *api.ReplicaSet, pods []*api.Pod, now time.Time) ReplicaSetExpectations {
	seen := m.spare
	if seen == nil {
		seen = make(map[string]bool, len(pods))
	}
	clear(seen)
	live := 0
	for _, p := range pods {
		if p == nil || p.Namespace != rs.Namespace {
			continue
		}
		k := podIdentity(p)
		seen[k] = true
		if m.expecting && m.add > 0 && !m.seen[k] {
			m.observeCreation(rs, p)
		}
		if m.awaitsDeletion(p) {
			live++
		}
	}
	m.seen, m.spare = seen, m.seen
	return m.outstanding(live, now)
}

// observeCreation counts p, a pod new to the cache, as an awaited
// creation if rs controls it.
func (m *rsMemory) observeCreation(rs *api.ReplicaSet, p *api.Pod) {
	if ref := p.ControllerRef(); ref != nil && ref.UID == rs.UID {
		m.add--
	}
}

// awaitsDeletion reports whether p is a victim of the set's last
// deletions that is not yet being deleted.
func (m *rsMemory) awaitsDeletion(p *api.Pod) bool {
	return len(m.deleted) > 0 && p.DeletionTimestamp == nil && m.deleted[p.Key()]
}

// outstanding is what remains at now of the expectations, with live of
// the deletions not yet observed: nothing once they are expired.
func (m *rsMemory) outstanding(live int, now time.Time) ReplicaSetExpectations {
	if !m.expecting || now.Sub(m.expectedAt) > ExpectationsTimeout {
		return ReplicaSetExpectations{}
	}
	return ReplicaSetExpectations{Add: m.add, Del: live}
}
