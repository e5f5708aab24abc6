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

// GCResult is what one collector pass did.
type GCResult struct {
	// Actions lists the deleted pods in the order the collector handled
	// them.
	Actions []GCAction
	// Remaining holds the input pods that were not deleted, unchanged.
	Remaining []*api.Pod
	// Quarantined lists, sorted, the missing node names waiting out their
	// quarantine after the pass.
	Quarantined []string
}

// Collector is the pod garbage collector of kube-controller-manager
// (pkg/controller/podgc) as a value: it holds the one piece of state the
// controller keeps between passes, the quarantine of node names pods refer
// to that the node cache does not know. Call Collect once per pass; the zero
// value is not ready, use NewCollector. A Collector is not safe for
// concurrent use.
type Collector struct {
	cfg     GCConfig
	waiting map[string]time.Time
}

// NewCollector returns a collector with an empty quarantine.
func NewCollector(cfg GCConfig) *Collector {
	return &Collector{cfg: cfg, waiting: map[string]time.Time{}}
}

// Collect runs one pass of the collector at now over pods and the nodes the
// controller's cache holds. nodeExists answers the direct API read of a node
// that is missing from nodes (nil means every such node is gone). A pass:
//
//  1. terminated pods beyond the threshold, evicted first, then oldest;
//  2. terminating pods on not-Ready nodes tainted
//     node.kubernetes.io/out-of-service;
//  3. orphaned pods: every node name absent from nodes is quarantined; only
//     names whose quarantine has run out by this pass, and which the direct
//     read does not find, make their pods orphans — so an orphan is never
//     deleted in the pass that first sees its node missing;
//  4. terminating pods that were never scheduled.
//
// Each pod is handled once per pass: it is patched to phase Failed unless
// already Succeeded or Failed (orphans also get a DisruptionTarget
// condition, reason DeletionByPodGC) and force-deleted with grace 0. Nil
// pods and nodes are skipped. A nil Collector has no quarantine to keep
// and collects nothing: the result is the zero GCResult.
func (c *Collector) Collect(pods []*api.Pod, nodes []*api.Node, nodeExists func(name string) bool, now time.Time) GCResult {
	if c == nil {
		return GCResult{}
	}
	if c.waiting == nil {
		c.waiting = map[string]time.Time{}
	}
	nodeByName := make(map[string]*api.Node, len(nodes))
	for _, n := range nodes {
		if n != nil {
			nodeByName[n.Name] = n
		}
	}
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

	if !c.cfg.DisableTerminatedPodGC && c.cfg.threshold() > 0 {
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
		if pod == nil || pod.DeletionTimestamp == nil {
			continue
		}
		n := nodeByName[pod.Spec.NodeName]
		if n == nil {
			continue
		}
		if !nodeReady(n) && hasTaintKey(n, api.TaintNodeOutOfService) {
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
		if nodeExists == nil || !nodeExists(name) {
			gone[name] = true
		}
	}
	for _, pod := range pods {
		if pod == nil || !gone[pod.Spec.NodeName] {
			continue
		}
		p.remove(pod, GCOrphaned, true, fmt.Sprintf("bound to node %s, which has been missing for the %s quarantine and is confirmed deleted", pod.Spec.NodeName, q))
	}

	for _, pod := range pods {
		if pod == nil || pod.DeletionTimestamp == nil || pod.Spec.NodeName != "" {
			continue
		}
		p.remove(pod, GCUnscheduledTerminating, false, "terminating and never scheduled, so no kubelet will finish its deletion")
	}

	res := GCResult{Actions: p.actions}
	for _, pod := range pods {
		if pod != nil && !p.deleted[pod.Key()] {
			res.Remaining = append(res.Remaining, pod)
		}
	}
	for name := range c.waiting {
		res.Quarantined = append(res.Quarantined, name)
	}
	sort.Strings(res.Quarantined)
	return res
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
	return c.Collect(pods, nodes, nil, now)
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
			setCondition(&st, api.PodCondition{
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

// setCondition adds or updates a pod condition the way the API helpers do:
// the transition time moves only when the status changes.
func setCondition(st *api.PodStatus, c api.PodCondition, now time.Time) {
	for i := range st.Conditions {
		old := &st.Conditions[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status != c.Status {
			c.LastTransitionTime = api.NewTime(now)
		} else {
			c.LastTransitionTime = old.LastTransitionTime
		}
		c.LastProbeTime = old.LastProbeTime
		*old = c
		return
	}
	c.LastTransitionTime = api.NewTime(now)
	st.Conditions = append(st.Conditions, c)
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
