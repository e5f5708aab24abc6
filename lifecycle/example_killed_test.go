package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// The kubelet's eviction manager evicts a running web server under memory
// pressure (a hard threshold: grace-period override 1 s). The pod turns
// Failed with reason Evicted and a DisruptionTarget condition at once; its
// container is stopped with the runtime manager's 2-s minimum stop timeout
// and, although restartPolicy is Always, never starts again.
func ExampleKilled() {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "w1", CreationTimestamp: api.NewTime(t0)},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}}}
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{ImagesPresent: []string{"nginx:1.27"}})
	for _, ev := range []lifecycle.Event{lifecycle.Scheduled("node-1"), lifecycle.SandboxReady("10.244.1.7"), lifecycle.ContainerStarted("web")} {
		m.Step(ev, t0)
	}
	at := t0.Add(time.Minute)
	st, acts := m.Step(lifecycle.Killed(1, api.PodStatusReasonEvicted, "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. "), at)
	fmt.Println(st.Phase, st.Reason, acts)
	c := api.FindCondition(st.Conditions, api.DisruptionTarget)
	fmt.Println(c.Type, c.Status, c.Reason)
	st, acts = m.Step(lifecycle.ContainerExited("web", 143, ""), at)
	fmt.Println(st.Phase, m.Terminal(), acts)
	fmt.Println(m.Why())
	// Output:
	// Failed Evicted [Event(Normal Killing: Stopping container web) KillContainer(web, 2s) RetryAt(2025-06-01T12:01:02Z, grace period) ReportStatus]
	// DisruptionTarget True TerminationByKubelet
	// Failed true [StopSandbox ReportStatus]
	// the pod is Failed: every container has stopped
}

// While the node shuts down, the kubelet's node shutdown manager refuses
// every new pod, and the node's Ready condition reads False.
func ExampleNodeConditions() {
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	healthy, _ := lifecycle.NodeConditions(nil, lifecycle.NodeStatusInput{Node: "node-1"}, t0)
	conds, events := lifecycle.NodeConditions(healthy, lifecycle.NodeStatusInput{Node: "node-1",
		Pressure: []api.NodeConditionType{api.NodeMemoryPressure}, ShuttingDown: true}, t0.Add(10*time.Second))
	for _, c := range conds {
		fmt.Println(c.Type, c.Status, c.Reason, c.Message)
	}
	for _, e := range events {
		fmt.Println(e.Reason+":", e.Note)
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"},
		Status: api.NodeStatus{Allocatable: api.ResourceList{api.ResourcePods: api.MustParseQuantity("110")}}}
	res, _ := lifecycle.Admit(lifecycle.AdmitInput{Node: node, Pod: &api.Pod{ObjectMeta: api.ObjectMeta{Name: "late"}}, ShuttingDown: true})
	fmt.Println(res.Handler, res.Status.Reason, res.Status.Message)
	// Output:
	// MemoryPressure True KubeletHasInsufficientMemory kubelet has insufficient memory available
	// DiskPressure False KubeletHasNoDiskPressure kubelet has no disk pressure
	// PIDPressure False KubeletHasSufficientPID kubelet has sufficient PID available
	// Ready False KubeletNotReady node is shutting down
	// NodeHasInsufficientMemory: Node node-1 status is now: NodeHasInsufficientMemory
	// NodeNotReady: Node node-1 status is now: NodeNotReady
	// nodeshutdown NodeShutdown Pod was rejected: Pod was rejected as the node is shutting down.
}
