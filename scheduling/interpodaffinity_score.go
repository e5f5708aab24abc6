package scheduling

import (
	"fmt"
	"math"

	"github.com/podsem/podsem/api"
)

// interPodAffinityScore is InterPodAffinity's scoring state: per topology
// key and value, the summed weights contributed by the incoming pod's
// preferred terms matched by existing pods (negative for anti-affinity) and
// by existing pods' required affinity (hardPodAffinityWeight) and preferred
// terms matched by the incoming pod.
type interPodAffinityScore struct {
	topo map[string]map[string]int64
	// preferred terms of the incoming pod, namespace selectors resolved.
	affinity, antiAffinity []weightedAffinityTerm
}

func (s *interPodAffinityScore) add(key string, node *api.Node, weight int64) {
	tv, ok := node.Labels[key]
	if !ok {
		return
	}
	m := s.topo[key]
	if m == nil {
		m = map[string]int64{}
		s.topo[key] = m
	}
	m[tv] += weight
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
// pod term matching it.
func (pl *interPodAffinityPlugin) preScore(feasible []*NodeInfo) Status {
	c, pod := pl.c, pl.pod
	a := pod.Pod.Spec.Affinity
	hasConstraints := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	if c.cfg.IgnorePreferredTermsOfExistingPods && !hasConstraints {
		return Status{Code: Skip}
	}
	if pod.termErr != nil {
		return Status{Code: Error, Err: fmt.Errorf("parsing pod: %w", pod.termErr)}
	}
	s := &pl.sc
	s.topo = map[string]map[string]int64{}
	s.affinity = c.resolveWeighted(pod.preferredAffinity)
	s.antiAffinity = c.resolveWeighted(pod.preferredAntiAffinity)
	nsLabels := c.namespaces[pod.Pod.Namespace]
	hard := c.cfg.hardPodAffinityWeight()
	for _, n := range c.nodes {
		if !hasConstraints && n.withAffinity == 0 {
			continue
		}
		node := n.node
		if len(node.Labels) == 0 {
			continue
		}
		for _, ep := range n.pods {
			if !hasConstraints && !ep.hasAffinityTerms() {
				continue
			}
			for i := range s.affinity {
				if s.affinity[i].matches(ep.Pod, nil) {
					s.add(s.affinity[i].topologyKey, node, s.affinity[i].weight)
				}
			}
			for i := range s.antiAffinity {
				if s.antiAffinity[i].matches(ep.Pod, nil) {
					s.add(s.antiAffinity[i].topologyKey, node, -s.antiAffinity[i].weight)
				}
			}
			if hard > 0 {
				for i := range ep.requiredAffinity {
					if ep.requiredAffinity[i].matches(pod.Pod, nsLabels) {
						s.add(ep.requiredAffinity[i].topologyKey, node, hard)
					}
				}
			}
			for i := range ep.preferredAffinity {
				if ep.preferredAffinity[i].matches(pod.Pod, nsLabels) {
					s.add(ep.preferredAffinity[i].topologyKey, node, ep.preferredAffinity[i].weight)
				}
			}
			for i := range ep.preferredAntiAffinity {
				if ep.preferredAntiAffinity[i].matches(pod.Pod, nsLabels) {
					s.add(ep.preferredAntiAffinity[i].topologyKey, node, -ep.preferredAntiAffinity[i].weight)
				}
			}
		}
	}
	if len(s.topo) == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

// score sums the topology scores of the node's domains.
func (pl *interPodAffinityPlugin) score(n *NodeInfo) int64 {
	var total int64
	for key, values := range pl.sc.topo {
		if tv, ok := n.node.Labels[key]; ok {
			total += values[tv]
		}
	}
	return total
}

// normalizeScore maps the raw scores linearly onto 0..100 between the
// lowest and the highest (all 0 when they are equal), truncating as
// upstream's float arithmetic does.
func (pl *interPodAffinityPlugin) normalizeScore(scores []int64) {
	if len(pl.sc.topo) == 0 || len(scores) == 0 {
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
