package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// admitNode is a 2-CPU, 4GiB node with room for 110 pods.
func admitNode() *api.Node {
	n := &api.Node{}
	n.Name = "node-1"
	n.Labels = map[string]string{api.LabelHostname: "node-1", api.LabelOS: "linux"}
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    api.MustParseQuantity("2"),
		api.ResourceMemory: api.MustParseQuantity("4Gi"),
		api.ResourcePods:   api.MustParseQuantity("110"),
	}
	return n
}

// admitPod is a pod bound to node-1 whose one container requests cpu and
// memory.
func admitPod(name, cpu, memory string) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace = name, "default"
	p.Spec.NodeName = "node-1"
	p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu), api.ResourceMemory: api.MustParseQuantity(memory)},
	}}}
	return p
}

// Why the kubelet refused my pod: the node's memory is already requested by
// the pods running there, so the kubelet refuses the pod bound to it
// (a pod created with spec.nodeName skips the scheduler, which would have
// kept it off the node) and writes it Failed with OutOfmemory.
// "capacity" is the node's allocatable memory.
func ExampleAdmit() {
	running := admitPod("cache", "500m", "3Gi")
	pod := admitPod("web", "250m", "2Gi")

	r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: admitNode(), Pod: pod, Pods: []*api.Pod{running}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("admitted:", r.Admit, "by", r.Handler)
	fmt.Println(r.Status.Phase, r.Status.Reason)
	fmt.Println(r.Status.Message)
	// Output:
	// admitted: false by predicate
	// Failed OutOfmemory
	// Pod was rejected: Node didn't have enough resource: memory, requested: 2147483648, used: 3221225472, capacity: 4294967296
}

// A critical pod (system-node-critical, priority 2000001000) short only of
// resources is not refused: the kubelet preempts pods to make room, and
// writes each one Failed with reason Preempting.
func ExampleAdmit_criticalPodPreempts() {
	frontend := admitPod("frontend", "1800m", "1Gi")
	critical := admitPod("critical", "500m", "128Mi")
	prio := int32(2000001000)
	critical.Spec.Priority = &prio
	critical.Spec.PriorityClassName = "system-node-critical"

	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: admitNode(), Pod: critical, Pods: []*api.Pod{frontend}, Now: now})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("admitted:", r.Admit)
	for _, v := range r.Preempted {
		fmt.Printf("%s: %s %s %q\n", v.Pod.Name, v.Status.Phase, v.Status.Reason, v.Status.Message)
		for _, c := range v.Status.Conditions {
			fmt.Printf("  %s=%s %s %q\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	// Output:
	// admitted: true
	// frontend: Failed Preempting "Preempted in order to admit critical pod"
	//   DisruptionTarget=True TerminationByKubelet "Pod was preempted by Kubelet to accommodate a critical pod."
}

// Sysctls: net.core.somaxconn is not a safe sysctl, so the kubelet refuses
// it unless --allowed-unsafe-sysctls names it (or a pattern such as
// net.core.*); safe ones such as kernel.shm_rmid_forced need nothing.
func ExampleAdmit_sysctls() {
	pod := admitPod("db", "100m", "64Mi")
	pod.Spec.SecurityContext = &api.PodSecurityContext{Sysctls: []api.Sysctl{
		{Name: "kernel.shm_rmid_forced", Value: "1"},
		{Name: "net.core.somaxconn", Value: "1024"},
	}}
	for _, allowed := range [][]string{nil, {"net.core.*"}} {
		r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: admitNode(), Pod: pod,
			Config: lifecycle.AdmitConfig{AllowedUnsafeSysctls: allowed, KernelVersion: "6.8.0"}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("allowed %v: admitted %v %s %s\n", allowed, r.Admit, r.Reason, r.Message)
	}
	// Output:
	// allowed []: admitted false SysctlForbidden forbidden sysctl: "net.core.somaxconn" not allowlisted
	// allowed [net.core.*]: admitted true
}
