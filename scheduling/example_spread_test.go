package scheduling_test

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// docNode is a node of the topology spread documentation's examples:
// labelled node=<name> and zone=<zone> (no zone label when zone is "").
func docNode(name, zone string, extra ...string) *api.Node {
	labels := map[string]string{"node": name}
	if zone != "" {
		labels["zone"] = zone
	}
	for i := 0; i+1 < len(extra); i += 2 {
		labels[extra[i]] = extra[i+1]
	}
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Status:     api.NodeStatus{Allocatable: api.ResourceList{api.ResourcePods: api.MustParseQuantity("110")}},
	}
}

// docPods places one foo=bar pod on each named node.
func docPods(nodes ...string) []*api.Pod {
	var out []*api.Pod
	for i, n := range nodes {
		out = append(out, &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p%d", i+1), Namespace: "default", Labels: map[string]string{"foo": "bar"}},
			Spec:       api.PodSpec{NodeName: n, Containers: []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.1"}}},
		})
	}
	return out
}

// spreadOver is the documentation's constraint: maxSkew 1 over key,
// DoNotSchedule, counting foo=bar pods.
func spreadOver(key string) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{
		MaxSkew: 1, TopologyKey: key, WhenUnsatisfiable: api.DoNotSchedule,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}},
	}
}

func myPod(labels map[string]string, cs ...api.TopologySpreadConstraint) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "mypod", Namespace: "default", Labels: labels},
		Spec: api.PodSpec{
			TopologySpreadConstraints: cs,
			Containers:                []api.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.1"}},
		},
	}
}

// placements runs kube-scheduler's default filters and lists where the pod
// may go, or why it stays Pending.
func placements(nodes []*api.Node, pods []*api.Pod, pod *api.Pod) string {
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		return err.Error()
	}
	var fit, why []string
	d := c.NewCycle(pod).Decide(nil)
	for i := range d.NumNodes() {
		if name := c.NodeAt(i).Name(); d.Fits(i) {
			fit = append(fit, name)
		} else {
			why = append(why, name+": "+d.Status(i).String())
		}
	}
	if len(fit) == 0 {
		return "Pending\n  " + strings.Join(why, "\n  ")
	}
	return strings.Join(fit, " ")
}

// One constraint: three foo=bar pods on node1, node2 (zone A) and node3
// (zone B); spreading the new pod evenly over zones with maxSkew 1 leaves
// only zone B.
func Example_topologySpreadOneConstraint() {
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB"), docNode("node4", "zoneB")}
	pods := docPods("node1", "node2", "node3")
	fmt.Println(placements(nodes, pods, myPod(map[string]string{"foo": "bar"}, spreadOver("zone"))))
	// With maxSkew 2, zone A is allowed too.
	loose := spreadOver("zone")
	loose.MaxSkew = 2
	fmt.Println(placements(nodes, pods, myPod(map[string]string{"foo": "bar"}, loose)))
	// Spreading over nodes instead: only the empty node4.
	fmt.Println(placements(nodes, pods, myPod(map[string]string{"foo": "bar"}, spreadOver("node"))))
	// An incoming pod without the foo=bar label does not count itself, so
	// zone A (2 - 1 = 1 <= maxSkew) is as good as zone B: the documentation's
	// "zone B only" does not hold for it.
	fmt.Println(placements(nodes, pods, myPod(nil, spreadOver("zone"))))
	// Output:
	// node3 node4
	// node1 node2 node3 node4
	// node4
	// node1 node2 node3 node4
}

// Two constraints, zone and node: zone B and node4 intersect in node4.
func Example_topologySpreadTwoConstraints() {
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB"), docNode("node4", "zoneB")}
	pods := docPods("node1", "node2", "node3")
	fmt.Println(placements(nodes, pods, myPod(map[string]string{"foo": "bar"}, spreadOver("zone"), spreadOver("node"))))
	// Output:
	// node4
}

// Conflicting constraints: three nodes in two zones with foo=bar pods
// 2+1 in zone A and 2 in zone B; the zone constraint wants zone B (node3)
// and the node constraint wants node2, so the pod stays Pending.
func Example_topologySpreadConflictingConstraints() {
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB")}
	pods := docPods("node1", "node1", "node2", "node3", "node3")
	fmt.Println(placements(nodes, pods, myPod(map[string]string{"foo": "bar"}, spreadOver("zone"), spreadOver("node"))))
	// Output:
	// Pending
	//   node1: PodTopologySpread: Unschedulable: node(s) didn't match pod topology spread constraints
	//   node2: PodTopologySpread: Unschedulable: node(s) didn't match pod topology spread constraints
	//   node3: PodTopologySpread: Unschedulable: node(s) didn't match pod topology spread constraints
}

// Node affinity excluding zone C: without it, the empty zone C is the
// global minimum and only zone C is allowed; with it, zone C's node is
// neither a spreading domain nor acceptable, and the pod goes to zone B.
func Example_topologySpreadWithNodeAffinity() {
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB"),
		docNode("node4", "zoneB"), docNode("node5", "zoneC")}
	pods := docPods("node1", "node2", "node3")
	pod := myPod(map[string]string{"foo": "bar"}, spreadOver("zone"))
	fmt.Println(placements(nodes, pods, pod))
	pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpNotIn, Values: []string{"zoneC"}}},
		}}},
	}}
	fmt.Println(placements(nodes, pods, pod))
	// Output:
	// node5
	// node3 node4
}

// Cluster-level default constraints: a pod with no constraints of its own,
// selected by a Service, is spread by the defaults, which only score
// (ScheduleAnyway). With three foo=bar pods in zone A (two on node1) and
// one in zone B, the built-in System defaults (hostname maxSkew 3, zone
// maxSkew 5) and a List default (zone maxSkew 1) both prefer node3.
func Example_topologySpreadClusterDefaults() {
	node := func(name, zone string) *api.Node {
		return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
			api.LabelHostname: name, api.LabelTopologyZone: zone}}}
	}
	nodes := []*api.Node{node("node1", "zoneA"), node("node2", "zoneA"), node("node3", "zoneB")}
	pods := docPods("node1", "node1", "node2", "node3")
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc-foo", Namespace: "default"},
		Spec: api.ServiceSpec{Selector: map[string]string{"foo": "bar"}}}
	pod := myPod(map[string]string{"foo": "bar"})
	for _, args := range []scheduling.SpreadArgs{
		{}, // System
		{DefaultingType: scheduling.SpreadDefaultingList, DefaultConstraints: []api.TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway}}},
	} {
		c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{
			Plugins: []string{scheduling.PluginPodTopologySpread}, Spread: args})
		if err != nil {
			fmt.Println(err)
			return
		}
		c.SetSpreadWorkloads(scheduling.SpreadWorkloads{Services: []*api.Service{svc}})
		var out []string
		for _, s := range c.NewCycle(pod).Decide(nil).Scores(nil) {
			for _, ps := range s.Plugins { // PodTopologySpread's alone
				out = append(out, fmt.Sprintf("%s=%d", s.Node, ps.Score))
			}
		}
		fmt.Println(strings.Join(out, " "))
	}
	// Output:
	// node1=69 node2=76 node3=100
	// node1=25 node2=25 node3=100
}
