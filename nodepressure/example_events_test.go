package nodepressure_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// The Events of a memory eviction, as `kubectl events` lists them: the
// kubelet says on its node what it sets out to reclaim, then on the pod
// why it is evicted, with annotations naming the starved resource and the
// containers over their requests.
func ExamplePass_events() {
	batch := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "batch", Namespace: "default", UID: "uid-batch"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "busybox"}}}}
	ws := &nodepressure.MemoryStats{WorkingSetBytes: u64p(500 << 20)}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

	var m nodepressure.Manager // the kubelet's defaults: memory.available<100Mi
	pass := m.Step(nodepressure.Observation{
		Summary: nodepressure.Summary{
			Node: nodepressure.NodeStats{NodeName: "node-1", Memory: &nodepressure.MemoryStats{
				Time: api.NewTime(now), AvailableBytes: u64p(80 << 20), WorkingSetBytes: u64p(3 << 30)}},
			Pods: []nodepressure.PodStats{{PodRef: nodepressure.PodReference{Name: "batch", UID: "uid-batch"}, Memory: ws,
				Containers: []nodepressure.ContainerStats{{Name: "app", Memory: ws}}}},
		},
		Pods: []*api.Pod{batch},
	}, now)
	for _, e := range pass.Events {
		fmt.Printf("%s %s %s/%s (%s): %q\n", e.Type, e.Reason, e.Regarding.Kind, e.Regarding.Name, e.Source, e.Note)
		for _, k := range []string{nodepressure.AnnotationStarvedResource, nodepressure.AnnotationOffendingContainers, nodepressure.AnnotationOffendingContainersUsage} {
			if v, ok := e.Annotations[k]; ok {
				fmt.Printf("  %s=%s\n", k, v)
			}
		}
	}
	// Output:
	// Warning EvictionThresholdMet Node/node-1 (kubelet): "Attempting to reclaim memory"
	// Warning Evicted Pod/batch (kubelet): "The node was low on resource: memory. Threshold quantity: 100Mi, available: 80Mi. Container app was using 500Mi, request is 0, has larger consumption of memory. "
	//   starved_resource=memory
	//   offending_containers=app
	//   offending_containers_usage=500Mi
}
