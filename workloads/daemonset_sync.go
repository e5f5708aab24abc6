package workloads

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// DaemonSetInput is what the DaemonSet controller sees of one DaemonSet
// when it syncs it: the object, every node, and the pods and
// ControllerRevisions in its caches.
type DaemonSetInput struct {
	// DaemonSet is the apps/v1 DaemonSet as stored, status included (its
	// status is compared with the new one to decide whether to write it).
	DaemonSet *api.DaemonSet
	// Nodes are all the cluster's nodes, in the order the controller
	// walks them (creates and deletes come out in this order).
	Nodes []*api.Node
	// Pods are the pods in the controller's cache, in cache order; only
	// those in the DaemonSet's namespace are looked at. Owned pods that
	// no longer match the selector are released, matching orphans
	// adopted.
	Pods []*api.Pod
	// Revisions are the ControllerRevisions in the controller's cache;
	// only those in the DaemonSet's namespace are looked at. The
	// DaemonSet's history is claimed from them by its selector, and the
	// current revision found (or created) among them: its
	// controller-revision-hash label is the hash new pods carry and
	// updated pods are counted by.
	Revisions []*api.ControllerRevision
	// AcceptCreates, when not nil, is how many pod creations the API
	// server accepts during this sync (an admission plugin refusing the
	// DaemonSet's pods: 0); the later ones fail with CreateError. Nil
	// accepts all. The creates go in slow-start batches of 1, 2, 4, …,
	// and the first batch with a refusal ends them.
	AcceptCreates *int
	// CreateError is the API error a refused creation returns; nil gives
	// ErrPodCreateRefused.
	CreateError error
}

// DaemonPodCreate is one daemon pod a sync creates: the node it is for and
// the pod sent to the API server (see NewDaemonPod).
type DaemonPodCreate struct {
	Node string
	Pod  *api.Pod
}

// DaemonPodDeleteReason says why a sync deletes a daemon pod.
type DaemonPodDeleteReason string

// The reasons the DaemonSet controller deletes a daemon pod.
const (
	// DaemonDeleteFailed: the pod failed on a node that should keep
	// running it; a replacement follows once it is gone. At most one per
	// node per failed-pod back-off period.
	DaemonDeleteFailed DaemonPodDeleteReason = "Failed"
	// DaemonDeleteSucceeded: the pod's containers all exited successfully.
	DaemonDeleteSucceeded DaemonPodDeleteReason = "Succeeded"
	// DaemonDeleteExcess: the node runs more than one daemon pod; all but
	// the oldest go (with surge, see DaemonSetSync).
	DaemonDeleteExcess DaemonPodDeleteReason = "Excess"
	// DaemonDeleteNodeIneligible: the node should not continue running
	// the pod (selector, affinity, an untolerated NoExecute taint).
	DaemonDeleteNodeIneligible DaemonPodDeleteReason = "NodeIneligible"
	// DaemonDeleteNodeGone: an unscheduled pod aimed at a node that no
	// longer exists (a bound one is left to pod garbage collection).
	DaemonDeleteNodeGone DaemonPodDeleteReason = "NodeGone"
	// DaemonDeleteRollingUpdate: a pod of an old template that the
	// rolling update replaces.
	DaemonDeleteRollingUpdate DaemonPodDeleteReason = "RollingUpdate"
)

// DaemonPodDelete is one pod a sync deletes, with the node it belongs to.
type DaemonPodDelete struct {
	Pod    *api.Pod
	Node   string
	Reason DaemonPodDeleteReason
}

// The reasons of the events the DaemonSet controller records.
const (
	DaemonReasonSelectingAll       = "SelectingAll"
	DaemonReasonFailedDaemonPod    = "FailedDaemonPod"
	DaemonReasonSucceededDaemonPod = "SucceededDaemonPod"
)

