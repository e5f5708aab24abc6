package lifecycle

import (
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// containerKill is one killContainer of the kubelet's runtime manager
// (pkg/kubelet/kuberuntime) in progress: the preStop hook runs for at most
// the grace period, a sidecar then waits for its turn to stop, and the
// stop signal goes out with what is left (at least 2 s) before SIGKILL.
// The arithmetic is termination.ContainerGrace's; the Machine only keeps
// the time.
type containerKill struct {
	round    int // the pod's kill round this kill belongs to; 0 for a probe kill
	start    time.Time
	reason   termination.KillReason
	override *int64 // the pod worker's grace handed to killContainer
	budget   int64  // the grace period the kill starts from
	why      string

	hook           bool      // waiting for the preStop hook
	hookEnd        time.Time // when a sleep hook ends (zero for exec and httpGet hooks)
	hookReported   bool      // EventPreStopFinished arrived
	hookReportedAt time.Time
	hookDone       time.Time     // when the kubelet stopped waiting for the hook
	hookElapsed    time.Duration // hookDone - start, at most the budget

	ordered bool // a sidecar stopping with its pod: waits for its turn

	signalled bool
	killAt    time.Time // signal time plus the stop timeout
	forced    bool      // the SIGKILL (a kill with grace 0) was asked for
}

// requestDeletion records a DELETE of the pod: the API server's decision
// (termination.APIServerGrace) sets or shortens the deletion fields, and
// the kubelet's pod worker terminates the pod with its grace period.
func (m *Machine) requestDeletion(grace int64, now time.Time, acts *[]Action) {
	opts := &api.DeleteOptions{}
	if grace >= 0 {
		opts.GracePeriodSeconds = &grace
	}
	d, err := termination.APIServerGrace(&m.pod, opts, now)
	if err != nil || d.Outcome == termination.OutcomePending || d.Outcome == termination.OutcomeRejected {
		return
	}
	if d.DeletionTimestamp != nil {
		m.pod.DeletionTimestamp = api.NewTimePtr(*d.DeletionTimestamp)
	}
	if d.DeletionGracePeriodSeconds != nil {
		g := *d.DeletionGracePeriodSeconds
		m.pod.DeletionGracePeriodSeconds = &g
	}
	m.pod.Generation = d.Generation
	m.deleted = true
	if !m.scheduled || m.finalized {
		// Unscheduled and terminal pods are removed at once.
		m.removed = true
		*acts = append(*acts, Action{Kind: ActionRemovePod, Reason: "deleted"})
		return
	}
	if m.nodeLost {
		return // nobody on the node hears of it
	}
	m.startTerminating(now)
}

// kill is the kubelet's own kill of the pod (EventKilled): the pod
// worker's kill with the event's grace-period override, and from now on
// the status the kill's status function writes (KubeletKillStatus). A
// second kill may only shorten the grace period; the first one's status
// stands. A pod already terminal is left alone.
func (m *Machine) kill(ev Event, now time.Time) {
	if m.finalized {
		return
	}
	if g := ev.GraceSeconds; g >= 0 && (m.override == nil || g < *m.override) {
		m.override = &g
	}
	if !m.killed {
		m.killed = true
		phase := api.PodFailed
		if m.phase == api.PodSucceeded {
			phase = api.PodSucceeded
		}
		st := killStatus(&m.pod, phase, ev.Reason, ev.Message, now)
		if c := api.FindCondition(st.Conditions, api.DisruptionTarget); c != nil {
			m.killCond = *c
		}
		m.phase, m.reason, m.message = phase, ev.Reason, ev.Message
	}
	m.startTerminating(now)
}

// startTerminating makes the kubelet stop the pod with the pod worker's
// grace period (termination.KubeletPodGrace, which only ever shortens and
// is at least 1 s). A first stop, or a shorter grace period, starts a new
// kill round at now.
func (m *Machine) startTerminating(now time.Time) {
	var recorded int64
	if m.terminating {
		recorded = m.podGrace
	}
	g := termination.KubeletPodGrace(&m.pod, termination.PodWorkerState{RecordedGracePeriodSeconds: recorded, Override: m.override})
	if m.terminating && !g.Changed {
		return
	}
	m.terminating = true
	m.podGrace = g.GracePeriodSeconds
	m.round++
}

// startKill begins the kubelet's killContainer for c at now: with an
// override, the pod worker's grace period of a pod termination; without,
// the container's own grace period for reason (a failed liveness or
// startup probe's terminationGracePeriodSeconds, ...). The kubelet records
// the Normal event Killing with message first; the preStop hook runs
// next, once per run, when there is time for it.
func (m *Machine) startKill(c *mcontainer, reason termination.KillReason, override *int64, why, message string, now time.Time, acts *[]Action) {
	r, err := termination.ContainerGrace(&m.pod, termination.ContainerKill{ContainerName: c.spec.Name, Reason: reason, GracePeriodOverride: override})
	if err != nil {
		return // not reached: the container is the pod's own
	}
	m.record(c, api.EventTypeNormal, "Killing", message, acts)
	budget := r.BaseGracePeriodSeconds
	if override != nil {
		budget = *override
	}
	k := &containerKill{start: now, reason: reason, override: override, budget: budget, why: why, hookDone: now}
	if override != nil {
		k.round = m.round
		k.ordered = c.kind == api.ContainerKindSidecar
	}
	if c.kind != api.ContainerKindEphemeral && !c.preStopRun && c.spec.Lifecycle != nil && c.spec.Lifecycle.PreStop != nil && budget > 0 {
		c.preStopRun = true
		k.hook = true
		if c.spec.Lifecycle.PreStop.Sleep != nil {
			// The kubelet runs a sleep hook itself: it ends on its own.
			k.hookEnd = now.Add(termination.PreStopRuntime(c.spec))
		}
		*acts = append(*acts, Action{Kind: ActionRunPreStop, Container: c.spec.Name, Reason: why})
	}
	c.kill = k
	m.advanceKill(c, now, acts)
}

// advanceKill moves c's kill on at now: the end of the preStop hook, the
// sidecar's turn, the stop signal, the SIGKILL. It returns when the kill
// next needs the machine's attention (zero when it waits for nothing
// timed).
func (m *Machine) advanceKill(c *mcontainer, now time.Time, acts *[]Action) time.Time {
	k := c.kill
	if k == nil || c.state != runRunning {
		return time.Time{}
	}
	if k.hook {
		limit := k.start.Add(termination.GraceDuration(k.budget))
		switch {
		case k.hookReported && k.hookReportedAt.Before(limit):
			k.hookDone = k.hookReportedAt
		case !k.hookEnd.IsZero() && k.hookEnd.Before(limit) && !now.Before(k.hookEnd):
			k.hookDone = k.hookEnd
		case !now.Before(limit):
			k.hookDone = limit // the kubelet stops waiting for the hook
		default:
			if !k.hookEnd.IsZero() && k.hookEnd.Before(limit) {
				return k.hookEnd
			}
			return limit
		}
		k.hook = false
		k.hookElapsed = k.hookDone.Sub(k.start)
	}
	if !k.signalled {
		signalAt := later(now, k.hookDone)
		if k.ordered {
			// A sidecar waits for the regular containers and the next
			// sidecar declared after it to stop, for at most what is left
			// of its grace period (whole seconds of the hook subtracted).
			left := k.budget - int64(k.hookElapsed/time.Second)
			limit := k.hookDone.Add(termination.GraceDuration(max(left, 0)))
			if !m.sidecarTurn(c) && now.Before(limit) {
				return limit
			}
			if limit.Before(signalAt) {
				signalAt = later(limit, k.hookDone)
			}
		}
		elapsed := k.hookElapsed
		r, err := termination.ContainerGrace(&m.pod, termination.ContainerKill{
			ContainerName:       c.spec.Name,
			Reason:              k.reason,
			GracePeriodOverride: k.override,
			PreStopDuration:     &elapsed,
			OrderingWait:        signalAt.Sub(k.hookDone),
		})
		if err != nil {
			return time.Time{}
		}
		k.signalled = true
		k.killAt = signalAt.Add(termination.GraceDuration(r.GracePeriodSeconds))
		*acts = append(*acts, Action{Kind: ActionKillContainer, Container: c.spec.Name, GraceSeconds: r.GracePeriodSeconds, Reason: k.why})
	}
	if k.forced {
		return time.Time{}
	}
	if now.Before(k.killAt) {
		return k.killAt
	}
	k.forced = true
	*acts = append(*acts, Action{Kind: ActionKillContainer, Container: c.spec.Name, Reason: "grace period expired"})
	return time.Time{}
}

// sidecarTurn reports whether the sidecar c may be sent its stop signal
// during a pod termination: no regular container runs, and the next
// sidecar in spec.initContainers (if any) does not run either, as the
// kubelet's termination ordering (kuberuntime newTerminationOrdering) has
// it.
func (m *Machine) sidecarTurn(c *mcontainer) bool {
	for i := range m.regular {
		if m.regular[i].state == runRunning {
			return false
		}
	}
	// The sidecar's position, found by name as api.PodSpec.FindContainer
	// finds it.
	for i := m.find(c.spec.Name).index + 1; i < len(m.init); i++ {
		if m.init[i].kind == api.ContainerKindSidecar {
			return m.init[i].state != runRunning
		}
	}
	return true
}

// stop drives a terminating pod: abandon pending starts, kill every
// running container in parallel with the pod worker's grace period (a
// sidecar's stop signal waits for its turn), and finalize once nothing
// runs.
func (m *Machine) stop(now time.Time, acts *[]Action) {
	m.eachContainer(func(c *mcontainer) {
		if c.state == runPulling || c.state == runStarting {
			c.cancelled = c.state == runStarting
			c.state = c.prior
		}
	})
	grace := m.podGrace
	// The kubelet kills them all at once; the actions list the app
	// containers first.
	for _, list := range [3][]mcontainer{m.regular, m.ephemeral, m.init} {
		for i := range list {
			c := &list[i]
			if c.state != runRunning || (c.kill != nil && c.kill.round == m.round) {
				continue
			}
			// A first round, or a shorter grace period, kills the
			// container (again) with the pod worker's grace period; a
			// hook that already ran is not run again.
			m.startKill(c, termination.KillReasonUnknown, &grace, m.stopReason(), "Stopping container "+c.spec.Name, now, acts)
		}
	}
	running := false
	m.eachContainer(func(c *mcontainer) {
		if c.state == runRunning {
			running = true
		}
	})
	if !running {
		m.finalized = true
		if len(m.sandboxes) > 0 && m.sandboxes[0].Ready {
			// With every container stopped the kubelet stops the sandbox.
			m.sandboxes[0].Ready = false
			*acts = append(*acts, Action{Kind: ActionStopSandbox, Reason: m.stopReason()})
		}
	}
}

// advanceKills moves every kill in progress on and asks to be stepped
// again when the earliest of them next needs it.
func (m *Machine) advanceKills(now time.Time, acts *[]Action) {
	var next time.Time
	var why string
	whyRank := -1
	m.eachContainer(func(c *mcontainer) {
		at := m.advanceKill(c, now, acts)
		if at.IsZero() || (!next.IsZero() && next.Before(at)) {
			return
		}
		// At equal times the stop timeout names the wake-up, then a hook.
		w, rank := "grace period", 2
		switch {
		case c.kill.hook:
			w, rank = "preStop hook", 1
		case !c.kill.signalled:
			w, rank = "sidecar stop order", 0
		}
		if next.IsZero() || at.Before(next) || rank > whyRank {
			next, why, whyRank = at, w, rank
		}
	})
	if next.IsZero() {
		return
	}
	m.wake(next)
	if !m.wakes[next] {
		if m.wakes == nil {
			m.wakes = map[time.Time]bool{}
		}
		m.wakes[next] = true
		*acts = append(*acts, Action{Kind: ActionRetryAt, At: next, Reason: why})
	}
}

func later(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}
