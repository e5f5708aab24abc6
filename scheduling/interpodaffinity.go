package scheduling

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// domainCounts holds a count per domain of one topology key, indexed by the
// value ids of the snapshot's label column for that key.
type domainCounts struct {
	key    string
	col    *labelColumn // nil when no node carries the key
	counts []int64
}

// at returns the count of node i's domain and whether node i has the key.
func (d *domainCounts) at(i int) (int64, bool) {
	id := d.col.id(i)
	if id < 0 {
		return 0, false
	}
	if int(id) >= len(d.counts) {
		return 0, true
	}
	return d.counts[id], true
}

// topologyCounts counts per topology domain (key and value), like the
// plugin's topologyToMatchedTermCount map; nonzero is the number of
// domains whose count is not 0 (the map's length).
type topologyCounts struct {
	keys    []*domainCounts
	nonzero int
}

// index returns the position of key's counts, adding them if needed.
func (t *topologyCounts) index(c *Cluster, key string) int {
	for i, d := range t.keys {
		if d.key == key {
			return i
		}
	}
	t.keys = append(t.keys, &domainCounts{key: key, col: c.labels.column(key)})
	return len(t.keys) - 1
}

// add adds v to node i's domain of the k-th key; it reports whether node i
// has the key.
func (t *topologyCounts) add(k, i int, v int64) bool {
	d := t.keys[k]
	id := d.col.id(i)
	if id < 0 {
		return false
	}
	if int(id) >= len(d.counts) {
		grown := make([]int64, len(d.col.values))
		copy(grown, d.counts)
		d.counts = grown
	}
	old := d.counts[id]
	d.counts[id] = old + v
	switch {
	case old == 0 && old+v != 0:
		t.nonzero++
	case old != 0 && old+v == 0:
		t.nonzero--
	}
	return true
}