// DaemonSetSync is the outcome of one sync of a DaemonSet.
type DaemonSetSync struct {
	// Create are the pods created, in node order, at most
	// DaemonSetBurstReplicas.
	Create []DaemonPodCreate
	// Delete are the pods deleted, at most DaemonSetBurstReplicas.
	Delete []DaemonPodDelete
	// RevisionActions are the ControllerRevision writes, in upstream's
	// order: adoptions and releases of revisions, hash labels added to
	// revisions without one, then either the creation of the current
	// revision or the deletion of its duplicates and its renumbering;
	// last, once the pods are managed, the deletion of history beyond
	// spec.revisionHistoryLimit. Each revision is the object as sent.
	RevisionActions []ControllerRevisionAction
	// CurrentRevision is the revision of the DaemonSet's current template
	// (nil when the sync stopped before finding it).
	CurrentRevision *api.ControllerRevision
	// Relabel are the DaemonSet's pods whose controller-revision-hash
	// label the controller patches to the current revision's hash, after
	// it removed duplicates of that revision: each a copy of the pod with
	// the new label.
	Relabel []*api.Pod
	// Adopt are the orphans that match the selector, on which the
	// controller patches its controller reference (AdoptOwnerReferences);
	// Release the owned pods that no longer match, from which it removes
	// it (ReleaseOwnerReferences). Both as they were given.
	Adopt, Release []*api.Pod
	// Status is the DaemonSet's status after the sync: the one written
	// when StatusUpdated, else the input's.
	Status api.DaemonSetStatus
	// StatusUpdated reports whether the status was written: upstream
	// skips the write when every count is unchanged and
	// observedGeneration is already at least metadata.generation.
	StatusUpdated bool
	// Events are the Events recorded on the DaemonSet (source
	// DaemonSetControllerName), in order: SelectingAll, FailedDaemonPod
	// and SucceededDaemonPod as the sync finds them, then SuccessfulDelete
	// "Deleted pod: <name>" per pod of Delete. The SuccessfulCreate of
	// each create names the pod the API server generated: the caller
	// records PodCreatedEvent once it has it.
	Events []api.Event
	// RequeueAfter is when the controller syncs the DaemonSet again
	// without any change it watches: a failed pod held back by its
	// back-off, or ready pods that still wait out minReadySeconds. Zero:
	// not before something changes.
	RequeueAfter time.Duration
	// Err is the error the sync returns (and the controller retries with
	// rate limiting): a selector that does not compile, a name collision
	// of the current revision with another ControllerRevision (the
	// status, with status.collisionCount one higher, is then the only
	// other write besides the revisions' claims and labels), an invalid
	// rolling-update maxSurge or maxUnavailable, a rolling update that
	// looks up a node that is gone, a pod create the API server refused
	// (DaemonSetInput.AcceptCreates). The status may still have been
	// written.
	Err error
	// FailedCreates are the pods whose create the API server refused
	// (each has a FailedCreate Event in Events); the creates skipped
	// after a refused batch are not sent at all.
	FailedCreates []DaemonPodCreate
}

