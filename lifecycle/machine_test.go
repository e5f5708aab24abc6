package lifecycle

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

var machineT0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// mstep is one step of a machine scenario: the time since the start, the
// event, and the expected outcome rendered as "phase | STATUS | READY |
// actions".
type mstep struct {
	at   time.Duration
	ev   Event
	want string
}

func renderStep(m *Machine, st api.PodStatus, acts []Action, now time.Time) string {
	row := DisplayStatus(m.Pod(), now)
	names := make([]string, len(acts))
	for i, a := range acts {
		names[i] = a.String()
	}
	return strings.TrimRight(fmt.Sprintf("%s | %s | %s | %s", st.Phase, row.Status, row.Ready, strings.Join(names, " ")), " ")
}

func runScenario(t *testing.T, pod *api.Pod, cfg MachineConfig, steps []mstep) *Machine {
	t.Helper()
	pod.CreationTimestamp = api.NewTime(machineT0)
	m := NewMachine(pod, cfg)
	for i, s := range steps {
		now := machineT0.Add(s.at)
		st, acts := m.Step(s.ev, now)
		if got := renderStep(m, st, acts, now); got != s.want {
			t.Errorf("step %d %v at %v:\n got: %s\nwant: %s", i, s.ev, s.at, got, s.want)
		}
	}
	return m
}

// appPod builds a pod; containers without an imagePullPolicy get
// IfNotPresent, so images listed in MachineConfig.ImagesPresent need no
// pull.
func appPod(policy api.RestartPolicy, inits []api.Container, apps ...api.Container) *api.Pod {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"},
		Spec: api.PodSpec{RestartPolicy: policy, InitContainers: inits, Containers: apps}}
	for _, list := range [][]api.Container{inits, apps} {
		for i := range list {
			if list[i].ImagePullPolicy == "" {
				list[i].ImagePullPolicy = api.PullIfNotPresent
			}
		}
	}
	return pod
}

var present = MachineConfig{ImagesPresent: []string{"busybox", "envoy"}}

