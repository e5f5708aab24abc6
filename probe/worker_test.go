package probe

import (
	"errors"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// testPod has one container "app" with all three probes (period 10 s,
// success 1, failure 3, no initial delay).
func testPod() *api.Pod {
	pr := func() *api.Probe {
		return &api.Probe{
			ProbeHandler:     api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}},
			PeriodSeconds:    10,
			TimeoutSeconds:   1,
			SuccessThreshold: 1,
			FailureThreshold: 3,
		}
	}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "app", LivenessProbe: pr(), ReadinessProbe: pr(), StartupProbe: pr(),
		}}},
	}
}

func running(id string, started *bool, at time.Time) *api.PodStatus {
	return &api.PodStatus{
		Phase: api.PodRunning,
		ContainerStatuses: []api.ContainerStatus{{
			Name: "app", ContainerID: id, Started: started,
			State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(at)}},
		}},
	}
}

func terminated(id string, code int32) *api.PodStatus {
	return &api.PodStatus{
		Phase: api.PodRunning,
		ContainerStatuses: []api.ContainerStatus{{
			Name: "app", ContainerID: id,
			State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code}},
		}},
	}
}

func TestNewWorkerErrors(t *testing.T) {
	pod := testPod()
	if _, err := NewWorker(api.ProbeLiveness, pod, "nope", WorkerConfig{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("missing container: got %v", err)
	}
	pod.Spec.Containers[0].LivenessProbe = nil
	if _, err := NewWorker(api.ProbeLiveness, pod, "app", WorkerConfig{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("missing probe: got %v", err)
	}
	pod = testPod()
	pod.Spec.Containers[0].ReadinessProbe.PeriodSeconds = 0
	if _, err := NewWorker(api.ProbeReadiness, pod, "app", WorkerConfig{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("zero period: got %v", err)
	}
	if _, err := NewWorker(api.ProbeReadiness, nil, "app", WorkerConfig{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: got %v", err)
	}
	pod = testPod()
	pod.Spec.InitContainers = []api.Container{{Name: "init", LivenessProbe: pod.Spec.Containers[0].LivenessProbe}}
	if _, err := NewWorker(api.ProbeLiveness, pod, "init", WorkerConfig{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("plain init container: got %v", err)
	}
}

type tick struct {
	status  *api.PodStatus
	outcome Outcome
	at      time.Duration
	want    Report
}

func runTicks(t *testing.T, w *Worker, ticks []tick) {
	t.Helper()
	for i, tk := range ticks {
		got := w.Step(Input{Status: tk.status, Outcome: tk.outcome}, t0.Add(tk.at))
		got.Event = nil // the events have their own tests (events_test.go)
		want := tk.want
		if got != want {
			t.Fatalf("tick %d: got %+v\nwant %+v", i, got, want)
		}
	}
}

func TestWorkerLivenessKillsAfterThreshold(t *testing.T) {
	w, err := NewWorker(api.ProbeLiveness, testPod(), "app", WorkerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	st := running("c://1", ptr(true), t0)
	keep := func(s Report) Report { s.ContainerID, s.KeepGoing = "c://1", true; return s }
	runTicks(t, w, []tick{
		{st, OutcomeSuccess, 0, keep(Report{Probed: true, Reason: ReasonProbed, Result: ResultSuccess, Changed: true})},
		{st, OutcomeFailure, 10 * time.Second, keep(Report{Probed: true, Reason: ReasonProbed, Result: ResultSuccess})},
		{st, OutcomeUnknown, 20 * time.Second, keep(Report{Probed: true, Reason: ReasonProbed, Result: ResultSuccess})},
		{st, OutcomeError, 25 * time.Second, keep(Report{Probed: true, Reason: ReasonProbeError, Result: ResultSuccess})},
		{st, OutcomeFailure, 30 * time.Second, keep(Report{Probed: true, Reason: ReasonProbed, Result: ResultFailure, Changed: true, Effect: EffectKillContainer, OnHold: true})},
		{st, OutcomeFailure, 40 * time.Second, keep(Report{Reason: ReasonOnHold, Result: ResultFailure, OnHold: true})},
	})
	// The replacement container is probed again from a fresh run.
	st2 := running("c://2", ptr(true), t0.Add(45*time.Second))
	got := w.Step(Input{Status: st2, Outcome: OutcomeFailure}, t0.Add(50*time.Second))
	if !got.Probed || got.OnHold || got.Result != ResultSuccess || got.ContainerID != "c://2" {
		t.Fatalf("new container: %+v", got)
	}
}

func TestWorkerReadinessInitialAndNotRunning(t *testing.T) {
	w, _ := NewWorker(api.ProbeReadiness, testPod(), "app", WorkerConfig{})
	// Not started yet: readiness waits, but the initial failure is cached.
	got := w.Step(Input{Status: running("c://1", ptr(false), t0), Outcome: OutcomeSuccess}, t0)
	if got.Probed || got.Reason != ReasonNotStarted || got.Result != ResultFailure || got.Effect != EffectMarkNotReady {
		t.Fatalf("before start: %+v", got)
	}
	got = w.Step(Input{Status: running("c://1", ptr(true), t0), Outcome: OutcomeWarning}, t0.Add(10*time.Second))
	if !got.Probed || got.Result != ResultSuccess || got.Effect != EffectMarkReady {
		t.Fatalf("ready: %+v", got)
	}
	// Terminated under restartPolicy Always: failure forced, keeps going.
	got = w.Step(Input{Status: terminated("c://1", 1), Outcome: OutcomeSuccess}, t0.Add(20*time.Second))
	if got.Probed || got.Result != ResultFailure || !got.KeepGoing || got.Effect != EffectMarkNotReady {
		t.Fatalf("terminated: %+v", got)
	}
}

func TestWorkerExitsWhenNoRestart(t *testing.T) {
	pod := testPod()
	pod.Spec.RestartPolicy = api.RestartPolicyOnFailure
	w, _ := NewWorker(api.ProbeReadiness, pod, "app", WorkerConfig{})
	if got := w.Step(Input{Status: terminated("c://1", 0), Outcome: OutcomeSuccess}, t0); got.KeepGoing || got.Result != ResultFailure {
		t.Fatalf("exit 0 under OnFailure: %+v", got)
	}
	if got := w.Step(Input{Status: running("c://2", ptr(true), t0), Outcome: OutcomeSuccess}, t0.Add(time.Minute)); got.KeepGoing || got.Reason != ReasonStopped || got.Probed {
		t.Fatalf("after exit: %+v", got)
	}
	if !w.NextDeadline().IsZero() {
		t.Fatal("a stopped worker has a deadline")
	}
	// A restart rule keeps it going.
	pod = testPod()
	pod.Spec.RestartPolicy = api.RestartPolicyNever
	pod.Spec.Containers[0].RestartPolicy = ptr(api.RestartPolicyNever)
	pod.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{
		Action: api.RestartRuleActionRestart, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: api.ExitCodesOpIn, Values: []int32{42}},
	}}
	w, _ = NewWorker(api.ProbeReadiness, pod, "app", WorkerConfig{})
	if got := w.Step(Input{Status: terminated("c://1", 42), Outcome: OutcomeSuccess}, t0); !got.KeepGoing {
		t.Fatalf("rule Restart: %+v", got)
	}
	if got := w.Step(Input{Status: terminated("c://1", 1), Outcome: OutcomeSuccess}, t0); got.KeepGoing {
		t.Fatalf("no rule match under Never: %+v", got)
	}
}

func TestWorkerPodDeletion(t *testing.T) {
	pod := testPod()
	pod.DeletionTimestamp = api.NewTimePtr(t0)
	for _, k := range []api.ProbeKind{api.ProbeLiveness, api.ProbeStartup} {
		w, _ := NewWorker(k, pod, "app", WorkerConfig{})
		got := w.Step(Input{Status: running("c://1", ptr(k == api.ProbeLiveness), t0), Outcome: OutcomeFailure}, t0)
		if got.Probed || got.KeepGoing || got.Result != ResultSuccess || got.Reason != ReasonPodDeleting {
			t.Errorf("%s: %+v", k, got)
		}
	}
	w, _ := NewWorker(api.ProbeReadiness, pod, "app", WorkerConfig{})
	if got := w.Step(Input{Status: running("c://1", ptr(true), t0), Outcome: OutcomeFailure}, t0); !got.Probed || !got.KeepGoing {
		t.Errorf("readiness while deleting: %+v", got)
	}
}

func TestWorkerInitialDelayAndStartupHold(t *testing.T) {
	pod := testPod()
	pod.Spec.Containers[0].StartupProbe.InitialDelaySeconds = 5
	pod.Spec.Containers[0].StartupProbe.FailureThreshold = 30
	w, _ := NewWorker(api.ProbeStartup, pod, "app", WorkerConfig{})
	got := w.Step(Input{Status: running("c://1", ptr(false), t0), Outcome: OutcomeSuccess}, t0.Add(4900*time.Millisecond))
	if got.Probed || got.Reason != ReasonInitialDelay || got.Result != ResultUnknown {
		t.Fatalf("initial delay: %+v", got)
	}
	got = w.Step(Input{Status: running("c://1", ptr(false), t0), Outcome: OutcomeSuccess}, t0.Add(5*time.Second))
	if !got.Probed || !got.OnHold || got.Result != ResultSuccess || got.Effect != EffectMarkStarted {
		t.Fatalf("startup success holds: %+v", got)
	}
}

func TestWorkerKubeletRestart(t *testing.T) {
	pod := testPod()
	pod.Spec.InitContainers = []api.Container{{Name: "proxy", RestartPolicy: ptr(api.RestartPolicyAlways), StartupProbe: pod.Spec.Containers[0].StartupProbe}}
	cfg := WorkerConfig{KubeletStart: t0.Add(time.Hour)}
	st := &api.PodStatus{Phase: api.PodRunning, InitContainerStatuses: []api.ContainerStatus{{
		Name: "proxy", ContainerID: "c://p", Started: ptr(true),
		State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(t0)}},
	}}}
	w, _ := NewWorker(api.ProbeStartup, pod, "proxy", cfg)
	if got := w.Step(Input{Status: st, Outcome: OutcomeFailure}, t0.Add(time.Hour)); got.Result != ResultSuccess || got.Probed {
		t.Fatalf("started sidecar across a kubelet restart: %+v", got)
	}
	w, _ = NewWorker(api.ProbeReadiness, pod, "app", cfg)
	if got := w.Step(Input{Status: running("c://a", ptr(true), t0), Outcome: OutcomeFailure}, t0.Add(time.Hour)); got.Result != ResultNone || !got.Probed {
		t.Fatalf("regular container across a kubelet restart: %+v", got)
	}
}

func TestWorkerTiming(t *testing.T) {
	w, _ := NewWorker(api.ProbeLiveness, testPod(), "app", WorkerConfig{})
	if !w.NextDeadline().IsZero() {
		t.Fatal("a fresh worker has a deadline before its first tick")
	}
	w.Step(Input{}, t0)
	if got := w.NextDeadline(); !got.Equal(t0.Add(10 * time.Second)) {
		t.Fatalf("after a tick without status: next %v, want one period later", got)
	}
	// A late tick moves the next one: the period counts from the tick.
	w.Step(Input{}, t0.Add(13*time.Second))
	if got := w.NextDeadline(); !got.Equal(t0.Add(23 * time.Second)) {
		t.Fatalf("after a late tick: next %v", got)
	}
	w.Step(Input{Status: &api.PodStatus{Phase: api.PodSucceeded}}, t0.Add(23*time.Second))
	if !w.Stopped() || !w.NextDeadline().IsZero() {
		t.Fatalf("a worker that exited: stopped %v, next %v", w.Stopped(), w.NextDeadline())
	}
}

func TestWouldProbeMatchesStep(t *testing.T) {
	w, _ := NewWorker(api.ProbeLiveness, testPod(), "app", WorkerConfig{})
	st := running("c://1", ptr(true), t0)
	for i := range 6 {
		now := t0.Add(time.Duration(i) * 10 * time.Second)
		would := w.WouldProbe(st, now)
		if got := w.Step(Input{Status: st, Outcome: OutcomeFailure}, now); got.Probed != would {
			t.Fatalf("tick %d: WouldProbe %v, Step probed %v", i, would, got.Probed)
		}
	}
}

func BenchmarkWorkerStep(b *testing.B) {
	w, err := NewWorker(api.ProbeReadiness, testPod(), "app", WorkerConfig{})
	if err != nil {
		b.Fatal(err)
	}
	st := running("c://1", ptr(true), t0)
	outcomes := [...]Outcome{OutcomeSuccess, OutcomeFailure, OutcomeFailure, OutcomeFailure, OutcomeWarning}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w.Step(Input{Status: st, Outcome: outcomes[i%len(outcomes)]}, t0.Add(time.Duration(i)*10*time.Second))
	}
}

// A container whose startedAt lies exactly one second after the tick is
// already past a zero initial delay for the kubelet (its age, read a
// moment after the tick, truncates to 0); two seconds ahead it is not
// (checked against v1.36.3's worker).
func TestWorkerStartedInTheFuture(t *testing.T) {
	cases := []struct {
		ahead  time.Duration
		delay  int32
		probed bool
	}{
		{time.Second, 0, true},
		{2 * time.Second, 0, false},
		{1500 * time.Millisecond, 0, false},
		{500 * time.Millisecond, 0, true},
		{0, 0, true},
		{time.Second, 1, false},
	}
	for _, c := range cases {
		pod := testPod()
		pod.Spec.Containers[0].ReadinessProbe.InitialDelaySeconds = c.delay
		w, err := NewWorker(api.ProbeReadiness, pod, "app", WorkerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		got := w.Step(Input{Status: running("c://1", ptr(true), t0.Add(c.ahead)), Outcome: OutcomeSuccess}, t0)
		if got.Probed != c.probed {
			t.Errorf("started %v ahead, delay %d: probed %v, want %v (%+v)", c.ahead, c.delay, got.Probed, c.probed, got)
		}
	}
}
