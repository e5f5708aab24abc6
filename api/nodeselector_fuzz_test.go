package api

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzNodeSelector compiles arbitrary node selector requirements and
// matches them against arbitrary node labels and names, checking the
// compiled matchers against a direct reading of component-helpers
// nodeaffinity's rules: a term compiles exactly when every requirement is
// well formed, an invalid term matches nothing and its error wraps
// ErrInvalidNodeSelector, and a valid term matches exactly when every
// requirement holds. The three entry points (NodeSelectorRequirementsAsSelector,
// NewNodeSelectorTermMatcher, NewNodeSelectorMatcher) must agree.
//
// reqs is a ';'-separated list of "KEY OP V1,V2,…" (a leading '@' makes it
// a matchFields entry); labels is a ';'-separated list of "k=v".
func FuzzNodeSelector(f *testing.F) {
	for _, s := range [][3]string{
		{"zone In a,b", "zone=a", "n1"},
		{"zone NotIn a;disk Exists", "disk=ssd", "n1"},
		{"gpu DoesNotExist;@metadata.name In n1", "", "n1"},
		{"cores Gt 4;cores Lt 10", "cores=8", ""},
		{"cores Gt -1", "cores=0", ""},
		{"cores Gt 9223372036854775807", "cores=9223372036854775808", ""},
		{"cores Lt 01", "cores=+0", ""},
		{"bad/key/x In a", "a=b", ""},
		{"k Exists v", "k=", ""},
		{"k In ", "k=", ""},
		{"@metadata.name NotIn n1,n2", "", "n2"},
		{"@spec.unschedulable In true", "", "n"},
		{"k Bogus v", "", ""},
		{"", "", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, reqSpec, labelSpec, nodeName string) {
		term := parseTermSpec(reqSpec)
		labels := map[string]string{}
		if labelSpec != "" {
			for _, kv := range strings.Split(labelSpec, ";") {
				k, v, _ := strings.Cut(kv, "=")
				labels[k] = v
			}
		}

		wantValid, wantMatch := oracleTerm(term, nodeName, labels)

		tm, err := NewNodeSelectorTermMatcher(term)
		if tm == nil {
			t.Fatal("NewNodeSelectorTermMatcher returned a nil matcher")
		}
		if (err == nil) != wantValid {
			t.Fatalf("term %+v: error %v, want valid=%v", term, err, wantValid)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidNodeSelector) || !errors.Is(err, ErrInvalidSelector) || !errors.Is(tm.Err(), ErrInvalidNodeSelector) {
				t.Fatalf("term error %v does not wrap the sentinels", err)
			}
			// Values are quoted, so only a requirement's key can bring a
			// newline into the message: upstream's field paths write a
			// key element raw (field.Path.Key, "values[0][key]").
			if strings.ContainsAny(err.Error(), "\n") && !termKeysHaveNewline(term) {
				t.Fatalf("term error spans lines: %q", err)
			}
		}
		if got := tm.Match(nodeName, labels); got != wantMatch {
			t.Fatalf("term %+v on node %q labels %v: Match = %v, want %v", term, nodeName, labels, got, wantMatch)
		}

		// A selector of this one term: same answer, and the compile error
		// comes back from MatchWithError only when nothing matched.
		ns := &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{term}}
		m, merr := NewNodeSelectorMatcher(ns)
		if m == nil || (merr == nil) != (err == nil) {
			t.Fatalf("NewNodeSelectorMatcher = %v, %v; term error %v", m, merr, err)
		}
		ok, matchErr := m.MatchWithError(nodeName, labels)
		if ok != wantMatch || (matchErr != nil) != (err != nil) {
			t.Fatalf("selector MatchWithError = %v, %v; want %v, term error %v", ok, matchErr, wantMatch, err)
		}
		// Adding a term that matches every node makes the selector match
		// and hides the error, as LazyErrorNodeSelector does.
		ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{{Key: "podsem-fuzz-absent", Operator: NodeSelectorOpDoesNotExist}}})
		if _, present := labels["podsem-fuzz-absent"]; !present {
			m2, _ := NewNodeSelectorMatcher(ns)
			if ok, e := m2.MatchWithError(nodeName, labels); !ok || e != nil {
				t.Fatalf("selector with a catch-all term: %v, %v", ok, e)
			}
		}

		// Label-only terms: the plain selector form agrees.
		if len(term.MatchFields) == 0 && len(term.MatchExpressions) > 0 {
			sel, err := NodeSelectorRequirementsAsSelector(term.MatchExpressions)
			if (err == nil) != wantValid {
				t.Fatalf("NodeSelectorRequirementsAsSelector error %v, want valid=%v", err, wantValid)
			}
			if err == nil && sel.Matches(Set(labels)) != wantMatch {
				t.Fatalf("selector %v on %v = %v, want %v", sel, labels, !wantMatch, wantMatch)
			}
		}
	})
}

