package termination

import (
	"fmt"
	"sort"
	"time"

	"github.com/podsem/podsem/api"
)

// Pod garbage collector defaults of kube-controller-manager v1.36.3.
const (
	// DefaultTerminatedPodGCThreshold is --terminated-pod-gc-threshold: the
	// number of terminated pods the collector keeps before it deletes the
	// oldest.
	DefaultTerminatedPodGCThreshold = 12500
	// DefaultOrphanQuarantine is how long a node named by pods must be
	// missing from the controller's node cache before the collector asks
	// the API server directly whether it is gone.
	DefaultOrphanQuarantine = 40 * time.Second
	// GCCheckPeriod is how often the collector runs.
	GCCheckPeriod = 20 * time.Second
)

// MessageDeletionByPodGC is the message of the DisruptionTarget condition
// (reason api.PodReasonDeletionByPodGC) the collector adds to orphaned
// pods.
const MessageDeletionByPodGC = "PodGC: node no longer exists"

// GCConfig configures the pod garbage collector. The zero value is
// kube-controller-manager's v1.36.3 default.
type GCConfig struct {
	// TerminatedPodThreshold is the number of terminated pods kept; 0 means
	// DefaultTerminatedPodGCThreshold and a negative value disables
	// terminated-pod collection.
	TerminatedPodThreshold int
	// DisableTerminatedPodGC turns terminated-pod collection off (what
	// --terminated-pod-gc-threshold=0 does upstream).
	DisableTerminatedPodGC bool
	// Quarantine is how long a missing node waits before the direct check;
	// 0 means DefaultOrphanQuarantine.
	Quarantine time.Duration
}

func (c GCConfig) threshold() int {
	if c.TerminatedPodThreshold == 0 {
		return DefaultTerminatedPodGCThreshold
	}
	return c.TerminatedPodThreshold
}

func (c GCConfig) quarantine() time.Duration {
	if c.Quarantine == 0 {
		return DefaultOrphanQuarantine
	}
	return c.Quarantine
}

// GCReason says why the collector deletes a pod.
type GCReason string

// The collector's reasons, in the order it applies them within a pass.
const (
	// GCTerminated: the pod is terminated (phase neither Pending, Running
	// nor Unknown — an empty phase counts) and the number of terminated
	// pods exceeds the threshold; evicted pods go first, then the oldest,
	// then by name.
	GCTerminated GCReason = "Terminated"
	// GCTerminatingOutOfService: the pod is terminating on a node that is
	// not Ready and carries the node.kubernetes.io/out-of-service taint
	// (non-graceful node shutdown).
	GCTerminatingOutOfService GCReason = "TerminatingOutOfService"
	// GCOrphaned: the pod is bound to a node that no longer exists, as
	// confirmed after the quarantine by a direct read.
	GCOrphaned GCReason = "Orphaned"
	// GCUnscheduledTerminating: the pod is terminating and was never
	// scheduled.
	GCUnscheduledTerminating GCReason = "TerminatingUnscheduled"
)

// GCAction is one pod the collector deleted in a pass.
type GCAction struct {
	// Pod is "namespace/name".
	Pod    string
	Reason GCReason
	// Patched is the status written before the deletion: phase Failed (and,
	// for orphans, a DisruptionTarget condition). Nil when the pod was
	// already Succeeded or Failed and was deleted without a patch.
	Patched *api.PodStatus
	// GracePeriodSeconds of the delete: always 0, a force deletion.
	GracePeriodSeconds int64
	// Explanation says why, in a sentence.
	Explanation string
}

// GCInput is what the pod garbage collector reads at a step: the
// controller's informer caches of pods and nodes, and the direct API read
// it makes of a node that is missing from its cache. Nil pods and nodes are
// skipped.
type GCInput struct {
	// Pods is the pod cache.
	Pods []*api.Pod
	// Nodes is the node cache.
	Nodes []*api.Node
	// NodeExists answers the direct read (a GET) of a node missing from
	// Nodes, made when its quarantine ends; nil means every such node is
	// gone.
	NodeExists func(name string) bool
}

