package api

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func mustParse(t *testing.T, s string) Selector {
	t.Helper()
	sel, err := ParseSelector(s)
	if err != nil {
		t.Fatalf("ParseSelector(%q): %v", s, err)
	}
	return sel
}

func TestParseSelectorRoundTrip(t *testing.T) {
	// Inputs whose String() equals the input with blanks removed.
	good := []string{
		"x=a,y=b,z=c",
		"",
		"x!=a,y=b",
		"x=",
		"x= ",
		"x=,z= ",
		"x= ,z= ",
		"!x",
		"x>1",
		"x>1,z<5",
		"x==a",
		"x in (a,b)",
		"x notin (a)",
	}
	for _, s := range good {
		sel := mustParse(t, s)
		want := strings.ReplaceAll(s, " ", "")
		got := strings.ReplaceAll(sel.String(), " ", "")
		if got != want {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", s, sel.String(), want)
		}
	}
}

func TestParseSelectorErrors(t *testing.T) {
	bad := []struct {
		in      string
		wantSub string
	}{
		{"x=a||y=b", `"a||y"`},
		{"x==a==b", "found '=='"},
		{"!x=a", "found '='"},
		{"x<a", "must be an integer"},
		{"x>", "must be an integer"},
		{"x>-1", "a valid label must be"},
		{"x>99999999999999999999", "must be an integer"},
		{",x,y", "found ','"},
		{"x nott in (y)", "found 'nott'"},
		{"a in (xyz),", "identifier after ','"},
		{"a in (xyz)b notin ()", "found 'b'"},
		{"a in (xyz abc)", "found 'abc', expected: ',' or ')'"},
		{"a notin(", "found end of string, expected: ',', ')' or identifier"},
		{"a (", "found '('"},
		{"(", "found '('"},
		{"x in", "expected: '('"},
		{"x in (a,=)", "found '='"},
		{"!", "found end of string, expected: identifier"},
		{"!!x", "found '!'"},
		{"x,", "identifier after ','"},
		{"x,,y", "identifier after ','"},
		{"x=(a)", "found '('"},
		{"Bad Key", "found 'Key'"},
		{"-x", "invalid label key \"-x\""},
		{"a/b/c", "a valid label key must consist"},
		{strings.Repeat("a", 64), "name part must be no more than 63 bytes"},
		{"x=" + strings.Repeat("v", 64), "must be no more than 63 bytes"},
		{"x in (a,b_)", "a valid label must be"},
		{"x=a b", "found 'b'"},
		{"x=a\x00b", "found 'b'"},
		{"x\x00y", "found 'y'"},
	}
	for _, tc := range bad {
		sel, err := ParseSelector(tc.in)
		if err == nil {
			t.Errorf("ParseSelector(%q) = %q, want error", tc.in, sel)
			continue
		}
		if !errors.Is(err, ErrInvalidSelector) {
			t.Errorf("ParseSelector(%q) error %v does not wrap ErrInvalidSelector", tc.in, err)
		}
		if !strings.Contains(err.Error(), tc.wantSub) {
			t.Errorf("ParseSelector(%q) error %q, want it to contain %q", tc.in, err, tc.wantSub)
		}
		if !strings.Contains(err.Error(), "position ") {
			t.Errorf("ParseSelector(%q) error %q names no position", tc.in, err)
		}
	}
}

func TestParseSelectorErrorPosition(t *testing.T) {
	_, err := ParseSelector("a=b, c d")
	if err == nil || !strings.Contains(err.Error(), "position 7: found 'd'") {
		t.Fatalf("got %v, want position 7 and token 'd'", err)
	}
}

