package scheduling

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func genPodAffinityTerm(t *rapid.T) api.PodAffinityTerm {
	var term api.PodAffinityTerm
	switch rapid.IntRange(0, 5).Draw(t, "selector") {
	case 0:
	case 1:
		term.LabelSelector = &api.LabelSelector{}
	case 2:
		term.LabelSelector = &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}
	case 3:
		term.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"x", "y"}}}}
	case 4:
		term.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpNotIn, Values: []string{"x"}}}}
	case 5:
		term.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpExists}}}
	}
	switch rapid.IntRange(0, 4).Draw(t, "namespaces") {
	case 1:
		term.Namespaces = []string{rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "ns")}
	case 2:
		term.NamespaceSelector = &api.LabelSelector{}
	case 3:
		term.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{"team": "t1"}}
	case 4:
		term.Namespaces = []string{"c"}
		term.NamespaceSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "team", Operator: api.LabelSelectorOpDoesNotExist}}}
	}
	term.TopologyKey = rapid.SampledFrom([]string{api.LabelTopologyZone, api.LabelHostname, "rack"}).Draw(t, "key")
	return term
}

func genAffinity(t *rapid.T) *api.Affinity {
	if rapid.IntRange(0, 3).Draw(t, "noAffinity") == 0 {
		return nil
	}
	terms := func(label string) []api.PodAffinityTerm {
		var out []api.PodAffinityTerm
		for range rapid.IntRange(0, 2).Draw(t, label) {
			out = append(out, genPodAffinityTerm(t))
		}
		return out
	}
	weighted := func(label string) []api.WeightedPodAffinityTerm {
		var out []api.WeightedPodAffinityTerm
		for range rapid.IntRange(0, 2).Draw(t, label) {
			out = append(out, api.WeightedPodAffinityTerm{Weight: int32(rapid.IntRange(0, 100).Draw(t, "weight")), PodAffinityTerm: genPodAffinityTerm(t)})
		}
		return out
	}
	return &api.Affinity{
		PodAffinity:     &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms("req"), PreferredDuringSchedulingIgnoredDuringExecution: weighted("pref")},
		PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms("antireq"), PreferredDuringSchedulingIgnoredDuringExecution: weighted("antipref")},
	}
}

type refPair struct{ key, value string }