// GCResult is what one step of the collector did.
type GCResult struct {
	// Ran reports whether a collector pass ran at this step. Between
	// passes a step only reads the caches to learn when the next pass is
	// needed: it deletes nothing and quarantines nothing.
	Ran bool
	// Actions lists the deleted pods in the order the collector handled
	// them.
	Actions []GCAction
	// Remaining holds the input pods that were not deleted, unchanged (the
	// input slice itself when nothing was deleted and it holds no nil).
	Remaining []*api.Pod
	// Quarantined lists, sorted, the missing node names waiting out their
	// quarantine after the step.
	Quarantined []string
}

// Collector is the pod garbage collector of kube-controller-manager
// (pkg/controller/podgc) as a state machine: it holds what the controller
// keeps between passes — the quarantine of node names pods refer to that
// the node cache does not know, and the rhythm of its passes, one every
// GCCheckPeriod from its first. Drive it with Step; the zero value is a
// collector with the default GCConfig, as is NewCollector(GCConfig{}). A
// Collector is not safe for concurrent use.
type Collector struct {
	cfg     GCConfig
	waiting map[string]time.Time
	started bool
	// anchor is the time of the first pass: passes fall on anchor +
	// k·GCCheckPeriod.
	anchor time.Time
	// next is the pass NextDeadline reports, zero when none is needed;
	// last is the time of the last pass.
	next, last time.Time
}

// NewCollector returns a collector with an empty quarantine that has not
// run yet.
func NewCollector(cfg GCConfig) *Collector {
	return &Collector{cfg: cfg, waiting: map[string]time.Time{}}
}

// Step feeds the collector the caches at now. The controller runs a pass
// every GCCheckPeriod (its wait.Until loop): the first Step is its first
// pass, and later passes fall on the same 20 s rhythm. A Step runs a pass
// when one is due — at or after NextDeadline, or on a pass time of the
// rhythm when the caches show work — and otherwise only looks at the
// caches to bring NextDeadline forward if they show work the pending
// deadline would reach too late. A pass:
//
//  1. terminated pods beyond the threshold, evicted first, then oldest;
//  2. terminating pods on not-Ready nodes tainted
//     node.kubernetes.io/out-of-service;
//  3. orphaned pods: every node name absent from the node cache is
//     quarantined; only names whose quarantine has run out by this pass,
//     and which the direct read does not find, make their pods orphans —
//     so an orphan is never deleted in the pass that first sees its node
//     missing;
//  4. terminating pods that were never scheduled.
//
// Each pod is handled once per pass: it is patched to phase Failed unless
// already Succeeded or Failed (orphans also get a DisruptionTarget
// condition, reason DeletionByPodGC) and force-deleted with grace 0. A
// pass reads every pod and node; so does a Step between passes, unless a
// pass is already due at the next pass time. A nil Collector has no
// quarantine to keep and collects nothing: the result is the zero
// GCResult.
func (c *Collector) Step(in GCInput, now time.Time) GCResult {
	if c == nil {
		return GCResult{}
	}
	if c.waiting == nil {
		c.waiting = map[string]time.Time{}
	}
	if !c.started {
		c.started, c.anchor = true, now
		return c.pass(in, now)
	}
	if !c.next.IsZero() && !now.Before(c.next) {
		return c.pass(in, now)
	}
	// Between passes: a pass is needed at the next pass time only if the
	// caches show work; a deadline already at that time cannot come
	// earlier, so the caches need no look then.
	slot := c.passAtOrAfter(now)
	if (c.next.IsZero() || slot.Before(c.next)) && c.hasWork(in) {
		if slot.Equal(now) {
			return c.pass(in, now)
		}
		c.next = slot
	}
	return GCResult{Remaining: remaining(in.Pods, nil), Quarantined: c.quarantined()}
}