func TestParseSelectorStructure(t *testing.T) {
	req := func(k string, op SelectionOperator, vals ...string) Requirement {
		t.Helper()
		r, err := NewRequirement(k, op, vals)
		if err != nil {
			t.Fatalf("NewRequirement(%q, %q, %q): %v", k, op, vals, err)
		}
		return r
	}
	tests := []struct {
		in   string
		want []Requirement
	}{
		{"", nil},
		{"\rx", []Requirement{req("x", SelectionExists)}},
		{"this-is-a-dns.domain.com/key-with-dash", []Requirement{req("this-is-a-dns.domain.com/key-with-dash", SelectionExists)}},
		{"this-is-another-dns.domain.com/key-with-dash in (so,what)", []Requirement{req("this-is-another-dns.domain.com/key-with-dash", SelectionIn, "so", "what")}},
		{"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", []Requirement{req("0.1.2.domain/99", SelectionNotIn, "10.10.100.1", "tick.tack.clock")}},
		{"foo  in\t (abc)", []Requirement{req("foo", SelectionIn, "abc")}},
		{"x notin\n (abc)", []Requirement{req("x", SelectionNotIn, "abc")}},
		{"x  notin\t\t\t(abc,def)", []Requirement{req("x", SelectionNotIn, "abc", "def")}},
		{"x in (abc,def)", []Requirement{req("x", SelectionIn, "abc", "def")}},
		{"x in (def,abc,def)", []Requirement{req("x", SelectionIn, "abc", "def")}},
		{"x in (abc,)", []Requirement{req("x", SelectionIn, "", "abc")}},
		{"x in ()", []Requirement{req("x", SelectionIn, "")}},
		{"x in (,)", []Requirement{req("x", SelectionIn, "")}},
		{"x in (,,,,)", []Requirement{req("x", SelectionIn, "")}},
		{"x in (a,,)", []Requirement{req("x", SelectionIn, "", "a")}},
		{"x in (a,,b)", []Requirement{req("x", SelectionIn, "", "a", "b")}},
		{"x notin (, a)", []Requirement{req("x", SelectionNotIn, "", "a")}},
		{"x notin ( )", []Requirement{req("x", SelectionNotIn, "")}},
		{"x notin (abc,def),bar,z in (),w", []Requirement{
			req("bar", SelectionExists),
			req("w", SelectionExists),
			req("x", SelectionNotIn, "abc", "def"),
			req("z", SelectionIn, ""),
		}},
		{"x,y in (a)", []Requirement{req("x", SelectionExists), req("y", SelectionIn, "a")}},
		{"x,y", []Requirement{req("x", SelectionExists), req("y", SelectionExists)}},
		{"x=a", []Requirement{req("x", SelectionEquals, "a")}},
		{"x>1", []Requirement{req("x", SelectionGreaterThan, "1")}},
		{"x<7", []Requirement{req("x", SelectionLessThan, "7")}},
		{"x=a,y!=b", []Requirement{req("x", SelectionEquals, "a"), req("y", SelectionNotEquals, "b")}},
		{"x=a,y!=b,z in (h,i,j)", []Requirement{req("x", SelectionEquals, "a"), req("y", SelectionNotEquals, "b"), req("z", SelectionIn, "h", "i", "j")}},
		{"a ", []Requirement{req("a", SelectionExists)}},
		{"a in (x,y,notin, z,in)", []Requirement{req("a", SelectionIn, "in", "notin", "x", "y", "z")}},
		{"in in (in)", []Requirement{req("in", SelectionIn, "in")}},
		{"notin=in", []Requirement{req("notin", SelectionEquals, "in")}},
		{"x=a,a=x", []Requirement{req("a", SelectionEquals, "x"), req("x", SelectionEquals, "a")}},
		{"x=1,x!=2", []Requirement{req("x", SelectionEquals, "1"), req("x", SelectionNotEquals, "2")}},
		{"x\x00", []Requirement{req("x", SelectionExists)}},
		{"x=\x00a", []Requirement{req("x", SelectionEquals, "a")}},
		{"x,\x00y", []Requirement{req("x", SelectionExists), req("y", SelectionExists)}},
	}
	for _, tc := range tests {
		got, err := ParseToRequirements(tc.in)
		if err != nil {
			t.Errorf("ParseToRequirements(%q): %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseToRequirements(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
	}
	// A NUL where a token would start ends the input.
	if _, err := ParseSelector("x, \x00y"); err == nil {
		t.Errorf("a NUL after ', ' should end the input and fail")
	}
}

func TestSelectorMatches(t *testing.T) {
	tests := []struct {
		sel   string
		ls    Set
		match bool
	}{
		{"", Set{"x": "y"}, true},
		{"x=y", Set{"x": "y"}, true},
		{"x=y,z=w", Set{"x": "y", "z": "w"}, true},
		{"x!=y,z!=w", Set{"x": "z", "z": "a"}, true},
		{"notin=in", Set{"notin": "in"}, true},
		{"x", Set{"x": "z"}, true},
		{"!x", Set{"y": "z"}, true},
		{"x>1", Set{"x": "2"}, true},
		{"x<1", Set{"x": "0"}, true},
		{"x<1", Set{"x": "-5"}, true},
		{"x>1", Set{"x": "+2"}, true},
		{"x>1", Set{"x": "0x10"}, false},
		{"x>1", Set{"x": "99999999999999999999"}, false},
		{"x>0", Set{"x": "9223372036854775807"}, true},
		{"x<0", Set{"x": "-9223372036854775808"}, true},
		{"x>1", Set{"x": "1_0"}, false},
		{"x>1", Set{"x": ""}, false},
		{"x>1", Set{}, false},
		{"x<1", Set{}, false},
		{"x>007", Set{"x": "8"}, true},
		{"x=z", Set{}, false},
		{"x=y", Set{"x": "z"}, false},
		{"x=y,z=w", Set{"x": "w", "z": "w"}, false},
		{"x!=y,z!=w", Set{"x": "z", "z": "w"}, false},
		{"x", Set{"y": "z"}, false},
		{"!x", Set{"x": "z"}, false},
		{"x>1", Set{"x": "0"}, false},
		{"x<1", Set{"x": "2"}, false},
		{"x>1", Set{"x": "1"}, false},
		{"foo=bar", Set{"foo": "bar", "baz": "blah"}, true},
		{"baz=blah", Set{"foo": "bar", "baz": "blah"}, true},
		{"foo=bar,baz=blah", Set{"foo": "bar", "baz": "blah"}, true},
		{"foo=blah", Set{"foo": "bar", "baz": "blah"}, false},
		{"baz=bar", Set{"foo": "bar", "baz": "blah"}, false},
		{"foo=bar,foobar=bar,baz=blah", Set{"foo": "bar", "baz": "blah"}, false},
		{"x in (a,b)", Set{"x": "b"}, true},
		{"x in (a,b)", Set{"x": "c"}, false},
		{"x in (a,b)", Set{}, false},
		{"x notin (a,b)", Set{}, true},
		{"x notin (a,b)", Set{"x": "a"}, false},
		{"x notin ()", Set{"x": ""}, false},
		{"x notin ()", Set{"x": "a"}, true},
		{"x in ()", Set{"x": ""}, true},
		{"x=", Set{"x": ""}, true},
		{"x=", Set{}, false},
		{"x!=", Set{}, true},
		{"x!=", Set{"x": ""}, false},
		{"x,y in (a)", Set{"x": "1", "y": "a"}, true},
	}
	for _, tc := range tests {
		sel := mustParse(t, tc.sel)
		if got := sel.Matches(tc.ls); got != tc.match {
			t.Errorf("%q.Matches(%v) = %v, want %v", tc.sel, tc.ls, got, tc.match)
		}
		// The generic Labels path must agree with the Set fast path.
		if got := sel.Matches(labelsOnly{tc.ls}); got != tc.match {
			t.Errorf("%q.Matches(labelsOnly %v) = %v, want %v", tc.sel, tc.ls, got, tc.match)
		}
	}
}

// labelsOnly hides the Set type so that selectors take the interface path.
type labelsOnly struct{ s Set }

func (l labelsOnly) Has(k string) bool   { return l.s.Has(k) }
func (l labelsOnly) Get(k string) string { return l.s.Get(k) }

func TestEverythingNothing(t *testing.T) {
	e, n := Everything(), Nothing()
	if !e.Matches(Set{"x": "y"}) || !e.Matches(nil) || !e.Empty() || e.String() != "" {
		t.Errorf("Everything misbehaves")
	}
	if n.Matches(Set{"x": "y"}) || n.Matches(Set{}) || n.Empty() || n.String() != "" || n.Requirements() != nil {
		t.Errorf("Nothing misbehaves")
	}
	if !SelectsNothing(n) || SelectsNothing(e) {
		t.Errorf("SelectsNothing wrong")
	}
	r, _ := NewRequirement("a", SelectionExists, nil)
	if !SelectsNothing(n.Add(r)) {
		t.Errorf("Nothing().Add should stay Nothing")
	}
	if got := e.Add(r).String(); got != "a" {
		t.Errorf("Everything().Add = %q", got)
	}
	if e.Requirements() == nil || len(e.Requirements()) != 0 {
		t.Errorf("Everything().Requirements() should be empty, non-nil")
	}
}

func TestNewRequirement(t *testing.T) {
	tests := []struct {
		key  string
		op   SelectionOperator
		vals []string
		ok   bool
	}{
		{"x", SelectionIn, nil, false},
		{"x", SelectionNotIn, []string{}, false},
		{"x", SelectionIn, []string{"foo"}, true},
		{"x", SelectionNotIn, []string{"foo"}, true},
		{"x", SelectionExists, nil, true},
		{"x", SelectionDoesNotExist, nil, true},
		{"x", SelectionExists, []string{"a"}, false},
		{"x", SelectionDoesNotExist, []string{"a"}, false},
		{"x", SelectionEquals, nil, false},
		{"x", SelectionEquals, []string{"a", "b"}, false},
		{"x", SelectionNotEquals, []string{""}, true},
		{"1foo", SelectionIn, []string{"bar"}, true},
		{"1234", SelectionIn, []string{"bar"}, true},
		{"y", SelectionGreaterThan, []string{"1"}, true},
		{"z", SelectionLessThan, []string{"6"}, true},
		{"z", SelectionLessThan, []string{"6", "7"}, false},
		{"foo", SelectionGreaterThan, []string{"bar"}, false},
		{"barz", SelectionLessThan, []string{"blah"}, false},
		{"x", SelectionGreaterThan, []string{"-1"}, false}, // integer, but not a label value
		{strings.Repeat("a", 254), SelectionExists, nil, false},
		{"x", "bogus", []string{"a"}, false},
		{"x", SelectionIn, []string{"a b"}, false},
		{"", SelectionExists, nil, false},
	}
	for _, tc := range tests {
		_, err := NewRequirement(tc.key, tc.op, tc.vals)
		if (err == nil) != tc.ok {
			t.Errorf("NewRequirement(%q, %q, %q) error = %v, want ok=%v", tc.key, tc.op, tc.vals, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidSelector) {
			t.Errorf("error %v does not wrap ErrInvalidSelector", err)
		}
	}
}

func TestRequirementString(t *testing.T) {
	r := func(k string, op SelectionOperator, vals ...string) Requirement {
		req, err := NewRequirement(k, op, vals)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	tests := []struct {
		reqs []Requirement
		want string
	}{
		{[]Requirement{r("x", SelectionIn, "def", "abc"), r("y", SelectionNotIn, "jkl"), r("z", SelectionExists)}, "x in (abc,def),y notin (jkl),z"},
		{[]Requirement{r("x", SelectionNotIn, "abc", "def"), r("y", SelectionNotEquals, "jkl"), r("z", SelectionDoesNotExist)}, "x notin (abc,def),y!=jkl,!z"},
		{[]Requirement{r("x", SelectionNotIn, "abc"), r("y", SelectionIn, "jkl", "mno"), r("z", SelectionNotIn, "")}, "x notin (abc),y in (jkl,mno),z notin ()"},
		{[]Requirement{r("x", SelectionEquals, "abc"), r("y", SelectionDoubleEquals, "jkl"), r("z", SelectionNotEquals, "a"), r("z", SelectionExists)}, "x=abc,y==jkl,z!=a,z"},
		{[]Requirement{r("x", SelectionGreaterThan, "2"), r("y", SelectionLessThan, "8"), r("z", SelectionExists)}, "x>2,y<8,z"},
		{[]Requirement{r("x", SelectionIn, "b", "a", "b")}, "x in (a,b,b)"},
	}
	for _, tc := range tests {
		if got := Everything().Add(tc.reqs...).String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	// Rendering must not reorder the caller's values.
	vals := []string{"b", "a"}
	req := r("x", SelectionIn, vals...)
	_ = req.String()
	if diff := cmp.Diff([]string{"b", "a"}, req.ValuesUnsorted()); diff != "" {
		t.Errorf("String mutated values: %s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b"}, req.Values()); diff != "" {
		t.Errorf("Values: %s", diff)
	}
	if got := (Requirement{}).Matches(Set{"": ""}); got {
		t.Errorf("zero Requirement matched")
	}
}

func TestRequiresExactMatch(t *testing.T) {
	sel := mustParse(t, "a=1,b in (2),c in (3,4),d!=5,e")
	for _, tc := range []struct {
		key   string
		value string
		found bool
	}{{"a", "1", true}, {"b", "2", true}, {"c", "", false}, {"d", "", false}, {"e", "", false}, {"zz", "", false}} {
		v, ok := sel.RequiresExactMatch(tc.key)
		if v != tc.value || ok != tc.found {
			t.Errorf("RequiresExactMatch(%q) = %q, %v", tc.key, v, ok)
		}
	}
}

func TestSelectorFromSet(t *testing.T) {
	labelset := Set{"foo": "bar", "baz": "blah"}
	for _, sel := range []Set{nil, {}, {"foo": "bar"}, {"baz": "blah"}, {"foo": "bar", "baz": "blah"}} {
		if !SelectorFromSet(sel).Matches(labelset) {
			t.Errorf("SelectorFromSet(%v) should match %v", sel, labelset)
		}
	}
	for _, sel := range []Set{{"foo": "blah"}, {"foo": "bar", "x": ""}} {
		if SelectorFromSet(sel).Matches(labelset) {
			t.Errorf("SelectorFromSet(%v) should not match %v", sel, labelset)
		}
	}
	if !SelectorFromSet(nil).Empty() || !(Set{}).AsSelector().Empty() {
		t.Errorf("empty set selector should be Empty")
	}
	if got := SelectorFromValidatedSet(Set{"b": "2", "a": "1"}).String(); got != "a=1,b=2" {
		t.Errorf("SelectorFromValidatedSet String = %q", got)
	}
	// Not validated:
	if got := SelectorFromSet(Set{"a b": "c d"}).String(); got != "a b=c d" {
		t.Errorf("SelectorFromSet should not validate, got %q", got)
	}
	if _, err := ValidatedSelectorFromSet(Set{"a b": "c"}); !errors.Is(err, ErrInvalidSelector) {
		t.Errorf("ValidatedSelectorFromSet bad key: %v", err)
	}
	if s, err := ValidatedSelectorFromSet(Set{"a": "b"}); err != nil || s.String() != "a=b" {
		t.Errorf("ValidatedSelectorFromSet: %v %v", s, err)
	}
}

func TestSetString(t *testing.T) {
	if got := (Set{"b": "2", "a": "1", "c": ""}).String(); got != "a=1,b=2,c=" {
		t.Errorf("Set.String = %q", got)
	}
	if got := Set(nil).String(); got != "" {
		t.Errorf("nil Set.String = %q", got)
	}
	if FormatLabels(nil) != "<none>" || FormatLabels(map[string]string{"a": "b"}) != "a=b" {
		t.Errorf("FormatLabels wrong")
	}
	var s Set
	if s.Has("a") || s.Get("a") != "" {
		t.Errorf("nil Set lookups wrong")
	}
}

func TestLabelSelectorAsSelector(t *testing.T) {
	tests := []struct {
		name    string
		in      *LabelSelector
		want    string // String() of the result
		nothing bool
		errSubs []string
	}{
		{name: "nil", in: nil, nothing: true},
		{name: "empty", in: &LabelSelector{}, want: ""},
		{name: "empty non-nil", in: &LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []LabelSelectorRequirement{}}, want: ""},
		{name: "labels", in: &LabelSelector{MatchLabels: map[string]string{"foo": "bar", "baz": "blah"}}, want: "baz=blah,foo=bar"},
		{name: "expressions", in: &LabelSelector{
			MatchLabels: map[string]string{"foo": "bar"},
			MatchExpressions: []LabelSelectorRequirement{
				{Key: "z", Operator: LabelSelectorOpIn, Values: []string{"b", "a"}},
				{Key: "a", Operator: LabelSelectorOpNotIn, Values: []string{"x"}},
				{Key: "m", Operator: LabelSelectorOpExists},
				{Key: "n", Operator: LabelSelectorOpDoesNotExist},
			}}, want: "a notin (x),foo=bar,m,!n,z in (a,b)"},
		{name: "in without values", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpIn}}},
			errSubs: []string{"matchExpressions[0].values", "values set can't be empty"}},
		{name: "notin without values", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpNotIn, Values: []string{}}}},
			errSubs: []string{"matchExpressions[0].values"}},
		{name: "exists with values", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpExists, Values: []string{"x"}}}},
			errSubs: []string{"matchExpressions[0].values", "[x]", "values set must be empty"}},
		{name: "bad operator", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}},
			errSubs: []string{"matchExpressions[0].operator", `"Gt"`}},
		{name: "lower-case operator", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: "in", Values: []string{"1"}}}},
			errSubs: []string{"matchExpressions[0].operator", `"in"`}},
		{name: "bad key", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a b", Operator: LabelSelectorOpExists}}},
			errSubs: []string{"matchExpressions[0].key", `"a b"`, "name part must consist"}},
		{name: "bad value", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpIn, Values: []string{"ok", "-bad"}}}},
			errSubs: []string{"matchExpressions[0].values[1]", `"-bad"`}},
		{name: "bad matchLabels key", in: &LabelSelector{MatchLabels: map[string]string{"a/b/c": "x"}},
			errSubs: []string{"matchLabels", `"a/b/c"`}},
		{name: "bad matchLabels value", in: &LabelSelector{MatchLabels: map[string]string{"a": "x y"}},
			errSubs: []string{"matchLabels[a]", `"x y"`}},
		{name: "two errors", in: &LabelSelector{MatchExpressions: []LabelSelectorRequirement{
			{Key: "a", Operator: "Nope"}, {Key: "b", Operator: LabelSelectorOpIn}}},
			errSubs: []string{"matchExpressions[0].operator", "matchExpressions[1].values"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := LabelSelectorAsSelector(tc.in)
			if len(tc.errSubs) > 0 {
				if err == nil {
					t.Fatalf("want error, got %q", sel)
				}
				if !errors.Is(err, ErrInvalidSelector) {
					t.Errorf("error does not wrap ErrInvalidSelector: %v", err)
				}
				for _, sub := range tc.errSubs {
					if !strings.Contains(err.Error(), sub) {
						t.Errorf("error %q lacks %q", err, sub)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if SelectsNothing(sel) != tc.nothing {
				t.Errorf("SelectsNothing = %v", !tc.nothing)
			}
			if sel.String() != tc.want {
				t.Errorf("String() = %q, want %q", sel.String(), tc.want)
			}
		})
	}
	// nil selects nothing, empty selects everything.
	if s, _ := LabelSelectorAsSelector(nil); s.Matches(Set{}) {
		t.Errorf("nil LabelSelector matched")
	}
	if s, _ := LabelSelectorAsSelector(&LabelSelector{}); !s.Matches(Set{"a": "b"}) || !s.Empty() {
		t.Errorf("empty LabelSelector should match everything")
	}
	// Values are copied: later edits to the API object do not leak in.
	ls := &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpIn, Values: []string{"x"}}}}
	sel, err := LabelSelectorAsSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	ls.MatchExpressions[0].Values[0] = "y"
	if !sel.Matches(Set{"a": "x"}) {
		t.Errorf("compiled selector shares the values slice")
	}
}

