package scheduling

import (
	"fmt"
	"math"
)

// interPodAffinityScore is InterPodAffinity's scoring state: per topology
// domain, the summed weights contributed by the incoming pod's preferred
// terms matched by existing pods (negative for anti-affinity) and by
// existing pods' required affinity (hardPodAffinityWeight) and preferred
// terms matched by the incoming pod.
type interPodAffinityScore struct {
	topo topologyCounts
	// touched: some term recorded a domain (even with weight 0), which
	// makes PreScore succeed.
	touched bool
}

func (s *interPodAffinityScore) add(c *Cluster, key string, n *NodeInfo, weight int64) {
	if s.topo.add(s.topo.index(c, key), n.index, weight) {
		s.touched = true
	}
}

func (c *Cluster) resolveWeighted(terms []weightedAffinityTerm) []weightedAffinityTerm {
	if len(terms) == 0 {
		return nil
	}
	plain := make([]affinityTerm, len(terms))
	for i := range terms {
		plain[i] = terms[i].affinityTerm
	}
	plain = c.resolveTerms(plain)
	out := make([]weightedAffinityTerm, len(terms))
	for i := range terms {
		out[i] = weightedAffinityTerm{affinityTerm: plain[i], weight: terms[i].weight}
	}
	return out
}

// preScore accumulates the topology scores (the plugin's PreScore). It is
// Skip when nothing applies: no preferred terms of the pod and no existing
// pod's term matching it. The incoming pod's preferred terms visit only
// the pods they can select; the existing pods' terms only the pods that
// have terms.
func (pl *interPodAffinityPlugin) preScore(feasible []*NodeInfo) Status {
	c, pod := pl.c, pl.pod
	a := pod.pod.Spec.Affinity
	hasConstraints := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	if c.cfg.IgnorePreferredTermsOfExistingPods && !hasConstraints {
		return Status{Code: Skip}
	}
	if pod.termErr != nil {
		return Status{Code: Error, Err: fmt.Errorf("parsing pod: %w", pod.termErr)}
	}
	s := &pl.sc
	*s = interPodAffinityScore{}
	for sign, terms := range map[int64][]weightedAffinityTerm{1: c.resolveWeighted(pod.preferredAffinity), -1: c.resolveWeighted(pod.preferredAntiAffinity)} {
		for i := range terms {
			t := &terms[i]
			c.forCandidates(&t.affinityTerm, func(ep *PodInfo) {
				if t.matches(ep.pod, nil) {
					s.add(c, t.topologyKey, ep.node, sign*t.weight)
				}
			})
		}
	}
	nsLabels := c.namespaces[pod.pod.Namespace]
	hard := c.cfg.hardPodAffinityWeight()
	for _, ep := range c.affinityPods {
		if hard > 0 {
			for i := range ep.requiredAffinity {
				if ep.requiredAffinity[i].matches(pod.pod, nsLabels) {
					s.add(c, ep.requiredAffinity[i].topologyKey, ep.node, hard)
				}
			}
		}
		for i := range ep.preferredAffinity {
			if ep.preferredAffinity[i].matches(pod.pod, nsLabels) {
				s.add(c, ep.preferredAffinity[i].topologyKey, ep.node, ep.preferredAffinity[i].weight)
			}
		}
		for i := range ep.preferredAntiAffinity {
			if ep.preferredAntiAffinity[i].matches(pod.pod, nsLabels) {
				s.add(c, ep.preferredAntiAffinity[i].topologyKey, ep.node, -ep.preferredAntiAffinity[i].weight)
			}
		}
	}
	if !s.touched {
		return Status{Code: Skip}
	}
	return Status{}
}

// score sums the topology scores of the node's domains.
func (pl *interPodAffinityPlugin) score(n *NodeInfo) int64 {
	var total int64
	for _, d := range pl.sc.topo.keys {
		v, _ := d.at(n.index)
		total += v
	}
	return total
}

// normalizeScore maps the raw scores linearly onto 0..100 between the
// lowest and the highest (all 0 when they are equal), truncating as
// upstream's float arithmetic does.
func (pl *interPodAffinityPlugin) normalizeScore(scores []int64) {
	if !pl.sc.touched || len(scores) == 0 {
		return
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range scores {
		lo = min(lo, s)
		hi = max(hi, s)
	}
	diff := hi - lo
	for i, s := range scores {
		f := 0.0
		if diff > 0 {
			f = float64(MaxNodeScore) * (float64(s-lo) / float64(diff))
		}
		scores[i] = int64(f)
	}
}
