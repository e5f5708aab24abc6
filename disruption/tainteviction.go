package disruption

import (
	"cmp"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// MessageDeletionByTaintManager is the message of the DisruptionTarget
// condition the taint eviction controller writes before deleting a pod
// (its reason is ReasonDeletionByTaintManager).
const MessageDeletionByTaintManager = "Taint manager: deleting due to NoExecute taint"

// NoExecuteTaints returns the taints with effect NoExecute, in order: the
// only ones the taint eviction controller looks at (getNoExecuteTaints).
// The result is a new slice, empty (not nil) when there are none.
func NoExecuteTaints(taints []api.Taint) []api.Taint {
	out := []api.Taint{}
	for i := range taints {
		if taints[i].Effect == api.TaintEffectNoExecute {
			out = append(out, taints[i])
		}
	}
	return out
}

// NoExecuteOutcome is what the NoExecute taints of a node mean for one pod
// on it.
type NoExecuteOutcome uint8

// The outcomes of EvaluateNoExecute.
const (
	// NoExecuteNoTaints: the node has no NoExecute taint; any pending
	// eviction of the pod is cancelled.
	NoExecuteNoTaints NoExecuteOutcome = iota
	// NoExecuteUntolerated: some taint is tolerated by no toleration; the
	// pod is deleted at once, replacing any pending eviction.
	NoExecuteUntolerated
	// NoExecuteDeadline: every taint is tolerated and some used toleration
	// bounds it; the pod is deleted After the evaluation (0 = at once),
	// unless an eviction is already pending (see TaintEviction).
	NoExecuteDeadline
	// NoExecuteForever: every taint is tolerated without a time limit; any
	// pending eviction is cancelled.
	NoExecuteForever
)

// String names the outcome.
func (o NoExecuteOutcome) String() string {
	switch o {
	case NoExecuteNoTaints:
		return "NoTaints"
	case NoExecuteUntolerated:
		return "Untolerated"
	case NoExecuteDeadline:
		return "Deadline"
	case NoExecuteForever:
		return "Forever"
	}
	return "NoExecuteOutcome(?)"
}

// NoExecuteDecision is the taint eviction controller's judgement of one
// pod's tolerations against its node's NoExecute taints.
type NoExecuteDecision struct {
	Outcome NoExecuteOutcome
	// After is how long after the evaluation the pod is deleted, for
	// NoExecuteDeadline: the smallest tolerationSeconds among the used
	// tolerations, 0 when any of them is ≤ 0.
	After time.Duration
	// Untolerated points at the first taint (in the taints given) that no
	// toleration tolerates, for NoExecuteUntolerated.
	Untolerated *api.Taint
	// Decisive points at the used toleration that set After (the first one
	// reaching the minimum), for NoExecuteDeadline.
	Decisive *api.Toleration
}

// EvaluateNoExecute judges tolerations against NoExecute taints as the taint
// eviction controller does (pkg/controller/tainteviction processPodOnNode
// with GetMatchingTolerations and getMinTolerationTime). Taints of other
// effects in taints are skipped. For each taint only the FIRST toleration in
// list order that tolerates it (api.Toleration.ToleratesTaint) is used, so an
// earlier toleration without tolerationSeconds makes a later, bounded one of
// the same taint moot. If some taint has no such toleration the pod is
// evicted now; otherwise the minimum tolerationSeconds over the used
// tolerations decides, any used value ≤ 0 meaning now and none at all
// meaning forever.
//
// It allocates nothing; the pointers in the result point into the inputs.
func EvaluateNoExecute(taints []api.Taint, tolerations []api.Toleration) NoExecuteDecision {
	tainted := false
	var decisive *api.Toleration
	var minSeconds int64
	for i := range taints {
		taint := &taints[i]
		if taint.Effect != api.TaintEffectNoExecute {
			continue
		}
		tainted = true
		used := firstTolerating(tolerations, taint)
		if used == nil {
			return NoExecuteDecision{Outcome: NoExecuteUntolerated, Untolerated: taint}
		}
		if used.TolerationSeconds == nil {
			continue
		}
		s := max(*used.TolerationSeconds, 0)
		if decisive == nil || s < minSeconds {
			decisive, minSeconds = used, s
		}
	}
	switch {
	case !tainted:
		return NoExecuteDecision{Outcome: NoExecuteNoTaints}
	case decisive == nil:
		return NoExecuteDecision{Outcome: NoExecuteForever}
	}
	return NoExecuteDecision{Outcome: NoExecuteDeadline, After: secondsDuration(minSeconds), Decisive: decisive}
}

// firstTolerating returns the first toleration that tolerates taint, or nil.
func firstTolerating(tolerations []api.Toleration, taint *api.Taint) *api.Toleration {
	for j := range tolerations {
		if tolerations[j].ToleratesTaint(taint) {
			return &tolerations[j]
		}
	}
	return nil
}

// secondsDuration converts whole seconds to a Duration, saturating instead
// of wrapping for values beyond about 292 years.
func secondsDuration(s int64) time.Duration {
	const maxSeconds = int64(1<<63-1) / int64(time.Second)
	if s > maxSeconds {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(s) * time.Second
}

// TaintEvictionActionKind says what the taint eviction controller asks for.
type TaintEvictionActionKind uint8

// The actions of TaintEviction.
const (
	// ScheduleEviction: the pod is to be deleted At (a timer is set).
	ScheduleEviction TaintEvictionActionKind = iota + 1
	// CancelEviction: a pending eviction of the pod is called off (upstream
	// records a "Cancelling deletion" event).
	CancelEviction
	// EvictPod: delete the pod now. DisruptionTarget, when set, is first
	// written to the pod's status (a status patch); then the pod is deleted
	// with a plain DELETE without options, so the pod's own
	// terminationGracePeriodSeconds applies — also for a pod already
	// terminating.
	EvictPod
)

// String names the action kind.
func (k TaintEvictionActionKind) String() string {
	switch k {
	case ScheduleEviction:
		return "ScheduleEviction"
	case CancelEviction:
		return "CancelEviction"
	case EvictPod:
		return "EvictPod"
	}
	return "TaintEvictionActionKind(?)"
}

// TaintEvictionAction is one thing the controller asks its caller to do.
type TaintEvictionAction struct {
	Kind TaintEvictionActionKind
	// Pod is "namespace/name".
	Pod string
	// Node is the node the pod is bound to, as the controller last saw it.
	Node string
	// At is when the eviction fires (ScheduleEviction) or fired (EvictPod).
	At time.Time
	// DisruptionTarget is the condition written before an EvictPod delete
	// (status True, reason DeletionByTaintManager, observedGeneration =
	// metadata.generation), nil when the pod already carries an equal one
	// and no patch is sent.
	DisruptionTarget *api.PodCondition
}

// pendingEviction is one armed timer: created when first scheduled, firing
// at fireAt.
type pendingEviction struct {
	createdAt, fireAt time.Time
}

// TaintEviction is the NoExecute taint eviction controller of
// kube-controller-manager (pkg/controller/tainteviction) as a pure state
// machine. It keeps what the upstream controller keeps: the NoExecute
// taints of each tainted node, the pods it has seen (as its informer
// does) and the pending evictions, each with the time it was first
// scheduled.
//
// Feed it node and pod events with the time the controller processes them;
// each call first fires the evictions due at or before that time (so an
// eviction due at the same instant as an event fires before the event is
// handled), then handles the event, and returns the actions in order. Tick
// only fires due evictions; NextEviction says when to tick next.
//
// The rules it keeps, upstream's, not the documentation's:
//   - A deadline counts from when the controller processes the node or pod
//     event, never from the taint's timeAdded: an old taint still gives the
//     full tolerationSeconds.
//   - Once an eviction is pending, a later evaluation that still yields a
//     deadline (0 s included) keeps it unchanged, neither earlier nor
//     later; only an untolerated taint (delete now), tolerating forever or
//     the removal of every NoExecute taint (cancel) changes it. (At the same
//     instant as the first scheduling, the new deadline replaces it.)
//   - A node event is acted on only if its list of NoExecute taints
//     changed (field by field, timeAdded included), a pod event only if
//     its tolerations or node changed; a pod event while its node has no
//     NoExecute taint does nothing.
//   - When an eviction fires, the DisruptionTarget condition is patched
//     unless an equal one (status, reason, message, no lastProbeTime) is
//     there — observedGeneration is not compared — and the pod is deleted.
//
// Objects passed in are kept as the controller's cache, like informer
// objects: pass a new object for a change, never modify one in place.
// The zero value is not ready; use NewTaintEviction. A TaintEviction is not
// safe for concurrent use.
type TaintEviction struct {
	taints  map[string][]api.Taint         // node → its NoExecute taints (tainted nodes only)
	pods    map[string]*api.Pod            // pod key → last seen pod
	onNode  map[string]map[string]struct{} // node → keys of the pods bound to it
	pending map[string]pendingEviction     // pod key → armed eviction
	// earliest is no later than every pending fireAt (it may be stale
	// after a cancel), so that fire scans the pending set only when
	// something may be due.
	earliest time.Time
}

// NewTaintEviction returns a controller that has seen nothing yet.
func NewTaintEviction() *TaintEviction {
	return &TaintEviction{
		taints:  map[string][]api.Taint{},
		pods:    map[string]*api.Pod{},
		onNode:  map[string]map[string]struct{}{},
		pending: map[string]pendingEviction{},
	}
}

// NodeUpdated handles the add or update of node at now: when its NoExecute
// taints changed, every pod bound to it is re-evaluated (or, with no
// NoExecute taint left, every pending eviction of those pods cancelled).
// A nil node does nothing beyond firing due evictions.
func (c *TaintEviction) NodeUpdated(node *api.Node, now time.Time) []TaintEvictionAction {
	acts := c.fire(nil, now)
	if node == nil {
		return acts
	}
	newTaints := NoExecuteTaints(node.Spec.Taints)
	if old, ok := c.taints[node.Name]; ok && sameTaints(old, newTaints) || !ok && len(newTaints) == 0 {
		// Unchanged: an untainted node that stays untainted also means no
		// pending eviction here, except after a missed cancel, which the
		// upstream controller would not repair either.
		return acts
	}
	if len(newTaints) == 0 {
		delete(c.taints, node.Name)
		for _, key := range c.podKeysOn(node.Name) {
			acts = c.cancel(acts, key)
		}
		return acts
	}
	c.taints[node.Name] = newTaints
	for _, key := range c.podKeysOn(node.Name) {
		acts = c.process(acts, c.pods[key], newTaints, now)
	}
	return acts
}

// NodeDeleted handles the deletion of the node named name: its taints are
// forgotten; pending evictions of its pods stay (as upstream, which leaves
// them to fire).
func (c *TaintEviction) NodeDeleted(name string, now time.Time) []TaintEvictionAction {
	acts := c.fire(nil, now)
	delete(c.taints, name)
	return acts
}

// PodUpdated handles the add or update of pod at now: when it is new, or its
// tolerations or node changed, and its node has NoExecute taints, the pod is
// evaluated. A nil pod does nothing beyond firing due evictions.
func (c *TaintEviction) PodUpdated(pod *api.Pod, now time.Time) []TaintEvictionAction {
	acts := c.fire(nil, now)
	if pod == nil {
		return acts
	}
	key := pod.Key()
	old := c.pods[key]
	c.track(key, old, pod)
	if old != nil && old.Spec.NodeName == pod.Spec.NodeName && sameTolerations(old.Spec.Tolerations, pod.Spec.Tolerations) {
		return acts
	}
	if pod.Spec.NodeName == "" {
		return acts
	}
	taints, ok := c.taints[pod.Spec.NodeName]
	if !ok {
		return acts
	}
	return c.process(acts, pod, taints, now)
}

// PodDeleted handles the deletion of the pod namespace/name: its pending
// eviction, if any, is cancelled.
func (c *TaintEviction) PodDeleted(namespace, name string, now time.Time) []TaintEvictionAction {
	acts := c.fire(nil, now)
	key := namespace + "/" + name
	if old := c.pods[key]; old != nil {
		c.track(key, old, nil)
	}
	return c.cancel(acts, key)
}

// Tick lets time pass to now: the evictions due by then fire, earliest
// first (ties by pod key).
func (c *TaintEviction) Tick(now time.Time) []TaintEvictionAction {
	return c.fire(nil, now)
}

// NextEviction returns the earliest pending eviction time, or false when
// none is pending.
func (c *TaintEviction) NextEviction() (time.Time, bool) {
	var next time.Time
	found := false
	for _, p := range c.pending {
		if !found || p.fireAt.Before(next) {
			next, found = p.fireAt, true
		}
	}
	return next, found
}

// Pending returns when the eviction of pod namespace/name fires, or false
// when none is pending.
func (c *TaintEviction) Pending(namespace, name string) (time.Time, bool) {
	p, ok := c.pending[namespace+"/"+name]
	return p.fireAt, ok
}

// track keeps the pod cache and the node index in step.
func (c *TaintEviction) track(key string, old, pod *api.Pod) {
	if old != nil && (pod == nil || old.Spec.NodeName != pod.Spec.NodeName) {
		if set := c.onNode[old.Spec.NodeName]; set != nil {
			delete(set, key)
			if len(set) == 0 {
				delete(c.onNode, old.Spec.NodeName)
			}
		}
	}
	if pod == nil {
		delete(c.pods, key)
		return
	}
	c.pods[key] = pod
	if pod.Spec.NodeName != "" {
		set := c.onNode[pod.Spec.NodeName]
		if set == nil {
			set = map[string]struct{}{}
			c.onNode[pod.Spec.NodeName] = set
		}
		set[key] = struct{}{}
	}
}

// podKeysOn returns the keys of the pods bound to node, sorted so that the
// actions come in a stable order (upstream walks its index in map order).
func (c *TaintEviction) podKeysOn(node string) []string {
	set := c.onNode[node]
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// process is processPodOnNode: it judges pod against taints at now.
func (c *TaintEviction) process(acts []TaintEvictionAction, pod *api.Pod, taints []api.Taint, now time.Time) []TaintEvictionAction {
	key := pod.Key()
	d := EvaluateNoExecute(taints, pod.Spec.Tolerations)
	switch d.Outcome {
	case NoExecuteNoTaints, NoExecuteForever:
		return c.cancel(acts, key)
	case NoExecuteUntolerated:
		acts = c.cancel(acts, key)
		return c.schedule(acts, pod, now, now)
	}
	createdAt, fireAt := now, now.Add(d.After)
	if p, ok := c.pending[key]; ok {
		// A pending eviction first scheduled earlier stays as it is; only
		// one scheduled at this very instant is replaced.
		if p.createdAt.Add(d.After).Before(fireAt) {
			return acts
		}
		createdAt = p.createdAt
		acts = c.cancel(acts, key)
	}
	return c.schedule(acts, pod, createdAt, fireAt)
}

// schedule arms an eviction, firing it at once when it is already due.
func (c *TaintEviction) schedule(acts []TaintEvictionAction, pod *api.Pod, createdAt, fireAt time.Time) []TaintEvictionAction {
	key := pod.Key()
	if _, ok := c.pending[key]; ok {
		return acts
	}
	if !fireAt.After(createdAt) {
		return append(acts, c.evict(pod, fireAt))
	}
	c.pending[key] = pendingEviction{createdAt: createdAt, fireAt: fireAt}
	if len(c.pending) == 1 || fireAt.Before(c.earliest) {
		c.earliest = fireAt
	}
	return append(acts, TaintEvictionAction{Kind: ScheduleEviction, Pod: key, Node: pod.Spec.NodeName, At: fireAt})
}

func (c *TaintEviction) cancel(acts []TaintEvictionAction, key string) []TaintEvictionAction {
	if _, ok := c.pending[key]; !ok {
		return acts
	}
	delete(c.pending, key)
	node := ""
	if p := c.pods[key]; p != nil {
		node = p.Spec.NodeName
	}
	return append(acts, TaintEvictionAction{Kind: CancelEviction, Pod: key, Node: node})
}

// fire runs every eviction due at or before now, earliest first.
func (c *TaintEviction) fire(acts []TaintEvictionAction, now time.Time) []TaintEvictionAction {
	type due struct {
		key string
		at  time.Time
	}
	if len(c.pending) == 0 || now.Before(c.earliest) {
		return acts
	}
	var ready []due
	var next time.Time
	for k, p := range c.pending {
		if !p.fireAt.After(now) {
			ready = append(ready, due{k, p.fireAt})
		} else if next.IsZero() || p.fireAt.Before(next) {
			next = p.fireAt
		}
	}
	c.earliest = next
	slices.SortFunc(ready, func(a, b due) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	for _, r := range ready {
		delete(c.pending, r.key)
		if pod := c.pods[r.key]; pod != nil {
			acts = append(acts, c.evict(pod, r.at))
		}
	}
	return acts
}

// evict is addConditionAndDeletePod on the pod as last seen.
func (c *TaintEviction) evict(pod *api.Pod, at time.Time) TaintEvictionAction {
	return TaintEvictionAction{Kind: EvictPod, Pod: pod.Key(), Node: pod.Spec.NodeName, At: at, DisruptionTarget: TaintEvictionCondition(pod, at)}
}

// TaintEvictionCondition returns the DisruptionTarget condition the taint
// eviction controller writes on pod when it evicts it at now (status True,
// reason DeletionByTaintManager, observedGeneration = metadata.generation),
// or nil when the pod already has one that the API helper
// (pkg/api/v1/pod UpdatePodCondition) counts as equal — same status,
// reason and message and no lastProbeTime — in which case no status patch
// is sent. The lastTransitionTime is kept from an existing condition of the
// same status, else now. A nil pod gives nil.
func TaintEvictionCondition(pod *api.Pod, now time.Time) *api.PodCondition {
	if pod == nil {
		return nil
	}
	c := api.PodCondition{
		Type:               api.DisruptionTarget,
		Status:             api.ConditionTrue,
		Reason:             ReasonDeletionByTaintManager,
		Message:            MessageDeletionByTaintManager,
		ObservedGeneration: pod.Generation,
		LastTransitionTime: api.NewTime(now),
	}
	if old := api.FindCondition(pod.Status.Conditions, api.DisruptionTarget); old != nil && old.Status == c.Status {
		if old.Reason == c.Reason && old.Message == c.Message && old.LastProbeTime.IsZero() {
			return nil
		}
		c.LastTransitionTime = old.LastTransitionTime
	}
	return &c
}

// sameTaints compares two taint lists field by field, timeAdded by instant.
func sameTaints(a, b []api.Taint) bool {
	return slices.EqualFunc(a, b, func(x, y api.Taint) bool {
		return x.Key == y.Key && x.Value == y.Value && x.Effect == y.Effect && sameTimePtr(x.TimeAdded, y.TimeAdded)
	})
}

func sameTimePtr(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b.Time)
}

// sameTolerations is the semantic equality of the API helpers: nil and
// empty lists are equal, tolerationSeconds compared by value.
func sameTolerations(a, b []api.Toleration) bool {
	return slices.EqualFunc(a, b, func(x, y api.Toleration) bool {
		if x.Key != y.Key || x.Operator != y.Operator || x.Value != y.Value || x.Effect != y.Effect {
			return false
		}
		if x.TolerationSeconds == nil || y.TolerationSeconds == nil {
			return x.TolerationSeconds == nil && y.TolerationSeconds == nil
		}
		return *x.TolerationSeconds == *y.TolerationSeconds
	})
}
