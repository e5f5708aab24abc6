package validation

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func TestSemanticEqual(t *testing.T) {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"quantities by value", api.ResourceList{"cpu": api.MustParseQuantity("1")}, api.ResourceList{"cpu": api.MustParseQuantity("1000m")}, true},
		{"different quantities", api.ResourceList{"cpu": api.MustParseQuantity("1")}, api.ResourceList{"cpu": api.MustParseQuantity("2")}, false},
		{"nil and empty slice", api.PodSpec{Tolerations: nil}, api.PodSpec{Tolerations: []api.Toleration{}}, true},
		{"nil and empty map", api.PodSpec{NodeSelector: nil}, api.PodSpec{NodeSelector: map[string]string{}}, true},
		{"times by instant", api.NewTime(at), api.NewTime(at.In(time.FixedZone("x", 3600))), true},
		{"nil and set pointer", (*int64)(nil), func() *int64 { v := int64(0); return &v }(), false},
		{"pointers by value", func() *int64 { v := int64(3); return &v }(), func() *int64 { v := int64(3); return &v }(), true},
		{"map key missing", map[string]string{"a": ""}, map[string]string{"b": ""}, false},
		{"slice order", []string{"a", "b"}, []string{"b", "a"}, false},
	}
	for _, tt := range tests {
		if got := semanticEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: semanticEqual = %v, want %v", tt.name, got, tt.want)
		}
	}
}
