package scheduling

import (
	"math"
	"math/bits"

	"github.com/podsem/podsem/api"
)

// Resource arithmetic that never wraps around.
//
// kube-scheduler adds requests with plain int64 arithmetic
// (framework.Resource.Add, NodeInfo.update, the resource scorers), so two
// pods requesting 2^62 milli-cpu each make a node's requested cpu negative
// there, and a pod then "fits" a node that is full. podsem keeps the
// answer upstream gives whenever upstream's arithmetic does not overflow,
// and otherwise computes as if int64 were unbounded, saturating at
// math.MaxInt64 / math.MinInt64 where a value must be reported: a node's
// totals are exact (wide below) however large its pods' requests, a
// comparison of a request with what is left on a node is exact, and a score
// is computed on the exact quantities.

// satAdd is a + b clamped to the int64 range.
func satAdd(a, b int64) int64 {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		if a >= 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

// satSub is a - b clamped to the int64 range.
func satSub(a, b int64) int64 {
	s := a - b
	if (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0) {
		if a >= 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}

// addOverflows reports whether a + sign·b (sign ±1) leaves the int64 range.
func addOverflows(a, b, sign int64) bool {
	if sign < 0 {
		return (a >= 0) != (b >= 0) && (a-b >= 0) != (a >= 0)
	}
	return (a >= 0) == (b >= 0) && (a+b >= 0) != (a >= 0)
}

// wide is an exact sum of int64 amounts: lo + carry·2^64, lo being the
// sum's low 64 bits read as a signed number. While carry is 0 the sum is
// lo; a positive carry means a sum above math.MaxInt64, a negative one a
// sum below math.MinInt64.
type wide struct{ lo, carry int64 }

// add adds x·sign (sign ±1) exactly.
func (w *wide) add(x, sign int64) {
	if sign < 0 {
		n := w.lo - x
		if x > 0 && n > w.lo {
			w.carry--
		} else if x < 0 && n < w.lo {
			w.carry++
		}
		w.lo = n
		return
	}
	n := w.lo + x
	if x > 0 && n < w.lo {
		w.carry++
	} else if x < 0 && n > w.lo {
		w.carry--
	}
	w.lo = n
}

// plus returns w + o exactly.
func (w wide) plus(o wide) wide {
	w.add(o.lo, 1)
	w.carry += o.carry
	return w
}

// sat is w clamped to the int64 range.
func (w wide) sat() int64 {
	switch {
	case w.carry > 0:
		return math.MaxInt64
	case w.carry < 0:
		return math.MinInt64
	}
	return w.lo
}

// wideResource is a Resource summed exactly; NodeInfo keeps one only while
// some total of its pods leaves the int64 range.
type wideResource struct {
	cpu, mem, eph, pods, non0CPU, non0Mem wide
	scalar                                map[api.ResourceName]wide
}

// saturated is math.MinInt64 when neg, else math.MaxInt64.
func saturated(neg bool) int64 {
	if neg {
		return math.MinInt64
	}
	return math.MaxInt64
}

// satMul is a·b for a, b >= 0, clamped to math.MaxInt64.
func satMul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// roomLeft is alloc − used, the amount left on a node, exactly and
// clamped to the int64 range.
func roomLeft(alloc int64, used wide) int64 {
	w := wide{lo: alloc}
	w.add(used.lo, -1)
	w.carry -= used.carry
	return w.sat()
}

// addSigned is a + b (sign +1) or a − b (sign −1), without forming −b
// (which wraps for math.MinInt64); the caller has checked addOverflows.
func addSigned(a, b, sign int64) int64 {
	if sign < 0 {
		return a - b
	}
	return a + b
}