// SyncDaemonSet is one sync of kube-controller-manager's DaemonSet
// controller (pkg/controller/daemon syncDaemonSet) by a controller that
// has just started: no pending expectations, no failed-pod back-off yet.
// DaemonSetController keeps that memory between syncs.
//
// A DaemonSet being deleted, or one whose selector is the empty selector
// {} (event SelectingAll), is not synced at all. Otherwise:
//
//   - history (constructHistory), before anything else and whatever the
//     expectations: the namespace's ControllerRevisions are claimed by
//     the selector (orphans adopted, owned ones that no longer match
//     released); a claimed revision without a controller-revision-hash
//     label gets its name as that label; the ones whose Data equals
//     DaemonSetRevisionData byte for byte restore the current template.
//     None: NewDaemonSetRevision is created, numbered one above the
//     others — unless a revision of that name exists with other data, a
//     hash collision: status.collisionCount goes up by one and the sync
//     fails there. Several: the highest-numbered is kept, the claimed
//     pods are relabelled to its hash and the others deleted. A kept
//     revision numbered below another is renumbered above them all (a
//     rollback). Its controller-revision-hash label is the hash below;
//   - claim: the pods of the DaemonSet's namespace are claimed
//     (ClaimPods: adopt matching orphans, release owned pods that no
//     longer match) and grouped by the node they belong to (spec.nodeName,
//     or the node-name term of an unscheduled pod); terminal pods already
//     being deleted are left out, and so are pods that name no node;
//   - per node (NodeShouldRunDaemonPod): a node that should run a pod and
//     has none gets one; one that should keep running it loses its
//     Succeeded pods, one Failed pod per back-off period (1 s doubling to
//     15 min per node) and, without surge, every running pod but the
//     oldest (bound first, then by creation time and name); one that
//     should not keep it loses every pod not already terminating;
//     unscheduled pods aimed at nodes that no longer exist are deleted;
//   - creates and deletes are each capped at DaemonSetBurstReplicas;
//   - only when that found nothing to do, a RollingUpdate DaemonSet's
//     rolling update runs: without maxSurge it deletes old-template pods
//     while no more than maxUnavailable nodes are unavailable; with
//     maxSurge it creates new pods beside old ones and deletes an old pod
//     once its replacement is available;
//   - status: desiredNumberScheduled (nodes that should run a pod),
//     currentNumberScheduled (of those, nodes with a daemon pod),
//     numberMisscheduled (nodes with a daemon pod that should not run
//     one), and, from the oldest pod of each desired node, numberReady,
//     numberAvailable (Ready for minReadySeconds by now) and
//     updatedNumberScheduled (its pod-template-generation label equals
//     the template generation, or its controller-revision-hash equals the
//     revision hash); numberUnavailable = desired − available;
//     observedGeneration = metadata.generation. All counted from the pods
//     as they were before this sync's creates and deletes;
//   - cleanupHistory, when the pods were managed without error: if the
//     revisions other than the current one outnumber
//     spec.revisionHistoryLimit (default 10), the excess is deleted
//     oldest first, skipping (but counting) those whose hash a claimed
//     pod with a node still carries.
//
// Nothing is modified; the pods and revisions sent are new objects. A nil
// DaemonSet is an error wrapping api.ErrInvalidInput; nil nodes, pods and
// revisions are skipped.
func SyncDaemonSet(in DaemonSetInput, now time.Time) (DaemonSetSync, error) {
	return syncDaemonSet(in, now, &daemonMemory{})
}

// daemonMemory is what the controller remembers between syncs of one
// DaemonSet: whether its expectations are pending, and the failed-pod
// back-off per node.
type daemonMemory struct {
	// unsatisfied: creates or deletes of an earlier sync are not observed
	// yet; the sync then only updates the status.
	unsatisfied bool
	backoff     map[string]backoffEntry
	// creates and deletes are what this sync did (the new expectations).
	creates, deletes int
	// accept and createErr are the input's AcceptCreates (nil: all) and
	// CreateError; terminatingCreates are the creates refused because the
	// namespace is being deleted, which stay expected.
	accept             *int
	createErr          error
	terminatingCreates int
	// ranManage reports whether the sync went past the expectations gate.
	ranManage bool
}

// The failed-pod back-off kube-controller-manager gives the DaemonSet
// controller (flowcontrol.NewBackOff(1s, 15min)).
const (
	daemonFailedPodBackoffInitial = time.Second
	daemonFailedPodBackoffMax     = 15 * time.Minute
)

type backoffEntry struct {
	delay time.Duration
	last  time.Time
}

// inBackoff is flowcontrol.Backoff.IsInBackOffSinceUpdate.
func (m *daemonMemory) inBackoff(key string, now time.Time) (time.Duration, bool) {
	e, ok := m.backoff[key]
	if !ok || now.Sub(e.last) > 2*daemonFailedPodBackoffMax {
		return 0, false
	}
	return e.delay, now.Sub(e.last) < e.delay
}

