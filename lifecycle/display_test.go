package lifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func TestHumanDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-3 * time.Second, "<invalid>"},
		{-2 * time.Second, "<invalid>"},
		{-1900 * time.Millisecond, "0s"},
		{-time.Second, "0s"},
		{0, "0s"},
		{1500 * time.Millisecond, "1s"},
		{119 * time.Second, "119s"},
		{2 * time.Minute, "2m"},
		{2*time.Minute + time.Second, "2m1s"},
		{9*time.Minute + 59*time.Second, "9m59s"},
		{10 * time.Minute, "10m"},
		{10*time.Minute + 59*time.Second, "10m"},
		{179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"},
		{3*time.Hour + 59*time.Minute, "3h59m"},
		{7*time.Hour + 59*time.Minute, "7h59m"},
		{8 * time.Hour, "8h"},
		{47 * time.Hour, "47h"},
		{48 * time.Hour, "2d"},
		{7*24*time.Hour + 23*time.Hour, "7d23h"},
		{8 * 24 * time.Hour, "8d"},
		{729 * 24 * time.Hour, "729d"},
		{2 * 365 * 24 * time.Hour, "2y"},
		{(3*365 + 5) * 24 * time.Hour, "3y5d"},
		{8 * 365 * 24 * time.Hour, "8y"},
		{20 * 365 * 24 * time.Hour, "20y"},
	}
	for _, tc := range tests {
		if got := HumanDuration(tc.d); got != tc.want {
			t.Errorf("HumanDuration(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
	if got := Since(time.Time{}, fxT0); got != "<unknown>" {
		t.Errorf("Since(zero) = %q", got)
	}
}

func TestDisplayStatus(t *testing.T) {
	now := fxT0.Add(time.Hour)
	created := api.NewTime(fxT0)
	ready := func(name string) api.ContainerStatus {
		s := fxStatus(name, fxRunning())
		s.Ready, s.Started = true, fxPtr(true)
		return s
	}
	restarted := func(s api.ContainerStatus, n int32, ago time.Duration) api.ContainerStatus {
		s.RestartCount = n
		s.LastTerminationState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, FinishedAt: api.NewTime(now.Add(-ago))}}
		return s
	}
	signalled := api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, Signal: 9}}
	noReason := api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 3}}
	tests := []struct {
		name string
		pod  api.Pod
		want DisplayRow
	}{
		{
			name: "running",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{ready("app")}}},
			want: DisplayRow{"1/1", "Running", "0", "60m"},
		},
		{
			name: "crash loop with restarts",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{restarted(fxCrashed("app", 1), 3, 5*time.Minute)}}},
			want: DisplayRow{"0/1", "CrashLoopBackOff", "3 (5m ago)", "60m"},
		},
		{
			name: "first init container running",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "i1"}, {Name: "i2"}}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodPending,
					InitContainerStatuses: []api.ContainerStatus{fxStatus("i1", fxRunning()), fxStatus("i2", fxWaiting(PodInitializing))},
					ContainerStatuses:     []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}}},
			want: DisplayRow{"0/1", "Init:0/2", "0", "60m"},
		},
		{
			name: "init crash loop counts init restarts",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "i1"}}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodPending,
					InitContainerStatuses: []api.ContainerStatus{restarted(fxCrashed("i1", 1), 4, 40*time.Second)},
					ContainerStatuses:     []api.ContainerStatus{fxStatus("app", fxWaiting(PodInitializing))}}},
			want: DisplayRow{"0/1", "Init:CrashLoopBackOff", "4 (40s ago)", "60m"},
		},
		{
			name: "init killed by signal",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "i1"}}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodPending, InitContainerStatuses: []api.ContainerStatus{{Name: "i1", State: signalled}}}},
			want: DisplayRow{"0/1", "Init:Signal:9", "0", "60m"},
		},
		{
			name: "init failed without reason",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "i1"}}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodPending, InitContainerStatuses: []api.ContainerStatus{{Name: "i1", State: noReason}}}},
			want: DisplayRow{"0/1", "Init:ExitCode:3", "0", "60m"},
		},
		{
			name: "started sidecar is ready and counted",
			pod: api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{fxSidecar("side")}, Containers: []api.Container{{Name: "app"}}},
				Status: api.PodStatus{Phase: api.PodRunning,
					InitContainerStatuses: []api.ContainerStatus{restarted(ready("side"), 2, 90*time.Second)},
					ContainerStatuses:     []api.ContainerStatus{ready("app")}}},
			want: DisplayRow{"2/2", "Running", "2 (90s ago)", "60m"},
		},
		{
			name: "first container's reason wins",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}}},
				Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{
					fxStatus("a", fxWaiting(ImagePullBackOff)), fxStatus("b", fxWaiting(CrashLoopBackOff))}}},
			want: DisplayRow{"0/2", "ImagePullBackOff", "0", "60m"},
		},
		{
			name: "completed with a ready running container and Ready pod",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}}},
				Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}},
					ContainerStatuses: []api.ContainerStatus{fxStatus("a", fxExited(0)), ready("b")}}},
			want: DisplayRow{"1/2", "Running", "0", "60m"},
		},
		{
			name: "completed with a ready running container, pod not Ready",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}}},
				Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{fxStatus("a", fxExited(0)), ready("b")}}},
			want: DisplayRow{"1/2", "NotReady", "0", "60m"},
		},
		{
			name: "completed does not hide an error",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}}},
				Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{fxStatus("a", fxExited(0)), fxStatus("b", fxExited(1))}}},
			want: DisplayRow{"0/2", "Error", "0", "60m"},
		},
		{
			// A non-zero exit labelled Completed is still an error reason, and
			// it wins over NotReady.
			name: "completed with non-zero exit beside a ready running container",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}}},
				Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{
					{Name: "a", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: Completed}}}, ready("b")}}},
			want: DisplayRow{"1/2", "Completed", "0", "60m"},
		},
		{
			// An earlier container's reason replaces a later failed one's,
			// even when the earlier one exited 0.
			name: "earlier zero-exit reason replaces a later failure",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}}},
				Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{
					{Name: "a", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0, Reason: "OOMKilled"}}},
					{Name: "b", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: Completed}}}}}},
			want: DisplayRow{"0/2", "OOMKilled", "0", "60m"},
		},
		{
			// A final Completed falls back to the first failure's text even
			// when a zero exit without reason came in between.
			name: "completed falls back to a signal seen before an ExitCode:0",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {Name: "b"}, {Name: "c"}}},
				Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{
					fxStatus("a", fxExited(0)),
					{Name: "b", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0}}},
					{Name: "c", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Signal: 15}}}}}},
			want: DisplayRow{"0/3", "Signal:15", "0", "60m"},
		},
		{
			name: "signal without reason",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}},
				Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: []api.ContainerStatus{{Name: "a", State: signalled}}}},
			want: DisplayRow{"0/1", "Signal:9", "0", "60m"},
		},
		{
			name: "evicted",
			pod:  api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}}, Status: api.PodStatus{Phase: api.PodFailed, Reason: api.PodStatusReasonEvicted}},
			want: DisplayRow{"0/1", "Evicted", "0", "60m"},
		},
		{
			name: "scheduling gated",
			pod: api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}}, Status: api.PodStatus{Phase: api.PodPending,
				Conditions: []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: api.PodReasonSchedulingGated}}}},
			want: DisplayRow{"0/1", "SchedulingGated", "0", "60m"},
		},
		{
			name: "terminating",
			pod: api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: api.NewTimePtr(now)}, Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}},
				Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{ready("a")}}},
			want: DisplayRow{"1/1", "Terminating", "0", "60m"},
		},
		{
			name: "deleted after finishing keeps its status",
			pod: api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: api.NewTimePtr(now)}, Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}},
				Status: api.PodStatus{Phase: api.PodSucceeded, ContainerStatuses: []api.ContainerStatus{fxStatus("a", fxExited(0))}}},
			want: DisplayRow{"0/1", "Completed", "0", "60m"},
		},
		{
			name: "node lost while deleting",
			pod: api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: api.NewTimePtr(now)}, Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}},
				Status: api.PodStatus{Phase: api.PodRunning, Reason: NodeLost}},
			want: DisplayRow{"0/1", "Unknown", "0", "60m"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.pod.CreationTimestamp = created
			if d := cmp.Diff(tc.want, DisplayStatus(&tc.pod, now)); d != "" {
				t.Errorf("row (-want +got):\n%s", d)
			}
		})
	}
}

