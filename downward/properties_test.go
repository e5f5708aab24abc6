package downward

import (
	"strconv"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// FormatMap's lines read back (key up to the first '=', value unquoted)
// give the original map, in sorted key order.
func TestFormatMapRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.MapOf(rapid.StringMatching(`[a-z0-9./-]{1,12}`), rapid.String()).Draw(t, "map")
		out := FormatMap(m)
		if len(m) == 0 {
			if out != "" {
				t.Fatalf("empty map gave %q", out)
			}
			return
		}
		back := map[string]string{}
		prev := ""
		for i, line := range strings.Split(out, "\n") {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("line %q has no '='", line)
			}
			u, err := strconv.Unquote(v)
			if err != nil {
				t.Fatalf("value %q does not unquote: %v", v, err)
			}
			if i > 0 && k <= prev {
				t.Fatalf("keys out of order: %q after %q", k, prev)
			}
			prev = k
			back[k] = u
		}
		if len(back) != len(m) {
			t.Fatalf("read back %d entries, want %d", len(back), len(m))
		}
		for k, v := range m {
			if back[k] != v {
				t.Fatalf("key %q: read back %q, want %q", k, back[k], v)
			}
		}
	})
}

// The metadata paths resolve the same way on both paths.
func TestMetadataSameInBothModes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{
			Name:        rapid.String().Draw(t, "name"),
			Namespace:   rapid.String().Draw(t, "ns"),
			UID:         rapid.String().Draw(t, "uid"),
			Labels:      rapid.MapOf(rapid.StringMatching(`[a-z]{1,3}`), rapid.String()).Draw(t, "labels"),
			Annotations: rapid.MapOf(rapid.StringMatching(`[a-zA-Z]{1,3}`), rapid.String()).Draw(t, "annotations"),
		}}
		path := rapid.SampledFrom([]string{
			"metadata.name", "metadata.namespace", "metadata.uid",
			"metadata.labels['a']", "metadata.labels['ab']", "metadata.annotations['A']", "metadata.annotations['b']",
			"metadata.labels", "metadata.annotations",
		}).Draw(t, "path")
		ref := api.ObjectFieldSelector{FieldPath: path}
		env, err1 := FieldRef(pod, ref, Env, nil)
		vol, err2 := FieldRef(pod, ref, Volume, nil)
		if err1 != nil || err2 != nil || env != vol {
			t.Fatalf("%s: env %q (%v), volume %q (%v)", path, env, err1, vol, err2)
		}
	})
}

// Values round up: with cpu m millicores and divisor d millicores the
// answer n is the least whole number with n*d >= m.
func TestResourceRoundsUp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.Int64Range(0, 1_000_000_000).Draw(t, "milli")
		d := rapid.Int64Range(1, 1_000_000).Draw(t, "divisorMilli")
		c := &api.Container{Resources: api.ResourceRequirements{Limits: api.ResourceList{
			"cpu":    api.NewMilliQuantity(m, api.DecimalSI),
			"memory": api.NewQuantity(m, api.BinarySI),
		}}}
		got, err := ContainerResource(c, "limits.cpu", api.NewMilliQuantity(d, api.DecimalSI))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.ParseInt(got, 10, 64)
		if n*d < m || (n > 0 && (n-1)*d >= m) {
			t.Fatalf("ceil(%dm / %dm) gave %d", m, d, n)
		}
		got, err = ContainerResource(c, "limits.memory", api.NewQuantity(d, api.BinarySI))
		if err != nil {
			t.Fatal(err)
		}
		n, _ = strconv.ParseInt(got, 10, 64)
		if n*d < m || (n > 0 && (n-1)*d >= m) {
			t.Fatalf("ceil(%d / %d) gave %d", m, d, n)
		}
	})
}

// Defaulting only ever fills unset or zero limits: a container whose
// cpu, memory and ephemeral-storage limits are all set reads the same
// with and without allocatable.
func TestDefaultingKeepsSetLimits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lim := api.ResourceList{
			"cpu":               api.NewMilliQuantity(rapid.Int64Range(1, 1e6).Draw(t, "cpu"), api.DecimalSI),
			"memory":            api.NewQuantity(rapid.Int64Range(1, 1e12).Draw(t, "mem"), api.BinarySI),
			"ephemeral-storage": api.NewQuantity(rapid.Int64Range(1, 1e12).Draw(t, "eph"), api.BinarySI),
		}
		pod := &api.Pod{Spec: api.PodSpec{
			Resources:  &api.ResourceRequirements{Limits: api.ResourceList{"cpu": api.MustParseQuantity("3")}},
			Containers: []api.Container{{Name: "app", Resources: api.ResourceRequirements{Limits: lim}}},
		}}
		alloc := rl("cpu", "64", "memory", "256Gi", "ephemeral-storage", "1Ti")
		res := rapid.SampledFrom([]string{"limits.cpu", "limits.memory", "limits.ephemeral-storage"}).Draw(t, "resource")
		ref := api.ResourceFieldSelector{Resource: res}
		a, err1 := ResourceFieldRef(pod, "app", ref, alloc)
		b, err2 := ResourceFieldRef(pod, "app", ref, nil)
		if err1 != nil || err2 != nil || a != b {
			t.Fatalf("%s: with allocatable %q (%v), without %q (%v)", res, a, err1, b, err2)
		}
	})
}
