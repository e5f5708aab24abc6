package proptest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/proptest"
	"pgregory.net/rapid"
)

// checkNode reports what is wrong with a generated node: names, labels and
// taints valid as the API server validates them, the well-known labels
// present, capacity and allocatable complete and consistent, conditions and
// taints agreeing.
func checkNode(n *api.Node) error {
	if msgs := api.IsDNS1123Subdomain(n.Name); len(msgs) > 0 {
		return fmt.Errorf("name %q: %v", n.Name, msgs)
	}
	for k, v := range n.Labels {
		if msgs := api.ValidateLabelKey(k); len(msgs) > 0 {
			return fmt.Errorf("label key %q: %v", k, msgs)
		}
		if msgs := api.ValidateLabelValue(v); len(msgs) > 0 {
			return fmt.Errorf("label %s=%q: %v", k, v, msgs)
		}
	}
	if n.Labels[api.LabelHostname] != n.Name {
		return fmt.Errorf("hostname label %q, name %q", n.Labels[api.LabelHostname], n.Name)
	}
	for _, k := range []string{api.LabelTopologyZone, api.LabelTopologyRegion, "node.kubernetes.io/instance-type", "kubernetes.io/os", "kubernetes.io/arch"} {
		if n.Labels[k] == "" {
			return fmt.Errorf("label %s missing", k)
		}
	}
	type keyEffect struct {
		key    string
		effect api.TaintEffect
	}
	seen := map[keyEffect]bool{}
	for _, tt := range n.Spec.Taints {
		if msgs := api.ValidateLabelKey(tt.Key); len(msgs) > 0 {
			return fmt.Errorf("taint key %q: %v", tt.Key, msgs)
		}
		if msgs := api.ValidateLabelValue(tt.Value); len(msgs) > 0 {
			return fmt.Errorf("taint value %q: %v", tt.Value, msgs)
		}
		switch tt.Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		default:
			return fmt.Errorf("taint %s effect %q", tt.Key, tt.Effect)
		}
		if (tt.Effect == api.TaintEffectNoExecute) != (tt.TimeAdded != nil) {
			return fmt.Errorf("taint %s:%s timeAdded %v", tt.Key, tt.Effect, tt.TimeAdded)
		}
		if seen[keyEffect{tt.Key, tt.Effect}] {
			return fmt.Errorf("taint %s:%s twice", tt.Key, tt.Effect)
		}
		seen[keyEffect{tt.Key, tt.Effect}] = true
	}
	if n.Spec.Unschedulable != seen[keyEffect{api.TaintNodeUnschedulable, api.TaintEffectNoSchedule}] {
		return fmt.Errorf("unschedulable %v with taints %v", n.Spec.Unschedulable, n.Spec.Taints)
	}
	ready := n.FindCondition(api.NodeReady)
	if ready == nil {
		return fmt.Errorf("no Ready condition")
	}
	if (ready.Status == api.ConditionFalse) != seen[keyEffect{api.TaintNodeNotReady, api.TaintEffectNoExecute}] ||
		(ready.Status == api.ConditionUnknown) != seen[keyEffect{api.TaintNodeUnreachable, api.TaintEffectNoExecute}] {
		return fmt.Errorf("Ready %s with taints %v", ready.Status, n.Spec.Taints)
	}
	for _, r := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourcePods, api.ResourceEphemeralStorage} {
		c, ok1 := n.Status.Capacity[r]
		a, ok2 := n.Status.Allocatable[r]
		if !ok1 || !ok2 || a.Sign() <= 0 {
			return fmt.Errorf("%s: capacity %v allocatable %v", r, c, a)
		}
	}
	for r, a := range n.Status.Allocatable {
		if c, ok := n.Status.Capacity[r]; !ok || a.Cmp(c) > 0 {
			return fmt.Errorf("%s: allocatable %s above capacity %s", r, a.String(), c.String())
		}
	}
	if !slices.ContainsFunc(n.Status.Addresses, func(a api.NodeAddress) bool { return a.Type == api.NodeInternalIP }) {
		return fmt.Errorf("no InternalIP address")
	}
	return nil
}

func TestNodesValid(t *testing.T) {
	g := proptest.Node(proptest.NodeOptions{})
	rapid.Check(t, func(t *rapid.T) {
		n := g.Draw(t, "node")
		if err := checkNode(n); err != nil {
			t.Fatalf("node %s: %v", n.Name, err)
		}
	})
}

// Over 2,000 nodes (seeds 0..1999), Node produces every kind of node its
// documentation claims.
func TestNodeCoverage(t *testing.T) {
	const draws = 2000
	hasTaint := func(key string, effect api.TaintEffect) func(n *api.Node) bool {
		return func(n *api.Node) bool {
			return slices.ContainsFunc(n.Spec.Taints, func(tt api.Taint) bool { return tt.Key == key && tt.Effect == effect })
		}
	}
	features := []struct {
		name string
		has  func(n *api.Node) bool
	}{
		{"GPU node", func(n *api.Node) bool { _, ok := n.Status.Allocatable["nvidia.com/gpu"]; return ok }},
		{"huge pages", func(n *api.Node) bool { q := n.Status.Allocatable["hugepages-2Mi"]; return q.Sign() > 0 }},
		{"arm64", func(n *api.Node) bool { return n.Labels["kubernetes.io/arch"] == "arm64" }},
		{"second region", func(n *api.Node) bool { return n.Labels[api.LabelTopologyRegion] == "us-west-2" }},
		{"NoSchedule taint", hasTaint("nvidia.com/gpu", api.TaintEffectNoSchedule)},
		{"PreferNoSchedule taint", hasTaint("example.com/spot", api.TaintEffectPreferNoSchedule)},
		{"NoExecute spot taint", hasTaint("example.com/spot", api.TaintEffectNoExecute)},
		{"dedicated pool", hasTaint("dedicated", api.TaintEffectNoSchedule)},
		{"control plane", hasTaint("node-role.kubernetes.io/control-plane", api.TaintEffectNoSchedule)},
		{"cordoned", func(n *api.Node) bool { return n.Spec.Unschedulable }},
		{"not ready", hasTaint(api.TaintNodeNotReady, api.TaintEffectNoExecute)},
		{"unreachable", hasTaint(api.TaintNodeUnreachable, api.TaintEffectNoExecute)},
		{"memory pressure", hasTaint("node.kubernetes.io/memory-pressure", api.TaintEffectNoSchedule)},
		{"disk pressure", hasTaint("node.kubernetes.io/disk-pressure", api.TaintEffectNoSchedule)},
		{"untainted", func(n *api.Node) bool { return len(n.Spec.Taints) == 0 }},
		{"cached images", func(n *api.Node) bool { return len(n.Status.Images) > 0 }},
	}
	g := proptest.Node(proptest.NodeOptions{})
	for _, f := range features {
		count := 0
		for seed := range draws {
			if f.has(g.Example(seed)) {
				count++
			}
		}
		t.Logf("%5.1f%%  %s", 100*float64(count)/draws, f.name)
		if count == 0 {
			t.Errorf("no node in %d is %s", draws, f.name)
		}
	}
}
