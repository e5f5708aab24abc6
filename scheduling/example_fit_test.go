package scheduling_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// node builds a node with cpu and memory allocatable, labels and taints.
func node(name, cpu, memory string, labels map[string]string, taints ...api.Taint) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = map[string]string{api.LabelHostname: name}
	for k, v := range labels {
		n.Labels[k] = v
	}
	n.Spec.Taints = taints
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    api.MustParseQuantity(cpu),
		api.ResourceMemory: api.MustParseQuantity(memory),
		api.ResourcePods:   api.MustParseQuantity("110"),
	}
	return n
}

// pod builds a pod requesting cpu and memory, bound to nodeName ("" for
// pending).
func pod(name, nodeName, cpu, memory string, labels map[string]string) *api.Pod {
	p := &api.Pod{}
	p.Namespace, p.Name = "default", name
	p.Labels = labels
	p.Spec.NodeName = nodeName
	p.Spec.Containers = []api.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10",
		Resources: api.ResourceRequirements{Requests: api.ResourceList{
			api.ResourceCPU:    api.MustParseQuantity(cpu),
			api.ResourceMemory: api.MustParseQuantity(memory),
		}}}}
	return p
}

// A pod asks for 2 cpu: node-a is already busy, node-b is tainted for GPU
// work, node-c is too small altogether. The decision says, per node, which
// plugin kept the pod off and why.
func ExampleDecision_Status() {
	gpu := api.Taint{Key: "nvidia.com/gpu", Value: "present", Effect: api.TaintEffectNoSchedule}
	c, err := scheduling.NewCluster(
		[]*api.Node{
			node("node-a", "4", "8Gi", nil),
			node("node-b", "8", "16Gi", nil, gpu),
			node("node-c", "1", "2Gi", nil),
		},
		[]*api.Pod{pod("busy", "node-a", "3", "1Gi", nil)},
		scheduling.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	d := c.NewCycle(pod("web", "", "2", "1Gi", nil)).Decide(nil)
	for i := range d.NumNodes() {
		st := d.Status(i)
		fmt.Printf("%s: %s\n", c.NodeAt(i).Name(), st)
		for _, ins := range st.Insufficient {
			fmt.Printf("  %s: requested %dm, %dm of %dm in use\n", ins.Resource, ins.Requested, ins.Used, ins.Capacity)
		}
	}
	// Output:
	// node-a: NodeResourcesFit: Unschedulable: Insufficient cpu
	//   cpu: requested 2000m, 3000m of 4000m in use
	// node-b: TaintToleration: UnschedulableAndUnresolvable: node(s) had untolerated taint(s)
	// node-c: NodeResourcesFit: UnschedulableAndUnresolvable: Insufficient cpu
	//   cpu: requested 2000m, 0m of 1000m in use
}

// Explain answers "why is my pod Pending?": every plugin that rejects each
// node, and the message kube-scheduler records in the pod's events.
func ExampleCycle_Explain() {
	c, _ := scheduling.NewCluster(
		[]*api.Node{
			node("node-a", "2", "4Gi", map[string]string{api.LabelTopologyZone: "zone-a"}),
			node("node-b", "2", "4Gi", map[string]string{api.LabelTopologyZone: "zone-b"}),
		},
		[]*api.Pod{pod("db-0", "node-a", "1", "1Gi", map[string]string{"app": "db"})},
		scheduling.Config{})
	p := pod("db-1", "", "1500m", "1Gi", map[string]string{"app": "db"})
	p.Spec.NodeSelector = map[string]string{api.LabelTopologyZone: "zone-a"}
	p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			TopologyKey:   api.LabelTopologyZone,
		}}}}
	fmt.Print(c.NewCycle(p).Explain())
	// Output:
	// pod default/db-1
	// NODE    FITS   WHY NOT
	// node-a  no     NodeResourcesFit [Unschedulable]: Insufficient cpu (requested 1500m, used 1, allocatable 2); InterPodAffinity [Unschedulable]: node(s) didn't match pod anti-affinity rules
	// node-b  no     NodeAffinity [UnschedulableAndUnresolvable]: node(s) didn't match Pod's node affinity/selector
	// 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's node affinity/selector.
}

// The scores rank the nodes that passed the filters: here the pod prefers
// nodes with SSDs (node affinity, weight 2 in the default profile) and
// tolerates no PreferNoSchedule taint (weight 3); the three nodes are
// equally free, so the resource scores add the same 152 to each: 81 least
// allocated, and 71 balanced (v1.36 scores the change the pod makes: an
// empty node is perfectly balanced, balance 100, and 1 cpu of 4 with 1Gi
// of 8Gi leaves it at 93, so 50 + (50 + 93 − 100)/2).
func ExampleDecision_Scores() {
	soft := api.Taint{Key: "spot", Effect: api.TaintEffectPreferNoSchedule}
	c, _ := scheduling.NewCluster([]*api.Node{
		node("node-a", "4", "8Gi", map[string]string{"disk": "ssd"}, soft),
		node("node-b", "4", "8Gi", map[string]string{"disk": "ssd"}),
		node("node-c", "4", "8Gi", nil),
	}, nil, scheduling.Config{})
	p := pod("web", "", "1", "1Gi", nil)
	p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{
		Weight: 10, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: api.NodeSelectorOpIn, Values: []string{"ssd"}}}},
	}}}}
	for _, s := range c.NewCycle(p).Decide(nil).Scores(nil) {
		fmt.Println(s.Node, s.Total)
	}
	// Output:
	// node-a 352
	// node-b 652
	// node-c 452
}

// A what-if for preemption: the pod does not fit on node-a until the
// low-priority batch pod is taken away; the snapshot itself is unchanged.
func ExampleCycle_WhatIf() {
	c, _ := scheduling.NewCluster(
		[]*api.Node{node("node-a", "4", "8Gi", nil)},
		[]*api.Pod{pod("batch", "node-a", "3", "1Gi", nil), pod("api", "node-a", "500m", "1Gi", nil)},
		scheduling.Config{})
	cy := c.NewCycle(pod("urgent", "", "2", "1Gi", nil))
	n := c.NodeByName("node-a")
	fmt.Println("as is:", cy.Decide(nil).Status(n.Index()))
	w := cy.WhatIf(n)
	w.RemovePod(w.Pod("default", "batch"))
	fmt.Println("without batch:", w.Filter())
	fmt.Println("requested cpu on node-a:", n.Requested().MilliCPU)
	// Output:
	// as is: NodeResourcesFit: Unschedulable: Insufficient cpu
	// without batch: Success
	// requested cpu on node-a: 3500
}