// nextBackoff is flowcontrol.Backoff.Next: start at the initial delay (or
// again after an idle 2×max), else double up to the max.
func (m *daemonMemory) nextBackoff(key string, now time.Time) {
	if m.backoff == nil {
		m.backoff = map[string]backoffEntry{}
	}
	e, ok := m.backoff[key]
	if !ok || now.Sub(e.last) > 2*daemonFailedPodBackoffMax {
		e.delay = daemonFailedPodBackoffInitial
	} else {
		e.delay = min(2*e.delay, daemonFailedPodBackoffMax)
	}
	e.last = now
	m.backoff[key] = e
}

// daemonSync carries one sync's working state.
type daemonSync struct {
	ds     *api.DaemonSet
	now    time.Time
	hash   string
	gen    int64
	hasGen bool
	mem    *daemonMemory
	placer *daemonPlacer
	nodes  []*api.Node
	place  []DaemonPlacement // per node
	byNode map[string][]*api.Pod
	// claimed are the pods the DaemonSet manages after the claim;
	// liveHashes the revision hashes of those with a node.
	claimed    []*api.Pod
	liveHashes map[string]bool
	out        *DaemonSetSync
	requeue    time.Duration
}

func (s *daemonSync) requeueAfter(d time.Duration) {
	if d > 0 && (s.requeue == 0 || d < s.requeue) {
		s.requeue = d
	}
}

func syncDaemonSet(in DaemonSetInput, now time.Time, mem *daemonMemory) (DaemonSetSync, error) {
	mem.accept, mem.createErr, mem.terminatingCreates = in.AcceptCreates, in.CreateError, 0
	ds := in.DaemonSet
	if ds == nil {
		return DaemonSetSync{}, fmt.Errorf("%w: daemonset: nil", errInvalidInput)
	}
	out := DaemonSetSync{Status: ds.Status}
	if sel := ds.Spec.Selector; sel != nil && sel.MatchLabels == nil && sel.MatchExpressions == nil {
		out.Events = append(out.Events, daemonSetEvent(ds, api.EventTypeWarning, DaemonReasonSelectingAll,
			"This daemon set is selecting all pods. A non-empty selector is required."))
		return out, nil
	}
	if ds.DeletionTimestamp != nil {
		return out, nil
	}
	selector, err := api.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		// The revisions' listing fails first.
		out.Err = fmt.Errorf("daemonset %s/%s: spec.selector: %w", ds.Namespace, ds.Name, err)
		return out, nil
	}
	s := &daemonSync{ds: ds, now: now, mem: mem, placer: newDaemonPlacer(ds), out: &out}
	s.gen, s.hasGen = daemonSetTemplateGeneration(ds)
	for _, n := range in.Nodes {
		if n != nil {
			s.nodes = append(s.nodes, n)
			s.place = append(s.place, s.placer.place(n))
		}
	}
	s.claim(selector, in.Pods)
	old, ok, err := s.constructHistory(selector, in.Revisions)
	if err != nil {
		return DaemonSetSync{}, err
	}
	if !ok {
		return out, nil
	}

	updateObservedGen := false
	if !mem.unsatisfied {
		updateObservedGen = true
		mem.ranManage = true
		s.manage()
		mem.creates, mem.deletes = len(out.Create)+mem.terminatingCreates, len(out.Delete)
		if len(out.Create) == 0 && len(out.FailedCreates) == 0 && len(out.Delete) == 0 && mem.terminatingCreates == 0 &&
			ds.Spec.UpdateStrategy.Type == api.RollingUpdateDaemonSetStrategyType {
			if err := s.rollingUpdate(); err != nil {
				out.Err = err
			}
			mem.creates, mem.deletes = len(out.Create)+mem.terminatingCreates, len(out.Delete)
		}
		if out.Err == nil {
			s.cleanupHistory(old)
		}
	}
	s.updateStatus(updateObservedGen)
	out.RequeueAfter = s.requeue
	owner := WorkloadReference("DaemonSet", "apps/v1", &ds.ObjectMeta)
	for _, d := range out.Delete {
		out.Events = append(out.Events, PodDeletedEvent(owner, DaemonSetControllerName, d.Pod.Name))
	}
	return out, nil
}

