package nodepressure_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

func u64p(v uint64) *uint64 { return &v }

// The settings of the node-pressure eviction page: a soft memory threshold
// with a grace period, the default hard thresholds replaced.
func ExampleParseSettings() {
	p, err := nodepressure.ParseSettings(nodepressure.Settings{
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
	_, err = nodepressure.ParseSettings(nodepressure.Settings{Soft: map[string]string{"memory.available": "1Gi"}})
	fmt.Println(err)
	// Output:
	// memory.available<500Mi (minimum reclaim 0)
	// nodefs.available<1Gi (minimum reclaim 500Mi)
	// imagefs.available<100Gi (minimum reclaim 2Gi)
	// memory.available<1536Mi (grace 1m30s) (minimum reclaim 0)
	// allocatableMemory.available<500Mi (minimum reclaim 0)
	// invalid eviction setting: evictionSoft["memory.available"]: a soft threshold needs an evictionSoftGracePeriod entry
}

func ExampleParseFlag() {
	hard, _ := nodepressure.ParseFlag("eviction-hard", "memory.available<100Mi,nodefs.available<10%")
	fmt.Println(hard)
	// Output:
	// map[memory.available:100Mi nodefs.available:10%]
}

// A node's memory runs out under the kubelet's default hard threshold
// (memory.available<100Mi): the kubelet reports MemoryPressure, skips the
// critical pod and evicts the BestEffort pod using the most memory. If
// nothing new is read, its next pass is after the 30 s it waits for the
// evicted pod's cleanup.
func ExampleManager() {
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
	usage := func(name string, mib uint64) nodepressure.PodStats {
		ws := &nodepressure.MemoryStats{WorkingSetBytes: u64p(mib << 20)}
		return nodepressure.PodStats{PodRef: nodepressure.PodReference{Name: name, UID: "uid-" + name}, Memory: ws,
			Containers: []nodepressure.ContainerStats{{Name: "app", Memory: ws}}}
	}
	pods := []*api.Pod{pod("coredns", 2000000000, ""), pod("web", 0, "256Mi"), pod("batch", 0, "")}
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

	var m nodepressure.Manager // the kubelet's defaults
	for i, availMiB := range []uint64{900, 80} {
		now := start.Add(time.Duration(i) * 10 * time.Second)
		st := m.Step(nodepressure.Observation{
			Summary: nodepressure.Summary{
				Node: nodepressure.NodeStats{Memory: &nodepressure.MemoryStats{
					Time: api.NewTime(now), AvailableBytes: u64p(availMiB << 20), WorkingSetBytes: u64p(3 << 30)}},
				Pods: []nodepressure.PodStats{usage("coredns", 900), usage("web", 300), usage("batch", 500)},
			},
			Pods: pods,
		}, now)
		fmt.Printf("%dMi available: conditions %v\n", availMiB, st.Conditions)
		if e := st.Eviction; e != nil {
			fmt.Printf("evict %s (grace %ds, %s): %q\n", e.Pod.Name, e.Grace.GracePeriodSeconds, e.Status.Phase, e.Message)
			fmt.Printf("admit a BestEffort pod: %q\n", m.Admit(pod("new", 0, "")).Message)
		}
		if d := m.NextDeadline(); !d.IsZero() {
			fmt.Printf("next pass without new readings: +%v\n", d.Sub(start))
		}
	}
	// Output:
	// 900Mi available: conditions []
	// 80Mi available: conditions [MemoryPressure]
	// evict batch (grace 1s, Failed): "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container app was using 500Mi, request is 0, has larger consumption of memory. "
	// admit a BestEffort pod: "The node had condition: [MemoryPressure]. "
	// next pass without new readings: +40s
}

func ExampleAdmit() {
	bestEffort := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "busybox"}}}}
	show := func(a nodepressure.Admission) {
		fmt.Printf("admit=%v reason=%q message=%q\n", a.Admit, a.Reason, a.Message)
	}
	show(nodepressure.Admit(bestEffort, []api.NodeConditionType{api.NodeMemoryPressure}))
	bestEffort.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeMemoryPressure, Operator: api.TolerationOpExists}}
	show(nodepressure.Admit(bestEffort, []api.NodeConditionType{api.NodeMemoryPressure}))
	show(nodepressure.Admit(bestEffort, []api.NodeConditionType{api.NodeDiskPressure}))
	// Output:
	// admit=false reason="Evicted" message="The node had condition: [MemoryPressure]. "
	// admit=true reason="" message=""
	// admit=false reason="Evicted" message="The node had condition: [DiskPressure]. "
}

// The kubelet's memory-pressure order from the "Node-pressure Eviction"
// page: pods using more than they request go first (the one with no stats
// before anyone), then lower priority, then the larger overage.
func ExampleRankForEviction() {
	pods := []*api.Pod{
		epod("guaranteed", 0, "1Gi", ""),
		epod("burstable-under", 0, "500Mi", ""),
		epod("burstable-over", 1000, "100Mi", ""),
		epod("besteffort", 0, "", ""),
	}
	stats := nodepressure.StatsByUID([]nodepressure.PodStats{
		memStats("besteffort", 50*mi), memStats("burstable-over", 300*mi),
		memStats("burstable-under", 200*mi), memStats("guaranteed", 900*mi),
	})
	ranks, _ := nodepressure.RankForEviction(pods, stats, nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared)
	for _, r := range ranks {
		fmt.Printf("%-16s %s\n", r.Pod.Name, r.Reason())
	}
	// Output:
	// besteffort       usage 50Mi exceeds request 0; priority 0; 50Mi above request
	// burstable-over   usage 300Mi exceeds request 100Mi; priority 1000; 200Mi above request
	// guaranteed       usage 900Mi within request 1Gi; priority 0; -124Mi above request
	// burstable-under  usage 200Mi within request 500Mi; priority 0; -300Mi above request
}

// Under disk pressure with a dedicated image filesystem, nodefs counts
// only logs and local volumes: the pod with the big writable layer is
// spared.
func ExampleEvictionOrder() {
	pods := []*api.Pod{epod("big-rootfs", 0, "", ""), epod("big-logs", 0, "", "")}
	stats := nodepressure.StatsByUID([]nodepressure.PodStats{
		diskStats("big-rootfs", 900*mi, 1*mi, nil),
		diskStats("big-logs", 1*mi, 300*mi, nil),
	})
	order, _ := nodepressure.EvictionOrder(pods, stats, nodepressure.SignalNodeFsAvailable, nodepressure.LayoutDedicatedImageFs)
	fmt.Println(names(order))
	// Output:
	// [big-logs big-rootfs]
}
