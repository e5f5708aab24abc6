package preemption_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
)

func u64p(v uint64) *uint64 { return &v }

// The settings of the node-pressure eviction page: a soft memory threshold
// with a grace period, the default hard thresholds replaced.
func ExampleParseEvictionSettings() {
	p, err := preemption.ParseEvictionSettings(preemption.EvictionSettings{
		Hard:            map[string]string{"memory.available": "500Mi", "nodefs.available": "1Gi", "imagefs.available": "100Gi"},
		Soft:            map[string]string{"memory.available": "1.5Gi"},
		SoftGracePeriod: map[string]string{"memory.available": "1m30s"},
		MinimumReclaim:  map[string]string{"memory.available": "0Mi", "nodefs.available": "500Mi", "imagefs.available": "2Gi"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range p.Thresholds {
		fmt.Println(t)
	}
	_, err = preemption.ParseEvictionSettings(preemption.EvictionSettings{Soft: map[string]string{"memory.available": "1Gi"}})
	fmt.Println(err)
	// Output:
	// memory.available<500Mi (minimum reclaim 0)
	// nodefs.available<1Gi (minimum reclaim 500Mi)
	// imagefs.available<100Gi (minimum reclaim 2Gi)
	// memory.available<1536Mi (grace 1m30s) (minimum reclaim 0)
	// allocatableMemory.available<500Mi (minimum reclaim 0)
	// invalid eviction setting: evictionSoft["memory.available"]: a soft threshold needs an evictionSoftGracePeriod entry
}

func ExampleParseEvictionFlag() {
	hard, _ := preemption.ParseEvictionFlag("eviction-hard", "memory.available<100Mi,nodefs.available<10%")
	fmt.Println(hard)
	// Output:
	// map[memory.available:100Mi nodefs.available:10%]
}

// A node's memory runs out under the kubelet's default hard threshold
// (memory.available<100Mi): the kubelet reports MemoryPressure, skips the
// critical pod and evicts the BestEffort pod using the most memory.
func ExampleEvictionManager() {
	pod := func(name string, prio int32, request string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name}}
		p.Spec.Priority = &prio
		c := api.Container{Name: "app", Image: "busybox"}
		if request != "" {
			c.Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity(request)}
		}
		p.Spec.Containers = []api.Container{c}
		return p
	}
	usage := func(name string, mib uint64) preemption.PodStats {
		ws := &preemption.MemoryStats{WorkingSetBytes: u64p(mib << 20)}
		return preemption.PodStats{PodRef: preemption.PodReference{Name: name, UID: "uid-" + name}, Memory: ws,
			Containers: []preemption.ContainerStats{{Name: "app", Memory: ws}}}
	}
	pods := []*api.Pod{pod("coredns", 2000000000, ""), pod("web", 0, "256Mi"), pod("batch", 0, "")}
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

	var m preemption.EvictionManager // the kubelet's defaults
	for i, availMiB := range []uint64{900, 80} {
		now := start.Add(time.Duration(i) * 10 * time.Second)
		st := m.Step(preemption.Observation{
			Summary: preemption.Summary{
				Node: preemption.NodeStats{Memory: &preemption.MemoryStats{
					Time: api.NewTime(now), AvailableBytes: u64p(availMiB << 20), WorkingSetBytes: u64p(3 << 30)}},
				Pods: []preemption.PodStats{usage("coredns", 900), usage("web", 300), usage("batch", 500)},
			},
			Pods: pods,
		}, now)
		fmt.Printf("%dMi available: conditions %v\n", availMiB, st.Conditions)
		if e := st.Eviction; e != nil {
			fmt.Printf("evict %s (grace %ds, %s): %q\n", e.Pod.Name, e.Grace.GracePeriodSeconds, e.Status.Phase, e.Message)
			fmt.Printf("admit a BestEffort pod: %q\n", m.Admit(pod("new", 0, "")).Message)
		}
	}
	// Output:
	// 900Mi available: conditions []
	// 80Mi available: conditions [MemoryPressure]
	// evict batch (grace 1s, Failed): "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container app was using 500Mi, request is 0, has larger consumption of memory. "
	// admit a BestEffort pod: "The node had condition: [MemoryPressure]. "
}

func ExampleAdmitUnderPressure() {
	bestEffort := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "busybox"}}}}
	show := func(a preemption.Admission) {
		fmt.Printf("admit=%v reason=%q message=%q\n", a.Admit, a.Reason, a.Message)
	}
	show(preemption.AdmitUnderPressure(bestEffort, []api.NodeConditionType{api.NodeMemoryPressure}))
	bestEffort.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeMemoryPressure, Operator: api.TolerationOpExists}}
	show(preemption.AdmitUnderPressure(bestEffort, []api.NodeConditionType{api.NodeMemoryPressure}))
	show(preemption.AdmitUnderPressure(bestEffort, []api.NodeConditionType{api.NodeDiskPressure}))
	// Output:
	// admit=false reason="Evicted" message="The node had condition: [MemoryPressure]. "
	// admit=true reason="" message=""
	// admit=false reason="Evicted" message="The node had condition: [DiskPressure]. "
}