func TestMachineScenarios(t *testing.T) {
	sec := time.Second
	execProbe := &api.Probe{ProbeHandler: api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}}}
	app := api.Container{Name: "app", Image: "busybox"}
	i64 := func(v int64) *int64 { return &v }

	t.Run("init container failing under Never fails the pod", func(t *testing.T) {
		runScenario(t, appPod(api.RestartPolicyNever, []api.Container{initC("init-a")}, app), present, []mstep{
			{0, Scheduled("n1"), "Pending | Init:0/1 | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | Init:0/1 | 0/1 | StartContainer(init-a) ReportStatus"},
			{2 * sec, ContainerStarted("init-a"), "Pending | Init:0/1 | 0/1 | ReportStatus"},
			{3 * sec, ContainerExited("init-a", 2, ""), "Failed | Init:Error | 0/1 | StopSandbox ReportStatus"},
			{9 * sec, Tick(), "Failed | Init:Error | 0/1 |"},
		})
	})

	t.Run("init container failing under Always restarts with back-off", func(t *testing.T) {
		runScenario(t, appPod(api.RestartPolicyAlways, []api.Container{initC("init-a")}, app), present, []mstep{
			{0, Scheduled("n1"), "Pending | Init:0/1 | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | Init:0/1 | 0/1 | StartContainer(init-a) ReportStatus"},
			{2 * sec, ContainerStarted("init-a"), "Pending | Init:0/1 | 0/1 | ReportStatus"},
			{3 * sec, ContainerExited("init-a", 1, ""), "Pending | Init:Error | 0/1 | StartContainer(init-a) ReportStatus"},
			{4 * sec, ContainerStarted("init-a"), "Pending | Init:0/1 | 0/1 | ReportStatus"},
			// The sync that sees the exit reports it, then finds the restart
			// held back; its reason shows from the next sync on, until the
			// restart.
			{5 * sec, ContainerExited("init-a", 1, ""), "Pending | Init:Error | 0/1 | Event(Warning BackOff: Back-off restarting failed container init-a in pod p_default(u1)) RetryAt(2025-06-01T12:00:15Z, init-a back-off 10s) RetryAt(2025-06-01T12:00:06Z, next sync) ReportStatus"},
			{6 * sec, Tick(), "Pending | Init:CrashLoopBackOff | 0/1 | ReportStatus"},
			{15 * sec, Tick(), "Pending | Init:CrashLoopBackOff | 0/1 | StartContainer(init-a)"},
			{16 * sec, ContainerStarted("init-a"), "Pending | Init:0/1 | 0/1 | ReportStatus"},
			{17 * sec, ContainerExited("init-a", 0, ""), "Pending | PodInitializing | 0/1 | StartContainer(app) ReportStatus"},
			{18 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
		})
	})

	t.Run("activeDeadlineSeconds counts init time and fails the pod", func(t *testing.T) {
		pod := appPod(api.RestartPolicyAlways, []api.Container{initC("init-a")}, app)
		pod.Spec.ActiveDeadlineSeconds = i64(60)
		pod.Spec.TerminationGracePeriodSeconds = i64(10)
		m := runScenario(t, pod, present, []mstep{
			{0, Scheduled("n1"), "Pending | Init:0/1 | 0/1 | RetryAt(2025-06-01T12:01:00Z, DeadlineExceeded) CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | Init:0/1 | 0/1 | StartContainer(init-a) ReportStatus"},
			{2 * sec, ContainerStarted("init-a"), "Pending | Init:0/1 | 0/1 | ReportStatus"},
			{59 * sec, Tick(), "Pending | Init:0/1 | 0/1 |"},
			{60 * sec, Tick(), "Failed | Init:0/1 | 0/1 | Event(Normal Killing: Stopping container init-a) KillContainer(init-a, 10s) RetryAt(2025-06-01T12:01:10Z, grace period) ReportStatus"},
			{63 * sec, ContainerExited("init-a", 137, ""), "Failed | Init:Error | 0/1 | StopSandbox ReportStatus"},
		})
		st := m.Pod().Status
		if st.Reason != DeadlineExceeded || st.Message != DeadlineExceededMessage {
			t.Errorf("reason/message = %q/%q", st.Reason, st.Message)
		}
	})

	t.Run("sidecar gates the next init container until its startup probe passes", func(t *testing.T) {
		sc := sidecarC("proxy", true)
		sc.Image = "envoy"
		pod := appPod(api.RestartPolicyAlways, []api.Container{sc, initC("init-b")}, app)
		m := runScenario(t, pod, present, []mstep{
			{0, Scheduled("n1"), "Pending | Init:0/2 | 0/2 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | Init:0/2 | 0/2 | StartContainer(proxy) ReportStatus"},
			{2 * sec, ContainerStarted("proxy"), "Pending | Init:0/2 | 0/2 | ReportStatus"},
			{3 * sec, Tick(), "Pending | Init:0/2 | 0/2 |"},
			{4 * sec, ProbeResult("proxy", api.ProbeStartup, true), "Pending | Init:1/2 | 1/2 | StartContainer(init-b) ReportStatus"},
			{5 * sec, ContainerStarted("init-b"), "Pending | Init:1/2 | 1/2 | ReportStatus"},
			{6 * sec, ContainerExited("init-b", 0, ""), "Pending | PodInitializing | 1/2 | StartContainer(app) ReportStatus"},
			{7 * sec, ContainerStarted("app"), "Running | Running | 2/2 | ReportStatus"},
			// Deletion stops the app first, the sidecar once the app is gone.
			// The kubelet kills both at once (Killing for each); the
			// sidecar's stop signal waits for its turn.
			{10 * sec, DeletionRequested(-1), "Running | Terminating | 2/2 | Event(Normal Killing: Stopping container app) KillContainer(app, 30s) Event(Normal Killing: Stopping container proxy) RetryAt(2025-06-01T12:00:40Z, grace period)"},
			{12 * sec, ContainerExited("app", 0, ""), "Running | Terminating | 1/2 | KillContainer(proxy, 28s) ReportStatus"},
			{13 * sec, ContainerExited("proxy", 0, ""), "Succeeded | Completed | 0/2 | StopSandbox ReportStatus RemovePod"},
		})
		if !m.Removed() {
			t.Error("pod not removed")
		}
	})

	t.Run("liveness failure kills after preStop and restarts", func(t *testing.T) {
		c := app
		c.LivenessProbe = execProbe
		c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 5}}}
		runScenario(t, appPod("", nil, c), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus"},
			{2 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			{3 * sec, ProbeResult("app", api.ProbeLiveness, true), "Running | Running | 1/1 |"},
			// The kubelet runs the 5 s sleep hook, then stops the container
			// with what is left of its 30 s.
			{30 * sec, ProbeResult("app", api.ProbeLiveness, false), "Running | Running | 1/1 | Event(Normal Killing: Container app failed liveness probe, will be restarted) RunPreStop(app) RetryAt(2025-06-01T12:00:35Z, preStop hook)"},
			{35 * sec, Tick(), "Running | Running | 1/1 | KillContainer(app, 25s) RetryAt(2025-06-01T12:01:00Z, grace period)"},
			{40 * sec, ContainerExited("app", 137, ""), "Running | Error | 0/1 | StartContainer(app) ReportStatus"},
			{41 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			// Killed again 5 s after a run that ended at 40 s: inside the
			// 10 s back-off, so the restart waits 10 s after this exit.
			// The sync that kills it finds the restart held back: the
			// status shows CrashLoopBackOff as soon as the container is gone.
			{45 * sec, ProbeResult("app", api.ProbeLiveness, false), "Running | Running | 1/1 | Event(Normal Killing: Container app failed liveness probe, will be restarted) RunPreStop(app) Event(Warning BackOff: Back-off restarting failed container app in pod p_default(u1)) RetryAt(2025-06-01T12:00:50Z, preStop hook)"},
			{50 * sec, Tick(), "Running | Running | 1/1 | KillContainer(app, 25s) RetryAt(2025-06-01T12:01:15Z, grace period)"},
			{51 * sec, ContainerExited("app", 137, ""), "Running | CrashLoopBackOff | 0/1 | RetryAt(2025-06-01T12:01:01Z, app back-off 10s) ReportStatus"},
			{61 * sec, Tick(), "Running | CrashLoopBackOff | 0/1 | StartContainer(app)"},
			{61 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			// A kill long after the previous exit restarts at once.
			{200 * sec, ProbeResult("app", api.ProbeLiveness, false), "Running | Running | 1/1 | Event(Normal Killing: Container app failed liveness probe, will be restarted) RunPreStop(app) RetryAt(2025-06-01T12:03:25Z, preStop hook)"},
			{205 * sec, Tick(), "Running | Running | 1/1 | KillContainer(app, 25s) RetryAt(2025-06-01T12:03:50Z, grace period)"},
			{206 * sec, ContainerExited("app", 137, ""), "Running | Error | 0/1 | StartContainer(app) ReportStatus"},
		})
	})

	t.Run("readiness gates READY", func(t *testing.T) {
		c := app
		c.ReadinessProbe = execProbe
		runScenario(t, appPod("", nil, c), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus"},
			{2 * sec, ContainerStarted("app"), "Running | Running | 0/1 | ReportStatus"},
			{3 * sec, ProbeResult("app", api.ProbeReadiness, true), "Running | Running | 1/1 | ReportStatus"},
			{4 * sec, ProbeResult("app", api.ProbeReadiness, false), "Running | Running | 0/1 | ReportStatus"},
		})
	})

	t.Run("an absent image with pullPolicy Never waits in ErrImageNeverPull from the next sync", func(t *testing.T) {
		c := app
		c.Image, c.ImagePullPolicy = "registry.example/app:2", api.PullNever
		m := runScenario(t, appPod("", nil, c), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), `Pending | ContainerCreating | 0/1 | Event(Warning ErrImageNeverPull: Container image "registry.example/app:2" is not present with pull policy of Never) RetryAt(2025-06-01T12:00:02Z, next sync) ReportStatus`},
			{2 * sec, Tick(), "Pending | ErrImageNeverPull | 0/1 | ReportStatus"},
			{30 * sec, Tick(), "Pending | ErrImageNeverPull | 0/1 |"},
		})
		w := m.Pod().Status.ContainerStatuses[0].State.Waiting
		if w == nil || w.Message != `Container image "registry.example/app:2" is not present with pull policy of Never` {
			t.Errorf("waiting state %+v", w)
		}
	})

	t.Run("a deletion during a postStart hook waits for the hook", func(t *testing.T) {
		c := app
		c.Lifecycle = &api.Lifecycle{PostStart: &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"warm"}}}}
		runScenario(t, appPod("", nil, c), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus"},
			{2 * sec, ContainerStarted("app"), "Pending | ContainerCreating | 0/1 | RunPostStart(app)"},
			// The pod worker is inside the start: the stop comes after it.
			{3 * sec, DeletionRequested(10), "Pending | Terminating | 0/1 |"},
			{9 * sec, PostStartFinished("app"), "Running | Terminating | 1/1 | Event(Normal Killing: Stopping container app) KillContainer(app, 10s) RetryAt(2025-06-01T12:00:19Z, grace period) ReportStatus"},
			{10 * sec, ContainerExited("app", 0, ""), "Succeeded | Completed | 0/1 | StopSandbox ReportStatus RemovePod"},
		})
	})

	t.Run("a failed postStart hook under restartPolicy Never fails the pod", func(t *testing.T) {
		c := app
		c.Lifecycle = &api.Lifecycle{PostStart: &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"warm"}}}}
		runScenario(t, appPod(api.RestartPolicyNever, nil, c), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus"},
			{2 * sec, ContainerStarted("app"), "Pending | ContainerCreating | 0/1 | RunPostStart(app)"},
			{3 * sec, PostStartFailed("app", "exit 1"), "Pending | ContainerCreating | 0/1 | Event(Warning FailedPostStartHook: PostStartHook failed) Event(Normal Killing: FailedPostStartHook) KillContainer(app, 30s) RetryAt(2025-06-01T12:00:33Z, grace period)"},
			// Not restarted: the container's termination shows, not the
			// failed start.
			{4 * sec, ContainerExited("app", 137, ""), "Failed | Error | 0/1 | StopSandbox ReportStatus"},
		})
	})

	t.Run("OnFailure app that succeeds completes the pod", func(t *testing.T) {
		runScenario(t, appPod(api.RestartPolicyOnFailure, nil, app), MachineConfig{}, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | PullImage(app, busybox) ReportStatus"},
			{5 * sec, ImagePulled("app"), "Pending | ContainerCreating | 0/1 | StartContainer(app)"},
			{6 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			{9 * sec, ContainerExited("app", 0, ""), "Succeeded | Completed | 0/1 | StopSandbox ReportStatus"},
			{10 * sec, DeletionRequested(-1), "Succeeded | Completed | 0/1 | RemovePod"},
		})
	})

	t.Run("sandbox death reruns the init containers; the phase stays Running", func(t *testing.T) {
		m := runScenario(t, appPod(api.RestartPolicyAlways, []api.Container{initC("init-a")}, app), present, []mstep{
			{0, Scheduled("n1"), "Pending | Init:0/1 | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | Init:0/1 | 0/1 | StartContainer(init-a) ReportStatus"},
			{2 * sec, ContainerStarted("init-a"), "Pending | Init:0/1 | 0/1 | ReportStatus"},
			{3 * sec, ContainerExited("init-a", 0, ""), "Pending | PodInitializing | 0/1 | StartContainer(app) ReportStatus"},
			{4 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			{100 * sec, SandboxDied(), "Running | Error | 0/1 | CreateSandbox ReportStatus"},
			{101 * sec, SandboxReady("10.0.0.2"), "Running | Error | 0/1 | StartContainer(init-a) ReportStatus"},
			{102 * sec, ContainerStarted("init-a"), "Running | Error | 0/1 | ReportStatus"},
			{103 * sec, ContainerExited("init-a", 0, ""), "Running | Error | 0/1 | StartContainer(app) ReportStatus"},
			{104 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
		})
		st := m.Pod().Status
		if len(st.InitContainerStatuses) != 1 || len(st.ContainerStatuses) != 1 {
			t.Fatalf("got %d init and %d container statuses, want 1 and 1", len(st.InitContainerStatuses), len(st.ContainerStatuses))
		}
		if st.InitContainerStatuses[0].RestartCount != 1 || st.ContainerStatuses[0].RestartCount != 1 {
			t.Errorf("restart counts = %d, %d; want 1, 1", st.InitContainerStatuses[0].RestartCount, st.ContainerStatuses[0].RestartCount)
		}
		if st.PodIP != "10.0.0.2" {
			t.Errorf("podIP = %q", st.PodIP)
		}
	})

	t.Run("a lost node marks the pod not ready and goes quiet", func(t *testing.T) {
		m := runScenario(t, appPod("", nil, app), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus"},
			{2 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			{50 * sec, NodeUnreachable(), "Running | Running | 1/1 | ReportStatus"},
			{60 * sec, ContainerExited("app", 1, ""), "Running | Running | 1/1 |"},
			{70 * sec, DeletionRequested(30), "Running | Terminating | 1/1 |"},
		})
		if c := api.FindCondition(m.Pod().Status.Conditions, api.PodReady); c == nil || c.Status != api.ConditionFalse {
			t.Errorf("Ready = %+v, want False", c)
		}
	})

	t.Run("a sandbox that comes up after the pod ended is stopped", func(t *testing.T) {
		pod := appPod(api.RestartPolicyNever, nil, app)
		pod.Spec.ActiveDeadlineSeconds = i64(10)
		runScenario(t, pod, present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | RetryAt(2025-06-01T12:00:10Z, DeadlineExceeded) CreateSandbox ReportStatus"},
			{10 * sec, Tick(), "Failed | ContainerStatusUnknown | 0/1 | ReportStatus"},
			{11 * sec, SandboxReady("10.0.0.1"), "Failed | ContainerStatusUnknown | 0/1 | StopSandbox"},
		})
	})

	t.Run("deleting a pod whose sandbox is not up yet", func(t *testing.T) {
		runScenario(t, appPod(api.RestartPolicyNever, nil, app), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, DeletionRequested(30), "Failed | ContainerStatusUnknown | 0/1 | ReportStatus RemovePod"},
			{2 * sec, SandboxReady("10.0.0.1"), "Failed | ContainerStatusUnknown | 0/1 |"},
		})
	})

	t.Run("deleting an unscheduled pod removes it at once", func(t *testing.T) {
		runScenario(t, appPod("", nil, app), present, []mstep{
			{0, Tick(), "Pending | Pending | 0/1 | ReportStatus"},
			{5 * sec, DeletionRequested(-1), "Pending | Terminating | 0/1 | RemovePod"},
			{6 * sec, Scheduled("n1"), "Pending | Terminating | 0/1 |"},
		})
	})

	t.Run("a second deletion only shortens the grace period", func(t *testing.T) {
		runScenario(t, appPod("", nil, app), present, []mstep{
			{0, Scheduled("n1"), "Pending | ContainerCreating | 0/1 | CreateSandbox ReportStatus"},
			{1 * sec, SandboxReady("10.0.0.1"), "Pending | ContainerCreating | 0/1 | StartContainer(app) ReportStatus"},
			{2 * sec, ContainerStarted("app"), "Running | Running | 1/1 | ReportStatus"},
			{10 * sec, DeletionRequested(60), "Running | Terminating | 1/1 | Event(Normal Killing: Stopping container app) KillContainer(app, 60s) RetryAt(2025-06-01T12:01:10Z, grace period)"},
			{11 * sec, DeletionRequested(90), "Running | Terminating | 1/1 |"},
			{12 * sec, DeletionRequested(5), "Running | Terminating | 1/1 | Event(Normal Killing: Stopping container app) KillContainer(app, 5s) RetryAt(2025-06-01T12:00:17Z, grace period)"},
			{17 * sec, Tick(), "Running | Terminating | 1/1 | KillContainer(app, 0s)"},
			{18 * sec, ContainerExited("app", 137, ""), "Failed | Error | 0/1 | StopSandbox ReportStatus RemovePod"},
		})
	})
}

