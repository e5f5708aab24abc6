package api

import (
	"errors"
	"strings"
	"testing"
)

func TestNodeSelectorRequirementsAsSelector(t *testing.T) {
	tests := []struct {
		name    string
		in      []NodeSelectorRequirement
		want    string
		nothing bool
		errSubs []string
	}{
		{name: "empty", in: nil, nothing: true},
		{name: "in", in: []NodeSelectorRequirement{{Key: "foo", Operator: NodeSelectorOpIn, Values: []string{"bar", "baz"}}}, want: "foo in (bar,baz)"},
		{name: "all ops", in: []NodeSelectorRequirement{
			{Key: "foo", Operator: NodeSelectorOpNotIn, Values: []string{"bar"}},
			{Key: "e", Operator: NodeSelectorOpExists},
			{Key: "d", Operator: NodeSelectorOpDoesNotExist},
			{Key: "g", Operator: NodeSelectorOpGt, Values: []string{"3"}},
			{Key: "l", Operator: NodeSelectorOpLt, Values: []string{"10"}},
		}, want: "!d,e,foo notin (bar),g>3,l<10"},
		{name: "bad operator", in: []NodeSelectorRequirement{{Key: "foo", Operator: "Invalid", Values: []string{"bar"}}},
			errSubs: []string{"matchExpressions[0].operator", `"Invalid"`}},
		{name: "gt two values", in: []NodeSelectorRequirement{{Key: "foo", Operator: NodeSelectorOpGt, Values: []string{"1", "2"}}},
			errSubs: []string{"matchExpressions[0].values", "exactly one value is required"}},
		{name: "gt not integer", in: []NodeSelectorRequirement{{Key: "foo", Operator: NodeSelectorOpGt, Values: []string{"bar"}}},
			errSubs: []string{"matchExpressions[0].values[0]", `"bar"`, "must be an integer"}},
		{name: "lt negative", in: []NodeSelectorRequirement{{Key: "foo", Operator: NodeSelectorOpLt, Values: []string{"-1"}}},
			errSubs: []string{"matchExpressions[0].values[0][foo]", `"-1"`}},
		{name: "lt none", in: []NodeSelectorRequirement{{Key: "foo", Operator: NodeSelectorOpLt}},
			errSubs: []string{"exactly one value is required"}},
		{name: "exists with value", in: []NodeSelectorRequirement{{Key: "foo", Operator: NodeSelectorOpExists, Values: []string{"x"}}},
			errSubs: []string{"values set must be empty"}},
		{name: "bad key", in: []NodeSelectorRequirement{{Key: "a b", Operator: NodeSelectorOpExists}},
			errSubs: []string{"matchExpressions[0].key", `"a b"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := NodeSelectorRequirementsAsSelector(tc.in)
			if len(tc.errSubs) > 0 {
				if err == nil {
					t.Fatalf("want error, got %q", sel)
				}
				if !errors.Is(err, ErrInvalidNodeSelector) || !errors.Is(err, ErrInvalidSelector) {
					t.Errorf("error does not wrap the sentinels: %v", err)
				}
				for _, s := range tc.errSubs {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q lacks %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if SelectsNothing(sel) != tc.nothing || sel.String() != tc.want {
				t.Errorf("got %q (nothing=%v), want %q", sel, SelectsNothing(sel), tc.want)
			}
		})
	}
}

func TestNodeSelectorGtLt(t *testing.T) {
	sel, err := NodeSelectorRequirementsAsSelector([]NodeSelectorRequirement{
		{Key: "cpus", Operator: NodeSelectorOpGt, Values: []string{"4"}},
		{Key: "gen", Operator: NodeSelectorOpLt, Values: []string{"10"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		labels Set
		want   bool
	}{
		{Set{"cpus": "8", "gen": "3"}, true},
		{Set{"cpus": "4", "gen": "3"}, false},
		{Set{"cpus": "5", "gen": "10"}, false},
		{Set{"cpus": "five", "gen": "3"}, false},
		{Set{"gen": "3"}, false},
		{Set{"cpus": "08", "gen": "-3"}, true},
		{Set{"cpus": "99999999999999999999", "gen": "3"}, false},
	} {
		if got := sel.Matches(tc.labels); got != tc.want {
			t.Errorf("%q.Matches(%v) = %v, want %v", sel, tc.labels, got, tc.want)
		}
	}
}

func TestNodeSelectorMatcher(t *testing.T) {
	labels := map[string]string{"zone": "a", "disk": "ssd", "cpus": "16"}
	tests := []struct {
		name     string
		ns       *NodeSelector
		nodeName string
		want     bool
		wantErr  bool
	}{
		{name: "nil matches everything", ns: nil, want: true},
		{name: "no terms", ns: &NodeSelector{}, want: false},
		{name: "only empty terms", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{{}, {MatchExpressions: []NodeSelectorRequirement{}}}}, want: false},
		{name: "one term matches", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpIn, Values: []string{"b"}}}},
			{MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpIn, Values: []string{"a"}}}},
		}}, want: true},
		{name: "requirements ANDed", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchExpressions: []NodeSelectorRequirement{
				{Key: "zone", Operator: NodeSelectorOpIn, Values: []string{"a"}},
				{Key: "disk", Operator: NodeSelectorOpNotIn, Values: []string{"ssd"}},
			}},
		}}, want: false},
		{name: "gt", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchExpressions: []NodeSelectorRequirement{{Key: "cpus", Operator: NodeSelectorOpGt, Values: []string{"8"}}}},
		}}, want: true},
		{name: "field in", nodeName: "node-1", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpIn, Values: []string{"node-1"}}}},
		}}, want: true},
		{name: "field in other node", nodeName: "node-2", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpIn, Values: []string{"node-1"}}}},
		}}, want: false},
		{name: "field notin", nodeName: "node-2", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpNotIn, Values: []string{"node-1"}}}},
		}}, want: true},
		{name: "fields skipped for unnamed node", nodeName: "", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpIn, Values: []string{"node-1"}}}},
		}}, want: true},
		{name: "unknown field reads empty", nodeName: "node-1", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "spec.other", Operator: NodeSelectorOpIn, Values: []string{""}}}},
		}}, want: true},
		{name: "fields and labels ANDed", nodeName: "node-1", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{
				MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpIn, Values: []string{"b"}}},
				MatchFields:      []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpIn, Values: []string{"node-1"}}},
			},
		}}, want: false},
		{name: "invalid term does not match, valid one does", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: "Bogus", Values: []string{"a"}}}},
			{MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpExists}}},
		}}, want: true, wantErr: true},
		{name: "field with two values is invalid", nodeName: "node-1", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpIn, Values: []string{"node-1", "node-2"}}}},
		}}, want: false, wantErr: true},
		{name: "field exists is invalid", nodeName: "node-1", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpExists}}},
		}}, want: false, wantErr: true},
		{name: "bad label half invalidates term", ns: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
			{
				MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpIn}},
				MatchFields:      []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpNotIn, Values: []string{"x"}}},
			},
		}}, want: false, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewNodeSelectorMatcher(tc.ns)
			if (err != nil) != tc.wantErr {
				t.Fatalf("NewNodeSelectorMatcher error = %v, wantErr %v", err, tc.wantErr)
			}
			if err != nil && !errors.Is(err, ErrInvalidNodeSelector) {
				t.Errorf("error does not wrap ErrInvalidNodeSelector: %v", err)
			}
			if got := m.Match(tc.nodeName, labels); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
			ok, merr := m.MatchWithError(tc.nodeName, labels)
			if ok != tc.want {
				t.Errorf("MatchWithError = %v, want %v", ok, tc.want)
			}
			if wantMErr := tc.wantErr && !tc.want; (merr != nil) != wantMErr {
				t.Errorf("MatchWithError error = %v, want error %v", merr, wantMErr)
			}
		})
	}
}

func TestNodeSelectorMatcherErrorPaths(t *testing.T) {
	_, err := NewNodeSelectorMatcher(&NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
		{},
		{MatchExpressions: []NodeSelectorRequirement{{Key: "k", Operator: "Nope"}}},
		{MatchFields: []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpIn}}},
	}})
	if err == nil {
		t.Fatal("want error")
	}
	for _, s := range []string{
		`nodeSelectorTerms[1].matchExpressions[0].operator: Unsupported value: "Nope"`,
		`nodeSelectorTerms[2].matchFields[0].values: Invalid value: "[]": must have one element`,
	} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
}

func TestNodeSelectorTermMatcher(t *testing.T) {
	m, err := NewNodeSelectorTermMatcher(NodeSelectorTerm{})
	if err != nil || m.Match("n", map[string]string{"a": "b"}) {
		t.Errorf("empty term: err=%v, should match nothing", err)
	}
	m, err = NewNodeSelectorTermMatcher(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{{Key: "a", Operator: NodeSelectorOpIn, Values: []string{"b"}}}})
	if err != nil || !m.Match("n", map[string]string{"a": "b"}) || m.Match("n", nil) {
		t.Errorf("simple term wrong: %v", err)
	}
	m, err = NewNodeSelectorTermMatcher(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{{Key: "a", Operator: NodeSelectorOpGt, Values: []string{"x"}}}})
	if err == nil || m == nil || m.Match("n", map[string]string{"a": "5"}) || m.Err() == nil {
		t.Errorf("invalid term: err=%v", err)
	}
	if !strings.Contains(err.Error(), "matchExpressions[0].values[0]") {
		t.Errorf("error lacks the field path: %v", err)
	}
	var nilM *NodeSelectorTermMatcher
	if nilM.Match("n", nil) {
		t.Errorf("nil term matcher matched")
	}
}

func TestNodeSelectorMatcherAllocs(t *testing.T) {
	m, err := NewNodeSelectorMatcher(&NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
		{MatchExpressions: []NodeSelectorRequirement{{Key: "zone", Operator: NodeSelectorOpIn, Values: []string{"b"}}}},
		{
			MatchExpressions: []NodeSelectorRequirement{{Key: "cpus", Operator: NodeSelectorOpGt, Values: []string{"8"}}},
			MatchFields:      []NodeSelectorRequirement{{Key: "metadata.name", Operator: NodeSelectorOpNotIn, Values: []string{"x"}}},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"zone": "a", "cpus": "16"}
	if n := testing.AllocsPerRun(100, func() { m.Match("node-1", labels) }); n != 0 {
		t.Errorf("Match allocates %v times, want 0", n)
	}
}
