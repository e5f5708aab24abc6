package nodepressure_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// The node's available memory falls to 80Mi, under the kubelet's default
// hard threshold memory.available<100Mi: the eviction manager reports
// MemoryPressure and evicts the BestEffort pod using the most memory.
func ExampleManager_memoryPressure() {
	mib := func(n uint64) *uint64 { n <<= 20; return &n }
	var pods []*api.Pod
	var stats []nodepressure.PodStats
	for _, u := range []struct {
		name string
		mib  uint64
	}{{"web", 300}, {"batch", 500}} {
		name := u.name
		pods = append(pods, &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: "busybox"}}},
		})
		ws := &nodepressure.MemoryStats{WorkingSetBytes: mib(u.mib)}
		stats = append(stats, nodepressure.PodStats{PodRef: nodepressure.PodReference{Name: name, UID: "uid-" + name},
			Memory: ws, Containers: []nodepressure.ContainerStats{{Name: "app", Memory: ws}}})
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var m nodepressure.Manager // the kubelet's defaults
	st := m.Step(nodepressure.Observation{Pods: pods, Summary: nodepressure.Summary{Pods: stats,
		Node: nodepressure.NodeStats{Memory: &nodepressure.MemoryStats{Time: api.NewTime(now), AvailableBytes: mib(80), WorkingSetBytes: mib(3072)}}},
	}, now)
	fmt.Println("conditions:", st.Conditions)
	if e := st.Eviction; e != nil {
		fmt.Printf("evict %s (grace %ds): %s\n", e.Pod.Name, e.Grace.GracePeriodSeconds, e.Message)
	}
	// Output:
	// conditions: [MemoryPressure]
	// evict batch (grace 1s): The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container app was using 500Mi, request is 0, has larger consumption of memory.
}