// NextDeadline is the time of the next pass that has something to do: the
// next pass time after work appeared in the caches (terminated pods over
// the threshold, terminating pods on an out-of-service node or never
// scheduled, pods on a node the cache does not know), or the first pass
// time at or after the earliest quarantine's end. The controller itself
// runs a pass every GCCheckPeriod whatever the caches hold; the passes
// NextDeadline skips would delete nothing, so a caller may step the
// Collector only at its deadlines and whenever its caches change. The zero
// time means no pass is needed until the caches change (and before the
// first Step, which is a pass). A nil Collector has no deadline.
func (c *Collector) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}

// NextPass returns the time of the collector's first pass at or after t
// on its rhythm (one every GCCheckPeriod from its first Step) that comes
// after its last pass — a Step at the time of a pass does not make a
// second one — or t itself before the first Step, which is a pass
// whenever it comes. A nil Collector has no rhythm: the zero time.
//
// Between passes a Step only looks at the caches for work the next pass
// time would find, and the pass reads the caches as they are then. So a
// caller may step the collector at NextDeadline and, when its caches
// changed since the last Step, at NextPass of the current time, instead of
// at every change: it gets the same passes at the same times, reading each
// cache once per pass time instead of once per change.
func (c *Collector) NextPass(t time.Time) time.Time {
	if c == nil {
		return time.Time{}
	}
	if !c.started {
		return t
	}
	return c.passAtOrAfter(t)
}

// passAtOrAfter is the first pass time of the collector's rhythm at or
// after t, after the last pass: the controller makes one pass per period.
func (c *Collector) passAtOrAfter(t time.Time) time.Time {
	if !t.After(c.last) {
		t = c.last.Add(1)
	}
	if !t.After(c.anchor) {
		return c.anchor
	}
	k := (t.Sub(c.anchor) + GCCheckPeriod - 1) / GCCheckPeriod
	return c.anchor.Add(k * GCCheckPeriod)
}

// pass runs one collector pass at now and sets the next deadline: the
// first pass that can end a quarantine, if any is running.
func (c *Collector) pass(in GCInput, now time.Time) GCResult {
	c.last = now
	pods, nodes := in.Pods, in.Nodes
	nodeByName := indexNodes(nodes)
	// Quarantine entries whose time has come leave the waiting set first.
	var ready []string
	for name, at := range c.waiting {
		if !at.After(now) {
			ready = append(ready, name)
			delete(c.waiting, name)
		}
	}
	sort.Strings(ready)

	p := gcPass{now: now, deleted: map[string]bool{}}

	if c.terminatedGC() {
		var terminated []*api.Pod
		for _, pod := range pods {
			if pod != nil && isTerminatedForGC(pod) {
				terminated = append(terminated, pod)
			}
		}
		if n := len(terminated) - c.cfg.threshold(); n > 0 {
			sort.SliceStable(terminated, func(i, j int) bool { return gcOlder(terminated[i], terminated[j]) })
			for _, pod := range terminated[:n] {
				p.remove(pod, GCTerminated, false, fmt.Sprintf("%d terminated pods exceed the threshold of %d; evicted and older pods go first", len(terminated), c.cfg.threshold()))
			}
		}
	}

	var outOfService []*api.Pod
	for _, pod := range pods {
		if pod != nil && pod.DeletionTimestamp != nil && nodeByName[pod.Spec.NodeName] {
			outOfService = append(outOfService, pod)
		}
	}
	sort.SliceStable(outOfService, func(i, j int) bool { return gcOlder(outOfService[i], outOfService[j]) })
	for _, pod := range outOfService {
		p.remove(pod, GCTerminatingOutOfService, false, fmt.Sprintf("terminating on node %s, which is not Ready and is tainted %s", pod.Spec.NodeName, api.TaintNodeOutOfService))
	}

	q := c.cfg.quarantine()
	for _, pod := range pods {
		if pod == nil || pod.Spec.NodeName == "" {
			continue
		}
		if _, known := nodeByName[pod.Spec.NodeName]; known {
			continue
		}
		at := now.Add(q)
		if prev, ok := c.waiting[pod.Spec.NodeName]; !ok || at.Before(prev) {
			c.waiting[pod.Spec.NodeName] = at
		}
	}
	gone := map[string]bool{}
	for _, name := range ready {
		if _, known := nodeByName[name]; known {
			continue
		}
		if in.NodeExists == nil || !in.NodeExists(name) {
			gone[name] = true
		}
	}
	for _, pod := range pods {
		if pod == nil || !gone[pod.Spec.NodeName] {
			continue
		}
		p.remove(pod, GCOrphaned, true, fmt.Sprintf("bound to node %s, which has been missing for the %s quarantine and is confirmed deleted", pod.Spec.NodeName, q.Truncate(10*time.Millisecond)))
	}

	for _, pod := range pods {
		if pod == nil || pod.DeletionTimestamp == nil || pod.Spec.NodeName != "" {
			continue
		}
		p.remove(pod, GCUnscheduledTerminating, false, "terminating and never scheduled, so no kubelet will finish its deletion")
	}

	// Everything the pass could delete is deleted; what waits is the
	// quarantine, whose earliest end the first pass at or after it sees.
	c.next = time.Time{}
	var first time.Time
	for _, at := range c.waiting {
		if first.IsZero() || at.Before(first) {
			first = at
		}
	}
	if !first.IsZero() {
		c.next = c.passAtOrAfter(first)
		if !c.next.After(now) {
			c.next = c.passAtOrAfter(now.Add(time.Nanosecond))
		}
	}
	return GCResult{Ran: true, Actions: p.actions, Remaining: remaining(pods, p.deleted), Quarantined: c.quarantined()}
}

