package scheduling_test

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// The documentation's two-zone cluster: zoneA holds two foo=bar pods,
// zoneB one. A new foo=bar pod with maxSkew 1 over zones would make
// zoneA's skew 2 (3 - 1) and zoneB's 1 (2 - 1).
func ExampleNodeExplanation_Spread() {
	nodes := []*api.Node{docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB"), docNode("node4", "zoneB")}
	c, err := scheduling.NewCluster(nodes, docPods("node1", "node2", "node3"), scheduling.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	e := c.NewCycle(myPod(map[string]string{"foo": "bar"}, spreadOver("zone"))).Explain()
	for _, n := range e.Nodes {
		for _, s := range n.Spread {
			fmt.Printf("%s %s=%s: %d matching, min %d, skew if placed %d (max %d), fits %v\n",
				n.Node, s.TopologyKey, s.Domain, s.Matching, s.Min, s.Skew, s.MaxSkew, n.Fits())
		}
	}
	// Output:
	// node1 zone=zoneA: 2 matching, min 1, skew if placed 2 (max 1), fits false
	// node2 zone=zoneA: 2 matching, min 1, skew if placed 2 (max 1), fits false
	// node3 zone=zoneB: 1 matching, min 1, skew if placed 1 (max 1), fits true
	// node4 zone=zoneB: 1 matching, min 1, skew if placed 1 (max 1), fits true
}

// TestSpreadSkewAgreesWithFilter checks that a node passes
// PodTopologySpread exactly when every DoNotSchedule constraint's skew if
// placed is within maxSkew and the node has the key, over the
// documentation's scenarios with two constraints and a node lacking a key.
func TestSpreadSkewAgreesWithFilter(t *testing.T) {
	nodes := []*api.Node{
		docNode("node1", "zoneA"), docNode("node2", "zoneA"), docNode("node3", "zoneB"),
		docNode("node4", "zoneB"), docNode("node5", "zoneC"), docNode("node6", ""),
	}
	for _, placed := range [][]string{
		{"node1", "node2", "node3"},
		{"node1", "node1", "node1", "node4"},
		{},
		{"node5", "node5", "node3"},
	} {
		c, err := scheduling.NewCluster(nodes, docPods(placed...), scheduling.Config{})
		if err != nil {
			t.Fatal(err)
		}
		for _, pod := range []*api.Pod{
			myPod(map[string]string{"foo": "bar"}, spreadOver("zone")),
			myPod(map[string]string{"foo": "bar"}, spreadOver("zone"), spreadOver("node")),
			myPod(nil, spreadOver("zone")),
		} {
			e := c.NewCycle(pod).Explain()
			for _, n := range e.Nodes {
				rejected := false
				for _, st := range n.Rejections {
					if st.Plugin == scheduling.PluginPodTopologySpread {
						rejected = true
					}
				}
				ok := len(n.Spread) > 0
				for _, s := range n.Spread {
					if s.Missing || s.Skew > int(s.MaxSkew) {
						ok = false
					}
				}
				if ok == rejected {
					t.Errorf("placed %v, pod labels %v, node %s: skews %+v but PodTopologySpread rejected=%v", placed, pod.Labels, n.Node, n.Spread, rejected)
				}
			}
		}
	}
}