// TestMachineCrashLoopBackoff drives a container that exits one second
// after every start and checks the delays against the kubelet's
// (conformance case doc-exponential-10s-to-300s: 0, 10, 20, ... 300).
func TestMachineCrashLoopBackoff(t *testing.T) {
	for _, tc := range []struct {
		cfg  MachineConfig
		want []time.Duration
	}{
		{present, []time.Duration{0, 10, 20, 40, 80, 160, 300, 300, 300, 300}},
		{MachineConfig{ImagesPresent: present.ImagesPresent, Backoff: Backoff{MaxContainerRestartPeriod: 45 * time.Second}},
			[]time.Duration{0, 10, 20, 40, 45, 45}},
		{MachineConfig{ImagesPresent: present.ImagesPresent, Backoff: Backoff{MaxContainerRestartPeriod: 5 * time.Second}},
			[]time.Duration{0, 5, 5, 5}},
	} {
		pod := appPod(api.RestartPolicyAlways, nil, api.Container{Name: "app", Image: "busybox"})
		m := NewMachine(pod, tc.cfg)
		now := machineT0
		m.Step(Scheduled("n1"), now)
		m.Step(SandboxReady("10.0.0.1"), now)
		var got []time.Duration
		for range tc.want {
			m.Step(ContainerStarted("app"), now)
			now = now.Add(time.Second)
			exitAt := now
			_, acts := m.Step(ContainerExited("app", 1, ""), now)
			for !hasAction(acts, ActionStartContainer) {
				var retry *Action
				for i := range acts {
					if acts[i].Kind == ActionRetryAt && acts[i].Container == "app" {
						retry = &acts[i]
					}
				}
				if retry == nil {
					t.Fatalf("no start and no retry after exit at %v: %v", now, acts)
				}
				now = retry.At
				_, acts = m.Step(Tick(), now)
			}
			got = append(got, now.Sub(exitAt)/time.Second)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("max %v: delays %v, want %v", tc.cfg.Backoff.MaxContainerRestartPeriod, got, tc.want)
		}
	}
}

