package termination

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// DeleteRequest is a DELETE of a pod plus what the timeline needs to know
// about the pod's processes, which no API object records.
type DeleteRequest struct {
	// Options are the request's DeleteOptions; nil is a DELETE without
	// options, which is what `kubectl delete pod` sends by default (the
	// pod's own terminationGracePeriodSeconds applies).
	Options *api.DeleteOptions
	// PreStop maps a container name to how long its preStop hook would run
	// if nothing cut it short. Containers not listed use PreStopRuntime (a
	// sleep hook's seconds, otherwise an instant hook).
	PreStop map[string]time.Duration
	// ExitAfterSignal maps a container name to how long its process takes
	// to exit once it receives its stop signal. A container not listed
	// ignores the signal and runs until SIGKILL — the worst case the grace
	// period bounds.
	ExitAfterSignal map[string]time.Duration
	// ImageStopSignal maps a container name to the STOPSIGNAL of its image;
	// lifecycle.stopSignal in the spec wins over it, and SIGTERM applies
	// when neither is set.
	ImageStopSignal map[string]string
	// KubeletRestart, when set, is how long after the request the kubelet
	// restarts. A restart during termination forgets the progress: the
	// kubelet starts terminating the containers still running from the
	// beginning, with the full grace period again.
	KubeletRestart *time.Duration
}

// TimelineEventKind names one step of a pod's termination.
type TimelineEventKind string

// The steps of a termination, in the order they happen for one container.
const (
	// TimelineDeleteRequested: the API server receives the DELETE.
	TimelineDeleteRequested TimelineEventKind = "DeleteRequested"
	// TimelineNoChange: a deletion with an equal or shorter grace period is
	// already in progress; the request changes nothing.
	TimelineNoChange TimelineEventKind = "NoChange"
	// TimelineMarkedTerminating: deletionTimestamp and
	// deletionGracePeriodSeconds are set; clients see the pod Terminating.
	TimelineMarkedTerminating TimelineEventKind = "MarkedTerminating"
	// TimelineRemovedFromEndpoints: the endpoint controllers stop routing
	// traffic to the pod, at the same time as the kubelet starts stopping
	// it.
	TimelineRemovedFromEndpoints TimelineEventKind = "RemovedFromEndpoints"
	// TimelineTerminationStarted: the kubelet begins terminating the pod with
	// its pod-level grace period.
	TimelineTerminationStarted TimelineEventKind = "TerminationStarted"
	// TimelineKubeletRestarted: the kubelet restarted mid-termination and
	// begins again with the full grace period.
	TimelineKubeletRestarted TimelineEventKind = "KubeletRestarted"
	// TimelinePreStopStarted: the container's preStop hook starts.
	TimelinePreStopStarted TimelineEventKind = "PreStopStarted"
	// TimelinePreStopFinished: the hook completed.
	TimelinePreStopFinished TimelineEventKind = "PreStopFinished"
	// TimelinePreStopTimedOut: the hook was still running when the grace period
	// ran out; the kubelet stops waiting for it.
	TimelinePreStopTimedOut TimelineEventKind = "PreStopTimedOut"
	// TimelineGraceExtended: less than 2 s of grace was left for the stop
	// signal, so the container gets the one-time 2 s minimum.
	TimelineGraceExtended TimelineEventKind = "GraceExtended"
	// TimelineStopSignal: the runtime sends the stop signal (SIGTERM, the
	// image's STOPSIGNAL or lifecycle.stopSignal).
	TimelineStopSignal TimelineEventKind = "StopSignal"
	// TimelineExited: the container's process exited on its own after its
	// stop signal, before the stop timeout ran out (a prediction from
	// DeleteRequest.ExitAfterSignal, not an observed exit).
	TimelineExited TimelineEventKind = "ExitedAfterSignal"
	// TimelineKilled: the stop timeout ran out and the runtime sent SIGKILL.
	TimelineKilled TimelineEventKind = "Killed"
	// TimelineStatusReported: the kubelet reports the pod's final status.
	TimelineStatusReported TimelineEventKind = "StatusReported"
	// TimelineObjectRemoved: the pod object leaves the API (a DELETE with grace
	// 0, by the kubelet at the end or by the API server at once for a force
	// deletion).
	TimelineObjectRemoved TimelineEventKind = "ObjectRemoved"
	// TimelineAwaitingFinalizers: the DELETE with grace 0 that would remove
	// the object leaves it in the API instead, marked for deletion, because
	// it carries finalizers; it goes when an update removes the last one
	// (UpdateFinalizers). Until then its name stays taken.
	TimelineAwaitingFinalizers TimelineEventKind = "AwaitingFinalizers"
)

