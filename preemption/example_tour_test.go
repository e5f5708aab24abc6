package preemption_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// A priority-1000 pod needs 1500m cpu on a full 2-cpu node. Preemption
// works from the cycle that found no node: the two priority-0 pods go,
// the priority-500 pod stays because the preemptor fits beside it.
func ExamplePreempt_lowestPriorityFirst() {
	pod := func(name, node, cpu string, priority int32) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name}}
		p.Spec.NodeName, p.Spec.Priority = node, &priority
		p.Spec.Containers = []api.Container{{Name: "c", Image: "pause", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}}}}
		return p
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{api.LabelHostname: "node-1"}}}
	node.Status.Allocatable = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("2"), api.ResourcePods: api.MustParseQuantity("110")}
	c, err := scheduling.NewCluster([]*api.Node{node},
		[]*api.Pod{pod("low-1", "node-1", "1", 0), pod("low-2", "node-1", "500m", 0), pod("mid", "node-1", "500m", 500)},
		scheduling.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	cy := c.NewCycle(pod("high", "", "1500m", 1000))
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC) // a scheduler passes time.Now()
	fmt.Println(preemption.Preempt(cy, cy.Decide(nil), nil, preemption.Config{}, now))
	// Output:
	// nominate node-1: evict default/low-1, default/low-2 (0 PDB violation(s))
	//   node-1: NodeResourcesFit: Unschedulable: Insufficient cpu -> candidate: evict default/low-1, default/low-2 (0 PDB violation(s))
}
