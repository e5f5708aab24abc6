package api

import (
	"math/rand/v2"
	"testing"
)

// FuzzParseSelector checks that ParseSelector never panics and that a parsed
// selector survives a trip through its String form: re-parsing gives the
// same String and matches the same label sets.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{
		"", "x", "!x", "x=a", "x==a", "x!=a", "x>1", "x<1", "x in (a,b)", "x notin ()",
		"a=b,c!=d,e in (x,y),!f, g notin (z)", "x in (,a,,)", "in in (in, notin)",
		"example.com/k in (v1, v2), k2", "x=a\x00b", "x,\x00", "((", "x=a||y=b", "x>-1",
	} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		sel, err := ParseSelector(s)
		if err != nil {
			return
		}
		str := sel.String()
		re, err := ParseSelector(str)
		if err != nil {
			t.Fatalf("String() of ParseSelector(%q) is %q, which does not parse: %v", s, str, err)
		}
		if re.String() != str {
			t.Fatalf("re-parsed String %q != %q", re.String(), str)
		}
		if len(sel.Requirements()) != len(re.Requirements()) {
			t.Fatalf("requirement count changed: %q vs %q", sel, re)
		}
		// Random label sets built from the selector's own keys and values.
		var keys, vals []string
		for _, r := range sel.Requirements() {
			keys = append(keys, r.Key())
			vals = append(vals, r.ValuesUnsorted()...)
		}
		keys = append(keys, "other")
		vals = append(vals, "", "0", "-1", "99", "zz")
		rng := rand.New(rand.NewPCG(seed, 7))
		for range 16 {
			ls := Set{}
			for _, k := range keys {
				if rng.IntN(3) > 0 {
					ls[k] = vals[rng.IntN(len(vals))]
				}
			}
			if a, b := sel.Matches(ls), re.Matches(ls); a != b {
				t.Fatalf("%q and its re-parse %q disagree on %v: %v vs %v", s, str, ls, a, b)
			}
		}
	})
}
