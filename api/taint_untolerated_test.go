package api

import "testing"

func TestFindUntoleratedTaint(t *testing.T) {
	taints := []Taint{
		{Key: "a", Effect: TaintEffectPreferNoSchedule},
		{Key: "b", Effect: TaintEffectNoSchedule},
		{Key: "c", Effect: TaintEffectNoExecute},
	}
	tolB := []Toleration{{Key: "b", Operator: TolerationOpExists}}
	for _, c := range []struct {
		name    string
		tols    []Toleration
		effects []TaintEffect
		want    string
	}{
		{"every effect: the first", nil, nil, "a"},
		{"hard effects", nil, []TaintEffect{TaintEffectNoSchedule, TaintEffectNoExecute}, "b"},
		{"b tolerated", tolB, []TaintEffect{TaintEffectNoSchedule, TaintEffectNoExecute}, "c"},
		{"NoSchedule only, tolerated", tolB, []TaintEffect{TaintEffectNoSchedule}, ""},
		{"everything tolerated", []Toleration{{Operator: TolerationOpExists}}, nil, ""},
	} {
		got, ok := FindUntoleratedTaint(taints, c.tols, c.effects...)
		if ok != (c.want != "") || got.Key != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got.Key, ok, c.want)
		}
	}
}
