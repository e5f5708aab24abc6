package nodelifecycle

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// MessageDeletionByTaintManager is the message of the DisruptionTarget
// condition the taint eviction controller writes before deleting a pod
// (its reason is api.PodReasonDeletionByTaintManager).
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
	// CancelEviction: a pending eviction of the pod is called off (with
	// its TaintManagerEviction event "Cancelling deletion of Pod ...").
	CancelEviction
	// EvictPod: delete the pod now. DisruptionTarget, when set, is first
	// written to the pod's status (a status patch); then the pod is deleted
	// with a plain DELETE without options, so the pod's own
	// terminationGracePeriodSeconds applies — also for a pod already
	// terminating. Its TaintManagerEviction event "Marking for deletion
	// Pod ..." is recorded first.
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
	// Event is the Event the controller records with the action
	// (TaintEvictionEvent): for EvictPod and CancelEviction; nil for
	// ScheduleEviction, which records none.
	Event *api.Event
}

// TaintEvictionSource is the component name the taint eviction
// controller records its events under: its controller name in
// kube-controller-manager (also when the node lifecycle controller runs
// it).
const TaintEvictionSource = "taint-eviction-controller"

// ReasonTaintManagerEviction is the reason of the events the taint
// eviction controller records.
const ReasonTaintManagerEviction = "TaintManagerEviction"

// TaintEvictionEvent returns the Normal TaintManagerEviction event the taint
// eviction controller records about the pod namespace/name for an action
// kind, as pkg/controller/tainteviction does: "Marking for deletion Pod
// <namespace>/<name>" when the deletion fires (before its status patch
// and DELETE, whether or not they succeed), "Cancelling deletion of Pod
// <namespace>/<name>" when a pending deletion is called off — only one
// that was still waiting: a deletion due at once never is. The event
// regards the pod by kind, apiVersion, namespace and name alone (no UID),
// as the controller names it. ScheduleEviction records nothing: ok is
// false.
func TaintEvictionEvent(kind TaintEvictionActionKind, namespace, name string) (e api.Event, ok bool) {
	var note string
	switch kind {
	case EvictPod:
		note = "Marking for deletion Pod "
	case CancelEviction:
		note = "Cancelling deletion of Pod "
	default:
		return api.Event{}, false
	}
	return api.Event{
		Type:      api.EventTypeNormal,
		Reason:    ReasonTaintManagerEviction,
		Note:      note + namespace + "/" + name,
		Regarding: api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: namespace, Name: name},
		Source:    TaintEvictionSource,
	}, true
}

// eventFor is the action's event for the pod keyed "namespace/name".
func eventFor(kind TaintEvictionActionKind, key string) *api.Event {
	ns, name, _ := strings.Cut(key, "/")
	e, ok := TaintEvictionEvent(kind, ns, name)
	if !ok {
		return nil
	}
	return &e
}

// podState is what the controller keeps per pod: the object as last seen
// and its pending eviction, if any.
type podState struct {
	key     string
	pod     *api.Pod
	pending bool
	// createdAt is when the pending eviction was first scheduled, fireAt
	// when it fires; seq tells a live timer from a stale one.
	createdAt, fireAt time.Time
	seq               uint64
}

// timer is one entry of the eviction queue; it is stale once its pod's
// seq moved on (cancelled or replaced).
type timer struct {
	fireAt time.Time
	key    string
	st     *podState
	seq    uint64
}

func (t timer) live() bool { return t.st.pending && t.st.seq == t.seq }

func timerBefore(a, b timer) bool {
	if c := a.fireAt.Compare(b.fireAt); c != 0 {
		return c < 0
	}
	return a.key < b.key
}

// EventKind says what happened, for TaintEviction.
type EventKind uint8

