package lifecycle

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

var fxT0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func fxRunning() api.ContainerState {
	return api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(fxT0)}}
}

func fxExited(code int32) api.ContainerState {
	return api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, Reason: TerminatedReason(code, false), FinishedAt: api.NewTime(fxT0)}}
}

func fxWaiting(reason string) api.ContainerState {
	return api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}
}

func fxPtr[T any](v T) *T { return &v }

// cs builds a container status.
func fxStatus(name string, state api.ContainerState) api.ContainerStatus {
	return api.ContainerStatus{Name: name, State: state}
}

// crashed is a container waiting to restart after exiting with code.
func fxCrashed(name string, code int32) api.ContainerStatus {
	s := fxStatus(name, fxWaiting(CrashLoopBackOff))
	s.LastTerminationState = fxExited(code)
	return s
}

func fxSidecar(name string) api.Container {
	return api.Container{Name: name, RestartPolicy: fxPtr(api.RestartPolicyAlways)}
}

func TestPhase(t *testing.T) {
	startedSidecar := fxStatus("side", fxRunning())
	startedSidecar.Started = fxPtr(true)
	unstartedSidecar := fxStatus("side", fxRunning())
	unstartedSidecar.Started = fxPtr(false)

	tests := []struct {
		name      string
		policy    api.RestartPolicy
		init      []api.Container
		regular   []api.Container
		initSt    []api.ContainerStatus
		regularSt []api.ContainerStatus
		opts      PhaseOptions
		static    bool
		want      api.PodPhase
	}{
		{name: "no statuses yet", regular: []api.Container{{Name: "app"}}, want: api.PodPending},
		{name: "creating", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxWaiting(ContainerCreating))}, want: api.PodPending},
		{name: "running", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxRunning())}, want: api.PodRunning},
		{name: "exit 0 under Always restarts", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))}, want: api.PodRunning},
		{name: "exit 0 under OnFailure", policy: api.RestartPolicyOnFailure, regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))}, want: api.PodSucceeded},
		{name: "exit 1 under OnFailure restarts", policy: api.RestartPolicyOnFailure, regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(1))}, want: api.PodRunning},
		{name: "exit 1 under Never", policy: api.RestartPolicyNever, regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(1))}, want: api.PodFailed},
		{name: "crash-looping is Running", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxCrashed("app", 1)}, want: api.PodRunning},
		{name: "Never: one failed, one running", policy: api.RestartPolicyNever, regular: []api.Container{{Name: "a"}, {Name: "b"}},
			regularSt: []api.ContainerStatus{fxStatus("a", fxExited(1)), fxStatus("b", fxRunning())}, want: api.PodRunning},
		{name: "one container without status", regular: []api.Container{{Name: "a"}, {Name: "b"}},
			regularSt: []api.ContainerStatus{fxStatus("a", fxRunning())}, want: api.PodPending},
		{name: "terminal pod settles Failed", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(137))},
			opts: PhaseOptions{PodIsTerminal: true}, want: api.PodFailed},
		{name: "terminal pod settles Succeeded", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))},
			opts: PhaseOptions{PodIsTerminal: true}, want: api.PodSucceeded},
		{name: "terminal static pod keeps restart policy", static: true, regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))},
			opts: PhaseOptions{PodIsTerminal: true}, want: api.PodRunning},
		{name: "init running", init: []api.Container{{Name: "init"}}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{fxStatus("init", fxRunning())}, regularSt: []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}, want: api.PodPending},
		{name: "init failed under Never fails the pod", policy: api.RestartPolicyNever, init: []api.Container{{Name: "init"}}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{fxStatus("init", fxExited(2))}, want: api.PodFailed},
		{name: "init failed under OnFailure stays Pending", policy: api.RestartPolicyOnFailure, init: []api.Container{{Name: "init"}}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{fxCrashed("init", 2)}, regularSt: []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}, want: api.PodPending},
		{name: "init failed under Always stays Pending", init: []api.Container{{Name: "init"}}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{fxStatus("init", fxExited(2))}, regularSt: []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}, want: api.PodPending},
		{name: "init done, app running", init: []api.Container{{Name: "init"}}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{fxStatus("init", fxExited(0))}, regularSt: []api.ContainerStatus{fxStatus("app", fxRunning())}, want: api.PodRunning},
		{name: "sidecar not started keeps Pending", init: []api.Container{fxSidecar("side")}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{unstartedSidecar}, regularSt: []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}, want: api.PodPending},
		{name: "sidecar restarting after initialization", init: []api.Container{fxSidecar("side")}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{unstartedSidecar}, regularSt: []api.ContainerStatus{fxStatus("app", fxRunning())},
			opts: PhaseOptions{PodHasInitialized: true}, want: api.PodRunning},
		{name: "terminated sidecar ignored: app done", policy: api.RestartPolicyOnFailure, init: []api.Container{fxSidecar("side")}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{fxStatus("side", fxExited(137))}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))}, want: api.PodSucceeded},
		{name: "started sidecar and completed app under Never", policy: api.RestartPolicyNever, init: []api.Container{fxSidecar("side")}, regular: []api.Container{{Name: "app"}},
			initSt: []api.ContainerStatus{startedSidecar}, regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))}, want: api.PodRunning},
		{name: "container policy Never overrides pod Always", regular: []api.Container{{Name: "app", RestartPolicy: fxPtr(api.RestartPolicyNever)}},
			regularSt: []api.ContainerStatus{fxStatus("app", fxExited(3))}, want: api.PodFailed},
		{name: "restart rule In overrides container Never", policy: api.RestartPolicyNever,
			regular: []api.Container{{Name: "app", RestartPolicy: fxPtr(api.RestartPolicyNever), RestartPolicyRules: []api.ContainerRestartRule{
				{Action: api.RestartRuleActionRestart, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: api.ExitCodesOpIn, Values: []int32{42}}}}}},
			regularSt: []api.ContainerStatus{fxStatus("app", fxExited(42))}, want: api.PodRunning},
		{name: "restart rule not matching", policy: api.RestartPolicyNever,
			regular: []api.Container{{Name: "app", RestartPolicy: fxPtr(api.RestartPolicyNever), RestartPolicyRules: []api.ContainerRestartRule{
				{Action: api.RestartRuleActionRestart, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: api.ExitCodesOpIn, Values: []int32{42}}}}}},
			regularSt: []api.ContainerStatus{fxStatus("app", fxExited(1))}, want: api.PodFailed},
		{name: "RestartingAllContainers counts as restartable", policy: api.RestartPolicyNever, regular: []api.Container{{Name: "app"}},
			regularSt: []api.ContainerStatus{{Name: "app", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: RestartingAllContainers}}}},
			want:      api.PodRunning},
		// A matching RestartAllContainers rule means the container runs
		// again, even when its own restartPolicy is Never.
		{name: "RestartAllContainers rule overrides container Never", policy: api.RestartPolicyNever,
			regular: []api.Container{{Name: "app", RestartPolicy: fxPtr(api.RestartPolicyNever), RestartPolicyRules: []api.ContainerRestartRule{
				{Action: api.RestartRuleActionRestartAllContainers, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: api.ExitCodesOpIn, Values: []int32{0}}}}}},
			regularSt: []api.ContainerStatus{fxStatus("app", fxExited(0))}, want: api.PodRunning},
		{name: "failed init container with a RestartAllContainers rule does not fail the pod", policy: api.RestartPolicyNever,
			init: []api.Container{{Name: "init", RestartPolicy: fxPtr(api.RestartPolicyNever), RestartPolicyRules: []api.ContainerRestartRule{
				{Action: api.RestartRuleActionRestartAllContainers, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: api.ExitCodesOpIn, Values: []int32{1}}}}}},
			regular: []api.Container{{Name: "app"}},
			initSt:  []api.ContainerStatus{fxStatus("init", fxExited(1))}, want: api.PodPending},
		{name: "status with no state is unknown", regular: []api.Container{{Name: "app"}}, regularSt: []api.ContainerStatus{{Name: "app"}}, want: api.PodPending},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &api.Pod{
				Spec:   api.PodSpec{RestartPolicy: tc.policy, InitContainers: tc.init, Containers: tc.regular},
				Status: api.PodStatus{InitContainerStatuses: tc.initSt, ContainerStatuses: tc.regularSt},
			}
			if tc.static {
				pod.Annotations = map[string]string{api.ConfigSourceAnnotationKey: "file"}
			}
			if got := Phase(pod, tc.opts); got != tc.want {
				t.Errorf("Phase = %s, want %s (%s)", got, tc.want, ExplainPhase(pod, tc.opts).Why)
			}
			if r := ExplainPhase(pod, tc.opts); r.Phase != tc.want || r.Why == "" {
				t.Errorf("ExplainPhase = %+v, want phase %s with a reason", r, tc.want)
			}
		})
	}
}

