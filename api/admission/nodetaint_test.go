package admission

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func TestNodeCreateTaints(t *testing.T) {
	notReady := api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}
	stamp := api.NewTime(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	tests := []struct {
		name string
		own  []api.Taint
		want []api.Taint
	}{
		{"no taints: added", nil, []api.Taint{notReady}},
		{"already tainted: not added again", []api.Taint{notReady}, []api.Taint{notReady}},
		{"own taints first", []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoExecute}},
			[]api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoExecute}, notReady}},
		{"a value does not matter", []api.Taint{{Key: api.TaintNodeNotReady, Value: "x", Effect: api.TaintEffectNoSchedule}},
			[]api.Taint{{Key: api.TaintNodeNotReady, Value: "x", Effect: api.TaintEffectNoSchedule}}},
		{"timeAdded does not matter", []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule, TimeAdded: &stamp}},
			[]api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule, TimeAdded: &stamp}}},
		{"not-ready:NoExecute is another taint", []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}},
			[]api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}, notReady}},
		{"unreachable:NoSchedule is another taint", []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule}},
			[]api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule}, notReady}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, ready := range []api.ConditionStatus{"", api.ConditionTrue, api.ConditionFalse} {
				n := &api.Node{Spec: api.NodeSpec{Taints: slices.Clone(tt.own)}}
				if ready != "" {
					n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: ready}}
				}
				got := NodeCreateTaints(n)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Ready=%q: (-want +got)\n%s", ready, diff)
				}
				if diff := cmp.Diff(tt.own, n.Spec.Taints); diff != "" {
					t.Errorf("Ready=%q: node modified (-before +after)\n%s", ready, diff)
				}
			}
		})
	}
}

// TestPropertyNodeCreateTaints: the node's own taints are kept first and
// in order; exactly one not-ready:NoSchedule taint is there afterwards
// when the node had none, and nothing is added when it had one; the node
// is not modified; running the plugin twice is running it once.
func TestPropertyNodeCreateTaints(t *testing.T) {
	genTaint := rapid.Custom(func(t *rapid.T) api.Taint {
		return api.Taint{
			Key:    rapid.SampledFrom([]string{api.TaintNodeNotReady, api.TaintNodeUnreachable, "dedicated"}).Draw(t, "key"),
			Value:  rapid.SampledFrom([]string{"", "x"}).Draw(t, "value"),
			Effect: rapid.SampledFrom([]api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}).Draw(t, "effect"),
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		own := rapid.SliceOfN(genTaint, 0, 4).Draw(t, "taints")
		n := &api.Node{Spec: api.NodeSpec{Taints: slices.Clone(own)}}
		got := NodeCreateTaints(n)
		if !slices.Equal(own, n.Spec.Taints) {
			t.Fatalf("node modified: %v -> %v", own, n.Spec.Taints)
		}
		if len(got) < len(own) || !slices.Equal(got[:len(own)], own) {
			t.Fatalf("own taints %v not kept first in %v", own, got)
		}
		count := func(ts []api.Taint) int {
			c := 0
			for _, x := range ts {
				if x.Key == api.TaintNodeNotReady && x.Effect == api.TaintEffectNoSchedule {
					c++
				}
			}
			return c
		}
		had := count(own)
		switch {
		case had == 0 && (len(got) != len(own)+1 || count(got) != 1 || got[len(got)-1] != (api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule})):
			t.Fatalf("no not-ready:NoSchedule in %v: got %v, want it appended once", own, got)
		case had > 0 && len(got) != len(own):
			t.Fatalf("%v already had the taint: got %v", own, got)
		}
		again := NodeCreateTaints(&api.Node{Spec: api.NodeSpec{Taints: got}})
		if !slices.Equal(again, got) {
			t.Fatalf("not idempotent: %v then %v", got, again)
		}
	})
}