// The events of the taint eviction controller: its node and pod
// informers' adds, updates and deletes, and the tick.
const (
	// EventTick: time passed; evictions due by now fire.
	EventTick EventKind = iota
	// EventNodeUpdated: a node was added or updated (Node).
	EventNodeUpdated
	// EventNodeDeleted: the node named NodeName was deleted.
	EventNodeDeleted
	// EventPodUpdated: a pod was added or updated (Pod).
	EventPodUpdated
	// EventPodDeleted: the pod Namespace/Name was deleted.
	EventPodDeleted
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case EventTick:
		return "Tick"
	case EventNodeUpdated:
		return "NodeUpdated"
	case EventNodeDeleted:
		return "NodeDeleted"
	case EventPodUpdated:
		return "PodUpdated"
	case EventPodDeleted:
		return "PodDeleted"
	}
	return "EventKind(?)"
}

// Event is one input of TaintEviction: what its informers saw, or the
// tick. Make one with NodeUpdated, NodeDeleted, PodUpdated, PodDeleted or
// Tick; the fields a kind does not use are ignored.
type Event struct {
	Kind EventKind
	// Node is the added or updated node (EventNodeUpdated).
	Node *api.Node
	// NodeName names the deleted node (EventNodeDeleted).
	NodeName string
	// Pod is the added or updated pod (EventPodUpdated).
	Pod *api.Pod
	// Namespace and Name name the deleted pod (EventPodDeleted).
	Namespace, Name string
}

// NodeUpdated is the add or update of node.
func NodeUpdated(node *api.Node) Event { return Event{Kind: EventNodeUpdated, Node: node} }

// NodeDeleted is the deletion of the node named name.
func NodeDeleted(name string) Event { return Event{Kind: EventNodeDeleted, NodeName: name} }

// PodUpdated is the add or update of pod.
func PodUpdated(pod *api.Pod) Event { return Event{Kind: EventPodUpdated, Pod: pod} }

// PodDeleted is the deletion of the pod namespace/name.
func PodDeleted(namespace, name string) Event {
	return Event{Kind: EventPodDeleted, Namespace: namespace, Name: name}
}

// Tick is the event that only lets time pass.
func Tick() Event { return Event{Kind: EventTick} }

// TaintEviction is the NoExecute taint eviction controller of
// kube-controller-manager (pkg/controller/tainteviction) as a pure state
// machine. It keeps what the upstream controller keeps: the NoExecute
// taints of each tainted node, the pods it has seen (as its informer
// does) and the pending evictions, each with the time it was first
// scheduled.
//
// Step feeds it one event with the time the controller processes it: it
// first fires the evictions due at or before that time (so an eviction due
// at the same instant as an event fires before the event is handled), then
// handles the event, and returns the actions in order. NextDeadline says
// when the next eviction is due, when a Tick must come.
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
//   - When a node is deleted its taints are forgotten, but the pending
//     evictions of its pods stay and fire; when a pod is deleted its
//     pending eviction is cancelled.
//   - When an eviction fires, the DisruptionTarget condition is patched
//     unless an equal one (status, reason, message, no lastProbeTime) is
//     there — observedGeneration is not compared — and the pod is deleted.
//
// Objects passed in are kept as the controller's cache, like informer
// objects: pass a new object for a change, never modify one in place.
// The zero value is ready to use, like NewTaintEviction's. A TaintEviction
// is not safe for concurrent use.
type TaintEviction struct {
	taints map[string][]api.Taint // node → its NoExecute taints (tainted nodes only)
	pods   map[podName]*podState  // pod → state
	onNode map[string][]*podState // node → the pods bound to it, sorted by key
	// queue is a min-heap of timers by (fireAt, key), stale ones included
	// until they reach the top or the heap is compacted.
	queue   []timer
	pending int
}

// podName is a pod's namespace and name: the key of the controller's pod
// states, looked up at every pod event without building a string.
type podName struct{ namespace, name string }

// NewTaintEviction returns a controller that has seen nothing yet.
func NewTaintEviction() *TaintEviction {
	return &TaintEviction{
		taints: map[string][]api.Taint{},
		pods:   map[podName]*podState{},
		onNode: map[string][]*podState{},
	}
}

