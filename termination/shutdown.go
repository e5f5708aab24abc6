package termination

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// The status reason and message the kubelet writes on every pod it kills
// for a graceful node shutdown (pkg/kubelet/nodeshutdown); the message is
// also that of the pod's DisruptionTarget condition.
const (
	ReasonNodeShutdown  = "Terminated"
	MessageNodeShutdown = "Pod was terminated in response to imminent node shutdown."
)

// SourceShutdownGroup: the shutdown grace period of the pod's priority
// group (graceful node shutdown).
const SourceShutdownGroup GraceSource = "ShutdownGracePeriod"

// ShutdownGracePeriodByPodPriority is one entry of the kubelet's
// shutdownGracePeriodByPodPriority: pods whose priority falls in this
// entry's range get ShutdownGracePeriodSeconds to stop.
type ShutdownGracePeriodByPodPriority struct {
	Priority                   int32 `json:"priority"`
	ShutdownGracePeriodSeconds int64 `json:"shutdownGracePeriodSeconds"`
}

// ShutdownConfig is the kubelet's graceful node shutdown configuration.
// The zero value is v1.36.3's default: graceful node shutdown off.
type ShutdownConfig struct {
	// GracePeriod is shutdownGracePeriod: how long the node delays its
	// shutdown for pods, in total.
	GracePeriod time.Duration
	// GracePeriodCriticalPods is shutdownGracePeriodCriticalPods: the part
	// of GracePeriod reserved for critical pods (priority at least
	// api.SystemCriticalPriority), which stop last.
	GracePeriodCriticalPods time.Duration
	// ByPodPriority is shutdownGracePeriodByPodPriority; when set it
	// replaces the two settings above (setting both is an error).
	ByPodPriority []ShutdownGracePeriodByPodPriority
}

// Enabled reports whether the configuration turns graceful node shutdown
// on: an empty configuration leaves the kubelet's shutdown manager a
// no-op.
func (c ShutdownConfig) Enabled() bool { return len(c.ByPodPriority) > 0 || c.GracePeriod != 0 }

// PriorityGroups returns the priority groups the kubelet shuts pods down
// in, sorted by priority from low to high (entries of equal priority keep
// their order). Without ByPodPriority they are derived as the kubelet
// migrates the older settings: priority api.DefaultPriority with
// GracePeriod − GracePeriodCriticalPods, and api.SystemCriticalPriority
// with the rest, each truncated to whole seconds. A disabled
// configuration has no groups. Errors, wrapping api.ErrInvalidInput, are the
// kubelet configuration's own: negative durations or grace periods,
// GracePeriodCriticalPods above GracePeriod, or both forms at once.
func (c ShutdownConfig) PriorityGroups() ([]ShutdownGracePeriodByPodPriority, error) {
	if c.GracePeriod < 0 || c.GracePeriodCriticalPods < 0 {
		return nil, fmt.Errorf("%w: shutdownGracePeriod %v and shutdownGracePeriodCriticalPods %v must not be negative", errInvalidInput, c.GracePeriod, c.GracePeriodCriticalPods)
	}
	if c.GracePeriodCriticalPods > c.GracePeriod {
		return nil, fmt.Errorf("%w: shutdownGracePeriodCriticalPods %v must be <= shutdownGracePeriod %v", errInvalidInput, c.GracePeriodCriticalPods, c.GracePeriod)
	}
	if len(c.ByPodPriority) > 0 {
		if c.GracePeriod != 0 || c.GracePeriodCriticalPods != 0 {
			return nil, fmt.Errorf("%w: shutdownGracePeriodByPodPriority and shutdownGracePeriod cannot both be set", errInvalidInput)
		}
		groups := append([]ShutdownGracePeriodByPodPriority(nil), c.ByPodPriority...)
		for i, g := range groups {
			if g.ShutdownGracePeriodSeconds < 0 {
				return nil, fmt.Errorf("%w: shutdownGracePeriodByPodPriority[%d].shutdownGracePeriodSeconds %d must not be negative", errInvalidInput, i, g.ShutdownGracePeriodSeconds)
			}
		}
		sort.SliceStable(groups, func(i, j int) bool { return groups[i].Priority < groups[j].Priority })
		return groups, nil
	}
	if c.GracePeriod == 0 {
		return nil, nil
	}
	regular := c.GracePeriod - c.GracePeriodCriticalPods
	return []ShutdownGracePeriodByPodPriority{
		{Priority: api.DefaultPriority, ShutdownGracePeriodSeconds: int64(regular / time.Second)},
		{Priority: api.SystemCriticalPriority, ShutdownGracePeriodSeconds: int64((c.GracePeriod - regular) / time.Second)},
	}, nil
}

