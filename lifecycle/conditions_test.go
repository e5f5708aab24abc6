package lifecycle

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

var fxSandboxes = []Sandbox{{Ready: true, HasNetworkStatus: true, IP: "10.0.0.9"}}

func condSummary(c api.PodCondition) string {
	s := string(c.Status)
	if c.Reason != "" {
		s += " " + c.Reason
	}
	if c.Message != "" {
		s += ": " + c.Message
	}
	return s
}

func TestConditions(t *testing.T) {
	readyStatus := func(name string) api.ContainerStatus {
		s := fxStatus(name, fxRunning())
		s.Ready, s.Started = true, fxPtr(true)
		return s
	}
	tests := []struct {
		name     string
		pod      api.Pod
		in       ConditionsInput
		want     [4]string // ReadyToStartContainers, Initialized, ContainersReady, Ready
		wantGen  int64
		wantSkip bool
	}{
		{
			name: "all ready",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{readyStatus("app")}}},
			in:   ConditionsInput{Phase: api.PodRunning, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True", "True", "True"},
		},
		{
			name: "readiness gate missing",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}, ReadinessGates: []api.PodReadinessGate{{ConditionType: "example.com/lb"}}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{readyStatus("app")}}},
			in: ConditionsInput{Phase: api.PodRunning, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True", "True",
				`False ReadinessGatesNotReady: corresponding condition of pod readiness gate "example.com/lb" does not exist.`},
		},
		{
			name: "two gates, one False one missing",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}, ReadinessGates: []api.PodReadinessGate{{ConditionType: "a"}, {ConditionType: "b"}}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{readyStatus("app")},
					Conditions: []api.PodCondition{{Type: "a", Status: api.ConditionFalse}}}},
			in: ConditionsInput{Phase: api.PodRunning, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True", "True",
				`False ReadinessGatesNotReady: the status of pod readiness gate "a" is not "True", but False, corresponding condition of pod readiness gate "b" does not exist.`},
		},
		{
			name: "unready and unknown containers",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}, {Name: "c"}}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{fxStatus("a", fxRunning()), readyStatus("b")}}},
			in: ConditionsInput{Phase: api.PodRunning, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True",
				"False ContainersNotReady: containers with unknown status: [c], containers with unready status: [a]",
				"False ContainersNotReady: containers with unknown status: [c], containers with unready status: [a]"},
		},
		{
			name: "init incomplete, sidecar not started",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "init"}, fxSidecar("side")}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{InitContainerStatuses: []api.ContainerStatus{fxStatus("init", fxRunning()), fxStatus("side", fxWaiting(PodInitializing))},
					ContainerStatuses: []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}}},
			in: ConditionsInput{Phase: api.PodPending, Sandboxes: fxSandboxes},
			want: [4]string{"True", "False ContainersNotInitialized: containers with incomplete status: [init side]",
				"False ContainersNotReady: containers with unready status: [side app]",
				"False ContainersNotReady: containers with unready status: [side app]"},
		},
		{
			name: "statuses unknown",
			pod:  api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "init"}}, Containers: []api.Container{{Name: "app"}}}},
			in:   ConditionsInput{Phase: api.PodPending, ContainerStatusesUnknown: true},
			want: [4]string{"False", "False UnknownContainerStatuses", "False UnknownContainerStatuses", "False UnknownContainerStatuses"},
		},
		{
			name: "succeeded",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{fxStatus("app", fxExited(0))}}},
			in:   ConditionsInput{Phase: api.PodSucceeded, Sandboxes: []Sandbox{{Ready: false}}},
			want: [4]string{"False", "True PodCompleted", "False PodCompleted", "False PodCompleted"},
		},
		{
			name: "failed",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{readyStatus("app")}}},
			in:   ConditionsInput{Phase: api.PodFailed, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True", "False PodFailed", "False PodFailed"},
		},
		{
			name: "Initialized stays True once True",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "init"}}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{InitContainerStatuses: []api.ContainerStatus{fxStatus("init", fxWaiting(""))},
					ContainerStatuses: []api.ContainerStatus{fxStatus("app", fxWaiting(ContainerCreating))},
					Conditions:        []api.PodCondition{{Type: api.PodInitialized, Status: api.ConditionTrue}}}},
			in: ConditionsInput{Phase: api.PodPending, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True", "False ContainersNotReady: containers with unready status: [app]",
				"False ContainersNotReady: containers with unready status: [app]"},
		},
		{
			// The kubelet scans every previous Initialized entry; a True one
			// after a False duplicate still keeps the pod initialized.
			name: "Initialized True in a later duplicate entry",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "init"}}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{InitContainerStatuses: []api.ContainerStatus{fxStatus("init", fxWaiting(""))},
					ContainerStatuses: []api.ContainerStatus{fxStatus("app", fxWaiting(ContainerCreating))},
					Conditions: []api.PodCondition{{Type: api.PodInitialized, Status: api.ConditionFalse},
						{Type: api.PodInitialized, Status: api.ConditionTrue}}}},
			in: ConditionsInput{Phase: api.PodPending, Sandboxes: fxSandboxes},
			want: [4]string{"True", "True", "False ContainersNotReady: containers with unready status: [app]",
				"False ContainersNotReady: containers with unready status: [app]"},
		},
		{
			name:    "observedGeneration",
			pod:     api.Pod{ObjectMeta: api.ObjectMeta{Generation: 7}, Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}}},
			in:      ConditionsInput{Phase: api.PodPending},
			want:    [4]string{"False", "True", "False ContainersNotReady: containers with unknown status: [app]", "False ContainersNotReady: containers with unknown status: [app]"},
			wantGen: 7,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := Conditions(&tc.pod, tc.in, fxT0)
			got := [4]string{condSummary(k.ReadyToStartContainers), condSummary(k.Initialized), condSummary(k.ContainersReady), condSummary(k.Ready)}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("conditions (-want +got):\n%s", d)
			}
			for _, c := range k.List() {
				if c.ObservedGeneration != tc.wantGen {
					t.Errorf("%s observedGeneration = %d, want %d", c.Type, c.ObservedGeneration, tc.wantGen)
				}
			}
		})
	}
}