// Step fires the evictions due before now (earliest first, ties by pod
// key), handles ev, then fires those due at now that ev left pending, and
// returns the actions in order. An event at the very instant an eviction
// falls due comes first: upstream's timer and the informer's handler race
// there, and in a cluster the event is usually the earlier (an eviction's
// deadline counts from an event that itself trailed its cause; a real run
// removed a taint at the instant a replacement pod's toleration ran out,
// and the removal cancelled the eviction). What ev does:
//   - NodeUpdated: when the node's NoExecute taints changed, every pod
//     bound to it is re-evaluated (or, with no NoExecute taint left, every
//     pending eviction of those pods cancelled);
//   - NodeDeleted: the node's taints are forgotten; pending evictions of
//     its pods stay (as upstream, which leaves them to fire);
//   - PodUpdated: when the pod is new, or its tolerations or node
//     changed, and its node has NoExecute taints, the pod is evaluated;
//   - PodDeleted: its pending eviction, if any, is cancelled;
//   - Tick: nothing more.
//
// A nil machine, an EventNodeUpdated without a node, an EventPodUpdated
// without a pod or an unknown kind is an error naming it, and nothing
// changes (no eviction fires either).
func (c *TaintEviction) Step(ev Event, now time.Time) ([]TaintEvictionAction, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: taint eviction: nil", errInvalidInput)
	}
	switch {
	case ev.Kind == EventNodeUpdated && ev.Node == nil:
		return nil, fmt.Errorf("%w: node: nil", errInvalidInput)
	case ev.Kind == EventPodUpdated && ev.Pod == nil:
		return nil, fmt.Errorf("%w: pod: nil", errInvalidInput)
	case ev.Kind > EventPodDeleted:
		return nil, fmt.Errorf("%w: event kind %d", errInvalidInput, ev.Kind)
	}
	c.init()
	acts := c.fire(nil, now.Add(-time.Nanosecond)) // due before now
	switch ev.Kind {
	case EventNodeUpdated:
		acts = c.nodeUpdated(acts, ev.Node, now)
	case EventNodeDeleted:
		delete(c.taints, ev.NodeName)
	case EventPodUpdated:
		acts = c.podUpdated(acts, ev.Pod, now)
	case EventPodDeleted:
		acts = c.podDeleted(acts, podName{ev.Namespace, ev.Name})
	}
	return c.fire(acts, now), nil
}

func (c *TaintEviction) nodeUpdated(acts []TaintEvictionAction, node *api.Node, now time.Time) []TaintEvictionAction {
	newTaints := NoExecuteTaints(node.Spec.Taints)
	if old, ok := c.taints[node.Name]; ok && api.TaintsEqual(old, newTaints) || !ok && len(newTaints) == 0 {
		// Unchanged: an untainted node that stays untainted also means no
		// pending eviction here, except after a missed cancel, which the
		// upstream controller would not repair either.
		return acts
	}
	if len(newTaints) == 0 {
		delete(c.taints, node.Name)
		for _, st := range c.onNode[node.Name] {
			acts = c.cancel(acts, st)
		}
		return acts
	}
	c.taints[node.Name] = newTaints
	bound := c.onNode[node.Name]
	acts = slices.Grow(acts, len(bound))
	for _, st := range bound {
		acts = c.process(acts, st, newTaints, now)
	}
	return acts
}

func (c *TaintEviction) podUpdated(acts []TaintEvictionAction, pod *api.Pod, now time.Time) []TaintEvictionAction {
	name := podName{pod.Namespace, pod.Name}
	st := c.pods[name]
	var old *api.Pod
	if st == nil {
		st = &podState{key: pod.Key()}
		c.pods[name] = st
	} else {
		old = st.pod
	}
	c.bind(st, old, pod)
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
	return c.process(acts, st, taints, now)
}

