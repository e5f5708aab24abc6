package scheduling

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// TaintToleration judges the nodes of one taint class once per cycle
// (NodeInfo.hardClass): over random nodes whose taints share keys, values
// and effects but not the time they were added, and random tolerations,
// each node's verdict equals judging its own taints, in any order of
// nodes and after nodes change their taints.
func TestPropertyTaintClassVerdicts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		genTaint := func(label string) api.Taint {
			tt := api.Taint{
				Key:    rapid.SampledFrom([]string{"a", "b", api.TaintNodeUnreachable}).Draw(t, label+"key"),
				Value:  rapid.SampledFrom([]string{"", "x"}).Draw(t, label+"value"),
				Effect: rapid.SampledFrom([]api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectNoExecute, api.TaintEffectPreferNoSchedule}).Draw(t, label+"effect"),
			}
			if rapid.Bool().Draw(t, label+"timed") {
				tt.TimeAdded = api.NewTimePtr(time.Date(2026, 1, 1, 0, 0, rapid.IntRange(0, 2).Draw(t, label+"at"), 0, time.UTC))
			}
			return tt
		}
		genNode := func(i int) *api.Node {
			n := &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%d", i)}}
			for j := range rapid.IntRange(0, 3).Draw(t, "taints") {
				n.Spec.Taints = append(n.Spec.Taints, genTaint(fmt.Sprintf("t%d.", j)))
			}
			return n
		}
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 12).Draw(t, "nodes") {
			nodes = append(nodes, genNode(i))
		}
		c, err := NewCluster(nodes, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range rapid.IntRange(0, 4).Draw(t, "updates") {
			n := genNode(rapid.IntRange(0, len(nodes)-1).Draw(t, fmt.Sprintf("update%d", i)))
			if err := c.UpdateNode(n); err != nil {
				t.Fatal(err)
			}
		}
		var tols []api.Toleration
		for i := range rapid.IntRange(0, 3).Draw(t, "tolerations") {
			tt := genTaint(fmt.Sprintf("tol%d.", i))
			op := rapid.SampledFrom([]api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists}).Draw(t, "op")
			tol := api.Toleration{Key: tt.Key, Operator: op, Effect: tt.Effect}
			if op == api.TolerationOpEqual {
				tol.Value = tt.Value
			}
			if rapid.Bool().Draw(t, "any effect") {
				tol.Effect = ""
			}
			tols = append(tols, tol)
		}
		pl := taintPlugin{tols: tols}
		for _, i := range rapid.Permutation(func() []int {
			var idx []int
			for i := range c.nodes {
				idx = append(idx, i, i)
			}
			return idx
		}()).Draw(t, "order") {
			ni := c.nodes[i]
			_, bad := findUntoleratedTaint(ni.node.Spec.Taints, tols)
			if got := pl.fits(&nodeView{info: ni}); got != !bad {
				t.Fatalf("node %s (class %d, taints %v): fits %v, its own taints say %v", ni.name, ni.hardClass, ni.node.Spec.Taints, got, !bad)
			}
		}
	})
}