func parseTermSpec(spec string) NodeSelectorTerm {
	var term NodeSelectorTerm
	if spec == "" {
		return term
	}
	for _, part := range strings.Split(spec, ";") {
		fields := strings.SplitN(part, " ", 3)
		var r NodeSelectorRequirement
		r.Key = fields[0]
		if len(fields) > 1 {
			r.Operator = NodeSelectorOperator(fields[1])
		}
		if len(fields) > 2 && fields[2] != "" {
			r.Values = strings.Split(fields[2], ",")
		}
		if k, ok := strings.CutPrefix(r.Key, "@"); ok {
			r.Key = k
			term.MatchFields = append(term.MatchFields, r)
		} else {
			term.MatchExpressions = append(term.MatchExpressions, r)
		}
	}
	return term
}

// oracleTerm reads a term the way k8s.io/component-helpers nodeaffinity
// does, written directly from its rules: whether it compiles, and whether
// it matches the node.
func oracleTerm(term NodeSelectorTerm, nodeName string, labels map[string]string) (valid, match bool) {
	valid = true
	for _, r := range term.MatchExpressions {
		if len(IsQualifiedName(r.Key)) > 0 {
			valid = false
		}
		for _, v := range r.Values {
			if len(IsValidLabelValue(v)) > 0 {
				valid = false
			}
		}
		switch r.Operator {
		case NodeSelectorOpIn, NodeSelectorOpNotIn:
			valid = valid && len(r.Values) > 0
		case NodeSelectorOpExists, NodeSelectorOpDoesNotExist:
			valid = valid && len(r.Values) == 0
		case NodeSelectorOpGt, NodeSelectorOpLt:
			valid = valid && len(r.Values) == 1
			for _, v := range r.Values {
				if _, err := strconv.ParseInt(v, 10, 64); err != nil {
					valid = false
				}
			}
		default:
			valid = false
		}
	}
	for _, r := range term.MatchFields {
		switch r.Operator {
		case NodeSelectorOpIn, NodeSelectorOpNotIn:
			valid = valid && len(r.Values) == 1
		default:
			valid = false
		}
	}
	if !valid || len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return valid, false
	}
	for _, r := range term.MatchExpressions {
		v, has := labels[r.Key]
		var ok bool
		switch r.Operator {
		case NodeSelectorOpIn:
			ok = has && slices.Contains(r.Values, v)
		case NodeSelectorOpNotIn:
			ok = !has || !slices.Contains(r.Values, v)
		case NodeSelectorOpExists:
			ok = has
		case NodeSelectorOpDoesNotExist:
			ok = !has
		case NodeSelectorOpGt, NodeSelectorOpLt:
			want, _ := strconv.ParseInt(r.Values[0], 10, 64)
			got, err := strconv.ParseInt(v, 10, 64)
			ok = has && err == nil && (r.Operator == NodeSelectorOpGt && got > want || r.Operator == NodeSelectorOpLt && got < want)
		}
		if !ok {
			return true, false
		}
	}
	if nodeName != "" {
		for _, r := range term.MatchFields {
			var v string
			if r.Key == NodeFieldName {
				v = nodeName
			}
			if (v == r.Values[0]) != (r.Operator == NodeSelectorOpIn) {
				return true, false
			}
		}
	}
	return true, true
}

// termKeysHaveNewline reports whether a requirement key of term holds a
// newline, which an error names raw in its field path, as upstream does.
func termKeysHaveNewline(term NodeSelectorTerm) bool {
	for _, r := range append(slices.Clone(term.MatchExpressions), term.MatchFields...) {
		if strings.Contains(r.Key, "\n") {
			return true
		}
	}
	return false
}
