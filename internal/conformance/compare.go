package conformance

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Mismatch builds the error an adapter returns when podsem's answer differs
// from upstream's: what was wanted and what came back, as JSON.
func Mismatch(what string, want, got any) error {
	return fmt.Errorf("%s: want %s, got %s", what, jsonString(want), jsonString(got))
}

func jsonString(v any) string {
	if r, ok := v.(json.RawMessage); ok {
		return string(r)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// EqualResourceLists compares two resource maps by key set and quantity
// value ("1000m" equals "1").
func EqualResourceLists(want, got map[string]string) bool {
	if len(want) != len(got) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || !EqualQuantities(w, g) {
			return false
		}
	}
	return true
}

// EqualQuantities compares two quantity strings by value; strings that do
// not parse are compared as text.
func EqualQuantities(a, b string) bool {
	qa, err1 := api.ParseQuantity(a)
	qb, err2 := api.ParseQuantity(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return qa.Cmp(qb) == 0
}

// ResourceListStrings renders a resource list as name -> canonical string.
func ResourceListStrings(l api.ResourceList) map[string]string {
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// SameJSON reports the first difference between two JSON trees, treating
// absent, null and empty values ("", 0, false, {}, []) alike, quantity
// strings by value and RFC 3339 times by instant. It returns "" when the
// trees agree.
func SameJSON(a, b any, path string) string {
	if isEmpty(a) && isEmpty(b) {
		return ""
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		keys := map[string]bool{}
		for k := range av {
			keys[k] = true
		}
		for k := range bv {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			if d := SameJSON(av[k], bv[k], path+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		for i := range av {
			if d := SameJSON(av[i], bv[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case string:
		if bs, ok := b.(string); ok {
			if av == bs || EqualQuantities(av, bs) && looksNumeric(av) || sameInstant(av, bs) {
				return ""
			}
		}
	case json.Number:
		switch bv := b.(type) {
		case json.Number:
			ra, ok1 := new(big.Rat).SetString(av.String())
			rb, ok2 := new(big.Rat).SetString(bv.String())
			if av == bv || ok1 && ok2 && ra.Cmp(rb) == 0 {
				return ""
			}
		case string:
			if EqualQuantities(av.String(), bv) {
				return ""
			}
		}
	default:
		if fmt.Sprint(a) == fmt.Sprint(b) {
			return ""
		}
	}
	return fmt.Sprintf("%s: %v vs %v", path, a, b)
}

func looksNumeric(s string) bool {
	return s != "" && strings.ContainsAny(s[:1], "+-.0123456789")
}

func sameInstant(a, b string) bool {
	ta, err1 := time.Parse(time.RFC3339Nano, a)
	tb, err2 := time.Parse(time.RFC3339Nano, b)
	return err1 == nil && err2 == nil && ta.Equal(tb)
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case json.Number:
		r, ok := new(big.Rat).SetString(x.String())
		return ok && r.Sign() == 0
	case bool:
		return !x
	case map[string]any:
		for _, e := range x {
			if !isEmpty(e) {
				return false
			}
		}
		return true
	case []any:
		return len(x) == 0
	}
	return false
}