func TestConditionsListOrderAndTypes(t *testing.T) {
	pod := fxBenchPod()
	k := Conditions(pod, ConditionsInput{Phase: api.PodRunning, Sandboxes: fxSandboxes}, fxT0)
	var types []api.PodConditionType
	for _, c := range k.List() {
		types = append(types, c.Type)
		if !IsKubeletCondition(c.Type) {
			t.Errorf("%s is generated by the kubelet but IsKubeletCondition says no", c.Type)
		}
	}
	want := []api.PodConditionType{api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady}
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("order (-want +got):\n%s", d)
	}
	if IsKubeletCondition("example.com/lb") || IsKubeletCondition(api.DisruptionTarget) {
		t.Error("gate and DisruptionTarget conditions are not the kubelet's")
	}
}

func TestConditionsLastTransitionTime(t *testing.T) {
	pod := fxBenchPod()
	earlier := fxT0.Add(-time.Hour)
	now := fxT0.Add(time.Hour)
	prev := api.PodStatus{Conditions: []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(earlier)},
		{Type: api.ContainersReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(earlier)},
	}}
	k := Conditions(pod, ConditionsInput{Phase: api.PodRunning, Previous: &prev, Sandboxes: fxSandboxes}, now)
	if !k.Ready.LastTransitionTime.Equal(earlier) {
		t.Errorf("Ready stayed True: lastTransitionTime %v, want the previous %v", k.Ready.LastTransitionTime, earlier)
	}
	if !k.ContainersReady.LastTransitionTime.Equal(now) {
		t.Errorf("ContainersReady turned True: lastTransitionTime %v, want now %v", k.ContainersReady.LastTransitionTime, now)
	}
	if !k.Initialized.LastTransitionTime.Equal(now) {
		t.Errorf("Initialized is new: lastTransitionTime %v, want now", k.Initialized.LastTransitionTime)
	}
}

func TestSandboxChanged(t *testing.T) {
	hostPod := &api.Pod{Spec: api.PodSpec{HostNetwork: true}}
	podNet := &api.Pod{}
	tests := []struct {
		name    string
		pod     *api.Pod
		sbs     []Sandbox
		needNew bool
		attempt uint32
	}{
		{"none", podNet, nil, true, 0},
		{"ready with IP", podNet, []Sandbox{{Ready: true, HasNetworkStatus: true, IP: "10.0.0.1", Attempt: 2}}, false, 2},
		{"ready without network status", podNet, []Sandbox{{Ready: true, Attempt: 1}}, false, 1},
		{"ready with empty IP", podNet, []Sandbox{{Ready: true, HasNetworkStatus: true, Attempt: 1}}, true, 2},
		{"host network with empty IP", hostPod, []Sandbox{{Ready: true, Network: NamespaceNode, HasNetworkStatus: true}}, false, 0},
		{"network mode changed", hostPod, []Sandbox{{Ready: true, Network: NamespacePod, HasNetworkStatus: true, IP: "10.0.0.1", Attempt: 3}}, true, 4},
		{"newest not ready", podNet, []Sandbox{{Ready: false, Attempt: 1}, {Ready: true, Attempt: 0}}, true, 2},
		{"two ready", podNet, []Sandbox{{Ready: true, Attempt: 1, HasNetworkStatus: true, IP: "a"}, {Ready: true, HasNetworkStatus: true, IP: "b"}}, true, 2},
	}
	for _, tc := range tests {
		got := SandboxChanged(tc.pod, tc.sbs)
		if got.NeedNew != tc.needNew || got.Attempt != tc.attempt {
			t.Errorf("%s: SandboxChanged = %+v, want needNew %v attempt %d", tc.name, got, tc.needNew, tc.attempt)
		}
		if got.NeedNew != (got.Why != "") {
			t.Errorf("%s: Why %q should be set exactly when a new sandbox is needed", tc.name, got.Why)
		}
	}
}

