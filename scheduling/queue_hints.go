package scheduling

import (
	"maps"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// podChange is an assigned pod's event as the queueing hints read it
// (the oldObj and newObj of framework.QueueingHintFn): old is the pod
// before it (nil when it was added or has just been bound), cur after it
// (nil when it was deleted, or finished: kube-scheduler's pod informer
// leaves out Succeeded and Failed pods). oldInfo is old's PodInfo when
// the event is a deletion, for its anti-affinity terms.
type podChange struct {
	old, cur *api.Pod
	oldInfo  *PodInfo
}

// requeueForPod delivers an assigned pod's event ev to the queue at now,
// as MoveAllToActiveOrBackoffQueue does with SchedulerQueueingHints on: a
// pod of the unschedulable pool moves to backoff or active when no plugin
// rejected it, or when a plugin that rejected it registered for ev and its
// queueing hint for the change says Queue (isPodWorthRequeuing).
func (l *Loop) requeueForPod(ev clusterEvent, ch podChange, now time.Time) {
	l.moveWorth(eventPlugins[ev], func(plugin string, e *queueEntry) bool { return l.podHint(plugin, e, ch) }, now)
}

// moveWorth moves the pods of the unschedulable pool worth requeuing
// (isPodWorthRequeuing) to backoff or active at now: those no plugin
// rejected, and those a plugin rejected that registered for the event
// (interested) and whose hint says Queue.
func (l *Loop) moveWorth(interested []string, hint func(plugin string, e *queueEntry) bool, now time.Time) {
	if l.q.unschedulable.len() == 0 {
		return // nothing to move; the queue's flushes run at its next call
	}
	l.q.moveEntriesIf(now, func(e *queueEntry) bool {
		if len(e.plugins) == 0 {
			return true
		}
		for _, p := range e.plugins {
			if slices.Contains(interested, p) && hint(p, e) {
				return true
			}
		}
		return false
	})
}

// podHint is plugin's queueing hint for the pending pod of e after the
// assigned pod change ch: true is Queue. The hints of InterPodAffinity,
// PodTopologySpread, NodePorts, NodeResourcesFit, VolumeRestrictions and
// NodeVolumeLimits are v1.36.3's.
func (l *Loop) podHint(plugin string, e *queueEntry, ch podChange) bool {
	pi := l.c.pods[e.key]
	if pi == nil || pi.pod.UID != e.pod.UID {
		return true
	}
	switch plugin {
	case PluginInterPodAffinity:
		return interPodAffinityHint(pi, ch)
	case PluginPodTopologySpread:
		return l.spreadHint(pi, ch)
	case PluginNodePorts:
		return ch.cur != nil || nodePortsDeleteHint(pi, ch.old)
	case PluginNodeResourcesFit:
		// A deleted pod that was bound or nominated frees resources; the
		// only updates the plugin registers for are in-place scale downs,
		// which the loop does not see as events.
		return ch.cur != nil || assignedOrNominated(ch.old)
	case PluginVolumeRestrictions:
		return ch.cur != nil || volumeRestrictionsDeleteHint(pi.pod, ch.old)
	case PluginNodeVolumeLimits:
		return ch.cur != nil || volumeLimitsDeleteHint(ch.old)
	}
	return true
}

// volumeRestrictionsDeleteHint is VolumeRestrictions'
// isSchedulableAfterPodDeleted for the pending pod: the deleted pod, of
// its namespace, held a disk one of its volumes conflicts with, or used
// one of its claims (a ReadWriteOncePod claim may have kept it out).
func volumeRestrictionsDeleteHint(pod, deleted *api.Pod) bool {
	if deleted.Namespace != pod.Namespace {
		return false
	}
	claims := map[string]bool{}
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		if needsRestrictionsCheck(v) && volumeConflict(v, deleted) {
			return true
		}
		if v.PersistentVolumeClaim != nil {
			claims[v.PersistentVolumeClaim.ClaimName] = true
		}
	}
	for i := range deleted.Spec.Volumes {
		if src := deleted.Spec.Volumes[i].PersistentVolumeClaim; src != nil && claims[src.ClaimName] {
			return true
		}
	}
	return false
}

