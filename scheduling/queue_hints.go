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
	if l.q.unschedulable.len() == 0 {
		return
	}
	interested := eventPlugins[ev]
	l.q.moveEntriesIf(now, func(e *queueEntry) bool {
		if len(e.plugins) == 0 {
			return true
		}
		for _, p := range e.plugins {
			if slices.Contains(interested, p) && l.podHint(p, e, ch) {
				return true
			}
		}
		return false
	})
}

// podHint is plugin's queueing hint for the pending pod of e after the
// assigned pod change ch: true is Queue. The hints of InterPodAffinity,
// PodTopologySpread, NodePorts and NodeResourcesFit are v1.36.3's; the
// volume plugins' are not modelled and say Queue.
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
	}
	return true
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
