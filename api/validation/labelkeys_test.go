package validation_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

func TestMergeAffinityLabelKeys(t *testing.T) {
	p := &api.Pod{}
	p.Labels = map[string]string{"app": "web", "hash": "h1", "tenant": "t1"}
	term := func(sel *api.LabelSelector, match, mismatch []string) api.PodAffinityTerm {
		return api.PodAffinityTerm{LabelSelector: sel, TopologyKey: "zone", MatchLabelKeys: match, MismatchLabelKeys: mismatch}
	}
	p.Spec.Affinity = &api.Affinity{
		PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
			term(&api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, []string{"hash", "absent"}, []string{"tenant"}),
			term(nil, []string{"hash"}, nil),
		}},
		PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
			{Weight: 1, PodAffinityTerm: term(&api.LabelSelector{}, nil, []string{"app"})},
		}},
	}
	got := validation.MergeAffinityLabelKeys(p)
	sel := func(ls *api.LabelSelector) string {
		if ls == nil {
			return "<nil>"
		}
		s, err := api.LabelSelectorAsSelector(ls)
		if err != nil {
			return err.Error()
		}
		return s.String()
	}
	req := got.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	if s := sel(req[0].LabelSelector); s != "app=web,hash in (h1),tenant notin (t1)" {
		t.Errorf("term 0: %s", s)
	}
	if s := sel(req[1].LabelSelector); s != "<nil>" {
		t.Errorf("term without selector changed: %s", s)
	}
	if s := sel(got.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.LabelSelector); s != "app notin (web)" {
		t.Errorf("preferred anti term: %s", s)
	}
	if s := sel(p.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector); s != "app=web" {
		t.Errorf("input modified: %s", s)
	}
	plain := &api.Pod{}
	if validation.MergeAffinityLabelKeys(plain) != plain {
		t.Error("a pod without label keys should be returned as is")
	}
}

func TestMergeAffinityLabelKeysNil(t *testing.T) {
	if got := validation.MergeAffinityLabelKeys(nil); got != nil {
		t.Fatalf("MergeAffinityLabelKeys(nil) = %v, want nil", got)
	}
}

// TestMergeAffinityLabelKeysKeepsOtherTerms checks that terms without
// keys come through unchanged next to merged ones, in pod affinity and
// anti-affinity alike, and that a preferred term keeps its weight.
func TestMergeAffinityLabelKeysKeepsOtherTerms(t *testing.T) {
	p := &api.Pod{}
	p.Labels = map[string]string{"hash": "h1"}
	plain := api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, TopologyKey: "zone"}
	keyed := api.PodAffinityTerm{LabelSelector: &api.LabelSelector{}, TopologyKey: "zone", MatchLabelKeys: []string{"hash"}}
	p.Spec.Affinity = &api.Affinity{
		PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{plain}},
		PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
			{Weight: 7, PodAffinityTerm: keyed},
		}},
	}
	got := validation.MergeAffinityLabelKeys(p)
	if got == p {
		t.Fatal("a pod with label keys was returned as is")
	}
	if s := got.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector; s != plain.LabelSelector {
		t.Errorf("term without keys got a new selector %v", s)
	}
	w := got.Spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0]
	if w.Weight != 7 || len(w.PodAffinityTerm.LabelSelector.MatchExpressions) != 1 {
		t.Errorf("preferred term = %+v", w)
	}
}
