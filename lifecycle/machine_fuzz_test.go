package lifecycle

import (
	"errors"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// FuzzParseEvent: ParseEvent never panics, wraps ErrBadEvent on failure,
// and what it accepts survives a round trip through Event.String.
func FuzzParseEvent(f *testing.F) {
	for _, s := range []string{"Scheduled(node-1)", "SandboxReady(10.0.0.5)", "SandboxDied", "ImagePulled(app)",
		"ContainerStarted(app)", "ContainerExited(app, 1)", "ContainerExited(app, 137, OOMKilled)",
		"ProbeResult(app, readiness, true)", "DeletionRequested(30)", "NodeLost", "Tick()", "Tick(x)",
		"ContainerExited(a, b)", "ProbeResult(app, sideways, true)", "Scheduled(", "",
		"Rejected(node-1, OutOfcpu, Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000)",
		"Rejected(node-1, NodeAffinity, Predicate NodeAffinity failed: node(s) didn't match)", "Rejected(n, r, )",
		"PostStartFinished(app)", "PostStartFailed(app, exited with 1: , message: \"\")", "PreStopFailed(app)",
		"PreStopFinished(app)", "PostStartFailed(app)", "Rejected(n, (r), m)",
		"Killed(1, Evicted, The node was low on resource: memory. )", "Killed(-1, Terminated, x, y)", "Killed(x, r, m)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ev, err := ParseEvent(s)
		if err != nil {
			if !errors.Is(err, ErrBadEvent) {
				t.Fatalf("error %v does not wrap ErrBadEvent", err)
			}
			return
		}
		again, err := ParseEvent(ev.String())
		if err != nil {
			t.Fatalf("%q parsed to %v, whose rendering does not parse: %v", s, ev, err)
		}
		if again != ev {
			t.Fatalf("round trip of %q: %+v then %+v", s, ev, again)
		}
	})
}

// FuzzMachineStep feeds a Machine events decoded from arbitrary bytes and
// checks that it never panics and its phase never goes back.
func FuzzMachineStep(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 1, 3, 4, 5, 40, 60, 80, 100, 4, 4, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		always := api.RestartPolicyAlways
		pod := appPod(api.RestartPolicyOnFailure,
			[]api.Container{initC("init-a"), {Name: "side", Image: "envoy", RestartPolicy: &always, StartupProbe: &api.Probe{}}},
			api.Container{Name: "app", Image: "busybox", LivenessProbe: &api.Probe{}, ReadinessProbe: &api.Probe{},
				Lifecycle: &api.Lifecycle{PostStart: &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"warm"}}}}})
		ads := int64(500)
		pod.Spec.ActiveDeadlineSeconds = &ads
		m := NewMachine(pod, present)
		names := []string{"init-a", "side", "app", "ghost"}
		now := machineT0
		phase := api.PodPhase("")
		for i := 0; i+1 < len(data); i += 2 {
			op, arg := data[i], data[i+1]
			name := names[int(arg)%len(names)]
			var ev Event
			switch op % 14 {
			case 0:
				ev = Scheduled("n")
			case 1:
				ev = SandboxReady("10.0.0.1")
			case 2:
				ev = SandboxDied()
			case 3:
				ev = ImagePulled(name)
			case 4:
				ev = ContainerStarted(name)
			case 5:
				ev = ContainerExited(name, int32(arg%3), "")
			case 6:
				ev = ProbeResult(name, api.ProbeKind(arg%4), arg%2 == 0)
			case 7:
				ev = DeletionRequested(int64(arg%40) - 5)
			case 8:
				ev = NodeUnreachable()
			case 9:
				ev = PostStartFinished(name)
			case 10:
				ev = PostStartFailed(name, "exit 1")
			case 11:
				ev = Rejected("n", "OutOfcpu", "no cpu")
			case 12:
				ev = Killed(int64(arg%3)-1, "Evicted", "low on memory")
			default:
				ev = Tick()
			}
			now = now.Add(time.Duration(arg) * time.Second)
			st, _ := m.Step(ev, now)
			if phase != "" {
				if err := ValidPhaseTransition(phase, st.Phase); err != nil {
					t.Fatalf("after %v: %v", ev, err)
				}
			}
			phase = st.Phase
		}
	})
}
