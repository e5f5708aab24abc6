package api

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestEarliestDeadline: the result is one of the two, never later than a
// non-zero one, and zero only when both are.
func TestEarliestDeadline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at := func(label string) time.Time {
			if rapid.Bool().Draw(t, label+" zero") {
				return time.Time{}
			}
			return time.Unix(rapid.Int64Range(0, 1e6).Draw(t, label), 0)
		}
		a, b := at("a"), at("b")
		got := EarliestDeadline(a, b)
		if !got.Equal(a) && !got.Equal(b) {
			t.Fatalf("EarliestDeadline(%v, %v) = %v, neither", a, b, got)
		}
		if got.IsZero() != (a.IsZero() && b.IsZero()) {
			t.Fatalf("EarliestDeadline(%v, %v) = %v", a, b, got)
		}
		for _, x := range []time.Time{a, b} {
			if !x.IsZero() && got.After(x) {
				t.Fatalf("EarliestDeadline(%v, %v) = %v, after %v", a, b, got, x)
			}
		}
		if !EarliestDeadline(b, a).Equal(got) {
			t.Fatalf("not symmetric for %v, %v", a, b)
		}
	})
}
