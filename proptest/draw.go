package proptest

import "pgregory.net/rapid"

// drawer draws from one rapid test case, reusing the generators of small
// integer ranges (rapid allocates a generator per call, which at cluster
// scale costs more than the draws themselves).
type drawer struct {
	t     *rapid.T
	ints  [64]*rapid.Generator[int]
	bools *rapid.Generator[bool]
}

func newDrawer(t *rapid.T) *drawer { return &drawer{t: t} }

// intIn draws an int in [lo, hi], shrinking towards lo.
func intIn(d *drawer, label string, lo, hi int) int {
	if n := hi - lo; n >= 0 && n < len(d.ints) {
		g := d.ints[n]
		if g == nil {
			g = rapid.IntRange(0, n)
			d.ints[n] = g
		}
		return lo + g.Draw(d.t, label)
	}
	return rapid.IntRange(lo, hi).Draw(d.t, label)
}

// flip draws a bool, shrinking towards false.
func flip(d *drawer, label string) bool {
	if d.bools == nil {
		d.bools = rapid.Bool()
	}
	return d.bools.Draw(d.t, label)
}

// chance is true one time in n (shrinking towards false).
func chance(d *drawer, label string, n int) bool {
	return intIn(d, label, 0, n-1) == n-1
}

// optional leaves an optional number unset (zero) half the time and
// otherwise picks one of xs, shrinking towards unset.
func optional[T any](d *drawer, label string, xs []T) T {
	var zero T
	if !flip(d, label+"-set") {
		return zero
	}
	return pick(d, label, xs)
}

// pick draws one element of xs, shrinking towards the first.
func pick[T any](d *drawer, label string, xs []T) T {
	return xs[intIn(d, label, 0, len(xs)-1)]
}

// subset draws a non-empty subset of xs, in xs's order.
func subset[T any](d *drawer, label string, xs []T) []T {
	var out []T
	for _, x := range xs {
		if flip(d, label) {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		out = append(out, pick(d, label, xs))
	}
	return out
}