// refInterPodAffinity is a direct transcription of the plugin's rules,
// scanning every pod of every node with maps, to check the indexed
// implementation against.
func refInterPodAffinity(c *Cluster, pod *api.Pod) (pre Code, codes []Code, preScore Code, scores []int64) {
	in := newIncomingPodInfo(pod)
	nsLabels := c.namespaces[pod.Namespace]
	resolve := func(ts []affinityTerm) []affinityTerm {
		var out []affinityTerm
		for _, t := range ts {
			if !t.nsSelector.Empty() {
				ns := append([]string(nil), t.namespaces...)
				for name, l := range c.namespaces {
					if t.nsSelector.Matches(api.Set(l)) {
						ns = append(ns, name)
					}
				}
				// Upstream keeps the selector too (it is cleared on a copy of
				// the term), and matching passes no namespace labels.
				t.namespaces = ns
			}
			out = append(out, t)
		}
		return out
	}
	aff, anti := resolve(in.requiredAffinity), resolve(in.requiredAntiAffinity)
	all := func(ts []affinityTerm, p *api.Pod) bool {
		if len(ts) == 0 {
			return false
		}
		for i := range ts {
			if !ts[i].matches(p, nil) {
				return false
			}
		}
		return true
	}
	existing, affCounts, antiCounts := map[refPair]int{}, map[refPair]int{}, map[refPair]int{}
	for _, n := range c.nodes {
		labels := n.node.Labels
		for _, ep := range n.pods {
			for _, t := range ep.requiredAntiAffinity {
				if v, ok := labels[t.topologyKey]; ok && t.matches(pod, nsLabels) {
					existing[refPair{t.topologyKey, v}]++
				}
			}
			if all(aff, ep.pod) {
				for _, t := range aff {
					if v, ok := labels[t.topologyKey]; ok {
						affCounts[refPair{t.topologyKey, v}]++
					}
				}
			}
			for _, t := range anti {
				if v, ok := labels[t.topologyKey]; ok && t.matches(ep.pod, nil) {
					antiCounts[refPair{t.topologyKey, v}]++
				}
			}
		}
	}
	if in.termErr != nil {
		return Error, nil, Error, nil
	}
	if len(existing) == 0 && len(aff) == 0 && len(anti) == 0 {
		pre = Skip
	}
	var feasible []*NodeInfo
	for _, n := range c.nodes {
		labels := n.node.Labels
		code := Success
		if pre == Success {
			exist := true
			for _, t := range aff {
				v, ok := labels[t.topologyKey]
				if !ok {
					exist, code = false, UnschedulableAndUnresolvable
					break
				}
				if affCounts[refPair{t.topologyKey, v}] <= 0 {
					exist = false
				}
			}
			if code == Success && !exist && !(len(affCounts) == 0 && all(aff, pod)) {
				code = UnschedulableAndUnresolvable
			}
			if code == Success {
				for _, t := range anti {
					if v, ok := labels[t.topologyKey]; ok && antiCounts[refPair{t.topologyKey, v}] > 0 {
						code = Unschedulable
					}
				}
				for k, v := range labels {
					if existing[refPair{k, v}] > 0 {
						code = Unschedulable
					}
				}
			}
		}
		codes = append(codes, code)
		if code == Success {
			feasible = append(feasible, n)
		}
	}
	if len(feasible) == 0 {
		return pre, codes, -1, nil
	}
	a := pod.Spec.Affinity
	hasConstraints := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	pref, prefAnti := c.resolveWeighted(in.preferredAffinity), c.resolveWeighted(in.preferredAntiAffinity)
	topo := map[string]map[string]int64{}
	add := func(t *affinityTerm, labels map[string]string, w int64) {
		if v, ok := labels[t.topologyKey]; ok {
			if topo[t.topologyKey] == nil {
				topo[t.topologyKey] = map[string]int64{}
			}
			topo[t.topologyKey][v] += w
		}
	}
	for _, n := range c.nodes {
		labels := n.node.Labels
		for _, ep := range n.pods {
			for _, t := range pref {
				if t.matches(ep.pod, nil) {
					add(&t.affinityTerm, labels, t.weight)
				}
			}
			for _, t := range prefAnti {
				if t.matches(ep.pod, nil) {
					add(&t.affinityTerm, labels, -t.weight)
				}
			}
			for _, t := range ep.requiredAffinity {
				if t.matches(pod, nsLabels) {
					add(&t, labels, 1)
				}
			}
			for _, t := range ep.preferredAffinity {
				if t.matches(pod, nsLabels) {
					add(&t.affinityTerm, labels, t.weight)
				}
			}
			for _, t := range ep.preferredAntiAffinity {
				if t.matches(pod, nsLabels) {
					add(&t.affinityTerm, labels, -t.weight)
				}
			}
		}
	}
	_ = hasConstraints
	if len(topo) == 0 {
		return pre, codes, Skip, nil
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, n := range feasible {
		var s int64
		for k, m := range topo {
			if v, ok := n.node.Labels[k]; ok {
				s += m[v]
			}
		}
		scores = append(scores, s)
		lo, hi = min(lo, s), max(hi, s)
	}
	for i, s := range scores {
		if hi > lo {
			scores[i] = int64(float64(MaxNodeScore) * (float64(s-lo) / float64(hi-lo)))
		} else {
			scores[i] = 0
		}
	}
	return pre, codes, Success, scores
}

// TestInterPodAffinityAgreesWithReference checks the indexed plugin
// (namespace and label indexes, label columns) against the direct
// transcription on random clusters.
func TestInterPodAffinityAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 5).Draw(t, "nodes") {
			n := &api.Node{}
			n.Name = fmt.Sprintf("n%d", i)
			n.Labels = map[string]string{api.LabelHostname: n.Name}
			if rapid.IntRange(0, 3).Draw(t, "zoneless") > 0 {
				n.Labels[api.LabelTopologyZone] = rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone")
			}
			nodes = append(nodes, n)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 8).Draw(t, "pods") {
			p := &api.Pod{}
			p.Name = fmt.Sprintf("p%d", i)
			p.Namespace = rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "podns")
			if rapid.IntRange(0, 3).Draw(t, "unlabelled") > 0 {
				p.Labels = map[string]string{"app": rapid.SampledFrom([]string{"x", "y", "z"}).Draw(t, "app")}
			}
			p.Spec.NodeName = nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "on")].Name
			p.Spec.Affinity = genAffinity(t)
			pods = append(pods, p)
		}
		c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginInterPodAffinity}})
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "a", Labels: map[string]string{"team": "t1"}}})
		_ = c.SetNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "b", Labels: map[string]string{"team": "t2"}}})
		pod := &api.Pod{}
		pod.Name, pod.Namespace = "incoming", rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "inns")
		if rapid.Bool().Draw(t, "inlabelled") {
			pod.Labels = map[string]string{"app": rapid.SampledFrom([]string{"x", "y"}).Draw(t, "inapp")}
		}
		pod.Spec.Affinity = genAffinity(t)

		wantPre, wantCodes, wantPreScore, wantScores := refInterPodAffinity(c, pod)
		d := decide(c, pod)
		pre := d.PreFilter()
		if len(pre) == 0 {
			t.Fatalf("no PreFilter status")
		}
		if got := pre[0].Code; got != wantPre {
			t.Fatalf("preFilter %v, want %v", got, wantPre)
		}
		if wantPre == Error {
			return
		}
		res := results(d)
		var codes []Code
		for _, r := range res {
			codes = append(codes, r.Status.Code)
		}
		if d := cmp.Diff(wantCodes, codes); d != "" {
			t.Fatalf("filter codes (-want +got):\n%s", d)
		}
		scores := d.Scores(nil)
		gotPreScore := Code(-1)
		if ps := d.PreScore(); len(ps) > 0 {
			gotPreScore = ps[0].Code
		}
		if gotPreScore != wantPreScore {
			t.Fatalf("preScore %v, want %v", gotPreScore, wantPreScore)
		}
		if wantPreScore == Success {
			var got []int64
			for _, s := range scores {
				if len(s.Plugins) != 1 {
					t.Fatalf("%s: %d plugin scores, want 1", s.Node, len(s.Plugins))
				}
				got = append(got, s.Plugins[0].Score)
			}
			if d := cmp.Diff(wantScores, got); d != "" {
				t.Fatalf("scores (-want +got):\n%s", d)
			}
		}
	})
}

