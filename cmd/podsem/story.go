package main

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/probe"
)

// storyStep is one event of the pod's replayed life and the state it
// leaves the pod in.
type storyStep struct {
	at    time.Duration // since the pod was bound
	event lifecycle.Event
	phase api.PodPhase
	row   lifecycle.DisplayRow
}

// state is the step's state as the lifecycle diagram names it: the kubectl
// STATUS column and READY.
func (s storyStep) state() string {
	return s.row.Status + " " + s.row.Ready
}

// replay runs the pod through lifecycle.Machine on a happy path: it is
// bound, its sandbox comes up, images pull, each container starts when the
// machine asks, postStart hooks succeed, regular init containers exit 0,
// startup and readiness probes succeed; once nothing more happens the pod is deleted as `kubectl
// delete` does (no grace period given), preStop hooks finish as the machine
// times them, and each container exits when it is asked to stop. It
// returns the steps that changed what `kubectl get pods` shows. Events
// are one second apart unless the machine asks to be woken later.
func replay(pod *api.Pod, start time.Time) []storyStep {
	p := deepCopy(pod)
	node := p.Spec.NodeName
	if node == "" {
		node = "node"
	}
	m := lifecycle.NewMachine(p, lifecycle.MachineConfig{})

	queue := []lifecycle.Event{lifecycle.Scheduled(node)}
	now := start
	var steps []storyStep
	last := ""
	deleted := false
	for i := 0; i < 1000 && !m.Removed(); i++ {
		if len(queue) == 0 {
			if deleted {
				queue = append(queue, lifecycle.Tick())
			} else {
				queue = append(queue, lifecycle.DeletionRequested(-1))
				deleted = true
			}
		}
		ev := queue[0]
		queue = queue[1:]
		st, actions := m.Step(ev, now)
		row := lifecycle.DisplayStatus(m.Pod(), now)
		s := storyStep{at: now.Sub(start), event: ev, phase: st.Phase, row: row}
		if k := s.state() + string(s.phase); k != last {
			steps = append(steps, s)
			last = k
		}
		next := now.Add(time.Second)
		for _, a := range actions {
			switch a.Kind {
			case lifecycle.ActionCreateSandbox:
				queue = append(queue, lifecycle.SandboxReady("10.244.0.10"))
			case lifecycle.ActionPullImage:
				queue = append(queue, lifecycle.ImagePulled(a.Container))
			case lifecycle.ActionStartContainer:
				queue = append(queue, lifecycle.ContainerStarted(a.Container))
				ref, ok := p.Spec.FindContainer(a.Container)
				if !ok {
					continue
				}
				// A postStart hook returns before anything else happens to
				// the container: an exec or httpGet hook succeeds at once, a
				// sleep hook is over after its seconds, which the machine
				// times itself.
				if lc := ref.Container.Lifecycle; lc != nil && lc.PostStart != nil && ref.Kind != api.ContainerKindEphemeral {
					if sl := lc.PostStart.Sleep; sl != nil {
						for range min(max(sl.Seconds, 0), 300) {
							queue = append(queue, lifecycle.Tick())
						}
					} else {
						queue = append(queue, lifecycle.PostStartFinished(a.Container))
					}
				}
				if ref.Kind == api.ContainerKindInit {
					queue = append(queue, lifecycle.ContainerExited(a.Container, 0, ""))
					continue
				}
				for _, k := range []api.ProbeKind{api.ProbeStartup, api.ProbeReadiness} {
					if k.Of(ref.Container) != nil {
						queue = append(queue, lifecycle.ProbeResult(a.Container, k, true))
					}
				}
			case lifecycle.ActionKillContainer:
				queue = append(queue, lifecycle.ContainerExited(a.Container, 0, ""))
			case lifecycle.ActionRetryAt:
				if len(queue) == 0 && a.At.After(next) {
					next = a.At
				}
			}
		}
		if m.Removed() {
			break
		}
		now = next
	}
	if m.Removed() && len(steps) > 0 {
		steps = append(steps, storyStep{at: now.Sub(start), phase: "", row: lifecycle.DisplayRow{Status: "removed"}})
	}
	return steps
}

// eventText is an event as the story prints it.
func eventText(e lifecycle.Event) string {
	if e.Kind == 0 {
		return "(object removed)"
	}
	return e.String()
}

// probeSchedule is when one probe of one container runs, as the kubelet's
// probe worker (package probe) decides, with t=0 the container's start.
type probeSchedule struct {
	container string
	kind      api.ProbeKind
	spec      api.Probe // as stored (defaulted)
	err       error
	// runs are the first probes' times when every probe succeeds.
	runs []time.Duration
	// settled is when a success scenario's result took effect: started
	// (startup), ready (readiness); zero for liveness.
	settled  time.Duration
	settles  bool
	killedAt time.Duration // startup, liveness: when every probe fails, the container is killed at
	kills    bool
}

