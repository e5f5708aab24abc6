package api

import "math"

// SaturatingInt64 converts f to an int64 the same way on every CPU: values
// at or beyond the int64 range (and ±Inf) become math.MaxInt64 or
// math.MinInt64, NaN becomes 0, and everything else truncates toward zero
// as Go's conversion does. Go leaves an out-of-range float-to-int
// conversion to the platform (amd64 gives math.MinInt64, arm64
// saturates), so the components' float arithmetic — the downward API's
// resource divisors, the scheduler's scores — goes through this one rule
// to give one answer everywhere.
func SaturatingInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= 0x1p63:
		return math.MaxInt64
	case f < -0x1p63:
		return math.MinInt64
	}
	return int64(f)
}
