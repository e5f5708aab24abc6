package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// A pod whose container exits 1 twice: the kubelet restarts it at once
// the first time, then backs off 10s and the pod shows CrashLoopBackOff.
// Each Step returns what a node agent must do.
func ExampleMachine_crashLoop() {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "7b2c", CreationTimestamp: api.NewTime(t0)},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.27"}}},
	}
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{})
	now := t0
	for _, ev := range []lifecycle.Event{
		lifecycle.Scheduled("node-1"),
		lifecycle.SandboxReady("10.244.1.5"),
		lifecycle.ImagePulled("app"),
		lifecycle.ContainerStarted("app"),
		lifecycle.ContainerExited("app", 1, ""),
		lifecycle.ContainerStarted("app"),
		lifecycle.ContainerExited("app", 1, ""),
		lifecycle.Tick(),
	} {
		now = now.Add(2 * time.Second)
		st, actions := m.Step(ev, now)
		fmt.Printf("%-24s %-7s %-16s %v\n", ev, st.Phase, lifecycle.DisplayStatus(m.Pod(), now).Status, actions)
	}
	// Output:
	// Scheduled(node-1)        Pending ContainerCreating [CreateSandbox ReportStatus]
	// SandboxReady(10.244.1.5) Pending ContainerCreating [PullImage(app, nginx:1.27) ReportStatus]
	// ImagePulled(app)         Pending ContainerCreating [StartContainer(app)]
	// ContainerStarted(app)    Running Running          [ReportStatus]
	// ContainerExited(app, 1)  Running Error            [StartContainer(app) ReportStatus]
	// ContainerStarted(app)    Running Running          [ReportStatus]
	// ContainerExited(app, 1)  Running Error            [Event(Warning BackOff: Back-off restarting failed container app in pod web_default(7b2c)) RetryAt(2025-06-01T12:00:24Z, app back-off 10s) RetryAt(2025-06-01T12:00:15Z, next sync) ReportStatus]
	// Tick                     Running CrashLoopBackOff [ReportStatus]
}