func TestDisplayStatusAge(t *testing.T) {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}}}
	if got := DisplayStatus(pod, fxT0).Age; got != "<unknown>" {
		t.Errorf("no creationTimestamp: Age %q", got)
	}
	pod.CreationTimestamp = api.NewTime(fxT0.Add(5 * time.Second))
	if got := DisplayStatus(pod, fxT0).Age; got != "<invalid>" {
		t.Errorf("created in the future: Age %q", got)
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		s    api.ContainerState
		want string
	}{
		{api.ContainerState{}, "Unknown"},
		{fxRunning(), "Running"},
		{fxWaiting(""), "Waiting"},
		{fxWaiting(CrashLoopBackOff), "Waiting (CrashLoopBackOff)"},
		{fxExited(1), "Terminated (Error, exit code 1)"},
		{api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, Signal: 9}}, "Terminated (signal 9)"},
	}
	for _, tc := range tests {
		if got := Describe(&tc.s).String(); got != tc.want {
			t.Errorf("Describe = %q, want %q", got, tc.want)
		}
	}
	if d := Describe(&tests[4].s); !d.Failed() || d.Succeeded() || d.Kind != StateTerminated || d.Kind.String() != "Terminated" {
		t.Errorf("Describe(exit 1) = %+v", d)
	}
	if TerminatedReason(0, false) != Completed || TerminatedReason(1, false) != Error || TerminatedReason(137, true) != OOMKilled {
		t.Error("TerminatedReason")
	}
}

func TestDescribeStatus(t *testing.T) {
	s := fxCrashed("app", 1)
	s.RestartCount = 3
	want := "app: Waiting (CrashLoopBackOff), not ready, 3 restarts, last Terminated (Error, exit code 1)"
	if got := DescribeStatus(&s).String(); got != want {
		t.Errorf("DescribeStatus = %q, want %q", got, want)
	}
	r := fxStatus("web", fxRunning())
	r.Ready, r.Started = true, fxPtr(true)
	if got := DescribeStatus(&r); got.String() != "web: Running, ready" || !got.Started {
		t.Errorf("DescribeStatus = %+v", got)
	}
	if got := DescribeStatus(nil); got.State.Kind != StateUnknown {
		t.Errorf("DescribeStatus(nil) = %+v", got)
	}
}