// shutdownGroupOf is the index of the group a pod of priority p joins: the
// group with the largest priority ≤ p; below the lowest group the lowest,
// above the highest the highest.
func shutdownGroupOf(groups []ShutdownGracePeriodByPodPriority, p int32) int {
	i := sort.Search(len(groups), func(i int) bool { return groups[i].Priority >= p })
	switch {
	case i == len(groups):
		return len(groups) - 1
	case i > 0 && groups[i].Priority > p:
		return i - 1
	}
	return i
}

// ShutdownGroup is one priority group of a node shutdown and its time
// window.
type ShutdownGroup struct {
	Priority           int32
	GracePeriodSeconds int64
	// Pods are the pods of the group, in input order.
	Pods []*api.Pod
	// Start is when the kubelet kills the group's pods; End is the latest
	// it waits for them (Start plus the group's grace period) before it
	// moves on to the next group. It moves on earlier once every pod of
	// the group has stopped and its volumes are unmounted. A group without
	// pods is skipped: End equals Start.
	Start, End time.Time
}

// ShutdownKill is what the shutdown does to one pod.
type ShutdownKill struct {
	Pod *api.Pod
	// Group indexes ShutdownTimeline.Groups.
	Group int
	// GracePeriodSeconds is the override passed to the pod killer: the
	// group's grace period, or the pod's terminationGracePeriodSeconds when
	// that is set and not longer (0 stays 0). Source says which.
	GracePeriodSeconds int64
	Source             GraceSource
	// Worker is the grace period the pod worker settles on for the kill
	// (KubeletPodGrace with the override): at least 1 s, and shorter when
	// a deletion already under way set a shorter one.
	Worker PodGrace
	// At is when the pod is killed: its group's start.
	At time.Time
	// Status is the pod's final status: phase Failed (Succeeded stays
	// Succeeded), reason ReasonNodeShutdown, message MessageNodeShutdown,
	// and the DisruptionTarget condition (TerminationByKubelet).
	Status api.PodStatus
}

// ShutdownEventKind names one step of a node shutdown.
type ShutdownEventKind string

// The steps of a node shutdown.
const (
	// ShutdownStarted: the kubelet learns of the imminent shutdown (the
	// systemd-logind PrepareForShutdown signal) and starts killing pods.
	ShutdownStarted ShutdownEventKind = "ShutdownStarted"
	// ShutdownGroupStarted: the pods of a priority group are killed.
	ShutdownGroupStarted ShutdownEventKind = "GroupStarted"
	// ShutdownPodKilled: one pod is killed with its grace period.
	ShutdownPodKilled ShutdownEventKind = "PodKilled"
	// ShutdownGroupTimedOut: the group's grace period ran out; the kubelet
	// stops waiting for its pods and volumes.
	ShutdownGroupTimedOut ShutdownEventKind = "GroupTimedOut"
	// ShutdownGroupSkipped: a group without pods is skipped without
	// waiting.
	ShutdownGroupSkipped ShutdownEventKind = "GroupSkipped"
	// ShutdownFinished: every group is done at the latest; the kubelet
	// releases its shutdown inhibitor lock.
	ShutdownFinished ShutdownEventKind = "ShutdownFinished"
)

// ShutdownEvent is one step of a shutdown timeline.
type ShutdownEvent struct {
	At time.Time
	// Offset is At minus the start of the shutdown.
	Offset time.Duration
	Kind   ShutdownEventKind
	// Group indexes ShutdownTimeline.Groups (-1 for the whole shutdown).
	Group int
	// Pod names the pod of a PodKilled event.
	Pod string
	// Detail explains the step and its numbers.
	Detail string
}

// ShutdownTimeline is what a graceful node shutdown does to the node's
// pods, group by group.
type ShutdownTimeline struct {
	// Disabled reports an empty configuration: the kubelet kills nothing
	// and the other fields are empty.
	Disabled bool
	// Groups are the priority groups in the order they are shut down.
	Groups []ShutdownGroup
	// Pods holds one kill per input pod, in input order.
	Pods []ShutdownKill
	// Start is the shutdown's start; Deadline the latest it ends (Start
	// plus the grace periods of the groups with pods).
	Start, Deadline time.Time
	// Events are ordered by time.
	Events []ShutdownEvent
}