// TimelineEvent is one step of a termination timeline.
type TimelineEvent struct {
	At time.Time
	// Offset is At minus the time of the request.
	Offset time.Duration
	Kind   TimelineEventKind
	// Container names the container for per-container steps.
	Container string
	// Signal is the stop signal for TimelineStopSignal.
	Signal string
	// GraceSeconds is, for TimelineStopSignal, the stop timeout handed to
	// the runtime (ContainerGrace): the seconds from the signal to SIGKILL.
	GraceSeconds int64
	// Detail explains the step and the numbers behind it.
	Detail string
}

// Timeline is the ordered sequence of what happens after a DELETE of a pod.
type Timeline struct {
	// API is the API server's decision on the request.
	API APIServerDecision
	// Grace is the kubelet's pod-level grace period (zero when the kubelet
	// has nothing to stop).
	Grace PodGrace
	// Start is when the kubelet begins (or, after a restart, last began)
	// terminating; Deadline is Start plus Grace.
	Start, Deadline time.Time
	// ForceDeleted reports that the object was removed before the pod's
	// processes were confirmed stopped; Warning is then
	// ForceDeleteWarning.
	ForceDeleted bool
	Warning      string
	// Events are ordered by time; steps at the same instant keep their
	// causal order.
	Events []TimelineEvent
}

// String renders the timeline one event per line, offsets from the
// request.
func (t Timeline) String() string {
	var b strings.Builder
	for _, e := range t.Events {
		writeEventLine(&b, e.Offset, 20, string(e.Kind), e.Container, e.Detail)
	}
	return b.String()
}

// writeEventLine writes one line of a rendered timeline: the offset in
// seconds, the kind padded to width, the subject (a container or a pod) in
// brackets and the detail, each only when set.
func writeEventLine(b *strings.Builder, offset time.Duration, width int, kind, subject, detail string) {
	fmt.Fprintf(b, "%+6.1fs  %-*s", offset.Seconds(), width, kind)
	if subject != "" {
		fmt.Fprintf(b, " [%s]", subject)
	}
	if detail != "" {
		b.WriteString(" ")
		b.WriteString(detail)
	}
	b.WriteString("\n")
}

