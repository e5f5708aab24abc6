package lifecycle

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// fxBenchPod is a running pod with one init container, one sidecar and
// three regular containers, all ready: five containers in all.
func fxBenchPod() *api.Pod {
	always := api.RestartPolicyAlways
	yes := true
	fxT0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	done := api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0, Reason: Completed, FinishedAt: api.NewTime(fxT0)}}
	running := api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(fxT0)}}
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "bench", Namespace: "default", Generation: 3},
		Spec: api.PodSpec{
			InitContainers: []api.Container{{Name: "init"}, {Name: "proxy", RestartPolicy: &always}},
			Containers:     []api.Container{{Name: "app"}, {Name: "metrics"}, {Name: "logs"}},
			ReadinessGates: []api.PodReadinessGate{{ConditionType: "example.com/lb"}},
		},
		Status: api.PodStatus{
			Phase: api.PodRunning,
			Conditions: []api.PodCondition{
				{Type: "example.com/lb", Status: api.ConditionTrue},
				{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(fxT0)},
			},
			InitContainerStatuses: []api.ContainerStatus{
				{Name: "init", State: done, Ready: true, Started: new(bool)},
				{Name: "proxy", State: running, Ready: true, Started: &yes},
			},
			ContainerStatuses: []api.ContainerStatus{
				{Name: "app", State: running, Ready: true, Started: &yes},
				{Name: "metrics", State: running, Ready: true, Started: &yes},
				{Name: "logs", State: running, Ready: true, Started: &yes},
			},
		},
	}
	return p
}

// BenchmarkPhaseAndConditions measures one kubelet status computation of a
// five-container pod: the phase, then the four kubelet conditions.
func BenchmarkPhaseAndConditions(b *testing.B) {
	pod := fxBenchPod()
	sandboxes := []Sandbox{{Ready: true, HasNetworkStatus: true, IP: "10.0.0.7", Attempt: 0}}
	now := time.Date(2025, 1, 1, 0, 5, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		ph := Phase(pod, PhaseOptions{PodHasInitialized: true})
		k := Conditions(pod, ConditionsInput{Phase: ph, Sandboxes: sandboxes}, now)
		if k.Ready.Status != api.ConditionTrue {
			b.Fatalf("Ready = %s: %s", k.Ready.Status, k.Ready.Message)
		}
	}
}