// volumeLimitsDeleteHint is NodeVolumeLimits' isSchedulableAfterPodDeleted:
// the deleted pod was bound or nominated and had a volume the limits
// count (a claim, a generic ephemeral volume, or an in-tree volume the
// scheduler translates to CSI).
func volumeLimitsDeleteHint(deleted *api.Pod) bool {
	if len(deleted.Spec.Volumes) == 0 || !assignedOrNominated(deleted) {
		return false
	}
	for i := range deleted.Spec.Volumes {
		v := &deleted.Spec.Volumes[i]
		if plugin, _ := inTreeVolume(&v.VolumeSource); v.PersistentVolumeClaim != nil || v.Ephemeral != nil || plugin != "" {
			return true
		}
	}
	return false
}

// assignedOrNominated reports whether p is bound to a node or nominated
// for one.
func assignedOrNominated(p *api.Pod) bool {
	return p.Spec.NodeName != "" || p.Status.NominatedNodeName != ""
}

// interPodAffinityHint is InterPodAffinity's isSchedulableAfterPodChange
// for the pending pod pi: an added pod matching all its required
// affinity terms, a relabelled pod that starts matching them or stops
// matching all its required anti-affinity terms, a deleted pod matching
// all its anti-affinity terms or whose own anti-affinity terms all match
// it. The terms are matched without namespace labels, as the hint does.
// A term that does not compile queues the pod.
func interPodAffinityHint(pi *PodInfo, ch podChange) bool {
	if pi.termErr != nil {
		return true
	}
	if ch.cur != nil && !assignedOrNominated(ch.cur) || ch.old != nil && !assignedOrNominated(ch.old) {
		return false
	}
	terms, anti := pi.requiredAffinity, pi.requiredAntiAffinity
	switch {
	case ch.old != nil && ch.cur != nil:
		return !matchesAllTerms(terms, ch.old) && matchesAllTerms(terms, ch.cur) ||
			matchesAllTerms(anti, ch.old) && !matchesAllTerms(anti, ch.cur)
	case ch.cur != nil:
		return matchesAllTerms(terms, ch.cur)
	}
	if matchesAllTerms(anti, ch.old) {
		return true
	}
	oldAnti, ok := antiAffinityTermsOf(ch.oldInfo, ch.old)
	return !ok || matchesAllTerms(oldAnti, pi.pod)
}

// antiAffinityTermsOf are p's required anti-affinity terms, from its
// PodInfo when it compiled them (info may be nil); ok is false when they
// do not compile.
func antiAffinityTermsOf(info *PodInfo, p *api.Pod) (terms []affinityTerm, ok bool) {
	if info != nil && info.pod == p && info.termErr == nil {
		return info.requiredAntiAffinity, true
	}
	a := p.Spec.Affinity
	if a == nil || a.PodAntiAffinity == nil {
		return nil, true
	}
	for i := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		t, err := newAffinityTerm(p, &a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[i], "")
		if err != nil {
			return nil, false
		}
		terms = append(terms, t)
	}
	return terms, true
}

// spreadHint is PodTopologySpread's isSchedulableAfterPodChange for the
// pending pod pi: only a pod of its namespace that is bound or nominated
// counts; then an added or deleted pod whose labels match one of pi's
// hard constraints, or a relabelled one whose match of one of them
// changes. Constraints that do not compile queue the pod.
func (l *Loop) spreadHint(pi *PodInfo, ch podChange) bool {
	involved := func(p *api.Pod) bool {
		return assignedOrNominated(p) && p.Namespace == pi.pod.Namespace
	}
	if ch.cur != nil && !involved(ch.cur) || ch.old != nil && !involved(ch.old) {
		return false
	}
	pl := newSpreadPlugin(l.c, pi)
	cs, err := pl.constraints(nil, api.DoNotSchedule)
	if err != nil {
		return true
	}
	if ch.old != nil && ch.cur != nil {
		if maps.Equal(ch.old.Labels, ch.cur.Labels) {
			return false
		}
		for i := range cs {
			if cs[i].selector.Matches(api.Set(ch.old.Labels)) != cs[i].selector.Matches(api.Set(ch.cur.Labels)) {
				return true
			}
		}
		return false
	}
	p := ch.cur
	if p == nil {
		p = ch.old
	}
	for i := range cs {
		if cs[i].selector.Matches(api.Set(p.Labels)) {
			return true
		}
	}
	return false
}

// nodePortsDeleteHint is NodePorts' isSchedulableAfterPodDeleted for the
// pending pod pi: the deleted pod was bound or nominated and held a host
// port one of pi's conflicts with.
func nodePortsDeleteHint(pi *PodInfo, deleted *api.Pod) bool {
	if !assignedOrNominated(deleted) {
		return false
	}
	held := podHostPorts(deleted)
	for _, want := range pi.ports {
		for _, h := range held {
			if want.conflictsWith(h) {
				return true
			}
		}
	}
	return false
}

