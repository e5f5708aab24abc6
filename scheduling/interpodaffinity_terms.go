package scheduling

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// affinityTerm is a compiled PodAffinityTerm (framework.AffinityTerm): the
// namespaces it names (the owning pod's own namespace when it names none
// and has no namespaceSelector), its namespace selector (Nothing when
// absent), its label selector (Nothing when absent) and topology key.
type affinityTerm struct {
	namespaces  []string
	nsSelector  api.Selector
	selector    api.Selector
	topologyKey string
	// indexKey and indexValues, set on resolved incoming terms, name a
	// label the selector requires to have one of the values, so that the
	// label index can serve the term.
	indexKey    string
	indexValues []string
}

// weightedAffinityTerm is a compiled preferred term.
type weightedAffinityTerm struct {
	affinityTerm
	weight int64
}

// matches reports whether pod is selected by the term, given the labels of
// pod's namespace (framework AffinityTerm.Matches): the pod's namespace is
// named by the term or its labels satisfy the namespace selector, and the
// pod's labels satisfy the label selector.
func (t *affinityTerm) matches(pod *api.Pod, nsLabels map[string]string) bool {
	if t.namespaceMatches(pod.Namespace, nsLabels) {
		return t.selector.Matches(api.Set(pod.Labels))
	}
	return false
}

func (t *affinityTerm) namespaceMatches(ns string, nsLabels map[string]string) bool {
	for _, n := range t.namespaces {
		if n == ns {
			return true
		}
	}
	return t.nsSelector.Matches(api.Set(nsLabels))
}

func newAffinityTerm(owner *api.Pod, term *api.PodAffinityTerm, path string) (affinityTerm, error) {
	sel, err := api.LabelSelectorAsSelector(term.LabelSelector)
	if err != nil {
		return affinityTerm{}, fmt.Errorf("%s.labelSelector: %w", path, err)
	}
	nsSel, err := api.LabelSelectorAsSelector(term.NamespaceSelector)
	if err != nil {
		return affinityTerm{}, fmt.Errorf("%s.namespaceSelector: %w", path, err)
	}
	t := affinityTerm{nsSelector: nsSel, selector: sel, topologyKey: term.TopologyKey}
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		t.namespaces = []string{owner.Namespace}
	} else {
		t.namespaces = dedupe(term.Namespaces)
	}
	return t, nil
}

func dedupe(ss []string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		dup := false
		for _, o := range out {
			if o == s {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// compileAffinity compiles the pod's inter-pod affinity terms. As in the
// framework's PodInfo, a list with an invalid term is dropped whole and the
// error kept in termErr.
func (p *PodInfo) compileAffinity() {
	a := p.pod.Spec.Affinity
	if a == nil {
		return
	}
	const base = "spec.affinity"
	if pa := a.PodAffinity; pa != nil {
		p.requiredAffinity = p.compileTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, base+".podAffinity.requiredDuringSchedulingIgnoredDuringExecution")
		p.preferredAffinity = p.compileWeighted(pa.PreferredDuringSchedulingIgnoredDuringExecution, base+".podAffinity.preferredDuringSchedulingIgnoredDuringExecution")
	}
	if pa := a.PodAntiAffinity; pa != nil {
		p.requiredAntiAffinity = p.compileTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, base+".podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution")
		p.preferredAntiAffinity = p.compileWeighted(pa.PreferredDuringSchedulingIgnoredDuringExecution, base+".podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution")
	}
}

func (p *PodInfo) compileTerms(terms []api.PodAffinityTerm, path string) []affinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]affinityTerm, 0, len(terms))
	for i := range terms {
		t, err := newAffinityTerm(p.pod, &terms[i], fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			if p.termErr == nil {
				p.termErr = err
			}
			return nil
		}
		out = append(out, t)
	}
	return out
}

func (p *PodInfo) compileWeighted(terms []api.WeightedPodAffinityTerm, path string) []weightedAffinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]weightedAffinityTerm, 0, len(terms))
	for i := range terms {
		t, err := newAffinityTerm(p.pod, &terms[i].PodAffinityTerm, fmt.Sprintf("%s[%d].podAffinityTerm", path, i))
		if err != nil {
			if p.termErr == nil {
				p.termErr = err
			}
			return nil
		}
		out = append(out, weightedAffinityTerm{affinityTerm: t, weight: int64(terms[i].Weight)})
	}
	return out
}
