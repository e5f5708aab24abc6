package scheduling_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// A pod asking for 3 CPUs on three nodes: one too small, one tainted for
// GPU workloads, one that fits. One scheduling cycle filters and scores
// every node as kube-scheduler does; the Decision says why each node was
// rejected.
func ExampleCycle_Decide_filters() {
	node := func(name, cpu string, taints ...api.Taint) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}}}
		n.Spec.Taints = taints
		n.Status.Allocatable = api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu), api.ResourcePods: api.MustParseQuantity("110")}
		return n
	}
	gpu := api.Taint{Key: "nvidia.com/gpu", Value: "true", Effect: api.TaintEffectNoSchedule}
	c, err := scheduling.NewCluster([]*api.Node{node("small", "2"), node("gpu", "8", gpu), node("big", "8")}, nil, scheduling.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
	pod.Spec.Containers = []api.Container{{Name: "app", Image: "nginx", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("3")},
	}}}
	d := c.NewCycle(pod).Decide(nil)
	for i := 0; i < d.NumNodes(); i++ {
		if st := d.Status(i); !d.Fits(i) {
			fmt.Printf("%s: %s %v\n", c.NodeAt(i).Name(), st.Plugin, st.Reasons)
		}
	}
	if i, _, ok := d.BestIndex(); ok {
		fmt.Println("best:", c.NodeAt(i).Name())
	}
	// Output:
	// small: NodeResourcesFit [Insufficient cpu]
	// gpu: TaintToleration [node(s) had untolerated taint(s)]
	// best: big
}