// String renders the timeline one event per line, offsets from the start.
func (t ShutdownTimeline) String() string {
	var b strings.Builder
	for _, e := range t.Events {
		writeEventLine(&b, e.Offset, 16, string(e.Kind), e.Pod, e.Detail)
	}
	return b.String()
}

// BuildShutdownTimeline lays out a graceful node shutdown starting at now,
// as the kubelet's node shutdown manager (pkg/kubelet/nodeshutdown
// killPods) runs it over the node's active pods: the pods are put in
// priority groups (ShutdownConfig.PriorityGroups; a pod joins the group
// with the largest priority not above its own, the lowest group when it
// is below all), and the groups are shut down one after the other from
// the lowest priority, every pod of a group killed at once with the
// group's grace period or its own shorter terminationGracePeriodSeconds.
// The kubelet waits for a group at most its grace period; groups without
// pods are skipped. Each pod's final status is the one the kubelet writes
// (KubeletKillStatus). A disabled configuration gives Disabled. A nil pod
// or an invalid configuration is an error wrapping api.ErrInvalidInput.
func BuildShutdownTimeline(pods []*api.Pod, cfg ShutdownConfig, now time.Time) (ShutdownTimeline, error) {
	for i, p := range pods {
		if p == nil {
			return ShutdownTimeline{}, fmt.Errorf("%w: pods[%d]: nil", errInvalidInput, i)
		}
	}
	prio, err := cfg.PriorityGroups()
	if err != nil {
		return ShutdownTimeline{}, err
	}
	if !cfg.Enabled() {
		return ShutdownTimeline{Disabled: true}, nil
	}
	t := ShutdownTimeline{Start: now, Groups: make([]ShutdownGroup, len(prio)), Pods: make([]ShutdownKill, len(pods))}
	for i, g := range prio {
		t.Groups[i] = ShutdownGroup{Priority: g.Priority, GracePeriodSeconds: g.ShutdownGracePeriodSeconds}
	}
	for i, p := range pods {
		var pr int32
		if p.Spec.Priority != nil {
			pr = *p.Spec.Priority
		}
		gi := shutdownGroupOf(prio, pr)
		t.Groups[gi].Pods = append(t.Groups[gi].Pods, p)
		t.Pods[i] = ShutdownKill{Pod: p, Group: gi}
	}
	event := func(at time.Time, kind ShutdownEventKind, group int, pod, detail string) {
		t.Events = append(t.Events, ShutdownEvent{At: at, Offset: at.Sub(now), Kind: kind, Group: group, Pod: pod, Detail: detail})
	}
	event(now, ShutdownStarted, -1, "", fmt.Sprintf("%d pods in %d priority groups", len(pods), len(prio)))
	at := now
	for gi := range t.Groups {
		g := &t.Groups[gi]
		g.Start, g.End = at, at
		if len(g.Pods) == 0 {
			event(at, ShutdownGroupSkipped, gi, "", fmt.Sprintf("priority %d: no pods", g.Priority))
			continue
		}
		event(at, ShutdownGroupStarted, gi, "", fmt.Sprintf("priority %d: %d pods, waiting at most %ds", g.Priority, len(g.Pods), g.GracePeriodSeconds))
		for i := range t.Pods {
			k := &t.Pods[i]
			if k.Group != gi {
				continue
			}
			k.At = at
			k.GracePeriodSeconds, k.Source = g.GracePeriodSeconds, SourceShutdownGroup
			if tg := k.Pod.Spec.TerminationGracePeriodSeconds; tg != nil && *tg <= g.GracePeriodSeconds {
				k.GracePeriodSeconds, k.Source = *tg, SourcePodSpec
			}
			k.Worker = KubeletPodGrace(k.Pod, PodWorkerState{Override: ptr(k.GracePeriodSeconds)})
			phase := api.PodFailed
			if k.Pod.Status.Phase == api.PodSucceeded {
				phase = api.PodSucceeded
			}
			k.Status = KubeletKillStatus(k.Pod, phase, ReasonNodeShutdown, MessageNodeShutdown, at)
			event(at, ShutdownPodKilled, gi, k.Pod.Name, fmt.Sprintf("grace %ds from %s", k.GracePeriodSeconds, k.Source))
		}
		at = at.Add(GraceDuration(g.GracePeriodSeconds))
		g.End = at
		event(at, ShutdownGroupTimedOut, gi, "", fmt.Sprintf("priority %d: %ds elapsed", g.Priority, g.GracePeriodSeconds))
	}
	t.Deadline = at
	event(at, ShutdownFinished, -1, "", "")
	return t, nil
}