func hasAction(acts []Action, k ActionKind) bool {
	for _, a := range acts {
		if a.Kind == k {
			return true
		}
	}
	return false
}

func TestMachineIgnoresNonsense(t *testing.T) {
	m := NewMachine(appPod("", nil, api.Container{Name: "app", Image: "busybox"}), present)
	now := machineT0
	for _, ev := range []Event{ContainerStarted("app"), SandboxReady("1.2.3.4"), ContainerExited("app", 1, ""),
		ProbeResult("ghost", api.ProbeLiveness, false), ImagePulled("app"), SandboxDied(), {Kind: 200}} {
		st, acts := m.Step(ev, now)
		if st.Phase != api.PodPending || hasAction(acts, ActionStartContainer) || hasAction(acts, ActionCreateSandbox) {
			t.Errorf("%v before scheduling: phase %s, actions %v", ev, st.Phase, acts)
		}
	}
	if s := (Event{Kind: 200}).String(); s != "EventKind(200)" {
		t.Errorf("unknown event kind renders %q", s)
	}
}

func BenchmarkMachineStep(b *testing.B) {
	pod := appPod(api.RestartPolicyAlways, []api.Container{initC("init-a"), sidecarC("proxy", true), initC("init-b")},
		api.Container{Name: "app", Image: "busybox", ReadinessProbe: &api.Probe{}}, api.Container{Name: "log", Image: "busybox"})
	script := []Event{Scheduled("n1"), SandboxReady("10.0.0.1"), ImagePulled("init-a"), ContainerStarted("init-a"),
		ContainerExited("init-a", 0, ""), ImagePulled("proxy"), ContainerStarted("proxy"), ProbeResult("proxy", api.ProbeStartup, true),
		ContainerStarted("init-b"), ContainerExited("init-b", 0, ""), ContainerStarted("app"), ContainerStarted("log"),
		ProbeResult("app", api.ProbeReadiness, true), ContainerExited("log", 1, ""), Tick(), ContainerStarted("log"), Tick(),
		DeletionRequested(-1), ContainerExited("app", 0, ""), ContainerExited("log", 0, ""), ContainerExited("proxy", 0, "")}
	cfg := MachineConfig{ImagesPresent: []string{"busybox"}}
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		m := NewMachine(pod, cfg)
		now := machineT0
		for _, ev := range script {
			now = now.Add(time.Second)
			m.Step(ev, now)
			steps++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
}

func TestMachineWhy(t *testing.T) {
	m := NewMachine(appPod("", []api.Container{initC("init-a")}, api.Container{Name: "app", Image: "busybox"}), present)
	if got := m.Why(); got != "waiting to be scheduled" {
		t.Errorf("Why = %q", got)
	}
	m.Step(Scheduled("n1"), machineT0)
	m.Step(SandboxReady("10.0.0.1"), machineT0)
	m.Step(ContainerStarted("init-a"), machineT0)
	if got, want := m.Why(), "initializing: init container init-a is running"; got != want {
		t.Errorf("Why = %q, want %q", got, want)
	}
	m.Step(DeletionRequested(0), machineT0)
	if got, want := m.Why(), "stopping the pod: the pod was deleted"; got != want {
		t.Errorf("Why = %q, want %q", got, want)
	}
}

// TestMachineDefaultPullPolicy checks that a container without
// imagePullPolicy is pulled by the API server's default
// (api.ImagePullPolicyFor), even when the image is already on the node: a
// tag latest beside a digest still means Always.
func TestMachineDefaultPullPolicy(t *testing.T) {
	digest := "@sha256:" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		image string
		pull  bool
	}{
		{"nginx", true},
		{"nginx:latest" + digest, true},
		{"localhost:5000/nginx", true},
		{"nginx" + digest, false},
		{"nginx:1.25", false},
		{"localhost:5000/nginx:1.25", false},
	} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: tc.image}}}}
		m := NewMachine(pod, MachineConfig{ImagesPresent: []string{tc.image}})
		m.Step(Scheduled("node-1"), machineT0)
		_, acts := m.Step(SandboxReady("10.0.0.1"), machineT0.Add(time.Second))
		want := ActionStartContainer
		if tc.pull {
			want = ActionPullImage
		}
		if len(acts) == 0 || acts[0].Kind != want {
			t.Errorf("%s on the node: actions %v, want %s first", tc.image, acts, want)
		}
	}
}
