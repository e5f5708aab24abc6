package api_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func TestTaintsEqual(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	inZone := at.In(time.FixedZone("x", 3600))
	k := func(key string, when *time.Time) api.Taint {
		t := api.Taint{Key: key, Effect: api.TaintEffectNoExecute}
		if when != nil {
			t.TimeAdded = api.NewTimePtr(*when)
		}
		return t
	}
	for _, tc := range []struct {
		name string
		a, b []api.Taint
		want bool
	}{
		{"nil and empty", nil, []api.Taint{}, true},
		{"same instant, other zone", []api.Taint{k("a", &at)}, []api.Taint{k("a", &inZone)}, true},
		{"time added and none", []api.Taint{k("a", &at)}, []api.Taint{k("a", nil)}, false},
		{"other order", []api.Taint{k("a", nil), k("b", nil)}, []api.Taint{k("b", nil), k("a", nil)}, false},
		{"other value", []api.Taint{k("a", nil)}, []api.Taint{{Key: "a", Value: "v", Effect: api.TaintEffectNoExecute}}, false},
	} {
		if got := api.TaintsEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: TaintsEqual = %v, want %v", tc.name, got, tc.want)
		}
	}
}