// hasWork reports whether a pass over in would delete a pod or start a
// quarantine, leaving the collector unchanged.
func (c *Collector) hasWork(in GCInput) bool {
	terminated := 0
	var nodeByName map[string]bool
	for _, pod := range in.Pods {
		if pod == nil {
			continue
		}
		if isTerminatedForGC(pod) {
			terminated++
		}
		if pod.Spec.NodeName == "" {
			if pod.DeletionTimestamp != nil {
				return true
			}
			continue
		}
		if nodeByName == nil {
			nodeByName = indexNodes(in.Nodes)
		}
		outOfService, known := nodeByName[pod.Spec.NodeName]
		if !known {
			if _, waiting := c.waiting[pod.Spec.NodeName]; !waiting {
				return true
			}
			continue
		}
		if pod.DeletionTimestamp != nil && outOfService {
			return true
		}
	}
	return c.terminatedGC() && terminated > c.cfg.threshold()
}

func (c *Collector) terminatedGC() bool {
	return !c.cfg.DisableTerminatedPodGC && c.cfg.threshold() > 0
}

func (c *Collector) quarantined() []string {
	if len(c.waiting) == 0 {
		return nil
	}
	names := make([]string, 0, len(c.waiting))
	for name := range c.waiting {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// indexNodes maps the name of each node of the cache to whether it is out
// of service: not Ready, and tainted node.kubernetes.io/out-of-service
// (non-graceful node shutdown). Each node is judged once per pass, not once
// per pod.
func indexNodes(nodes []*api.Node) map[string]bool {
	m := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		if n != nil {
			m[n.Name] = NodeOutOfService(n)
		}
	}
	return m
}

// remaining is pods without nil entries and without the deleted ones.
func remaining(pods []*api.Pod, deleted map[string]bool) []*api.Pod {
	clean := len(deleted) == 0
	for _, pod := range pods {
		if pod == nil {
			clean = false
			break
		}
	}
	if clean {
		return pods
	}
	var out []*api.Pod
	for _, pod := range pods {
		if pod != nil && !deleted[pod.Key()] {
			out = append(out, pod)
		}
	}
	return out
}

// CollectGarbage runs one collector pass in the steady state: every node
// pods name that is absent from nodes is taken as missing for the whole
// quarantine and confirmed deleted. Use a Collector to model the quarantine
// across passes. Nil pods and nodes are skipped.
func CollectGarbage(pods []*api.Pod, nodes []*api.Node, cfg GCConfig, now time.Time) GCResult {
	c := NewCollector(cfg)
	known := map[string]bool{}
	for _, n := range nodes {
		if n != nil {
			known[n.Name] = true
		}
	}
	for _, pod := range pods {
		if pod != nil && pod.Spec.NodeName != "" && !known[pod.Spec.NodeName] {
			c.waiting[pod.Spec.NodeName] = now
		}
	}
	return c.Step(GCInput{Pods: pods, Nodes: nodes}, now)
}

type gcPass struct {
	now     time.Time
	deleted map[string]bool
	actions []GCAction
}

// remove patches (when needed) and force-deletes pod, unless this pass has
// already deleted it, in which case upstream's patch or delete fails with
// NotFound and nothing is recorded.
func (p *gcPass) remove(pod *api.Pod, reason GCReason, orphan bool, why string) {
	key := pod.Key()
	if p.deleted[key] {
		return
	}
	p.deleted[key] = true
	a := GCAction{Pod: key, Reason: reason, Explanation: why}
	if !pod.Status.Phase.IsTerminal() {
		st := pod.Status
		st.Conditions = append([]api.PodCondition(nil), pod.Status.Conditions...)
		st.Phase = api.PodFailed
		// PodObservedGenerationTracking is on by default, so the patch always
		// carries metadata.generation, even 0, which clears a stale value.
		st.ObservedGeneration = pod.Generation
		if orphan {
			api.UpdatePodCondition(&st, api.PodCondition{
				Type:               api.DisruptionTarget,
				Status:             api.ConditionTrue,
				Reason:             api.PodReasonDeletionByPodGC,
				Message:            MessageDeletionByPodGC,
				ObservedGeneration: pod.Generation,
			}, p.now)
		}
		a.Patched = &st
	}
	p.actions = append(p.actions, a)
}

// isTerminatedForGC is the collector's notion of terminated: any phase other
// than Pending, Running and Unknown, including none at all.
func isTerminatedForGC(pod *api.Pod) bool {
	switch pod.Status.Phase {
	case api.PodPending, api.PodRunning, api.PodUnknown:
		return false
	}
	return true
}

// isEvicted reports a pod the kubelet evicted: phase Failed, reason Evicted.
func isEvicted(pod *api.Pod) bool {
	return pod.Status.Phase == api.PodFailed && pod.Status.Reason == api.PodStatusReasonEvicted
}

// gcOlder orders pods for collection: evicted first, then by creation
// time, then by name.
func gcOlder(a, b *api.Pod) bool {
	ea, eb := isEvicted(a), isEvicted(b)
	if ea != eb {
		return ea
	}
	if a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
		return a.Name < b.Name
	}
	return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
}

// NodeOutOfService reports whether the pod garbage collector takes node
// for out of service (gcTerminating): not Ready, and tainted
// node.kubernetes.io/out-of-service (non-graceful node shutdown). Its
// terminating pods are force-deleted.
func NodeOutOfService(n *api.Node) bool {
	return n != nil && !nodeReady(n) && hasTaintKey(n, api.TaintNodeOutOfService)
}

// TerminatedForGC reports whether the pod garbage collector counts pod as
// terminated (Succeeded or Failed, any phase but Pending, Running and
// Unknown) towards --terminated-pod-gc-threshold.
func TerminatedForGC(pod *api.Pod) bool {
	return pod != nil && isTerminatedForGC(pod)
}

func nodeReady(n *api.Node) bool {
	c := n.FindCondition(api.NodeReady)
	return c != nil && c.Status == api.ConditionTrue
}

func hasTaintKey(n *api.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}