// probeRuns is how many probe times a schedule lists.
const probeRuns = 4

// probeSchedules simulates every probe of the pod's containers and
// sidecars. Each container is taken as started at t=0, when its workers
// also start (so their tickers fire at 0, one period, two...): the
// kubelet's first-tick jitter after a kubelet restart is left out.
func probeSchedules(pod *api.Pod, start time.Time) []probeSchedule {
	var out []probeSchedule
	var cs []api.Container
	for _, c := range pod.Spec.InitContainers {
		if c.IsSidecar() {
			cs = append(cs, c)
		}
	}
	cs = append(cs, pod.Spec.Containers...)
	for _, c := range cs {
		kinds := []api.ProbeKind{api.ProbeStartup, api.ProbeReadiness, api.ProbeLiveness}
		for _, k := range kinds {
			spec := k.Of(&c)
			if spec == nil {
				continue
			}
			ps := probeSchedule{container: c.Name, kind: k, spec: *spec}
			ok := simulate(pod, c.Name, k, probe.OutcomeSuccess, start, &ps)
			if ok && (k == api.ProbeStartup || k == api.ProbeLiveness) {
				simulate(pod, c.Name, k, probe.OutcomeFailure, start, &ps)
			}
			out = append(out, ps)
		}
	}
	return out
}

// simulate runs the container's workers from t=0: every probe other than
// kind succeeds, kind's answers outcome. The startup worker's success
// marks the container started for the others. With OutcomeSuccess it
// records kind's first probe times and when its result settled; with
// OutcomeFailure, when the container is killed.
func simulate(pod *api.Pod, container string, kind api.ProbeKind, outcome probe.Outcome, start time.Time, ps *probeSchedule) bool {
	ref, ok := pod.Spec.FindContainer(container)
	if !ok {
		ps.err = fmt.Errorf("container %q not found", container)
		return false
	}
	c := ref.Container
	started := api.ProbeStartup.Of(c) == nil
	cst := api.ContainerStatus{
		Name:        container,
		ContainerID: "containerd://" + container,
		Image:       c.Image,
		State:       api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(start)}},
		Started:     &started,
	}
	status := &api.PodStatus{Phase: api.PodRunning, StartTime: api.NewTimePtr(start)}
	if ref.Kind == api.ContainerKindInit || ref.Kind == api.ContainerKindSidecar {
		status.InitContainerStatuses = []api.ContainerStatus{cst}
	} else {
		status.ContainerStatuses = []api.ContainerStatus{cst}
	}
	setStarted := func() {
		t := true
		if len(status.InitContainerStatuses) > 0 {
			status.InitContainerStatuses[0].Started = &t
		} else {
			status.ContainerStatuses[0].Started = &t
		}
	}
	type run struct {
		kind api.ProbeKind
		w    *probe.Worker
	}
	var workers []run
	for _, k := range []api.ProbeKind{api.ProbeStartup, api.ProbeReadiness, api.ProbeLiveness} {
		if k.Of(c) == nil {
			continue
		}
		w, err := probe.NewWorker(k, pod, container, probe.WorkerConfig{})
		if err != nil {
			if k == kind {
				ps.err = err
				return false
			}
			continue
		}
		workers = append(workers, run{k, w})
	}
	horizon := start.Add(time.Hour)
	for now := start; !now.After(horizon); {
		// A startup success reaches the other workers through the status
		// the kubelet writes after the tick, not within it.
		markStarted := false
		for _, r := range workers {
			if d := r.w.NextDeadline(); r.w.Stopped() || now.Before(d) {
				continue
			}
			o := probe.OutcomeSuccess
			if r.kind == kind {
				o = outcome
			}
			st := r.w.Step(probe.Input{Status: status, Outcome: o}, now)
			if st.Effect == probe.EffectMarkStarted {
				markStarted = true
			}
			if r.kind != kind {
				continue
			}
			at := now.Sub(start)
			if outcome != probe.OutcomeSuccess {
				if st.Effect == probe.EffectKillContainer {
					ps.killedAt, ps.kills = at, true
					return true
				}
				continue
			}
			if st.Probed && len(ps.runs) < probeRuns {
				ps.runs = append(ps.runs, at)
			}
			if (st.Effect == probe.EffectMarkStarted || st.Effect == probe.EffectMarkReady) && !ps.settles {
				ps.settled, ps.settles = at, true
			}
			if len(ps.runs) >= probeRuns || st.OnHold {
				return true
			}
		}
		if markStarted {
			setStarted()
		}
		// On to the earliest next tick of a worker still running.
		var next time.Time
		for _, r := range workers {
			if r.w.Stopped() {
				continue
			}
			if d := r.w.NextDeadline(); next.IsZero() || d.Before(next) {
				next = d
			}
		}
		if next.IsZero() {
			return true
		}
		if !next.After(now) {
			next = now.Add(time.Second)
		}
		now = next
	}
	return true
}