// claim is getNodesToDaemonPods: claim the namespace's pods and group the
// claimed ones by the node they belong to.
func (s *daemonSync) claim(selector api.Selector, pods []*api.Pod) {
	var inNS []*api.Pod
	for _, p := range pods {
		if p != nil && p.Namespace == s.ds.Namespace {
			inNS = append(inNS, p)
		}
	}
	c := ClaimPods(&s.ds.ObjectMeta, selector, inNS)
	s.out.Adopt, s.out.Release = c.Adopted, c.Released
	s.claimed = c.Claimed
	s.byNode = map[string][]*api.Pod{}
	s.liveHashes = map[string]bool{}
	for _, p := range c.Claimed {
		node, ok := daemonPodTargetNode(p)
		if !ok {
			continue
		}
		// History keeps the revisions of every pod with a node, terminal
		// ones being deleted included.
		if h := p.Labels[api.LabelControllerRevisionHash]; h != "" {
			s.liveHashes[h] = true
		}
		if p.DeletionTimestamp != nil && (p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed) {
			continue // kubelet or pod GC removes it; nothing left to do
		}
		s.byNode[node] = append(s.byNode[node], p)
	}
}

// manage is the controller's manage: the pods each node should gain or
// lose, then the unscheduled pods of vanished nodes.
func (s *daemonSync) manage() {
	var create []string
	var del []DaemonPodDelete
	for i, n := range s.nodes {
		c, d := s.podsShouldBeOnNode(n, s.place[i])
		if c {
			create = append(create, n.Name)
		}
		del = append(del, d...)
	}
	del = append(del, s.unscheduledPodsWithoutNode()...)
	s.syncNodes(create, del)
}

// podsShouldBeOnNode is the controller's per-node decision.
func (s *daemonSync) podsShouldBeOnNode(node *api.Node, pl DaemonPlacement) (create bool, del []DaemonPodDelete) {
	pods, exists := s.byNode[node.Name]
	switch {
	case pl.ShouldRun && !exists:
		return true, nil
	case pl.ShouldContinueRunning:
		var running []*api.Pod
		for _, p := range pods {
			if p.DeletionTimestamp != nil {
				continue
			}
			switch p.Status.Phase {
			case api.PodFailed:
				// The kubelet may keep rejecting the pod: back off per
				// node so that the controller does not hot-loop.
				key := s.backoffKey(node.Name)
				if delay, in := s.mem.inBackoff(key, s.now); in {
					s.requeueAfter(delay)
					continue
				}
				s.mem.nextBackoff(key, s.now)
				s.out.Events = append(s.out.Events, daemonSetEvent(s.ds, api.EventTypeWarning, DaemonReasonFailedDaemonPod,
					fmt.Sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, node.Name)))
				del = append(del, DaemonPodDelete{Pod: p, Node: node.Name, Reason: DaemonDeleteFailed})
			case api.PodSucceeded:
				s.out.Events = append(s.out.Events, daemonSetEvent(s.ds, api.EventTypeNormal, DaemonReasonSucceededDaemonPod,
					fmt.Sprintf("Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, node.Name)))
				del = append(del, DaemonPodDelete{Pod: p, Node: node.Name, Reason: DaemonDeleteSucceeded})
			default:
				running = append(running, p)
			}
		}
		if !daemonSetAllowsSurge(s.ds) {
			if len(running) > 1 {
				sortDaemonPods(running)
				for _, p := range running[1:] {
					del = append(del, DaemonPodDelete{Pod: p, Node: node.Name, Reason: DaemonDeleteExcess})
				}
			}
			return false, del
		}
		if len(running) <= 1 {
			// Surging: a node that should run a pod keeps one that is
			// not being deleted.
			return len(running) == 0 && pl.ShouldRun, del
		}
		// Surging: keep the oldest pod of the current revision and the
		// oldest of older ones; the old one goes once it is not ready or
		// the new one is available.
		sortDaemonPods(running)
		var oldestNew, oldestOld *api.Pod
		for _, p := range running {
			if p.Labels[api.LabelControllerRevisionHash] == s.hash {
				if oldestNew == nil {
					oldestNew = p
					continue
				}
			} else if oldestOld == nil {
				oldestOld = p
				continue
			}
			del = append(del, DaemonPodDelete{Pod: p, Node: node.Name, Reason: DaemonDeleteExcess})
		}
		if oldestNew != nil && oldestOld != nil &&
			(!api.IsPodReady(oldestOld) || api.IsPodAvailable(oldestNew, s.ds.Spec.MinReadySeconds, s.now)) {
			del = append(del, DaemonPodDelete{Pod: oldestOld, Node: node.Name, Reason: DaemonDeleteExcess})
		}
		return false, del
	case exists:
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				del = append(del, DaemonPodDelete{Pod: p, Node: node.Name, Reason: DaemonDeleteNodeIneligible})
			}
		}
	}
	return false, del
}