// TestInterPodAffinityNamespaceSelectorOnEmptyLabels pins a v1.36.3 quirk
// found by differential testing against the upstream plugin: the incoming
// pod's namespaceSelector is matched against an empty label set besides
// being resolved through the Namespace objects, so a selector of only NotIn
// or DoesNotExist requirements reaches pods in every namespace, even the
// ones it names.
func TestInterPodAffinityNamespaceSelectorOnEmptyLabels(t *testing.T) {
	nodes := []*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "n1", Labels: map[string]string{api.LabelTopologyZone: "z1"}}},
		{ObjectMeta: api.ObjectMeta{Name: "n2", Labels: map[string]string{api.LabelTopologyZone: "z2"}}},
	}
	db := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "prod", Labels: map[string]string{"app": "db"}}, Spec: api.PodSpec{NodeName: "n1"}}
	incoming := func(nsSel *api.LabelSelector) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "in", Namespace: "default"}, Spec: api.PodSpec{Affinity: &api.Affinity{
			PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
				NamespaceSelector: nsSel,
				TopologyKey:       api.LabelTopologyZone,
			}}},
		}}}
	}
	expr := func(op api.LabelSelectorOperator, values ...string) *api.LabelSelector {
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "env", Operator: op, Values: values}}}
	}
	tests := []struct {
		name  string
		nsSel *api.LabelSelector
		want  []string
	}{
		{"NotIn prod still reaches the prod pod", expr(api.LabelSelectorOpNotIn, "prod"), []string{"Unschedulable", "Success"}},
		{"DoesNotExist still reaches the prod pod", expr(api.LabelSelectorOpDoesNotExist), []string{"Unschedulable", "Success"}},
		{"In dev does not reach it", expr(api.LabelSelectorOpIn, "dev"), []string{"Success", "Success"}},
		{"Exists reaches it through the Namespace object", expr(api.LabelSelectorOpExists), []string{"Unschedulable", "Success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewCluster(nodes, []*api.Pod{db}, Config{Plugins: []string{PluginInterPodAffinity}})
			if err != nil {
				t.Fatal(err)
			}
			for _, ns := range []*api.Namespace{
				{ObjectMeta: api.ObjectMeta{Name: "prod", Labels: map[string]string{"env": "prod"}}},
				{ObjectMeta: api.ObjectMeta{Name: "default"}},
			} {
				if err := c.SetNamespace(ns); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, r := range results(c.NewCycle(incoming(tt.nsSel)).Decide(nil)) {
				got = append(got, r.Status.Code.String())
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("filter codes (-want +got):\n%s", d)
			}
		})
	}
}
