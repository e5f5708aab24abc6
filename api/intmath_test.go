package api_test

import (
	"math"
	"testing"

	"github.com/podsem/podsem/api"
)

func TestSaturatingInt64(t *testing.T) {
	nan := 0.0
	cases := []struct {
		f    float64
		want int64
	}{
		{1 << 63, 1<<63 - 1},
		{-(1 << 63), -1 << 63},
		{-(1 << 64), -1 << 63},
		{math.Inf(1), math.MaxInt64},
		{1 << 62, 1 << 62},
		{-1.5, -1},
		{nan / nan, 0},
	}
	for _, c := range cases {
		if got := api.SaturatingInt64(c.f); got != c.want {
			t.Errorf("api.SaturatingInt64(%g) = %d, want %d", c.f, got, c.want)
		}
	}
}