// naiveMatch evaluates a LabelSelector straight from its definition.
func naiveMatch(ls *LabelSelector, labels map[string]string) bool {
	if ls == nil {
		return false
	}
	for k, v := range ls.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, e := range ls.MatchExpressions {
		v, ok := labels[e.Key]
		in := false
		for _, x := range e.Values {
			if ok && x == v {
				in = true
			}
		}
		switch e.Operator {
		case LabelSelectorOpIn:
			if !in {
				return false
			}
		case LabelSelectorOpNotIn:
			if in {
				return false
			}
		case LabelSelectorOpExists:
			if !ok {
				return false
			}
		case LabelSelectorOpDoesNotExist:
			if ok {
				return false
			}
		}
	}
	return true
}

func genLabelSelector(t *rapid.T) *LabelSelector {
	keys := rapid.SampledFrom([]string{"a", "b", "c", "example.com/d", "e"})
	vals := rapid.SampledFrom([]string{"", "1", "x", "y", "z"})
	if rapid.IntRange(0, 9).Draw(t, "nil") == 0 {
		return nil
	}
	ls := &LabelSelector{}
	if n := rapid.IntRange(0, 3).Draw(t, "nLabels"); n > 0 {
		ls.MatchLabels = map[string]string{}
		for i := 0; i < n; i++ {
			ls.MatchLabels[keys.Draw(t, "mlKey")] = vals.Draw(t, "mlVal")
		}
	}
	nExpr := rapid.IntRange(0, 4).Draw(t, "nExpr")
	for i := 0; i < nExpr; i++ {
		op := rapid.SampledFrom([]LabelSelectorOperator{LabelSelectorOpIn, LabelSelectorOpNotIn, LabelSelectorOpExists, LabelSelectorOpDoesNotExist}).Draw(t, "op")
		e := LabelSelectorRequirement{Key: keys.Draw(t, "exKey"), Operator: op}
		if op == LabelSelectorOpIn || op == LabelSelectorOpNotIn {
			e.Values = rapid.SliceOfN(vals, 1, 3).Draw(t, "exVals")
		}
		ls.MatchExpressions = append(ls.MatchExpressions, e)
	}
	return ls
}