// BuildTimeline computes the termination timeline of pod for a DELETE
// received at now, putting together the API server's decision
// (APIServerGrace), the kubelet's pod grace (KubeletPodGrace) and each
// container's stop (ContainerGrace), as v1.36.3 sequences them and source
// documents 000 and 002 describe:
//
//   - the pod is marked Terminating and leaves the endpoints at once;
//   - the kubelet runs every container's preStop hook in parallel, waiting
//     at most the grace period for it;
//   - it then sends the stop signal; the runtime sends SIGKILL when the
//     remaining grace (at least 2 s, the one-time extension for a hook that
//     used up the grace period) runs out;
//   - sidecars (restartable init containers) stop after the main
//     containers, in reverse order;
//   - once every container has stopped the kubelet reports the status and
//     deletes the object with grace 0.
//
// A pod that was never scheduled or has already terminated is removed at
// once with nothing to stop. A force deletion removes the object at once
// while the kubelet still stops the processes (with a 1 s pod grace). A
// repeated DELETE that does not shorten the grace changes nothing. A
// kubelet restart begins the termination of the containers still running
// anew with the full grace period. A pod with finalizers (its own, or the
// garbage collector's that the request's propagation policy adds) is never
// removed by a DELETE: where the object would go, the timeline ends with
// TimelineAwaitingFinalizers, and the name stays taken until the last
// finalizer is removed.
//
// The pod is read as the API server stores it: without
// spec.terminationGracePeriodSeconds it has the default 30 s
// (StoredGracePeriodSeconds), as lifecycle.Machine reads it too. Grace
// periods and durations past the largest time.Duration (about 292 years)
// saturate at it (GraceDuration) where upstream's arithmetic wraps, so no
// step of the timeline comes before the request. A nil pod is an error
// wrapping api.ErrInvalidInput.
func BuildTimeline(pod *api.Pod, req DeleteRequest, now time.Time) (Timeline, error) {
	if pod == nil {
		return Timeline{}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if pod.Spec.TerminationGracePeriodSeconds == nil {
		// The pod being deleted is a stored one, so it carries the API
		// server's default.
		stored := *pod
		stored.Spec.TerminationGracePeriodSeconds = ptr(StoredGracePeriodSeconds(pod))
		pod = &stored
	}
	dec, err := APIServerGrace(pod, req.Options, now)
	if err != nil {
		return Timeline{API: dec}, err
	}
	tl := Timeline{API: dec}
	addEvent := func(e TimelineEvent) {
		e.Offset = e.At.Sub(now)
		tl.Events = append(tl.Events, e)
	}
	add := func(at time.Time, kind TimelineEventKind, container, detail string) {
		addEvent(TimelineEvent{At: at, Kind: kind, Container: container, Detail: detail})
	}
	add(now, TimelineDeleteRequested, "", dec.Reason)
	if dec.Outcome == OutcomePending {
		add(now, TimelineNoChange, "", "the termination already under way continues unchanged")
		return tl, nil
	}
	nothingRuns := pod.Spec.NodeName == "" || pod.Status.Phase.IsTerminal()
	awaiting := func(at time.Time) {
		add(at, TimelineAwaitingFinalizers, "", fmt.Sprintf("finalizers %s hold the object: it stays, marked for deletion, until an update removes the last one", quoteList(dec.Finalizers)))
	}
	if dec.Outcome == OutcomeAwaitingFinalizers {
		add(now, TimelineMarkedTerminating, "", fmt.Sprintf("deletionTimestamp %s, deletionGracePeriodSeconds %d", dec.DeletionTimestamp.UTC().Format(time.RFC3339), *dec.DeletionGracePeriodSeconds))
		if nothingRuns {
			awaiting(now)
			return tl, nil
		}
		add(now, TimelineRemovedFromEndpoints, "", "endpoints stop routing to the pod as its termination begins")
	} else if dec.Immediate {
		tl.ForceDeleted = !nothingRuns
		if tl.ForceDeleted {
			tl.Warning = ForceDeleteWarning
		}
		add(now, TimelineObjectRemoved, "", "removed from storage at once (grace period 0)")
		if !nothingRuns {
			add(now, TimelineRemovedFromEndpoints, "", "the object is gone, so its endpoints go with it")
		}
	} else {
		add(now, TimelineMarkedTerminating, "", fmt.Sprintf("deletionTimestamp %s, deletionGracePeriodSeconds %d", dec.DeletionTimestamp.UTC().Format(time.RFC3339), *dec.DeletionGracePeriodSeconds))
		add(now, TimelineRemovedFromEndpoints, "", "endpoints stop routing to the pod as its termination begins")
	}
	if nothingRuns {
		return tl, nil
	}

	after := *pod
	after.DeletionGracePeriodSeconds = copyInt64(dec.DeletionGracePeriodSeconds)
	if dec.DeletionTimestamp != nil {
		after.DeletionTimestamp = api.NewTimePtr(*dec.DeletionTimestamp)
	}
	after.Finalizers = dec.Finalizers
	// finalDelete is the kubelet's DELETE with grace 0 once every container
	// has stopped: it removes the object, or leaves it to its finalizers.
	finalDelete := func(at time.Time, status string) {
		add(at, TimelineStatusReported, "", status)
		zero := int64(0)
		if fin, err := APIServerGrace(&after, &api.DeleteOptions{GracePeriodSeconds: &zero}, at); err == nil && !fin.Immediate {
			awaiting(at)
			return
		}
		add(at, TimelineObjectRemoved, "", "the kubelet deletes the pod with grace period 0")
	}
	cs := runningContainers(&after, req)
	if len(cs) == 0 {
		if !dec.Immediate {
			finalDelete(now, "no container is running")
		}
		return tl, nil
	}

	tl.Grace = KubeletPodGrace(&after, PodWorkerState{})
	tl.Start = now
	tl.Deadline = now.Add(GraceDuration(tl.Grace.GracePeriodSeconds))
	add(now, TimelineTerminationStarted, "", fmt.Sprintf("pod grace %ds (%s); deadline %s", tl.Grace.GracePeriodSeconds, tl.Grace.Reason, tl.Deadline.UTC().Format(time.RFC3339)))

	restart := time.Time{}
	if req.KubeletRestart != nil && *req.KubeletRestart >= 0 {
		restart = now.Add(*req.KubeletRestart)
	}
	if err := runRound(&after, cs, now, tl.Grace.GracePeriodSeconds, restart, addEvent); err != nil {
		return tl, err
	}
	if !restart.IsZero() {
		var still []*ctrState
		for _, c := range cs {
			if !c.stopped {
				still = append(still, c)
			}
		}
		if len(still) > 0 {
			g := KubeletPodGrace(&after, PodWorkerState{})
			tl.Grace = g
			tl.Start = restart
			tl.Deadline = restart.Add(GraceDuration(g.GracePeriodSeconds))
			add(restart, TimelineKubeletRestarted, "", fmt.Sprintf("termination starts over with the full %ds; deadline %s", g.GracePeriodSeconds, tl.Deadline.UTC().Format(time.RFC3339)))
			if err := runRound(&after, still, restart, g.GracePeriodSeconds, time.Time{}, addEvent); err != nil {
				return tl, err
			}
		}
	}

	end := now
	for _, c := range cs {
		if c.stopAt.After(end) {
			end = c.stopAt
		}
	}
	if !dec.Immediate {
		finalDelete(end, "every container has stopped; the kubelet reports the final status")
	}
	sort.SliceStable(tl.Events, func(i, j int) bool { return tl.Events[i].At.Before(tl.Events[j].At) })
	return tl, nil
}

// ctrState is one container's progress through a termination.
type ctrState struct {
	c        *api.Container
	sidecar  bool
	order    int // a sidecar's index in spec.initContainers
	next     int // index of the next sidecar declared after it, or -1
	preStop  time.Duration
	exitIn   *time.Duration
	signal   string
	exitAt   *time.Time // natural exit once signalled (survives a restart)
	stopped  bool
	stopAt   time.Time
	signaled bool
	signalAt time.Time // first stop signal
}

func runningContainers(pod *api.Pod, req DeleteRequest) []*ctrState {
	var out []*ctrState
	mk := func(c *api.Container, sidecar bool, order int) *ctrState {
		s := &ctrState{c: c, sidecar: sidecar, order: order, next: -1, preStop: PreStopRuntime(c), signal: "SIGTERM"}
		if d, ok := req.PreStop[c.Name]; ok {
			s.preStop = d
		}
		if d, ok := req.ExitAfterSignal[c.Name]; ok {
			d := d
			if d < 0 {
				d = 0
			}
			s.exitIn = &d
		}
		if sig, ok := req.ImageStopSignal[c.Name]; ok && sig != "" {
			s.signal = sig
		}
		if c.Lifecycle != nil && c.Lifecycle.StopSignal != nil && *c.Lifecycle.StopSignal != "" {
			s.signal = *c.Lifecycle.StopSignal
		}
		return s
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if containerTerminated(pod.Status.ContainerStatuses, c.Name) {
			continue
		}
		out = append(out, mk(c, false, 0))
	}
	next := -1
	var sidecars []*ctrState
	for i := len(pod.Spec.InitContainers) - 1; i >= 0; i-- {
		c := &pod.Spec.InitContainers[i]
		if !c.IsSidecar() {
			continue
		}
		if !containerTerminated(pod.Status.InitContainerStatuses, c.Name) {
			s := mk(c, true, i)
			s.next = next
			sidecars = append(sidecars, s)
		}
		next = i
	}
	for i := len(sidecars) - 1; i >= 0; i-- {
		out = append(out, sidecars[i])
	}
	return out
}

func containerTerminated(st []api.ContainerStatus, name string) bool {
	for i := range st {
		if st[i].Name == name {
			return st[i].State.Terminated != nil
		}
	}
	return false
}

// runRound stops the given containers starting at start with pod grace
// seconds. Events at or after cutoff (a kubelet restart; zero for none) are
// not emitted, and containers still running then are left unstopped.
func runRound(pod *api.Pod, cs []*ctrState, start time.Time, grace int64, cutoff time.Time, add func(TimelineEvent)) error {
	emitEvent := func(e TimelineEvent) {
		if !cutoff.IsZero() && !e.At.Before(cutoff) {
			return
		}
		add(e)
	}
	emit := func(at time.Time, kind TimelineEventKind, c *ctrState, detail string) {
		emitEvent(TimelineEvent{At: at, Kind: kind, Container: c.c.Name, Detail: detail})
	}
	// Main containers first, then sidecars from the last declared to the
	// first: each sidecar waits for the main containers and for the next
	// sidecar declared after it, as kuberuntime's termination ordering has
	// it (a next sidecar that is not running holds nothing back).
	order := make([]*ctrState, 0, len(cs))
	for _, c := range cs {
		if !c.sidecar {
			order = append(order, c)
		}
	}
	var sidecars []*ctrState
	for _, c := range cs {
		if c.sidecar {
			sidecars = append(sidecars, c)
		}
	}
	sort.SliceStable(sidecars, func(i, j int) bool { return sidecars[i].order > sidecars[j].order })
	order = append(order, sidecars...)

	deadline := start.Add(GraceDuration(grace))
	var mainStop time.Time
	mainOutlives := false
	inRound := map[int]*ctrState{}
	for _, c := range sidecars {
		inRound[c.order] = c
	}
	for _, c := range order {
		ran := c.c.Lifecycle != nil && c.c.Lifecycle.PreStop != nil && grace > 0
		elapsed := time.Duration(0)
		if ran {
			elapsed = c.preStop
			if elapsed < 0 {
				elapsed = 0
			}
			if limit := GraceDuration(grace); elapsed > limit {
				elapsed = limit
			}
		}
		wait := time.Duration(0)
		if c.sidecar {
			turn := mainStop
			n := inRound[c.next]
			switch {
			case mainOutlives || (n != nil && !n.stopped):
				// A container it waits for outlives this round: it waits
				// as long as its grace period allows.
				turn = deadline.Add(GraceDuration(grace))
			case n != nil && n.stopAt.After(turn):
				turn = n.stopAt
			}
			remaining := grace - int64(elapsed/time.Second)
			if w := turn.Sub(start.Add(elapsed)); w > 0 && remaining > 0 {
				if lim := GraceDuration(remaining); w > lim {
					w = lim
				}
				wait = w
			}
		}
		pe := elapsed
		r, err := ContainerGrace(pod, ContainerKill{
			ContainerName:       c.c.Name,
			Reason:              KillReasonUnknown,
			GracePeriodOverride: ptr(grace),
			PreStopDuration:     &pe,
			OrderingWait:        wait,
		})
		if err != nil {
			return err
		}
		signalAt := start.Add(elapsed).Add(wait) // each at most the largest Duration; their sum could wrap
		killAt := signalAt.Add(GraceDuration(r.GracePeriodSeconds))
		// A process signalled before a kubelet restart keeps its own
		// schedule.
		exitAt := c.exitAt
		if exitAt == nil && c.exitIn != nil {
			t := signalAt.Add(*c.exitIn)
			exitAt = &t
		}
		stopAt, killed := killAt, true
		if exitAt != nil && !exitAt.After(killAt) {
			stopAt, killed = *exitAt, false
		}

		if ran && start.Before(stopAt) {
			emit(start, TimelinePreStopStarted, c, fmt.Sprintf("preStop hook runs (at most %ds)", grace))
			if c.preStop > GraceDuration(grace) {
				if deadline.Before(stopAt) {
					emit(deadline, TimelinePreStopTimedOut, c, fmt.Sprintf("still running at the deadline; the kubelet stops waiting after %ds", grace))
				}
			} else if !start.Add(elapsed).After(stopAt) {
				emit(start.Add(elapsed), TimelinePreStopFinished, c, fmt.Sprintf("took %s; %ds subtracted", elapsed, r.PreStopSeconds))
			}
		}
		if !signalAt.After(stopAt) {
			if r.Source == SourceMinimum {
				emit(signalAt, TimelineGraceExtended, c, fmt.Sprintf("less than %ds of grace left; the runtime still gets %ds before SIGKILL", MinimumContainerGracePeriodSeconds, MinimumContainerGracePeriodSeconds))
			}
			detail := fmt.Sprintf("%s; SIGKILL after %ds", c.signal, r.GracePeriodSeconds)
			if wait > 0 {
				detail += fmt.Sprintf(" (waited %s for the containers that stop before this sidecar)", wait)
			}
			if cutoff.IsZero() || signalAt.Before(cutoff) {
				emitEvent(TimelineEvent{At: signalAt, Kind: TimelineStopSignal, Container: c.c.Name, Signal: c.signal,
					GraceSeconds: r.GracePeriodSeconds, Detail: detail})
				if !c.signaled {
					c.signaled, c.signalAt, c.exitAt = true, signalAt, exitAt
				}
			}
		}
		if !cutoff.IsZero() && !stopAt.Before(cutoff) {
			mainOutlives = mainOutlives || !c.sidecar
			continue
		}
		c.stopped, c.stopAt = true, stopAt
		if killed {
			emit(stopAt, TimelineKilled, c, fmt.Sprintf("SIGKILL: the %ds stop timeout ran out", r.GracePeriodSeconds))
		} else {
			first := signalAt
			if c.signaled {
				first = c.signalAt
			}
			emit(stopAt, TimelineExited, c, fmt.Sprintf("exited %s after its stop signal", exitAt.Sub(first)))
		}
		if !c.sidecar && stopAt.After(mainStop) {
			mainStop = stopAt
		}
	}
	return nil
}
