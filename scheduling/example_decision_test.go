package scheduling_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// A scheduler loop keeps one Decision and decides pod after pod into it:
// the documentation's two-zone cluster (foo=bar pods on node1, node2 in
// zoneA and node3 in zoneB) and a pod spreading over zones with maxSkew 1
// may only go to zoneB; the second pod, without constraints, fits
// everywhere with equal scores (BestIndex then names the first node;
// kube-scheduler would pick one of the tied nodes at random).
func ExampleCycle_Decide() {
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB"), docNode("node4", "zoneB")}
	c, err := scheduling.NewCluster(nodes, docPods("node1", "node2", "node3"), scheduling.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var d scheduling.Decision // reused: no per-node allocation once grown
	for _, pod := range []*api.Pod{
		myPod(map[string]string{"foo": "bar"}, spreadOver("zone")),
		myPod(nil),
	} {
		c.NewCycle(pod).Decide(&d)
		for i := 0; i < d.NumNodes(); i++ {
			if !d.Fits(i) {
				st := d.Status(i)
				fmt.Printf("%s: %s %v\n", c.NodeAt(i).Name(), st.Plugin, st.Reasons)
			}
		}
		for k, i := range d.Feasible() {
			fmt.Printf("%s fits, score %d\n", c.NodeAt(i).Name(), d.Totals()[k])
		}
		if i, _, ok := d.BestIndex(); ok {
			fmt.Println("best:", c.NodeAt(i).Name())
		}
	}
	// Output:
	// node1: PodTopologySpread [node(s) didn't match pod topology spread constraints]
	// node2: PodTopologySpread [node(s) didn't match pod topology spread constraints]
	// node3 fits, score 300
	// node4 fits, score 300
	// best: node3
	// node1 fits, score 300
	// node2 fits, score 300
	// node3 fits, score 300
	// node4 fits, score 300
	// best: node1
}

// When no node fits, Message says why, as kube-scheduler's FitError event
// does: node1's zone already holds two more foo=bar pods than the empty
// zoneB, node2 has no zone label and node3 (zoneB) is cordoned.
func ExampleDecision_Message() {
	cordoned := docNode("node3", "zoneB")
	cordoned.Spec.Unschedulable = true
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", ""), cordoned}
	c, err := scheduling.NewCluster(nodes, docPods("node1", "node1"), scheduling.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pod := myPod(map[string]string{"foo": "bar"}, spreadOver("zone"))
	d := c.NewCycle(pod).Decide(nil)
	fmt.Println(len(d.Feasible()), "feasible")
	fmt.Println(d.Message())
	// Output:
	// 0 feasible
	// 0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) didn't match pod topology spread constraints (missing required label), 1 node(s) were unschedulable.
}

// FitErrorMessage counts the reasons of the rejected nodes' statuses, as
// kube-scheduler's FitError does; preemption builds its own message from
// it.
func ExampleFitErrorMessage() {
	cpu := scheduling.Status{Code: scheduling.Unschedulable, Plugin: scheduling.PluginNodeResourcesFit, Reasons: []string{"Insufficient cpu"}}
	taint := scheduling.Status{Code: scheduling.UnschedulableAndUnresolvable, Plugin: scheduling.PluginTaintToleration,
		Reasons: []string{scheduling.ReasonTaints}}
	fmt.Println(scheduling.FitErrorMessage(3, []scheduling.Status{cpu, taint, cpu}))
	fmt.Println(scheduling.FitErrorMessage(0, nil))
	// Output:
	// 0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.
	// 0/0 nodes are available:
}
