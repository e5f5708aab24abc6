package lifecycle

import (
	"slices"
	"testing"
)

func TestParseKernelVersion(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []uint64
	}{
		{"6.8.0", []uint64{6, 8, 0}},
		{"4.15.0-213-generic", []uint64{4, 15, 0}},
		{" v5.10", []uint64{5, 10}},
		{"3.10.0-1160.el7.x86_64", []uint64{3, 10, 0}},
		{"6.8.0..1", []uint64{6, 8, 0}},
		{"4.5.", []uint64{4, 5}},
		{"4.05", []uint64{4, 5}}, // only the first component may not start with 0
		{"04.5", nil},
		{"6", nil},
		{"", nil},
		{"6..8", nil},
		{"linux-6.8", nil},
		{"99999999999999999999.1", nil},
	} {
		got, ok := parseKernelVersion(c.in)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("parseKernelVersion(%q) = %v, %v; want %v", c.in, got, ok, c.want)
		}
	}
	if compareVersions([]uint64{4, 5}, []uint64{4, 5, 0}) != 0 || compareVersions([]uint64{4, 14, 10}, []uint64{4, 15}) >= 0 ||
		compareVersions([]uint64{4, 5, 1}, []uint64{4, 5}) <= 0 {
		t.Error("compareVersions: missing components must count as 0")
	}
}
