package admission

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func secs(s int64) *int64 { return &s }

func TestDefaultTolerations(t *testing.T) {
	notReady := api.Toleration{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(300)}
	unreachable := api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(300)}
	tests := []struct {
		name string
		own  []api.Toleration
		cfg  TolerationSeconds
		want []api.Toleration
	}{
		{"none: both defaults", nil, TolerationSeconds{}, []api.Toleration{notReady, unreachable}},
		{"configured seconds", nil, TolerationSeconds{NotReady: secs(0), Unreachable: secs(-5)}, []api.Toleration{
			{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(0)},
			{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(-5)},
		}},
		{"tolerate everything", []api.Toleration{{Operator: api.TolerationOpExists}}, TolerationSeconds{}, []api.Toleration{{Operator: api.TolerationOpExists}}},
		{"own unreachable kept first", []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(6000)}}, TolerationSeconds{},
			[]api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(6000)}, notReady}},
		{"Equal with a value still covers the key", []api.Toleration{{Key: api.TaintNodeNotReady, Value: "x"}}, TolerationSeconds{},
			[]api.Toleration{{Key: api.TaintNodeNotReady, Value: "x"}, unreachable}},
		{"NoSchedule does not cover", []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}, TolerationSeconds{},
			[]api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}, notReady, unreachable}},
		{"empty key NoExecute covers both", []api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(10)}}, TolerationSeconds{},
			[]api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: secs(10)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &api.Pod{Spec: api.PodSpec{Tolerations: tt.own}}
			got := DefaultTolerations(pod, tt.cfg)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("-want +got:\n%s", d)
			}
		})
	}
	if got := DefaultTolerations(nil, TolerationSeconds{}); got != nil {
		t.Errorf("nil pod: got %v", got)
	}
}

func genToleration() *rapid.Generator[api.Toleration] {
	return rapid.Custom(func(t *rapid.T) api.Toleration {
		tol := api.Toleration{
			Key:      rapid.SampledFrom([]string{"", api.TaintNodeNotReady, api.TaintNodeUnreachable, "example.com/x"}).Draw(t, "key"),
			Operator: rapid.SampledFrom([]api.TolerationOperator{"", api.TolerationOpExists, api.TolerationOpEqual}).Draw(t, "op"),
			Value:    rapid.SampledFrom([]string{"", "x"}).Draw(t, "value"),
			Effect:   rapid.SampledFrom([]api.TaintEffect{"", api.TaintEffectNoExecute, api.TaintEffectNoSchedule}).Draw(t, "effect"),
		}
		if rapid.Bool().Draw(t, "hasSeconds") {
			tol.TolerationSeconds = secs(rapid.Int64Range(-10, 1000).Draw(t, "seconds"))
		}
		return tol
	})
}

// The plugin only appends, is idempotent (admission runs again on update),
// and afterwards the pod tolerates both NoExecute node taints.
func TestDefaultTolerationsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		own := rapid.SliceOfN(genToleration(), 0, 4).Draw(t, "tolerations")
		pod := &api.Pod{Spec: api.PodSpec{Tolerations: own}}
		before := append([]api.Toleration{}, own...)
		got := DefaultTolerations(pod, TolerationSeconds{})
		if d := cmp.Diff(before, pod.Spec.Tolerations, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("input modified:\n%s", d)
		}
		if len(got) < len(own) || len(got) > len(own)+2 {
			t.Fatalf("len %d from %d", len(got), len(own))
		}
		if d := cmp.Diff(own, got[:len(own)], cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("own tolerations changed:\n%s", d)
		}
		again := DefaultTolerations(&api.Pod{Spec: api.PodSpec{Tolerations: got}}, TolerationSeconds{})
		if d := cmp.Diff(got, again); d != "" {
			t.Fatalf("not idempotent:\n%s", d)
		}
		for _, key := range []string{api.TaintNodeNotReady, api.TaintNodeUnreachable} {
			if !coversKey(got, key) {
				t.Fatalf("%s not covered: %v", key, got)
			}
		}
	})
}

// FuzzDefaultTolerations feeds arbitrary tolerations (as JSON) through the
// plugin: it never panics and never drops or reorders the pod's own.
func FuzzDefaultTolerations(f *testing.F) {
	f.Add([]byte(`[{"operator":"Exists"}]`), int64(300))
	f.Add([]byte(`[{"key":"node.kubernetes.io/not-ready","value":"x","effect":"NoExecute"}]`), int64(0))
	f.Add([]byte(`[]`), int64(-1))
	f.Fuzz(func(t *testing.T, raw []byte, seconds int64) {
		var own []api.Toleration
		if json.Unmarshal(raw, &own) != nil {
			return
		}
		got := DefaultTolerations(&api.Pod{Spec: api.PodSpec{Tolerations: own}}, TolerationSeconds{NotReady: &seconds, Unreachable: &seconds})
		if len(got) < len(own) {
			t.Fatalf("dropped tolerations")
		}
		for i := range own {
			if !cmp.Equal(own[i], got[i]) {
				t.Fatalf("toleration %d changed", i)
			}
		}
		for _, extra := range got[len(own):] {
			if *extra.TolerationSeconds != seconds || extra.Effect != api.TaintEffectNoExecute {
				t.Fatalf("bad default %+v", extra)
			}
		}
	})
}
