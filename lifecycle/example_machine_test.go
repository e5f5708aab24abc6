package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// The myapp-pod of the init containers documentation: two init containers
// wait for the services myservice and mydb before the app container runs.
func myappPod(created time.Time) *api.Pod {
	wait := func(svc string) []string {
		return []string{"sh", "-c", "until nslookup " + svc + ".$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for " + svc + "; sleep 2; done"}
	}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "myapp-pod", Namespace: "default", UID: "6a1f", CreationTimestamp: api.NewTime(created),
			Labels: map[string]string{"app.kubernetes.io/name": "MyApp"}},
		Spec: api.PodSpec{
			Containers: []api.Container{{Name: "myapp-container", Image: "busybox:1.28",
				Command: []string{"sh", "-c", "echo The app is running! && sleep 3600"}}},
			InitContainers: []api.Container{
				{Name: "init-myservice", Image: "busybox:1.28", Command: wait("myservice")},
				{Name: "init-mydb", Image: "busybox:1.28", Command: wait("mydb")},
			},
		},
	}
}

// Sequence says which container the kubelet starts next: here the first
// init container has completed, so the second one is due, and the app
// container waits for it.
func ExampleSequence() {
	pod := myappPod(time.Time{})
	pod.Status.InitContainerStatuses = []api.ContainerStatus{
		{Name: "init-myservice", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}}},
		{Name: "init-mydb", State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "PodInitializing"}}},
	}
	sandboxes := []lifecycle.Sandbox{{Ready: true, HasNetworkStatus: true, IP: "10.244.1.5"}}
	plan := lifecycle.Sequence(pod, sandboxes)
	fmt.Println(plan.Start, plan.Initialized)
	fmt.Println(plan.Why)
	// Output:
	// [init container init-mydb (AfterInit)] false
	// initializing: start init container init-mydb (AfterInit)
}

// PastActiveDeadline counts from status.startTime, init containers
// included.
func ExamplePastActiveDeadline() {
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	ads := int64(60)
	pod := &api.Pod{Spec: api.PodSpec{ActiveDeadlineSeconds: &ads}, Status: api.PodStatus{StartTime: api.NewTimePtr(start)}}
	for _, after := range []time.Duration{45 * time.Second, 60 * time.Second} {
		past, remaining := lifecycle.PastActiveDeadline(pod, start.Add(after))
		fmt.Println(after, past, remaining)
	}
	// Output:
	// 45s false 15s
	// 1m0s true 0s
}

// A Machine replays the myapp-pod story: each step feeds one event and
// prints the phase, the kubectl STATUS column and the actions asked for.
// The app container then crashes twice: the first exit is restarted at
// once; the second is held back 10 s by the crash-loop back-off, so the
// kubelet records a BackOff event and the status it reports at its next
// sync reads CrashLoopBackOff (the sync that saw the exit reported Error).
func ExampleMachine() {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	m := lifecycle.NewMachine(myappPod(t0), lifecycle.MachineConfig{})
	now := t0
	for _, ev := range []lifecycle.Event{
		lifecycle.Scheduled("node-1"),
		lifecycle.SandboxReady("10.244.1.5"),
		lifecycle.ImagePulled("init-myservice"),
		lifecycle.ContainerStarted("init-myservice"),
		lifecycle.ContainerExited("init-myservice", 0, ""),
		lifecycle.ContainerStarted("init-mydb"),
		lifecycle.ContainerExited("init-mydb", 0, ""),
		lifecycle.ContainerStarted("myapp-container"),
		lifecycle.ContainerExited("myapp-container", 1, ""),
		lifecycle.ContainerStarted("myapp-container"),
		lifecycle.ContainerExited("myapp-container", 1, ""),
		lifecycle.Tick(),
	} {
		now = now.Add(2 * time.Second)
		st, actions := m.Step(ev, now)
		fmt.Printf("%-37s %-8s %-16s %v\n", ev, st.Phase, lifecycle.DisplayStatus(m.Pod(), now).Status, actions)
	}
	// Output:
	// Scheduled(node-1)                     Pending  Init:0/2         [CreateSandbox ReportStatus]
	// SandboxReady(10.244.1.5)              Pending  Init:0/2         [PullImage(init-myservice, busybox:1.28) ReportStatus]
	// ImagePulled(init-myservice)           Pending  Init:0/2         [StartContainer(init-myservice)]
	// ContainerStarted(init-myservice)      Pending  Init:0/2         [ReportStatus]
	// ContainerExited(init-myservice, 0)    Pending  Init:1/2         [StartContainer(init-mydb) ReportStatus]
	// ContainerStarted(init-mydb)           Pending  Init:1/2         [ReportStatus]
	// ContainerExited(init-mydb, 0)         Pending  PodInitializing  [StartContainer(myapp-container) ReportStatus]
	// ContainerStarted(myapp-container)     Running  Running          [ReportStatus]
	// ContainerExited(myapp-container, 1)   Running  Error            [StartContainer(myapp-container) ReportStatus]
	// ContainerStarted(myapp-container)     Running  Running          [ReportStatus]
	// ContainerExited(myapp-container, 1)   Running  Error            [Event(Warning BackOff: Back-off restarting failed container myapp-container in pod myapp-pod_default(6a1f)) RetryAt(2025-06-01T12:00:32Z, myapp-container back-off 10s) RetryAt(2025-06-01T12:00:23Z, next sync) ReportStatus]
	// Tick                                  Running  CrashLoopBackOff [ReportStatus]
}