// genConsistentPod draws a pod whose container statuses are the kind the
// kubelet writes: a container is ready only while running (a sidecar also
// only once started), and there is at least one regular container.
func genConsistentPod(t *rapid.T) (*api.Pod, ConditionsInput) {
	nInit := rapid.IntRange(0, 3).Draw(t, "nInit")
	nReg := rapid.IntRange(1, 4).Draw(t, "nRegular")
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Generation: rapid.Int64Range(0, 5).Draw(t, "generation")}}
	status := func(name string, isSidecar bool) *api.ContainerStatus {
		switch rapid.IntRange(0, 4).Draw(t, name+"-state") {
		case 0:
			return nil
		case 1:
			s := fxStatus(name, fxWaiting(ContainerCreating))
			return &s
		case 2:
			s := fxStatus(name, fxExited(int32(rapid.IntRange(0, 2).Draw(t, name+"-code"))))
			return &s
		default:
			s := fxStatus(name, fxRunning())
			started := rapid.Bool().Draw(t, name+"-started")
			s.Started = &started
			s.Ready = rapid.Bool().Draw(t, name+"-ready") && (started || !isSidecar)
			return &s
		}
	}
	for i := range nInit {
		name := fmt.Sprintf("init-%d", i)
		isSidecar := rapid.Bool().Draw(t, name+"-sidecar")
		c := api.Container{Name: name}
		if isSidecar {
			c = fxSidecar(name)
		}
		pod.Spec.InitContainers = append(pod.Spec.InitContainers, c)
		if s := status(name, isSidecar); s != nil {
			if !isSidecar && s.State.Terminated != nil && s.State.Terminated.ExitCode == 0 {
				s.Ready = true // a completed init container is reported ready
			}
			pod.Status.InitContainerStatuses = append(pod.Status.InitContainerStatuses, *s)
		}
	}
	for i := range nReg {
		name := fmt.Sprintf("app-%d", i)
		pod.Spec.Containers = append(pod.Spec.Containers, api.Container{Name: name})
		if s := status(name, false); s != nil {
			pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, *s)
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "nGates") {
		gate := api.PodConditionType(fmt.Sprintf("example.com/gate-%d", i))
		pod.Spec.ReadinessGates = append(pod.Spec.ReadinessGates, api.PodReadinessGate{ConditionType: gate})
		switch rapid.IntRange(0, 2).Draw(t, "gate-state") {
		case 1:
			pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{Type: gate, Status: api.ConditionTrue})
		case 2:
			pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{Type: gate, Status: api.ConditionFalse})
		}
	}
	if rapid.Bool().Draw(t, "previously-initialized") {
		pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{Type: api.PodInitialized, Status: api.ConditionTrue})
	}
	in := ConditionsInput{
		Phase:                    rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed}).Draw(t, "phase"),
		ContainerStatusesUnknown: rapid.IntRange(0, 9).Draw(t, "unknown") == 0,
	}
	if rapid.Bool().Draw(t, "sandbox") {
		in.Sandboxes = fxSandboxes
	}
	return pod, in
}

// TestConditionsReadyImpliesContainersReadyAndInitialized: the kubelet never
// reports a Ready pod whose containers are not ready or which has not
// initialized; and Ready never says more than ContainersReady.
func TestConditionsReadyImpliesContainersReadyAndInitialized(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod, in := genConsistentPod(t)
		k := Conditions(pod, in, fxT0)
		if k.Ready.Status == api.ConditionTrue {
			if k.ContainersReady.Status != api.ConditionTrue {
				t.Fatalf("Ready True but ContainersReady %s", condSummary(k.ContainersReady))
			}
			if k.Initialized.Status != api.ConditionTrue {
				t.Fatalf("Ready True but Initialized %s", condSummary(k.Initialized))
			}
		}
		if k.ContainersReady.Status != api.ConditionTrue && (k.Ready.Reason != k.ContainersReady.Reason || k.Ready.Message != k.ContainersReady.Message) {
			t.Fatalf("Ready %q does not echo ContainersReady %q", condSummary(k.Ready), condSummary(k.ContainersReady))
		}
		for _, c := range k.List() {
			if c.ObservedGeneration != pod.Generation {
				t.Fatalf("%s observedGeneration %d, want %d", c.Type, c.ObservedGeneration, pod.Generation)
			}
		}
	})
}