func (c *TaintEviction) podDeleted(acts []TaintEvictionAction, key podName) []TaintEvictionAction {
	st := c.pods[key]
	if st == nil {
		return acts
	}
	acts = c.cancel(acts, st)
	c.bind(st, st.pod, nil)
	delete(c.pods, key)
	return acts
}

// NextDeadline returns the earliest pending eviction time, when a Tick
// must come; the zero time when none is pending, and for a nil
// TaintEviction.
func (c *TaintEviction) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	c.dropStale()
	if len(c.queue) == 0 {
		return time.Time{}
	}
	return c.queue[0].fireAt
}

// Pending returns when the eviction of pod namespace/name fires, or false
// when none is pending.
func (c *TaintEviction) Pending(namespace, name string) (time.Time, bool) {
	if c == nil {
		return time.Time{}, false
	}
	st := c.pods[podName{namespace, name}]
	if st == nil || !st.pending {
		return time.Time{}, false
	}
	return st.fireAt, true
}

// init makes the zero value usable.
func (c *TaintEviction) init() {
	if c.pods == nil {
		*c = *NewTaintEviction()
	}
}

// bind keeps the pod object and the node index in step. The index holds
// each node's pods sorted by key, so that actions come in a stable order
// (upstream walks its index in map order).
func (c *TaintEviction) bind(st *podState, old, pod *api.Pod) {
	st.pod = pod
	if old != nil && (pod == nil || old.Spec.NodeName != pod.Spec.NodeName) {
		bound := c.onNode[old.Spec.NodeName]
		if i, ok := slices.BinarySearchFunc(bound, st.key, compareBound); ok {
			bound = slices.Delete(bound, i, i+1)
		}
		if len(bound) == 0 {
			delete(c.onNode, old.Spec.NodeName)
		} else {
			c.onNode[old.Spec.NodeName] = bound
		}
	}
	if pod != nil && pod.Spec.NodeName != "" {
		bound := c.onNode[pod.Spec.NodeName]
		if i, ok := slices.BinarySearchFunc(bound, st.key, compareBound); !ok {
			c.onNode[pod.Spec.NodeName] = slices.Insert(bound, i, st)
		}
	}
}

func compareBound(st *podState, key string) int { return cmp.Compare(st.key, key) }

// process is processPodOnNode: it judges the pod against taints at now.
func (c *TaintEviction) process(acts []TaintEvictionAction, st *podState, taints []api.Taint, now time.Time) []TaintEvictionAction {
	d := EvaluateNoExecute(taints, st.pod.Spec.Tolerations)
	switch d.Outcome {
	case NoExecuteNoTaints, NoExecuteForever:
		return c.cancel(acts, st)
	case NoExecuteUntolerated:
		acts = c.cancel(acts, st)
		return c.schedule(acts, st, now, now)
	}
	createdAt, fireAt := now, now.Add(d.After)
	if st.pending {
		// A pending eviction first scheduled earlier stays as it is; only
		// one scheduled at this very instant is replaced.
		if st.createdAt.Add(d.After).Before(fireAt) {
			return acts
		}
		createdAt = st.createdAt
		acts = c.cancel(acts, st)
	}
	return c.schedule(acts, st, createdAt, fireAt)
}

// schedule arms an eviction, firing it at once when it is already due.
func (c *TaintEviction) schedule(acts []TaintEvictionAction, st *podState, createdAt, fireAt time.Time) []TaintEvictionAction {
	if st.pending {
		return acts
	}
	if !fireAt.After(createdAt) {
		return append(acts, c.evict(st, fireAt))
	}
	st.pending, st.createdAt, st.fireAt = true, createdAt, fireAt
	st.seq++
	c.pending++
	c.push(timer{fireAt: fireAt, key: st.key, st: st, seq: st.seq})
	return append(acts, TaintEvictionAction{Kind: ScheduleEviction, Pod: st.key, Node: st.pod.Spec.NodeName, At: fireAt})
}