func (t *topologyCounts) clone() topologyCounts {
	out := topologyCounts{keys: make([]*domainCounts, len(t.keys)), nonzero: t.nonzero}
	for i, d := range t.keys {
		cp := *d
		cp.counts = append([]int64(nil), d.counts...)
		out.keys[i] = &cp
	}
	return out
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

// interPodAffinityPlugin is InterPodAffinity. Its PreFilter counts, per
// topology domain, the existing pods whose required anti-affinity terms
// match the incoming pod, and the existing pods matching the incoming pod's
// required affinity (all terms) and anti-affinity terms; Filter then looks
// the node's domains up in arrays indexed by the snapshot's label columns.
// Only the pods a term can select are visited: those of the namespaces it
// names, and, when its selector requires a label value, only the pods with
// that label (the snapshot's per-namespace label index).
type interPodAffinityPlugin struct {
	c   *Cluster
	pod *PodInfo
	// nsLabels are the labels of the incoming pod's Namespace object (nil
	// when there is none).
	nsLabels map[string]string

	// The incoming pod's required terms with namespace selectors resolved
	// against the known Namespace objects, and for each the position of
	// its topology key in the counts.
	affinity, antiAffinity []affinityTerm
	affKey, antiKey        []int
	// selfMatch: the pod matches all its own affinity terms.
	selfMatch bool

	existingAnti   topologyCounts
	affinityCounts topologyCounts
	antiCounts     topologyCounts

	prepared bool
	status   Status

	sc interPodAffinityScore
}

func newInterPodAffinityPlugin(c *Cluster, p *PodInfo) interPodAffinityPlugin {
	return interPodAffinityPlugin{c: c, pod: p}
}

func (pl *interPodAffinityPlugin) name() string { return PluginInterPodAffinity }

func (pl *interPodAffinityPlugin) clone() cyclePlugin {
	out := *pl
	out.existingAnti = pl.existingAnti.clone()
	out.affinityCounts = pl.affinityCounts.clone()
	out.antiCounts = pl.antiCounts.clone()
	return &out
}

// resolveTerms merges each term's namespace selector into its namespace
// list using the known Namespace objects (the plugin's
// mergeAffinityTermNamespacesIfNotEmpty); an empty selector ({}) stays and
// selects every namespace, with or without an object. It also picks the
// label requirement the label index can serve.
//
// Upstream v1.36.3 adds the selected namespaces to the term but does not
// manage to clear the term's namespace selector (the helper gets the term
// by value), and it then matches existing pods against the incoming pod's
// terms with no namespace labels at all. So a namespace selector that an
// empty label set satisfies (one made only of NotIn and DoesNotExist
// requirements) lets the term reach pods of every namespace, including
// the namespaces the selector would exclude and those without an object.
// Such a selector resolves to Everything here.
func (c *Cluster) resolveTerms(terms []affinityTerm) []affinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]affinityTerm, len(terms))
	for i, t := range terms {
		if !t.nsSelector.Empty() && t.nsSelector.Matches(api.Set(nil)) {
			t.nsSelector = api.Everything()
		}
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
		for _, r := range t.selector.Requirements() {
			switch r.Operator() {
			case api.SelectionEquals, api.SelectionDoubleEquals, api.SelectionIn:
				t.indexKey, t.indexValues = r.Key(), r.Values()
			default:
				continue
			}
			break
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

// forCandidates calls f for every pod on a snapshot node that the resolved
// incoming term t may select: pods of the namespaces it can select and,
// when its selector requires one of some values of a label, pods carrying
// such a label. f still has to check t.matches.
func (c *Cluster) forCandidates(t *affinityTerm, f func(p *PodInfo)) {
	if api.SelectsNothing(t.selector) {
		return
	}
	visit := func(ns string) {
		if t.indexKey == "" {
			for _, p := range c.byNamespace[ns] {
				f(p)
			}
			return
		}
		byPair := c.byLabel[ns]
		for _, v := range t.indexValues {
			for _, p := range byPair[labelPair{t.indexKey, v}] {
				f(p)
			}
		}
	}
	if t.nsSelector.Empty() {
		for ns := range c.byNamespace {
			visit(ns)
		}
		return
	}
	for _, ns := range t.namespaces {
		visit(ns)
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
	pl.nsLabels = c.namespaces[pod.pod.Namespace]
	pl.affinity = c.resolveTerms(pod.requiredAffinity)
	pl.antiAffinity = c.resolveTerms(pod.requiredAntiAffinity)
	pl.affKey = make([]int, len(pl.affinity))
	for i := range pl.affinity {
		pl.affKey[i] = pl.affinityCounts.index(c, pl.affinity[i].topologyKey)
	}
	pl.antiKey = make([]int, len(pl.antiAffinity))
	for i := range pl.antiAffinity {
		pl.antiKey[i] = pl.antiCounts.index(c, pl.antiAffinity[i].topologyKey)
	}
	pl.selfMatch = matchesAllTerms(pl.affinity, pod.pod)

	for _, ep := range c.antiAffinityPods {
		pl.addExistingAnti(ep, ep.node, 1)
	}
	if len(pl.affinity) > 0 {
		c.forCandidates(&pl.affinity[0], func(ep *PodInfo) {
			pl.addAffinity(ep, ep.node, 1)
		})
	}
	for i := range pl.antiAffinity {
		t := &pl.antiAffinity[i]
		c.forCandidates(t, func(ep *PodInfo) {
			if t.matches(ep.pod, nil) {
				pl.antiCounts.add(pl.antiKey[i], ep.node.index, 1)
			}
		})
	}
	if pl.existingAnti.nonzero == 0 && len(pl.affinity) == 0 && len(pl.antiAffinity) == 0 {
		return Status{Code: Skip}
	}
	return Status{}
}

// addExistingAnti counts an existing pod's required anti-affinity terms
// that match the incoming pod.
func (pl *interPodAffinityPlugin) addExistingAnti(ep *PodInfo, n *NodeInfo, v int64) {
	for i := range ep.requiredAntiAffinity {
		t := &ep.requiredAntiAffinity[i]
		if t.matches(pl.pod.pod, pl.nsLabels) {
			pl.existingAnti.add(pl.existingAnti.index(pl.c, t.topologyKey), n.index, v)
		}
	}
}

// addAffinity counts ep in the domains of every incoming affinity term, if
// it matches all of them.
func (pl *interPodAffinityPlugin) addAffinity(ep *PodInfo, n *NodeInfo, v int64) {
	if matchesAllTerms(pl.affinity, ep.pod) {
		for i := range pl.affinity {
			pl.affinityCounts.add(pl.affKey[i], n.index, v)
		}
	}
}

// addPod and removePod update the counts as if p were added to or removed
// from node n (the plugin's PreFilterExtensions).
func (pl *interPodAffinityPlugin) addPod(p *PodInfo, n *NodeInfo)    { pl.updateWithPod(p, n, 1) }
func (pl *interPodAffinityPlugin) removePod(p *PodInfo, n *NodeInfo) { pl.updateWithPod(p, n, -1) }

func (pl *interPodAffinityPlugin) updateWithPod(p *PodInfo, n *NodeInfo, v int64) {
	if !pl.prepared || pl.status.Code != Success {
		return
	}
	pl.addExistingAnti(p, n, v)
	pl.addAffinity(p, n, v)
	for i := range pl.antiAffinity {
		if pl.antiAffinity[i].matches(p.pod, nil) {
			pl.antiCounts.add(pl.antiKey[i], n.index, v)
		}
	}
}

func (pl *interPodAffinityPlugin) fits(v *nodeView) bool {
	return pl.filterCode(v.info.index) == Success
}

func (pl *interPodAffinityPlugin) filter(v *nodeView) Status {
	switch pl.filterCode(v.info.index) {
	case UnschedulableAndUnresolvable:
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsPodAffinity}
	case Unschedulable:
		if !pl.satisfiesAntiAffinity(v.info.index) {
			return Status{Code: Unschedulable, Reasons: reasonsPodAntiAffinity}
		}
		return Status{Code: Unschedulable, Reasons: reasonsExistingAnti}
	}
	return Status{}
}

// filterCode runs the three checks in upstream's order: the pod's
// affinity, its anti-affinity, then the existing pods' anti-affinity.
func (pl *interPodAffinityPlugin) filterCode(i int) Code {
	if !pl.satisfiesAffinity(i) {
		return UnschedulableAndUnresolvable
	}
	if !pl.satisfiesAntiAffinity(i) || !pl.satisfiesExistingAntiAffinity(i) {
		return Unschedulable
	}
	return Success
}

// satisfiesAffinity checks the incoming pod's required affinity on node i:
// the node must carry every term's topology key and each of its domains
// must hold a pod matching all terms; except that a pod matching its own
// terms may go first when no pod anywhere matches them (the self-affinity
// rule).
func (pl *interPodAffinityPlugin) satisfiesAffinity(i int) bool {
	podsExist := true
	for k := range pl.affinity {
		n, has := pl.affinityCounts.keys[pl.affKey[k]].at(i)
		if !has {
			return false
		}
		if n <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	return pl.affinityCounts.nonzero == 0 && pl.selfMatch
}

// satisfiesAntiAffinity: no domain of node i for the pod's anti-affinity
// terms holds a pod the term matches.
func (pl *interPodAffinityPlugin) satisfiesAntiAffinity(i int) bool {
	if pl.antiCounts.nonzero == 0 {
		return true
	}
	for k := range pl.antiAffinity {
		if n, _ := pl.antiCounts.keys[pl.antiKey[k]].at(i); n > 0 {
			return false
		}
	}
	return true
}

// satisfiesExistingAntiAffinity: no pod whose anti-affinity term matches
// the incoming pod runs in a domain of node i for that term.
func (pl *interPodAffinityPlugin) satisfiesExistingAntiAffinity(i int) bool {
	if pl.existingAnti.nonzero == 0 {
		return true
	}
	for _, d := range pl.existingAnti.keys {
		if n, _ := d.at(i); n > 0 {
			return false
		}
	}
	return true
}
