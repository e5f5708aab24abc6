package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// A container with a postStart hook, as in the Kubernetes docs' "Attach
// Handlers to Container Lifecycle Events": the kubelet runs the hook right
// after the runtime started the container, and the container is not
// reported running until the hook returns. Here the hook fails once: the
// kubelet records FailedPostStartHook, kills the container, and its status
// waits with reason PostStartHookError until the restart — which the pod's
// restartPolicy Always makes at once — runs a hook that succeeds.
func ExamplePostStartFailed() {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "lifecycle-demo", Namespace: "default", UID: "d3m0", CreationTimestamp: api.NewTime(t0)},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "lifecycle-demo-container", Image: "nginx:1.27",
			Lifecycle: &api.Lifecycle{PostStart: &api.LifecycleHandler{Exec: &api.ExecAction{
				Command: []string{"/bin/sh", "-c", "echo Hello from the postStart handler > /usr/share/message"}}}}}}},
	}
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{ImagesPresent: []string{"nginx:1.27"}})
	c := "lifecycle-demo-container"
	now := t0
	for _, ev := range []lifecycle.Event{
		lifecycle.Scheduled("node-1"),
		lifecycle.SandboxReady("10.244.1.7"),
		lifecycle.ContainerStarted(c),
		lifecycle.PostStartFailed(c, "command exited with 1"),
		lifecycle.ContainerExited(c, 137, ""),
		lifecycle.ContainerStarted(c),
		lifecycle.PostStartFinished(c),
	} {
		now = now.Add(time.Second)
		_, actions := m.Step(ev, now)
		fmt.Printf("%-55s %-18s %v\n", ev, lifecycle.DisplayStatus(m.Pod(), now).Status, actions)
	}
	// Output:
	// Scheduled(node-1)                                       ContainerCreating  [CreateSandbox ReportStatus]
	// SandboxReady(10.244.1.7)                                ContainerCreating  [StartContainer(lifecycle-demo-container) ReportStatus]
	// ContainerStarted(lifecycle-demo-container)              ContainerCreating  [RunPostStart(lifecycle-demo-container)]
	// PostStartFailed(lifecycle-demo-container, command exited with 1) ContainerCreating  [Event(Warning FailedPostStartHook: PostStartHook failed) Event(Normal Killing: FailedPostStartHook) KillContainer(lifecycle-demo-container, 30s) RetryAt(2025-06-01T12:00:34Z, grace period)]
	// ContainerExited(lifecycle-demo-container, 137)          PostStartHookError [StartContainer(lifecycle-demo-container) ReportStatus]
	// ContainerStarted(lifecycle-demo-container)              PostStartHookError [RunPostStart(lifecycle-demo-container)]
	// PostStartFinished(lifecycle-demo-container)             Running            [ReportStatus]
}

// A pod the node's kubelet refuses at admission (here its resource admit
// handler: the node has 1 CPU left, the pod asks for 2) is set Failed by
// the kubelet, with the admit handler's reason and a "Pod was rejected"
// message, and none of it ever runs. Admission turns the verdict, as the
// kubelet's admit handlers give it, into the Machine's input.
func ExampleRejected() {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "big", Namespace: "default", UID: "b1", CreationTimestamp: api.NewTime(t0)},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "busybox:1.28"}}},
	}
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{})
	ev := lifecycle.Admission("node-1", false, "OutOfcpu",
		"Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000")
	st, actions := m.Step(ev, t0.Add(time.Second))
	fmt.Println(st.Phase, st.Reason)
	fmt.Println(st.Message)
	fmt.Println(actions)
	fmt.Println(lifecycle.DisplayStatus(m.Pod(), t0.Add(time.Minute)).Status)
	_, actions = m.Step(lifecycle.SandboxReady("10.244.1.9"), t0.Add(2*time.Second))
	fmt.Println(actions, m.Terminal())
	// Output:
	// Failed OutOfcpu
	// Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000
	// [Event(Warning OutOfcpu: Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000) ReportStatus]
	// OutOfcpu
	// [] true
}
