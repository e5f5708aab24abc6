package apitest

import "pgregory.net/rapid"

// chance is true one time in n (shrinking towards false).
func chance(t *rapid.T, label string, n int) bool {
	return rapid.IntRange(0, n-1).Draw(t, label) == n-1
}

// pick draws one element of xs, shrinking towards the first.
func pick[T any](t *rapid.T, label string, xs []T) T {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(t, label)]
}

// intIn draws an int in [lo, hi], shrinking towards lo.
func intIn(t *rapid.T, label string, lo, hi int) int {
	return rapid.IntRange(lo, hi).Draw(t, label)
}

// subset draws a non-empty subset of xs, in xs's order.
func subset[T any](t *rapid.T, label string, xs []T) []T {
	var out []T
	for _, x := range xs {
		if rapid.Bool().Draw(t, label) {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		out = append(out, pick(t, label, xs))
	}
	return out
}
