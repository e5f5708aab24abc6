package validation

import "github.com/podsem/podsem/api"

// MergeAffinityLabelKeys returns pod with the matchLabelKeys and
// mismatchLabelKeys of its pod affinity and anti-affinity terms merged
// into their label selectors, as the pod registry strategy's
// PrepareForCreate does when a pod is created (KEP-3633,
// MatchLabelKeysInPodAffinity, on by default in v1.36.3): for each key
// the pod carries as a label, matchLabelKeys adds "key In (value)" and
// mismatchLabelKeys "key NotIn (value)"; keys the pod lacks, and terms
// without a labelSelector, are left alone. ValidatePodCreate validates
// the merged pod.
//
// The scheduler evaluates the stored labelSelector only, so a pod that
// did not go through the API server (a manifest read from a file) needs
// this merge before it is scheduled or added to a scheduling snapshot.
// The input is not modified; it is returned as is when no term has such
// keys. A nil pod gives nil.
func MergeAffinityLabelKeys(pod *api.Pod) *api.Pod {
	if pod == nil {
		return nil
	}
	a := mergeAffinityLabelKeys(pod.Spec.Affinity, pod.Labels)
	if a == pod.Spec.Affinity {
		return pod
	}
	out := *pod
	out.Spec.Affinity = a
	return &out
}

// mergeAffinityLabelKeys is MergeAffinityLabelKeys on the affinity of a
// pod with the given labels. It returns affinity itself when no term
// has matchLabelKeys or mismatchLabelKeys, else a copy with new term
// slices; affinity is not modified.
func mergeAffinityLabelKeys(affinity *api.Affinity, labels map[string]string) *api.Affinity {
	if affinity == nil || !hasAffinityLabelKeys(affinity) {
		return affinity
	}
	out := *affinity
	if pa := affinity.PodAffinity; pa != nil {
		c := *pa
		c.RequiredDuringSchedulingIgnoredDuringExecution = mergeTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, labels)
		c.PreferredDuringSchedulingIgnoredDuringExecution = mergeWeightedTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution, labels)
		out.PodAffinity = &c
	}
	if pa := affinity.PodAntiAffinity; pa != nil {
		c := *pa
		c.RequiredDuringSchedulingIgnoredDuringExecution = mergeTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, labels)
		c.PreferredDuringSchedulingIgnoredDuringExecution = mergeWeightedTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution, labels)
		out.PodAntiAffinity = &c
	}
	return &out
}

// hasAffinityLabelKeys reports whether any pod (anti-)affinity term of a
// sets matchLabelKeys or mismatchLabelKeys.
func hasAffinityLabelKeys(a *api.Affinity) bool {
	has := func(t *api.PodAffinityTerm) bool { return len(t.MatchLabelKeys)+len(t.MismatchLabelKeys) > 0 }
	check := func(req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) bool {
		for i := range req {
			if has(&req[i]) {
				return true
			}
		}
		for i := range pref {
			if has(&pref[i].PodAffinityTerm) {
				return true
			}
		}
		return false
	}
	if pa := a.PodAffinity; pa != nil && check(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	if pa := a.PodAntiAffinity; pa != nil && check(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	return false
}

func mergeTerms(terms []api.PodAffinityTerm, labels map[string]string) []api.PodAffinityTerm {
	if terms == nil {
		return nil
	}
	out := make([]api.PodAffinityTerm, len(terms))
	for i, t := range terms {
		out[i] = mergeTerm(t, labels)
	}
	return out
}

func mergeWeightedTerms(terms []api.WeightedPodAffinityTerm, labels map[string]string) []api.WeightedPodAffinityTerm {
	if terms == nil {
		return nil
	}
	out := make([]api.WeightedPodAffinityTerm, len(terms))
	for i, t := range terms {
		out[i] = api.WeightedPodAffinityTerm{Weight: t.Weight, PodAffinityTerm: mergeTerm(t.PodAffinityTerm, labels)}
	}
	return out
}

// mergeTerm returns t with its label keys merged into a copy of its
// labelSelector; a term without a selector stays as it is.
func mergeTerm(t api.PodAffinityTerm, labels map[string]string) api.PodAffinityTerm {
	if len(t.MatchLabelKeys)+len(t.MismatchLabelKeys) == 0 || t.LabelSelector == nil {
		return t
	}
	t.LabelSelector = mergeSelectorKeys(t.LabelSelector, labels, t.MatchLabelKeys, t.MismatchLabelKeys)
	return t
}

// mergeMatchLabelKeys is the part of the pod registry's PrepareForCreate
// that turns each topology spread constraint's matchLabelKeys into
// `key In (value)` requirements on its labelSelector, for the keys the
// pod has as labels (MatchLabelKeysInPodTopologySpreadSelectorMerge, on
// by default). It returns new constraints; the input is not modified.
func mergeMatchLabelKeys(cs []api.TopologySpreadConstraint, labels map[string]string) []api.TopologySpreadConstraint {
	if len(cs) == 0 {
		return cs
	}
	out := make([]api.TopologySpreadConstraint, len(cs))
	copy(out, cs)
	for i := range out {
		c := &out[i]
		if len(c.MatchLabelKeys) == 0 || c.LabelSelector == nil {
			continue
		}
		c.LabelSelector = mergeSelectorKeys(c.LabelSelector, labels, c.MatchLabelKeys, nil)
	}
	return out
}

// mergeSelectorKeys returns a copy of sel with `key In (value)` appended
// for each key of match and `key NotIn (value)` for each key of mismatch
// that labels holds, in that order. sel is not modified.
func mergeSelectorKeys(sel *api.LabelSelector, labels map[string]string, match, mismatch []string) *api.LabelSelector {
	out := *sel
	out.MatchExpressions = append([]api.LabelSelectorRequirement(nil), sel.MatchExpressions...)
	for _, part := range []struct {
		keys []string
		op   api.LabelSelectorOperator
	}{{match, api.LabelSelectorOpIn}, {mismatch, api.LabelSelectorOpNotIn}} {
		for _, k := range part.keys {
			if v, ok := labels[k]; ok {
				out.MatchExpressions = append(out.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: part.op, Values: []string{v}})
			}
		}
	}
	return &out
}