func genLabelSet(t *rapid.T) Set {
	return Set(rapid.MapOfN(
		rapid.SampledFrom([]string{"a", "b", "c", "example.com/d", "e", "f"}),
		rapid.SampledFrom([]string{"", "1", "x", "y", "z"}), 0, 6).Draw(t, "labels"))
}

func TestLabelSelectorAsSelectorAgreesWithNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := genLabelSelector(t)
		sel, err := LabelSelectorAsSelector(ls)
		if err != nil {
			t.Fatalf("valid selector rejected: %v", err)
		}
		for i := 0; i < 5; i++ {
			labels := genLabelSet(t)
			want := naiveMatch(ls, labels)
			if got := sel.Matches(labels); got != want {
				t.Fatalf("selector %q on %v: got %v, want %v", sel, labels, got, want)
			}
			if got := sel.Matches(labelsOnly{labels}); got != want {
				t.Fatalf("selector %q on labelsOnly %v: got %v, want %v", sel, labels, got, want)
			}
			// The string form must select the same sets, except Nothing,
			// whose string is "" (everything).
			if ls != nil {
				re, err := ParseSelector(sel.String())
				if err != nil {
					t.Fatalf("re-parse of %q: %v", sel, err)
				}
				if got := re.Matches(labels); got != want {
					t.Fatalf("re-parsed %q on %v: got %v, want %v", sel, labels, got, want)
				}
			}
		}
	})
}