func (c *TaintEviction) cancel(acts []TaintEvictionAction, st *podState) []TaintEvictionAction {
	if !st.pending {
		return acts
	}
	c.disarm(st)
	node := ""
	if st.pod != nil {
		node = st.pod.Spec.NodeName
	}
	return append(acts, TaintEvictionAction{Kind: CancelEviction, Pod: st.key, Node: node, Event: eventFor(CancelEviction, st.key)})
}

// disarm clears a pending eviction; its timer goes stale.
func (c *TaintEviction) disarm(st *podState) {
	st.pending = false
	st.seq++
	c.pending--
	if len(c.queue) > 64 && len(c.queue) > 4*c.pending {
		c.compact()
	}
}

// fire runs every eviction due at or before now, earliest first.
func (c *TaintEviction) fire(acts []TaintEvictionAction, now time.Time) []TaintEvictionAction {
	for {
		c.dropStale()
		if len(c.queue) == 0 || c.queue[0].fireAt.After(now) {
			return acts
		}
		t := c.pop()
		c.disarm(t.st)
		if t.st.pod != nil {
			acts = append(acts, c.evict(t.st, t.fireAt))
		}
	}
}

// evict is addConditionAndDeletePod on the pod as last seen.
func (c *TaintEviction) evict(st *podState, at time.Time) TaintEvictionAction {
	return TaintEvictionAction{Kind: EvictPod, Pod: st.key, Node: st.pod.Spec.NodeName, At: at,
		DisruptionTarget: TaintEvictionCondition(st.pod, at), Event: eventFor(EvictPod, st.key)}
}

// The timer heap.

func (c *TaintEviction) push(t timer) {
	c.queue = append(c.queue, t)
	i := len(c.queue) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !timerBefore(c.queue[i], c.queue[p]) {
			break
		}
		c.queue[i], c.queue[p] = c.queue[p], c.queue[i]
		i = p
	}
}

func (c *TaintEviction) pop() timer {
	top := c.queue[0]
	last := len(c.queue) - 1
	c.queue[0] = c.queue[last]
	c.queue[last] = timer{}
	c.queue = c.queue[:last]
	c.down(0)
	return top
}

func (c *TaintEviction) down(i int) {
	n := len(c.queue)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && timerBefore(c.queue[r], c.queue[l]) {
			m = r
		}
		if !timerBefore(c.queue[m], c.queue[i]) {
			return
		}
		c.queue[i], c.queue[m] = c.queue[m], c.queue[i]
		i = m
	}
}

func (c *TaintEviction) dropStale() {
	for len(c.queue) > 0 && !c.queue[0].live() {
		c.pop()
	}
}

// compact rebuilds the heap from its live timers.
func (c *TaintEviction) compact() {
	live := c.queue[:0]
	for _, t := range c.queue {
		if t.live() {
			live = append(live, t)
		}
	}
	clear(c.queue[len(live):])
	c.queue = live
	for i := len(c.queue)/2 - 1; i >= 0; i-- {
		c.down(i)
	}
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
	return updatedCondition(pod, api.PodCondition{
		Type:               api.DisruptionTarget,
		Status:             api.ConditionTrue,
		Reason:             api.PodReasonDeletionByTaintManager,
		Message:            MessageDeletionByTaintManager,
		ObservedGeneration: pod.Generation,
	}, now)
}

// updatedCondition is c as api.UpdatePodCondition would write it over the
// pod's condition of its type, or nil when that is no change.
func updatedCondition(pod *api.Pod, c api.PodCondition, now time.Time) *api.PodCondition {
	var st api.PodStatus
	if old := api.FindCondition(pod.Status.Conditions, c.Type); old != nil {
		st.Conditions = []api.PodCondition{*old}
	}
	if !api.UpdatePodCondition(&st, c, now) {
		return nil
	}
	return &st.Conditions[0]
}

// sameTolerations is the semantic equality of the API helpers: nil and
// empty lists are equal, tolerationSeconds compared by value.
func sameTolerations(a, b []api.Toleration) bool {
	if len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) {
		return true // one array: a status update shares the spec's
	}
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
