package scheduling

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// topologyPair is one topology domain: a node label key and its value.
type topologyPair struct {
	key   string
	value string
}

// pairCounts counts pods per topology domain.
type pairCounts map[topologyPair]int64

// update adds value to the node's domain for key, if the node has the
// label; entries that reach 0 are dropped.
func (m pairCounts) update(node *api.Node, key string, value int64) {
	tv, ok := node.Labels[key]
	if !ok {
		return
	}
	tp := topologyPair{key, tv}
	if n := m[tp] + value; n == 0 {
		delete(m, tp)
	} else {
		m[tp] = n
	}
}

// updateAnti counts pod in the domains of every anti-affinity term it
// matches.
func (m pairCounts) updateAnti(terms []affinityTerm, pod *api.Pod, nsLabels map[string]string, node *api.Node, value int64) {
	for i := range terms {
		if terms[i].matches(pod, nsLabels) {
			m.update(node, terms[i].topologyKey, value)
		}
	}
}

// updateAffinity counts pod in the domains of every affinity term, if it
// matches all of them.
func (m pairCounts) updateAffinity(terms []affinityTerm, pod *api.Pod, node *api.Node, value int64) {
	if matchesAllTerms(terms, pod) {
		for i := range terms {
			m.update(node, terms[i].topologyKey, value)
		}
	}
}

// matchesAllTerms reports whether pod matches every term (false for no
// terms). The terms are the incoming pod's, whose namespace selectors are
// already resolved, so no namespace labels are needed.
func matchesAllTerms(terms []affinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].matches(pod, nil) {
			return false
		}
	}
	return true
}