// nodeChange is a kind of node event (the framework's Node ActionTypes
// the default plugins register for with SchedulerQueueingHints on).
type nodeChange uint8

const (
	nodeAdd nodeChange = iota
	nodeDelete
	nodeAllocatable // UpdateNodeAllocatable
	nodeLabel       // UpdateNodeLabel
	nodeTaint       // UpdateNodeTaint: the taints changed, or the node became schedulable
)

// nodePlugins lists, per node event, the default profile's plugins that
// register for it (EventsToRegister with queueing hints on). The
// scheduler adds UpdateNodeTaint, with a hint that always says Queue, for
// every plugin that registers Node/Add and not UpdateNodeTaint
// (buildQueueingHintMap's workaround for kubernetes#109437): a taint
// change, or a node becoming schedulable, brings back a pod any of them
// rejected.
var nodePlugins = [...][]string{
	nodeAdd: {PluginNodeResourcesFit, PluginDynamicResources, PluginVolumeBinding, PluginVolumeZone, PluginVolumeRestrictions,
		PluginNodePorts, PluginNodeAffinity, PluginNodeName, PluginNodeUnschedulable, PluginTaintToleration,
		PluginInterPodAffinity, PluginPodTopologySpread, PluginNodeDeclaredFeatures},
	nodeDelete:      {PluginPodTopologySpread},
	nodeAllocatable: {PluginNodeResourcesFit, PluginDynamicResources},
	nodeLabel: {PluginDynamicResources, PluginVolumeBinding, PluginVolumeZone, PluginNodeAffinity,
		PluginInterPodAffinity, PluginPodTopologySpread},
	nodeTaint: {PluginNodeUnschedulable, PluginTaintToleration, PluginPodTopologySpread,
		// registered by the workaround, without a hint:
		PluginNodeResourcesFit, PluginDynamicResources, PluginVolumeBinding, PluginVolumeZone, PluginVolumeRestrictions,
		PluginNodePorts, PluginNodeAffinity, PluginNodeName, PluginInterPodAffinity, PluginNodeDeclaredFeatures},
}

// nodeChanges are the node events an update of old to cur makes
// (framework.NodeSchedulingPropertiesChange, less the condition and
// annotation changes no default plugin registers for), in its order.
func nodeChanges(old, cur *api.Node) []nodeChange {
	var out []nodeChange
	if old.Spec.Unschedulable && !cur.Spec.Unschedulable {
		out = append(out, nodeTaint)
	}
	if !sameResources(old.Status.Allocatable, cur.Status.Allocatable) {
		out = append(out, nodeAllocatable)
	}
	if !maps.Equal(old.Labels, cur.Labels) {
		out = append(out, nodeLabel)
	}
	if !api.TaintsEqual(old.Spec.Taints, cur.Spec.Taints) {
		out = append(out, nodeTaint)
	}
	return out
}

// requeueForNode delivers a node event (old nil: added; cur nil: deleted)
// to the queue at now: a pod of the unschedulable pool moves when no
// plugin rejected it, or when a plugin that rejected it registered for
// the event and its queueing hint says Queue.
func (l *Loop) requeueForNode(ev nodeChange, old, cur *api.Node, now time.Time) {
	l.moveWorth(nodePlugins[ev], func(plugin string, e *queueEntry) bool { return l.nodeHint(ev, plugin, e, old, cur) }, now)
}

// nodeHint is plugin's queueing hint for the pending pod of e after the
// node event ev: true is Queue. NodeResourcesFit, NodeAffinity,
// NodeUnschedulable, TaintToleration, InterPodAffinity and
// PodTopologySpread have v1.36.3's hints for the events they register
// for; the other plugins, and the registrations the taint workaround adds
// (nodePlugins), have none (always Queue).
func (l *Loop) nodeHint(ev nodeChange, plugin string, e *queueEntry, old, cur *api.Node) bool {
	pi := l.c.pods[e.key]
	if pi == nil || pi.pod.UID != e.pod.UID {
		return true
	}
	if ev == nodeTaint && plugin != PluginNodeUnschedulable && plugin != PluginTaintToleration && plugin != PluginPodTopologySpread {
		return true
	}
	switch plugin {
	case PluginNodeResourcesFit:
		return l.fitNodeHint(pi, old, cur)
	case PluginNodeAffinity:
		ra, err := newRequiredNodeAffinity(pi.pod)
		if err != nil {
			return true
		}
		return ra.match(cur) && (old == nil || !ra.match(old))
	case PluginNodeUnschedulable:
		return old == nil && !cur.Spec.Unschedulable || old != nil && old.Spec.Unschedulable && !cur.Spec.Unschedulable
	case PluginTaintToleration:
		wasUntolerated := true
		if old != nil {
			_, wasUntolerated = findUntoleratedTaint(old.Spec.Taints, pi.pod.Spec.Tolerations)
		}
		_, isUntolerated := findUntoleratedTaint(cur.Spec.Taints, pi.pod.Spec.Tolerations)
		return wasUntolerated && !isUntolerated
	case PluginInterPodAffinity:
		return interPodAffinityNodeHint(pi, old, cur)
	case PluginPodTopologySpread:
		return l.spreadNodeHint(pi, old, cur)
	}
	return true
}

