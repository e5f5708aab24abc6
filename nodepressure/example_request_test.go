package nodepressure_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// A pod's memory request as the kubelet ranks it for eviction and counts it
// when it preempts pods for a critical one: the larger of the regular
// containers' sum and an init container's request, plus the pod overhead.
func ExampleResourceRequest() {
	p := &api.Pod{}
	p.Spec.InitContainers = []api.Container{{Name: "migrate", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}}}}
	p.Spec.Containers = []api.Container{
		{Name: "app", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("256Mi")}}},
		{Name: "proxy", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("128Mi")}}},
	}
	p.Spec.Overhead = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("64Mi")}
	mem := nodepressure.ResourceRequest(p, api.ResourceMemory)
	cpu := nodepressure.ResourceRequest(p, api.ResourceCPU)
	fmt.Println(mem.String(), cpu.String())
	// Output: 1088Mi 0
}
