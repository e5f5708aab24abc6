package downward

import (
	"net"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzFieldRef drives the field-path parser and both resolution paths
// with arbitrary paths: nothing panics and SplitSubscript splits
// losslessly. (That every path API validation accepts also resolves is
// api/validation's FuzzObjectFieldSelectorResolves.)
func FuzzFieldRef(f *testing.F) {
	for _, s := range []string{
		"metadata.name", "metadata.labels['app']", "metadata.annotations['A/b']", "metadata.labels",
		"spec.host", "status.hostIPs", "status.phase", "['x']", "metadata.labels['a']']", "metadata.labels[''",
		"metadata.annotations['a[b]c']", "", "']", "['']",
	} {
		f.Add(s, "v1")
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, path, version string) {
		if p, k, ok := SplitSubscript(path); ok {
			if p+"['"+k+"']" != path || p == "" {
				t.Fatalf("SplitSubscript(%q) = %q, %q", path, p, k)
			}
		} else if p != path || k != "" {
			t.Fatalf("SplitSubscript(%q) = %q, %q, false", path, p, k)
		}
		pod, ctx := testPod(), testContext()
		ref := api.ObjectFieldSelector{APIVersion: version, FieldPath: path}
		for _, mode := range []Mode{Env, Volume} {
			_, _ = FieldRef(pod, ref, mode, ctx)
		}
		_, _ = CanonicalFieldPath(version, path)
	})
}

// FuzzExpand checks $(VAR) expansion against the independent oracle,
// and that strings without a $ come back unchanged (so expansion is
// idempotent on them).
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "$", "$$", "$(A)", "$$(A)", "$(A", "x$(A)y$(B)", "$é", "$(A$(B)", "$()"} {
		f.Add(s, "A", "v")
	}
	f.Fuzz(func(t *testing.T, s, name, value string) {
		vars := map[string]string{name: value}
		got := ExpandVars(s, vars)
		if want := expandOracle(s, vars); got != want {
			t.Fatalf("Expand(%q) = %q, oracle %q", s, got, want)
		}
		if !strings.Contains(s, "$") {
			if got != s || ExpandVars(got, vars) != got {
				t.Fatalf("Expand(%q) changed a string without references: %q", s, got)
			}
		}
	})
}

// FuzzParseIP checks the lenient IP parser: it accepts everything
// net.ParseIP accepts, with the same result, and never panics.
func FuzzParseIP(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "010.001.0.1", "fd00::1", "::ffff:1.2.3.4", "256.0.0.1", "1.2.3", "", "1..2.3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := parseIPSloppy(s)
		if want := net.ParseIP(s); want != nil && !want.Equal(got) {
			t.Fatalf("parseIPSloppy(%q) = %v, net.ParseIP %v", s, got, want)
		}
		_ = SortPodIPs([]string{s, "10.0.0.1"}, []string{s})
	})
}