func (m pairCounts) clone() pairCounts {
	out := make(pairCounts, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// interPodAffinityPlugin is InterPodAffinity. Its PreFilter counts, per
// topology domain, the existing pods whose required anti-affinity terms
// match the incoming pod, and the existing pods matching the incoming pod's
// required affinity (all terms) and anti-affinity terms; Filter then looks
// the node's domains up. Only the namespaces the terms can select are
// scanned, through the snapshot's per-namespace index.
type interPodAffinityPlugin struct {
	c   *Cluster
	pod *PodInfo
	// nsLabels are the labels of the incoming pod's Namespace object (nil
	// when there is none).
	nsLabels map[string]string

	// The incoming pod's terms with namespace selectors resolved against
	// the known Namespace objects.
	affinity, antiAffinity []affinityTerm

	existingAnti pairCounts
	// existingAntiKeys are the topology keys present in existingAnti.
	existingAntiKeys map[string]int
	affinityCounts   pairCounts
	antiCounts       pairCounts

	prepared bool
	status   Status

	sc interPodAffinityScore
}

func newInterPodAffinityPlugin(c *Cluster, p *PodInfo) *interPodAffinityPlugin {
	return &interPodAffinityPlugin{c: c, pod: p}
}

func (pl *interPodAffinityPlugin) name() string { return PluginInterPodAffinity }

func (pl *interPodAffinityPlugin) clone() cyclePlugin {
	out := *pl
	out.existingAnti = pl.existingAnti.clone()
	out.affinityCounts = pl.affinityCounts.clone()
	out.antiCounts = pl.antiCounts.clone()
	out.existingAntiKeys = make(map[string]int, len(pl.existingAntiKeys))
	for k, v := range pl.existingAntiKeys {
		out.existingAntiKeys[k] = v
	}
	return &out
}

// resolveTerms merges each term's namespace selector into its namespace
// list using the known Namespace objects (the plugin's
// mergeAffinityTermNamespacesIfNotEmpty); an empty selector ({}) stays and
// selects every namespace, with or without an object.
func (c *Cluster) resolveTerms(terms []affinityTerm) []affinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]affinityTerm, len(terms))
	for i, t := range terms {
		if !t.nsSelector.Empty() {
			if !api.SelectsNothing(t.nsSelector) {
				ns := append([]string(nil), t.namespaces...)
				for name, labels := range c.namespaces {
					if t.nsSelector.Matches(api.Set(labels)) && !contains(ns, name) {
						ns = append(ns, name)
					}
				}
				t.namespaces = ns
			}
			t.nsSelector = api.Nothing()
		}
		out[i] = t
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// forPodsSelectable calls f for every pod on a snapshot node whose
// namespace at least one of the terms can select.
func (c *Cluster) forPodsSelectable(termSets [][]affinityTerm, f func(p *PodInfo)) {
	all := false
	var nss []string
	for _, terms := range termSets {
		for i := range terms {
			if terms[i].nsSelector.Empty() {
				all = true
			}
			for _, n := range terms[i].namespaces {
				if !contains(nss, n) {
					nss = append(nss, n)
				}
			}
		}
	}
	if all {
		for _, n := range c.nodes {
			for _, p := range n.pods {
				f(p)
			}
		}
		return
	}
	for _, ns := range nss {
		for _, p := range c.byNamespace[ns] {
			f(p)
		}
	}
}

func (pl *interPodAffinityPlugin) preFilter() Status {
	if pl.prepared {
		return pl.status
	}
	pl.prepared = true
	pl.status = pl.prepare()
	return pl.status
}

func (pl *interPodAffinityPlugin) prepare() Status {
	c, pod := pl.c, pl.pod
	if pod.termErr != nil {
		return Status{Code: Error, Err: fmt.Errorf("parsing pod: %w", pod.termErr)}
	}
	pl.nsLabels = c.namespaces[pod.Pod.Namespace]
	pl.affinity = c.resolveTerms(pod.requiredAffinity)
	pl.antiAffinity = c.resolveTerms(pod.requiredAntiAffinity)

	pl.existingAnti = pairCounts{}
	pl.existingAntiKeys = map[string]int{}
	for _, ep := range c.antiAffinityPods {
		pl.addExistingAnti(ep, ep.node.node, 1)
	}
	pl.affinityCounts = pairCounts{}
	pl.antiCounts = pairCounts{}
	if len(pl.affinity)+len(pl.antiAffinity) > 0 {
		c.forPodsSelectable([][]affinityTerm{pl.affinity, pl.antiAffinity}, func(ep *PodInfo) {
			node := ep.node.node
			pl.affinityCounts.updateAffinity(pl.affinity, ep.Pod, node, 1)
			pl.antiCounts.updateAnti(pl.antiAffinity, ep.Pod, nil, node, 1)
		})
	}
	if len(pl.existingAnti) == 0 && len(pl.affinity) == 0 && len(pl.antiAffinity) == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

// addExistingAnti counts an existing pod's required anti-affinity terms
// that match the incoming pod.
func (pl *interPodAffinityPlugin) addExistingAnti(ep *PodInfo, node *api.Node, value int64) {
	for i := range ep.requiredAntiAffinity {
		t := &ep.requiredAntiAffinity[i]
		if !t.matches(pl.pod.Pod, pl.nsLabels) {
			continue
		}
		if _, ok := node.Labels[t.topologyKey]; !ok {
			continue
		}
		pl.existingAnti.update(node, t.topologyKey, value)
		if n := pl.existingAntiKeys[t.topologyKey] + int(value); n <= 0 {
			delete(pl.existingAntiKeys, t.topologyKey)
		} else {
			pl.existingAntiKeys[t.topologyKey] = n
		}
	}
}

// addPod and removePod update the counts as if p were added to or removed
// from node n (the plugin's PreFilterExtensions).
func (pl *interPodAffinityPlugin) addPod(p *PodInfo, n *NodeInfo)    { pl.updateWithPod(p, n, 1) }
func (pl *interPodAffinityPlugin) removePod(p *PodInfo, n *NodeInfo) { pl.updateWithPod(p, n, -1) }

func (pl *interPodAffinityPlugin) updateWithPod(p *PodInfo, n *NodeInfo, value int64) {
	if pl.status.Code != Success || !pl.prepared {
		return
	}
	pl.addExistingAnti(p, n.node, value)
	pl.affinityCounts.updateAffinity(pl.affinity, p.Pod, n.node, value)
	pl.antiCounts.updateAnti(pl.antiAffinity, p.Pod, nil, n.node, value)
}

func (pl *interPodAffinityPlugin) filter(v *NodeView) Status {
	labels := v.Info.node.Labels
	if !pl.satisfiesAffinity(labels) {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsPodAffinity}
	}
	if len(pl.antiCounts) > 0 {
		for i := range pl.antiAffinity {
			key := pl.antiAffinity[i].topologyKey
			if tv, ok := labels[key]; ok && pl.antiCounts[topologyPair{key, tv}] > 0 {
				return Status{Code: Unschedulable, Reasons: reasonsPodAntiAffinity}
			}
		}
	}
	if len(pl.existingAnti) > 0 {
		for key := range pl.existingAntiKeys {
			if tv, ok := labels[key]; ok && pl.existingAnti[topologyPair{key, tv}] > 0 {
				return Status{Code: Unschedulable, Reasons: reasonsExistingAnti}
			}
		}
	}
	return Status{}
}

// satisfiesAffinity checks the incoming pod's required affinity: the node
// must carry every term's topology key and each of its domains must hold a
// pod matching all terms; except that a pod matching its own terms may go
// first when no pod anywhere matches them (the self-affinity rule).
func (pl *interPodAffinityPlugin) satisfiesAffinity(labels map[string]string) bool {
	podsExist := true
	for i := range pl.affinity {
		key := pl.affinity[i].topologyKey
		tv, ok := labels[key]
		if !ok {
			return false
		}
		if pl.affinityCounts[topologyPair{key, tv}] <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	return len(pl.affinityCounts) == 0 && matchesAllTerms(pl.affinity, pl.pod.Pod)
}
