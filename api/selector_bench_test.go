package api

import "testing"

func BenchmarkSelectorMatches(b *testing.B) {
	sel, labels := benchSelector(b)
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(labels) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkSelectorMatchesLabelsInterface(b *testing.B) {
	sel, labels := benchSelector(b)
	ls := labelsOnly{labels}
	b.ReportAllocs()
	for b.Loop() {
		if !sel.Matches(ls) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkLabelSelectorAsSelector(b *testing.B) {
	ls := &LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []LabelSelectorRequirement{
			{Key: "tier", Operator: LabelSelectorOpIn, Values: []string{"frontend", "edge"}},
			{Key: "example.com/canary", Operator: LabelSelectorOpDoesNotExist},
		},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LabelSelectorAsSelector(ls); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseSelector(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseSelector("app=web,tier in (frontend,edge),!example.com/canary"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNodeSelectorMatch(b *testing.B) {
	m, err := NewNodeSelectorMatcher(&NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
		{MatchExpressions: []NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: NodeSelectorOpIn, Values: []string{"b", "c"}}}},
		{
			MatchExpressions: []NodeSelectorRequirement{{Key: "cpus", Operator: NodeSelectorOpGt, Values: []string{"8"}}},
			MatchFields:      []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpNotIn, Values: []string{"x"}}},
		},
	}})
	if err != nil {
		b.Fatal(err)
	}
	labels := map[string]string{"topology.kubernetes.io/zone": "a", "cpus": "16", "kubernetes.io/hostname": "node-1"}
	b.ReportAllocs()
	for b.Loop() {
		if !m.Match("node-1", labels) {
			b.Fatal("no match")
		}
	}
}