// fitNodeHint is NodeResourcesFit's isSchedulableAfterNodeChange: the pod
// fits the node's allocatable alone, and the node is new or one of the
// amounts the pod requests (or its pod slots) grew.
func (l *Loop) fitNodeHint(pi *PodInfo, old, cur *api.Node) bool {
	alloc := newResource(cur.Status.Allocatable)
	r := &pi.requests
	if !roomForPod(&alloc, 0) || r.MilliCPU > alloc.MilliCPU || r.Memory > alloc.Memory || r.EphemeralStorage > alloc.EphemeralStorage {
		return false
	}
	for name, q := range r.Scalar {
		if q > alloc.Scalar[name] {
			return false
		}
	}
	if old == nil {
		return true
	}
	was := newResource(old.Status.Allocatable)
	if alloc.AllowedPodNumber > was.AllowedPodNumber {
		return true
	}
	if r.MilliCPU > 0 && alloc.MilliCPU > was.MilliCPU || r.Memory > 0 && alloc.Memory > was.Memory ||
		r.EphemeralStorage > 0 && alloc.EphemeralStorage > was.EphemeralStorage {
		return true
	}
	for name, q := range r.Scalar {
		if q != 0 && alloc.Scalar[name] > was.Scalar[name] {
			return true
		}
	}
	return false
}

// interPodAffinityNodeHint is InterPodAffinity's isSchedulableAfterNodeChange:
// for a required affinity term, a node added with its topology key, or
// updated to have it or to another value of it; for an anti-affinity
// term, any node added, or a node updated to lose its topology key or
// change its value. A term that does not compile queues the pod.
func interPodAffinityNodeHint(pi *PodInfo, old, cur *api.Node) bool {
	if pi.termErr != nil {
		return true
	}
	for i := range pi.requiredAffinity {
		key := pi.requiredAffinity[i].topologyKey
		nv, nok := cur.Labels[key]
		if old == nil {
			if nok {
				return true
			}
			continue
		}
		ov, ook := old.Labels[key]
		if !ook && nok || ook && nok && ov != nv {
			return true
		}
	}
	for i := range pi.requiredAntiAffinity {
		if old == nil {
			return true
		}
		key := pi.requiredAntiAffinity[i].topologyKey
		ov, ook := old.Labels[key]
		nv, nok := cur.Labels[key]
		if ook && !nok || ook && nok && ov != nv {
			return true
		}
	}
	return false
}

// spreadNodeHint is PodTopologySpread's isSchedulableAfterNodeChange for
// the pod's hard constraints: a node added, or deleted, that has every
// topology key; a node updated to have them all or no longer, or, having
// them, with another value of one or other taints.
func (l *Loop) spreadNodeHint(pi *PodInfo, old, cur *api.Node) bool {
	pl := newSpreadPlugin(l.c, pi)
	cs, err := pl.constraints(nil, api.DoNotSchedule)
	if err != nil {
		return true
	}
	hasKeys := func(n *api.Node) bool {
		if n == nil {
			return false
		}
		for i := range cs {
			if _, ok := n.Labels[cs[i].key]; !ok {
				return false
			}
		}
		return true
	}
	was, is := hasKeys(old), hasKeys(cur)
	switch {
	case old != nil && cur != nil:
		if was != is {
			return true
		}
		if !is {
			return false
		}
		for i := range cs {
			if old.Labels[cs[i].key] != cur.Labels[cs[i].key] {
				return true
			}
		}
		return !api.TaintsEqual(old.Spec.Taints, cur.Spec.Taints)
	case cur != nil:
		return is
	}
	return was
}
