package downward

import (
	"strconv"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// An 8Ei limit is 2^63 bytes, one past int64: upstream's unguarded
// float-to-int conversion answers -9223372036854775808 on amd64 and
// 9223372036854775807 on arm64. podsem saturates everywhere.
func TestContainerResourceSaturates(t *testing.T) {
	c := &api.Container{Resources: api.ResourceRequirements{
		Limits:   rl("memory", "8Ei", "cpu", "9223372036854775807", "ephemeral-storage", "100Ei"),
		Requests: rl("memory", "-8Ei", "cpu", "1m"),
	}}
	cases := []struct {
		resource, divisor, want string
	}{
		{LimitsMemory, "1", "9223372036854775807"},
		{LimitsMemory, "1Ki", "9007199254740992"}, // 2^53: fits, as upstream
		{LimitsEphemeralStorage, "1", "9223372036854775807"},
		{LimitsCPU, "1m", "9223372036854775807"},
		{LimitsCPU, "1", "9223372036854776"},
		{RequestsMemory, "1", "-9223372036854775808"}, // -(2^63-1) rounds to -2^63 in float64, in range
		{RequestsCPU, "1m", "1"},
	}
	for _, tc := range cases {
		got, err := ContainerResource(c, tc.resource, api.MustParseQuantity(tc.divisor))
		if err != nil || got != tc.want {
			t.Errorf("%s / %s = %q, %v; want %q", tc.resource, tc.divisor, got, err, tc.want)
		}
	}
	// Through the environment, as the issue saw it.
	pod := envPod(api.Container{Name: "app", Resources: api.ResourceRequirements{Limits: rl("memory", "8Ei")},
		Env: []api.EnvVar{{Name: "MEM", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: LimitsMemory}}}}})
	env, err := Environment(pod, "app", envCtx(), nil)
	if err != nil || len(env) != 1 || env[0].Value != "9223372036854775807" {
		t.Errorf("MEM: %v, %v", env, err)
	}
}

// drawQuantity draws quantities across the whole range, including
// values past int64 and negative ones.
func drawQuantity(t *rapid.T, label string) api.Quantity {
	m := rapid.Int64().Draw(t, label+"-mantissa")
	suffix := rapid.SampledFrom([]string{"", "m", "n", "k", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "E", "e3", "e18", "e30"}).Draw(t, label+"-suffix")
	q, err := api.ParseQuantity(strconv.FormatInt(m, 10) + suffix)
	if err != nil {
		t.Fatalf("%d%s: %v", m, suffix, err)
	}
	return q
}

// No result changes sign: whatever the quantity and the divisor, the
// downward API's value has the sign of their quotient (or is 0), on
// every platform.
func TestContainerResourceKeepsSign(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q, d := drawQuantity(t, "q"), drawQuantity(t, "divisor")
		resource := rapid.SampledFrom([]string{LimitsCPU, LimitsMemory, RequestsEphemeralStorage, "limits.hugepages-2Mi"}).Draw(t, "resource")
		name := api.ResourceName(resource[len("limits."):])
		if resource == RequestsEphemeralStorage {
			name = api.ResourceEphemeralStorage
		}
		c := &api.Container{Resources: api.ResourceRequirements{Limits: api.ResourceList{name: q}, Requests: api.ResourceList{name: q}}}
		got, err := ContainerResource(c, resource, d)
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseInt(got, 10, 64)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if d.IsZero() {
			d = api.MustParseQuantity("1")
		}
		a, b := q.Value(), d.Value()
		if name == api.ResourceCPU {
			a, b = q.MilliValue(), d.MilliValue()
		}
		if (a > 0 && b > 0 || a < 0 && b < 0) && v < 0 {
			t.Fatalf("%v / %v = %d: a positive quotient came out negative", q, d, v)
		}
		if (a > 0 && b < 0 || a < 0 && b > 0) && v > 0 {
			t.Fatalf("%v / %v = %d: a negative quotient came out positive", q, d, v)
		}
	})
}