// backoffKey is failedPodsBackoffKey: per DaemonSet uid, observed
// generation and node.
func (s *daemonSync) backoffKey(node string) string {
	return s.ds.UID + "/" + strconv.FormatInt(s.ds.Status.ObservedGeneration, 10) + "/" + node
}

// unscheduledPodsWithoutNode is getUnscheduledPodsWithoutNode, in node
// name order (upstream walks a map).
func (s *daemonSync) unscheduledPodsWithoutNode() []DaemonPodDelete {
	known := make(map[string]bool, len(s.nodes))
	for _, n := range s.nodes {
		known[n.Name] = true
	}
	var names []string
	for n := range s.byNode {
		if !known[n] {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var del []DaemonPodDelete
	for _, n := range names {
		for _, p := range s.byNode[n] {
			if p.Spec.NodeName == "" {
				del = append(del, DaemonPodDelete{Pod: p, Node: n, Reason: DaemonDeleteNodeGone})
			}
		}
	}
	return del
}

// syncNodes creates the pods for the nodes and deletes the pods, each
// capped at the burst size. The creates go in slow-start batches (1, 2,
// 4, …) that stop at the first batch with a refused create
// (DaemonSetInput.AcceptCreates): its refused creates are FailedCreates,
// the rest are not sent, and the sync fails with the refusal. A refusal
// because the namespace is being deleted is taken for success, as
// upstream's create goroutine returns on it: no error, no Event.
func (s *daemonSync) syncNodes(nodes []string, del []DaemonPodDelete) {
	if len(nodes) > DaemonSetBurstReplicas {
		nodes = nodes[:DaemonSetBurstReplicas]
	}
	if len(del) > DaemonSetBurstReplicas {
		del = del[:DaemonSetBurstReplicas]
	}
	if len(nodes) > 0 {
		tmpl := daemonPodTemplate(s.ds, s.hash)
		for _, n := range nodes {
			pod, err := newDaemonPodFrom(s.ds, &tmpl, n)
			if err != nil {
				s.out.Err = err
				continue
			}
			s.out.Create = append(s.out.Create, DaemonPodCreate{Node: n, Pod: pod})
		}
		s.refuseCreates()
	}
	s.out.Delete = append(s.out.Delete, del...)
}

// refuseCreates applies the API server's answers to the sync's creates:
// the accepted ones stay in Create, the refused ones of the first failing
// slow-start batch move to FailedCreates with an Event each, and the
// creates after that batch are dropped.
func (s *daemonSync) refuseCreates() {
	if s.mem.accept == nil || *s.mem.accept >= len(s.out.Create) {
		return
	}
	accept := max(*s.mem.accept, 0)
	err := s.mem.createErr
	if err == nil {
		err = ErrPodCreateRefused
	}
	all := s.out.Create
	if errors.Is(err, namespace.ErrTerminating) {
		s.out.Create = all[:accept]
		s.mem.terminatingCreates = len(all) - accept
		return
	}
	sent := 0
	for batch := min(len(all), 1); batch > 0; batch = min(2*batch, len(all)-sent) {
		sent += batch
		if sent > accept {
			break
		}
	}
	s.out.Create = all[:accept]
	s.out.FailedCreates = all[accept:sent]
	owner := WorkloadReference("DaemonSet", "apps/v1", &s.ds.ObjectMeta)
	for range s.out.FailedCreates {
		s.out.Events = append(s.out.Events, PodCreateFailedEvent(owner, DaemonSetControllerName, err))
	}
	s.out.Err = err
}

// isPodUpdated is daemon/util IsPodUpdated: the pod carries the current
// revision hash, or the current template generation.
func (s *daemonSync) isPodUpdated(p *api.Pod) bool {
	if s.hash != "" && p.Labels[api.LabelControllerRevisionHash] == s.hash {
		return true
	}
	return s.hasGen && p.Labels[LabelPodTemplateGeneration] == strconv.FormatInt(s.gen, 10)
}

// updateStatus is updateDaemonSetStatus with storeDaemonSetStatus's
// decision whether to write.
func (s *daemonSync) updateStatus(updateObservedGen bool) {
	var desired, current, mis, ready, updated, available int32
	for i, n := range s.nodes {
		pods := s.byNode[n.Name]
		if !s.place[i].ShouldRun {
			if len(pods) > 0 {
				mis++
			}
			continue
		}
		desired++
		if len(pods) == 0 {
			continue
		}
		current++
		p := slices.MinFunc(pods, compareDaemonPods)
		if api.IsPodReady(p) {
			ready++
			if api.IsPodAvailable(p, s.ds.Spec.MinReadySeconds, s.now) {
				available++
			}
		}
		if s.isPodUpdated(p) {
			updated++
		}
	}
	// A last line of defence against clock skew: look again once
	// minReadySeconds have passed, whether or not the status changed.
	if s.ds.Spec.MinReadySeconds > 0 && ready != available {
		s.requeueAfter(time.Duration(s.ds.Spec.MinReadySeconds) * time.Second)
	}
	st := s.ds.Status
	if st.DesiredNumberScheduled == desired && st.CurrentNumberScheduled == current && st.NumberMisscheduled == mis &&
		st.NumberReady == ready && st.UpdatedNumberScheduled == updated && st.NumberAvailable == available &&
		st.NumberUnavailable == desired-available && st.ObservedGeneration >= s.ds.Generation {
		return
	}
	if updateObservedGen {
		st.ObservedGeneration = s.ds.Generation
	}
	st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberMisscheduled = desired, current, mis
	st.NumberReady, st.UpdatedNumberScheduled, st.NumberAvailable = ready, updated, available
	st.NumberUnavailable = desired - available
	s.out.Status, s.out.StatusUpdated = st, true
}

// compareDaemonPods orders a node's daemon pods oldest first
// (podByCreationTimestampAndPhase): bound pods before unbound ones, then
// by creation time, then by name.
func compareDaemonPods(a, b *api.Pod) int {
	if ab, bb := a.Spec.NodeName != "", b.Spec.NodeName != ""; ab != bb {
		if ab {
			return -1
		}
		return 1
	}
	if c := a.CreationTimestamp.Time.Compare(b.CreationTimestamp.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

func sortDaemonPods(pods []*api.Pod) { slices.SortStableFunc(pods, compareDaemonPods) }

// daemonSetEvent is an Event the DaemonSet controller records on ds.
func daemonSetEvent(ds *api.DaemonSet, typ, reason, note string) api.Event {
	return api.Event{Type: typ, Reason: reason, Note: note,
		Regarding: WorkloadReference("DaemonSet", "apps/v1", &ds.ObjectMeta), Source: DaemonSetControllerName}
}
