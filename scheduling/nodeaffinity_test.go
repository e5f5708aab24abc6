package scheduling

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func genSelectorRequirement(t *rapid.T) api.NodeSelectorRequirement {
	key := rapid.SampledFrom([]string{"gen", "disk", "zone", "absent"}).Draw(t, "key")
	op := rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn,
		api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist, api.NodeSelectorOpGt, api.NodeSelectorOpLt, "Bogus"}).Draw(t, "op")
	var vals []string
	switch op {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		vals = rapid.SliceOfN(rapid.SampledFrom([]string{"1", "5", "ssd", "a", "b", "-3"}), 0, 3).Draw(t, "vals")
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		vals = []string{rapid.SampledFrom([]string{"2", "4", "x", "-1"}).Draw(t, "num")}
	default:
		if rapid.IntRange(0, 5).Draw(t, "extra") == 0 {
			vals = []string{"a"}
		}
	}
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
}

// TestCompiledNodeAffinityAgreesWithSelectors checks the column-compiled
// node affinity against api's reference matchers on random nodes and
// terms, including invalid ones.
func TestCompiledNodeAffinityAgreesWithSelectors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for i := 0; i < 4; i++ {
			n := &api.Node{}
			n.Name = fmt.Sprintf("n%d", i)
			n.Labels = map[string]string{}
			for _, k := range []string{"gen", "disk", "zone"} {
				if rapid.Bool().Draw(t, "has-"+k) {
					n.Labels[k] = rapid.SampledFrom([]string{"1", "5", "ssd", "a", "-3", "007"}).Draw(t, "val-"+k)
				}
			}
			nodes = append(nodes, n)
		}
		c, err := NewCluster(nodes, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		pod := &api.Pod{}
		if rapid.Bool().Draw(t, "nodeSelector") {
			pod.Spec.NodeSelector = map[string]string{"disk": rapid.SampledFrom([]string{"ssd", "a"}).Draw(t, "sel")}
		}
		if rapid.Bool().Draw(t, "required") {
			var terms []api.NodeSelectorTerm
			for range rapid.IntRange(0, 3).Draw(t, "terms") {
				var term api.NodeSelectorTerm
				for range rapid.IntRange(0, 2).Draw(t, "exprs") {
					term.MatchExpressions = append(term.MatchExpressions, genSelectorRequirement(t))
				}
				if rapid.IntRange(0, 3).Draw(t, "fields") == 0 {
					term.MatchFields = []api.NodeSelectorRequirement{{Key: "metadata.name",
						Operator: rapid.SampledFrom([]api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn}).Draw(t, "fop"),
						Values:   []string{rapid.SampledFrom([]string{"n0", "n1"}).Draw(t, "fval")}}}
				}
				terms = append(terms, term)
			}
			pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}
		}
		ref, _ := newRequiredNodeAffinity(pod)
		compiled := c.compileRequiredNodeAffinity(pod)
		for i, n := range nodes {
			if want, got := ref.match(n), compiled.match(c.NodeAt(i)); want != got {
				t.Fatalf("node %s %v: reference %v, compiled %v", n.Name, n.Labels, want, got)
			}
		}
		if req := requiredNodeSelector(pod); req != nil {
			for j := range req.NodeSelectorTerms {
				refTerm, _ := api.NewNodeSelectorTermMatcher(req.NodeSelectorTerms[j])
				colT, _ := c.compileTerm(&req.NodeSelectorTerms[j])
				for i, n := range nodes {
					if want, got := refTerm.Match(n.Name, n.Labels), colT.match(c.NodeAt(i)); want != got {
						t.Fatalf("term %d on node %s %v: reference %v, compiled %v", j, n.Name, n.Labels, want, got)
					}
				}
			}
		}
	})
}