func TestExplainPhaseMentionsCounts(t *testing.T) {
	pod := &api.Pod{
		Spec:   api.PodSpec{RestartPolicy: api.RestartPolicyNever, InitContainers: []api.Container{{Name: "init"}}, Containers: []api.Container{{Name: "app"}}},
		Status: api.PodStatus{InitContainerStatuses: []api.ContainerStatus{fxStatus("init", fxExited(1))}},
	}
	r := ExplainPhase(pod, PhaseOptions{})
	if r.Phase != api.PodFailed || r.Counts.FailedInitFinal != 1 || !strings.Contains(r.Why, "init container") {
		t.Errorf("ExplainPhase = %+v", r)
	}
}

// FuzzStatusCalculators decodes arbitrary JSON as a pod and runs every
// calculator of this file set on it: none may panic, and the phase must be
// one of the four the kubelet computes.
func FuzzStatusCalculators(f *testing.F) {
	f.Add([]byte(`{"spec":{"containers":[{"name":"a"}]},"status":{"containerStatuses":[{"name":"a","state":{"running":{}}}]}}`))
	f.Add([]byte(`{"spec":{"restartPolicy":"Never","initContainers":[{"name":"i","restartPolicy":"Always"}],"containers":[{"name":"a","restartPolicy":"Never","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"NotIn","values":[0]}}]}]},"status":{"initContainerStatuses":[{"name":"i","state":{"terminated":{"exitCode":1}}}],"containerStatuses":[{"name":"a","lastState":{"terminated":{"exitCode":3}},"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}}`))
	f.Add([]byte(`{"metadata":{"creationTimestamp":"2025-01-01T00:00:00Z","deletionTimestamp":"2025-01-01T00:01:00Z"},"spec":{"resources":{"limits":{"cpu":"1"}},"readinessGates":[{"conditionType":"x"}]},"status":{"reason":"NodeLost","conditions":[{"type":"Initialized","status":"True"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var pod api.Pod
		if json.Unmarshal(data, &pod) != nil {
			return
		}
		for _, opts := range []PhaseOptions{{}, {PodIsTerminal: true, PodHasInitialized: true}} {
			switch p := Phase(&pod, opts); p {
			case api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed:
				k := Conditions(&pod, ConditionsInput{Phase: p, Sandboxes: fxSandboxes}, fxT0)
				if k.Ready.Status == api.ConditionTrue && k.ContainersReady.Status != api.ConditionTrue {
					t.Fatalf("Ready without ContainersReady")
				}
			default:
				t.Fatalf("Phase = %q", p)
			}
		}
		_ = ExplainPhase(&pod, PhaseOptions{})
		_ = DisplayStatus(&pod, fxT0)
		_ = SandboxChanged(&pod, nil)
		for i := range pod.Spec.Containers {
			c := &pod.Spec.Containers[i]
			_ = ShouldRestart(&pod.Spec, api.ContainerKindRegular, c, 1).String()
			_ = BackoffKey(&pod, c)
		}
		_ = ValidPhaseTransition(pod.Status.Phase, api.PodRunning)
	})
}
