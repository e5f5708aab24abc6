package api_test

import (
	"testing"

	"github.com/podsem/podsem/api"
)

// The v1 defaulting rounds resource quantities up to the milli scale
// (RoundUp(-3)); a quantity without sub-milli digits is kept as it is,
// however large.
func TestDefaultResourceRoundUp(t *testing.T) {
	p := &api.Pod{}
	p.Spec.Containers = []api.Container{{Name: "a", Image: "x", Resources: api.ResourceRequirements{
		Limits: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("10E"), api.ResourceCPU: api.MustParseQuantity("0.0001")},
	}}}
	api.DefaultPod(p)
	lim := p.Spec.Containers[0].Resources.Limits
	if got := lim[api.ResourceMemory]; got.String() != "10E" {
		t.Errorf("memory limit %s, want 10E kept", got.String())
	}
	if got := lim[api.ResourceCPU]; got.String() != "1m" {
		t.Errorf("cpu limit %s, want 0.0001 rounded up to 1m", got.String())
	}
}
