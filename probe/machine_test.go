package probe_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/probe"
)

func livenessPod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "liveness-exec", Namespace: "default", UID: "u1"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "liveness", Image: "registry.k8s.io/busybox:1.27",
			LivenessProbe: &api.Probe{
				ProbeHandler:        api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"cat", "/tmp/healthy"}}},
				InitialDelaySeconds: 5, PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
		}}},
	}
}

// runningMachine starts the pod's only container in a fresh machine.
func runningMachine(t testing.TB, pod *api.Pod, start time.Time) (*lifecycle.Machine, api.PodStatus) {
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{ImagesPresent: []string{pod.Spec.Containers[0].Image}})
	var st api.PodStatus
	for _, ev := range []lifecycle.Event{
		lifecycle.Scheduled("node-1"), lifecycle.SandboxReady("10.0.0.9"), lifecycle.ContainerStarted("liveness"),
	} {
		st, _ = m.Step(ev, start)
	}
	if st.Phase != api.PodRunning {
		t.Fatalf("setup: phase %s", st.Phase)
	}
	return m, st
}

func TestWorkerEffectsDriveTheMachine(t *testing.T) {
	pod := livenessPod()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m, st := runningMachine(t, pod, start)
	w, err := probe.NewWorker(api.ProbeLiveness, pod, "liveness", probe.WorkerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	now := start
	var killed *lifecycle.Action
	for i := 0; i < 8 && killed == nil; i++ {
		rep := w.Step(probe.Input{Status: &st, Outcome: probe.OutcomeFailure}, now)
		if ev, ok := rep.MachineEvent(api.ProbeLiveness, "liveness"); ok {
			var acts []lifecycle.Action
			st, acts = m.Step(ev, now)
			for i := range acts {
				if acts[i].Kind == lifecycle.ActionKillContainer {
					killed = &acts[i]
				}
			}
		}
		now = w.NextDeadline()
	}
	if killed == nil {
		t.Fatalf("three liveness failures did not make the machine kill the container")
	}
	if killed.Container != "liveness" || killed.GraceSeconds != 30 {
		t.Errorf("kill action = %+v, want container liveness with the pod's 30 s grace", *killed)
	}
}

func TestMachineEventMapping(t *testing.T) {
	for _, tc := range []struct {
		kind   api.ProbeKind
		effect probe.Effect
		want   string
		ok     bool
	}{
		{api.ProbeLiveness, probe.EffectKillContainer, "ProbeResult(c, liveness, false)", true},
		{api.ProbeStartup, probe.EffectKillContainer, "ProbeResult(c, startup, false)", true},
		{api.ProbeStartup, probe.EffectMarkStarted, "ProbeResult(c, startup, true)", true},
		{api.ProbeReadiness, probe.EffectMarkReady, "ProbeResult(c, readiness, true)", true},
		{api.ProbeReadiness, probe.EffectMarkNotReady, "ProbeResult(c, readiness, false)", true},
		{api.ProbeReadiness, probe.EffectNone, "", false},
	} {
		ev, ok := probe.Report{Effect: tc.effect}.MachineEvent(tc.kind, "c")
		if ok != tc.ok || (ok && ev.String() != tc.want) {
			t.Errorf("%v/%v: got %q, %v; want %q, %v", tc.kind, tc.effect, ev.String(), ok, tc.want, tc.ok)
		}
	}
}

// A probe worker and the pod state machine wired together: the worker
// settles raw outcomes with the probe's thresholds, and the machine acts on
// the settled result.
func ExampleReport_MachineEvent() {
	pod := livenessPod()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{ImagesPresent: []string{"registry.k8s.io/busybox:1.27"}})
	var st api.PodStatus
	for _, ev := range []lifecycle.Event{
		lifecycle.Scheduled("node-1"), lifecycle.SandboxReady("10.0.0.9"), lifecycle.ContainerStarted("liveness"),
	} {
		st, _ = m.Step(ev, start)
	}
	w, _ := probe.NewWorker(api.ProbeLiveness, pod, "liveness", probe.WorkerConfig{})
	now := start
	for i := 0; i < 6; i++ {
		rep := w.Step(probe.Input{Status: &st, Outcome: probe.OutcomeFailure}, now)
		if ev, ok := rep.MachineEvent(api.ProbeLiveness, "liveness"); ok {
			var acts []lifecycle.Action
			st, acts = m.Step(ev, now)
			fmt.Printf("t=%s %s -> %v\n", now.Sub(start), ev, acts)
			for _, a := range acts {
				if a.Kind == lifecycle.ActionKillContainer {
					// The runtime reports the killed container's exit.
					exit := lifecycle.ContainerExited("liveness", 137, "Error")
					_, acts = m.Step(exit, now.Add(time.Second))
					fmt.Printf("t=%s %s -> %v\n", now.Add(time.Second).Sub(start), exit, acts)
				}
			}
		}
		now = w.NextDeadline()
	}
	// Output:
	// t=15s ProbeResult(liveness, liveness, false) -> [Event(Normal Killing: Container liveness failed liveness probe, will be restarted) KillContainer(liveness, 30s) RetryAt(2025-01-01T00:00:45Z, grace period)]
	// t=16s ContainerExited(liveness, 137, Error) -> [StartContainer(liveness) ReportStatus]
}

func TestNewWorkerRefusesTheZeroKind(t *testing.T) {
	if _, err := probe.NewWorker(0, livenessPod(), "liveness", probe.WorkerConfig{}); err == nil {
		t.Fatal("a worker without a probe kind was accepted")
	}
}
