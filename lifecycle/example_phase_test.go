package lifecycle_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// A job-like pod under restartPolicy OnFailure: a failed container is
// restarted, so the pod stays Running; once it exits 0 the pod Succeeded.
func ExamplePhase() {
	pod := &api.Pod{Spec: api.PodSpec{
		RestartPolicy: api.RestartPolicyOnFailure,
		Containers:    []api.Container{{Name: "job", Image: "busybox"}},
	}}
	for _, code := range []int32{1, 0} {
		pod.Status.ContainerStatuses = []api.ContainerStatus{{
			Name:  "job",
			State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code}},
		}}
		fmt.Printf("exit %d: %s\n", code, lifecycle.Phase(pod, lifecycle.PhaseOptions{}))
	}
	// Output:
	// exit 1: Running
	// exit 0: Succeeded
}

// ExplainPhase says which rule decided.
func ExampleExplainPhase() {
	pod := &api.Pod{Spec: api.PodSpec{
		RestartPolicy:  api.RestartPolicyNever,
		InitContainers: []api.Container{{Name: "migrate"}},
		Containers:     []api.Container{{Name: "app"}},
	}, Status: api.PodStatus{InitContainerStatuses: []api.ContainerStatus{{
		Name:  "migrate",
		State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 2, Reason: lifecycle.Error}},
	}}}}
	r := lifecycle.ExplainPhase(pod, lifecycle.PhaseOptions{})
	fmt.Println(r.Phase, "-", r.Why)
	// Output: Failed - 1 init container(s) failed and will not be restarted
}

// Phases only move forward and terminal phases absorb.
func ExampleValidPhaseTransition() {
	fmt.Println(lifecycle.ValidPhaseTransition(api.PodPending, api.PodRunning))
	fmt.Println(lifecycle.ValidPhaseTransition(api.PodRunning, api.PodPending))
	fmt.Println(lifecycle.ValidPhaseTransition(api.PodSucceeded, api.PodRunning))
	// Output:
	// <nil>
	// pod phase may not move backwards: Running cannot go back to Pending
	// pod phase is terminal: Succeeded is final, cannot become Running
}

// The readiness gate example of the pod lifecycle docs: the container is
// ready, but the load balancer has not yet set its condition, so the pod is
// not Ready.
func ExampleConditions() {
	yes := true
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "rg-demo", Generation: 1},
		Spec: api.PodSpec{
			Containers:     []api.Container{{Name: "app"}},
			ReadinessGates: []api.PodReadinessGate{{ConditionType: "www.example.com/feature-1"}},
		},
		Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{{
			Name: "app", Ready: true, Started: &yes,
			State: api.ContainerState{Running: &api.ContainerStateRunning{}},
		}}},
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	k := lifecycle.Conditions(pod, lifecycle.ConditionsInput{
		Phase:     api.PodRunning,
		Sandboxes: []lifecycle.Sandbox{{Ready: true, HasNetworkStatus: true, IP: "10.244.1.5"}},
	}, now)
	for _, c := range k.List() {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s=%s %s %s", c.Type, c.Status, c.Reason, c.Message)))
	}
	// Output:
	// PodReadyToStartContainers=True
	// Initialized=True
	// Ready=False ReadinessGatesNotReady corresponding condition of pod readiness gate "www.example.com/feature-1" does not exist.
	// ContainersReady=True
}

// A container that keeps crashing after a second: the kubelet restarts it at
// once, then after 10 s, 20 s, 40 s ... up to 5 minutes.
func ExampleBackoff_NextRestart() {
	var b lifecycle.Backoff // Kubernetes v1.36.3 defaults
	var h lifecycle.RestartHistory
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for range 8 {
		finish := start.Add(time.Second)
		h.Runs = append(h.Runs, lifecycle.Run{Key: "app", StartedAt: start, FinishedAt: finish})
		d, err := b.NextRestart(h, finish)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-14s wait %s\n", d.Code, d.Delay)
		start = d.At
	}
	// Output:
	// NoBackoff      wait 0s
	// InBackoff      wait 10s
	// InBackoff      wait 20s
	// InBackoff      wait 40s
	// InBackoff      wait 1m20s
	// InBackoff      wait 2m40s
	// InBackoff      wait 5m0s
	// InBackoff      wait 5m0s
}

// A smaller maxContainerRestartPeriod caps the delay sooner.
func ExampleBackoff_Max() {
	b := lifecycle.Backoff{MaxContainerRestartPeriod: 5 * time.Second}
	fmt.Println(b.Initial(), b.Max())
	// Output: 5s 5s
}

// The STATUS column of `kubectl get pods` for the init container example of
// the docs, while the second init container is crash-looping.
func ExampleDisplayStatus() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	done := api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0, Reason: lifecycle.Completed}}
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "myapp-pod", CreationTimestamp: api.NewTime(now.Add(-6 * time.Minute))},
		Spec: api.PodSpec{
			InitContainers: []api.Container{{Name: "init-myservice"}, {Name: "init-mydb"}},
			Containers:     []api.Container{{Name: "myapp-container"}},
		},
		Status: api.PodStatus{
			Phase: api.PodPending,
			InitContainerStatuses: []api.ContainerStatus{
				{Name: "init-myservice", State: done},
				{
					Name: "init-mydb", RestartCount: 3,
					State:                api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: lifecycle.CrashLoopBackOff}},
					LastTerminationState: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, FinishedAt: api.NewTime(now.Add(-40 * time.Second))}},
				},
			},
		},
	}
	row := lifecycle.DisplayStatus(pod, now)
	fmt.Printf("READY %s  STATUS %s  RESTARTS %s  AGE %s\n", row.Ready, row.Status, row.Restarts, row.Age)
	// Output: READY 0/1  STATUS Init:CrashLoopBackOff  RESTARTS 3 (40s ago)  AGE 6m
}

// Sidecars restart whatever the pod's policy; init containers that
// completed never run again.
func ExampleShouldRestart() {
	always := api.RestartPolicyAlways
	spec := &api.PodSpec{RestartPolicy: api.RestartPolicyNever}
	fmt.Println(lifecycle.ShouldRestart(spec, api.ContainerKindSidecar, &api.Container{Name: "proxy", RestartPolicy: &always}, 0))
	fmt.Println(lifecycle.ShouldRestart(spec, api.ContainerKindRegular, &api.Container{Name: "app"}, 1))
	fmt.Println(lifecycle.ShouldRestart(&api.PodSpec{}, api.ContainerKindInit, &api.Container{Name: "init"}, 0))
	// Output:
	// restarted by sidecar Always
	// not restarted by pod restartPolicy Never
	// not restarted by init container completed
}