func TestSelectorMatchesAllocs(t *testing.T) {
	sel, labels := benchSelector(t)
	if n := testing.AllocsPerRun(100, func() { sel.Matches(labels) }); n != 0 {
		t.Errorf("Matches allocates %v times per call, want 0", n)
	}
	gt, _ := ParseSelector("n>5,m<3")
	bad := Set{"n": "x", "m": "1"}
	if n := testing.AllocsPerRun(100, func() { gt.Matches(bad) }); n != 0 {
		t.Errorf("Gt on an unparsable label allocates %v times, want 0", n)
	}
}

func benchSelector(tb testing.TB) (Selector, Set) {
	sel, err := LabelSelectorAsSelector(&LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []LabelSelectorRequirement{
			{Key: "tier", Operator: LabelSelectorOpIn, Values: []string{"frontend", "edge"}},
			{Key: "example.com/canary", Operator: LabelSelectorOpDoesNotExist},
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	labels := Set{
		"app": "web", "tier": "edge", "env": "prod", "team": "a", "region": "eu",
		"zone": "eu-1a", "version": "v3", "owner": "ops", "cost": "42", "k8s.io/x": "y",
	}
	return sel, labels
}

func TestParseInt64(t *testing.T) {
	for _, tc := range []struct {
		in string
		n  int64
		ok bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"+7", 7, true}, {"-12", -12, true}, {"007", 7, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775808", -9223372036854775808, true},
		{"-9223372036854775809", 0, false},
		{"99999999999999999999999", 0, false},
		{"", 0, false}, {"+", 0, false}, {"-", 0, false}, {"1_000", 0, false}, {"0x1", 0, false}, {" 1", 0, false}, {"1.0", 0, false},
	} {
		n, ok := parseInt64(tc.in)
		if n != tc.n || ok != tc.ok {
			t.Errorf("parseInt64(%q) = %d, %v; want %d, %v", tc.in, n, ok, tc.n, tc.ok)
		}
	}
}
