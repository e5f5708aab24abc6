package scheduling

import (
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzSpreadConstraint runs a full PodTopologySpread cycle with an arbitrary
// constraint (key, selector operator and values, skew, minDomains, action,
// policies); whatever the input, the plugin answers without panicking, and
// an invalid selector is reported as an Error status.
func FuzzSpreadConstraint(f *testing.F) {
	f.Add("zone", "app", "In", "a", int32(1), int32(1), true, "Honor", "Ignore")
	f.Add("", "", "", "", int32(0), int32(-1), false, "", "")
	f.Add("kubernetes.io/hostname", "app", "NotIn", "b", int32(-3), int32(5), true, "Ignore", "Honor")
	f.Add("zone", "bad key!", "Exists", "", int32(2), int32(0), false, "x", "y")
	f.Fuzz(func(t *testing.T, key, selKey, op, val string, maxSkew, minDomains int32, hard bool, affPolicy, taintPolicy string) {
		nodes := []*api.Node{
			spreadNode("n1", "zone", "a", api.LabelHostname, "n1"),
			spreadNode("n2", "zone", "b"),
			spreadNode("n3", api.LabelHostname, "n3"),
		}
		nodes[1].Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}}
		pods := []*api.Pod{spreadPodOn("p1", "n1", "app", "a"), spreadPodOn("p2", "n2", "app", "b"), spreadPodOn("p3", "n3", selKey, val)}
		c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
		if err != nil {
			t.Fatal(err)
		}
		action := api.ScheduleAnyway
		if hard {
			action = api.DoNotSchedule
		}
		ap, tp := api.NodeInclusionPolicy(affPolicy), api.NodeInclusionPolicy(taintPolicy)
		var vals []string
		if val != "" {
			vals = []string{val}
		}
		pod := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: "in", Namespace: "default", Labels: map[string]string{"app": "a"}},
			Spec: api.PodSpec{
				NodeSelector: map[string]string{"zone": "a"},
				TopologySpreadConstraints: []api.TopologySpreadConstraint{{
					MaxSkew: maxSkew, TopologyKey: key, WhenUnsatisfiable: action, MinDomains: &minDomains,
					NodeAffinityPolicy: &ap, NodeTaintsPolicy: &tp, MatchLabelKeys: []string{selKey},
					LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
						{Key: selKey, Operator: api.LabelSelectorOperator(op), Values: vals}}},
				}},
			},
		}
		d := decide(c, pod)
		if _, err := api.LabelSelectorAsSelector(pod.Spec.TopologySpreadConstraints[0].LabelSelector); err != nil && hard {
			if pre := d.PreFilter(); len(pre) == 0 || pre[0].Code != Error {
				t.Fatalf("invalid selector: preFilter %v, want Error first", pre)
			}
		}
	})
}
