package scheduling

import "slices"

// scoreDecision runs PreScore, Score and NormalizeScore of every score
// plugin over the feasible nodes and sums the weighted scores. A plugin
// whose column is the same for every node (it said Skip, or scores every
// node 0 this time) stores only that value (d.fixed), which goes into
// every total at once.
func (cy *Cycle) scoreDecision(d *Decision) {
	f := len(d.feasible)
	d.scored = true
	d.infos = d.infos[:0]
	var scorers [len(defaultPlugins)]cyclePlugin
	ns := 0
	for _, p := range cy.plugins {
		if w := defaultScoreWeight(p.name()); w > 0 {
			scorers[ns] = p
			ns++
			d.scorers = append(d.scorers, p.name())
			d.weights = append(d.weights, w)
		}
	}
	d.raw = grow(d.raw, ns*f)
	d.fixed = grow(d.fixed, ns)
	var offset int64
	for j, p := range scorers[:ns] {
		st := cy.preScore(d, p)
		st.Plugin = p.name()
		d.preScore = append(d.preScore, st)
		if st.Code != Success {
			d.fixed[j] = 0
			continue
		}
		if v, ok := fixedScore(cy.c, p, d.one[:]); ok {
			d.fixed[j] = v
			offset += d.weights[j] * v
			continue
		}
		d.fixed[j] = -1
		col := d.raw[j*f : (j+1)*f]
		clear(col)
		scoreColumn(cy.c, p, d, col)
		p.normalizeScore(col)
	}
	t := grow(d.totals, f)
	d.totals = t
	for k := range t {
		t[k] = offset
	}
	for j := range ns {
		if d.fixed[j] >= 0 {
			continue
		}
		w, col := d.weights[j], d.raw[j*f:(j+1)*f]
		for k, s := range col[:len(t)] {
			t[k] += w * s
		}
	}
}

// preScore runs p's PreScore over the decision's feasible nodes: by index
// for PodTopologySpread, with no node list for the plugins whose PreScore
// reads none, with the feasible NodeInfos otherwise.
func (cy *Cycle) preScore(d *Decision, p cyclePlugin) Status {
	switch pl := p.(type) {
	case *spreadPlugin:
		return pl.preScoreIndexes(d.feasible)
	case *taintPlugin, *fitPlugin, *balancedPlugin, *dynamicResourcesPlugin, *imageLocalityPlugin, *nodeAffinityPlugin:
		return p.preScore(nil)
	}
	return p.preScore(d.feasibleInfos())
}

// feasibleInfos returns the feasible nodes' NodeInfos, built on first use.
func (d *Decision) feasibleInfos() []*NodeInfo {
	if len(d.infos) != len(d.feasible) {
		d.infos = grow(d.infos, len(d.feasible))
		for k, i := range d.feasible {
			d.infos[k] = d.nodes[i]
		}
	}
	return d.infos
}

// fixedScore reports whether plugin p, whose PreScore succeeded, gives
// every feasible node the same normalized score this cycle, and which:
// TaintToleration when no node has a PreferNoSchedule taint,
// DynamicResources, and ImageLocality when no node has the pod's images
// score every node 0 before NormalizeScore.
func fixedScore(c *Cluster, p cyclePlugin, one []int64) (int64, bool) {
	switch pl := p.(type) {
	case *taintPlugin:
		if c.softTaintedNodes > 0 {
			return 0, false
		}
	case *dynamicResourcesPlugin:
	case *imageLocalityPlugin:
		if pl.any {
			return 0, false
		}
	default:
		return 0, false
	}
	// NormalizeScore of a column of zeros, by the plugin's own rule (one
	// is scratch space of length 1).
	one[0] = 0
	p.normalizeScore(one)
	return one[0], true
}

// choose picks the node selectHost picks: the root of a max-heap built over
// the feasible nodes in evaluation order with container/heap's algorithm
// (kube-scheduler v1.36 breaks ties by heap position, not at random); with
// one feasible node, that node.
//
// The heap is not built. Floyd's construction, as heap.Init runs it, leaves
// at each position the element at that position if no child subtree holds
// a strictly larger one, else the root of the child subtree with the larger
// root, the left one on a tie. So the root is a highest total, and which
// one follows by descending from the root: stop at a position holding the
// highest total, else go left when the left subtree holds one, else right.
func (d *Decision) choose() {
	f := len(d.feasible)
	switch {
	case f == 0:
		d.chosen = -1
		return
	case f == 1 || !d.scored:
		d.chosen = 0
		return
	}
	t := d.totals[:f]
	best := t[0]
	for _, v := range t {
		best = max(best, v)
	}
	// The positions holding the highest total, ascending.
	at := d.heap[:0]
	for k, v := range t {
		if v == best {
			at = append(at, int32(k))
		}
	}
	d.heap = at
	i := 0
	for t[i] != best {
		if left := 2*i + 1; subtreeHolds(at, left, f) {
			i = left
		} else {
			i = left + 1
		}
	}
	d.chosen = i
}

// subtreeHolds reports whether the subtree at heap position j of a heap of
// f elements holds one of the positions at (ascending): its levels are the
// ranges [j, j], [2j+1, 2j+2], [4j+3, 4j+6], ...
func subtreeHolds(at []int32, j, f int) bool {
	for lo, hi := j, j; lo < f; lo, hi = 2*lo+1, 2*hi+2 {
		k, _ := slices.BinarySearch(at, int32(lo))
		if k < len(at) && int(at[k]) <= hi {
			return true
		}
	}
	return false
}

// scoreColumn writes p's raw score of every feasible node of d into col
// (cleared by the caller), calling the hot plugins' scores directly.
func scoreColumn(c *Cluster, p cyclePlugin, d *Decision, col []int64) {
	idx := d.feasible
	switch pl := p.(type) {
	case *spreadPlugin:
		pl.scoreIndexes(idx, col)
		return
	case *fitPlugin:
		for k, i := range idx {
			col[k] = pl.scoreAt(c, i)
		}
		return
	case *balancedPlugin:
		for k, i := range idx {
			col[k] = pl.scoreAt(c, i)
		}
		return
	}
	for k, n := range d.feasibleInfos() {
		col[k] = p.score(n)
	}
}

// Totals returns the weighted score of each feasible node, aligned with
// Feasible; nil when the feasible nodes were not scored (ScheduleOne does
// not score a lone feasible node). The slice belongs to the decision.
func (d *Decision) Totals() []int64 {
	if d == nil || !d.scored {
		return nil
	}
	return d.totals
}

func (d *Decision) fillScore(k int, s *NodeScore) {
	f := len(d.feasible)
	i := d.feasible[k]
	s.Node, s.Index, s.Total = d.nodes[i].name, i, d.totals[k]
	for j, name := range d.scorers {
		score := d.fixed[j]
		if score < 0 {
			score = d.raw[j*f+k]
		}
		s.Plugins[j] = PluginScore{Plugin: name, Score: score, Weight: d.weights[j]}
	}
}

// Scores returns the feasible nodes' scores with their per-plugin
// breakdown, aligned with Feasible, written into dst's storage (and its
// entries' Plugins storage) when large enough; nil when no node was scored.
// A plugin whose PreScore said Skip is listed with score 0.
func (d *Decision) Scores(dst []NodeScore) []NodeScore {
	if d == nil || len(d.feasible) == 0 || !d.scored {
		return nil
	}
	dst = grow(dst, len(d.feasible))
	ns := len(d.scorers)
	need := 0
	for k := range dst {
		if cap(dst[k].Plugins) < ns {
			need++
		}
	}
	// One allocation for every breakdown that needs storage.
	slab := make([]PluginScore, need*ns)
	for k := range dst {
		if cap(dst[k].Plugins) < ns {
			dst[k].Plugins, slab = slab[:ns:ns], slab[ns:]
		}
		dst[k].Plugins = dst[k].Plugins[:ns]
		d.fillScore(k, &dst[k])
	}
	return dst
}

// BestIndex returns the feasible node with the highest total score and
// that score; among equal totals the lowest snapshot index wins (Chosen
// is the node kube-scheduler itself picks among them). With one unscored
// feasible node, that node and 0. ok is false, and index -1, when no node
// is feasible (or d is nil).
func (d *Decision) BestIndex() (index int, total int64, ok bool) {
	if d == nil || len(d.feasible) == 0 {
		return -1, 0, false
	}
	if !d.scored {
		return d.feasible[0], 0, true
	}
	best := 0
	for k, t := range d.totals {
		if t > d.totals[best] || (t == d.totals[best] && d.feasible[k] < d.feasible[best]) {
			best = k
		}
	}
	return d.feasible[best], d.totals[best], true
}

// Chosen returns the node kube-scheduler binds the pod to: the only
// feasible node, or the one its selectHost pops first from a max-heap of
// the feasible nodes' totals built in evaluation order (v1.36.3 breaks ties
// by the heap's internal order, not at random). ok is false, and index -1,
// when no node is feasible (or d is nil).
func (d *Decision) Chosen() (index int, ok bool) {
	if d == nil || d.chosen < 0 || d.chosen >= len(d.feasible) {
		return -1, false
	}
	return d.feasible[d.chosen], true
}

// Tied returns the feasible nodes whose total equals the best total, in
// evaluation order (the lone feasible node when the nodes were not scored);
// any of them is a correct pick. It allocates the result; nil when no node
// is feasible (or d is nil).
func (d *Decision) Tied() []int {
	if d == nil || len(d.feasible) == 0 {
		return nil
	}
	if !d.scored {
		return []int{d.feasible[0]}
	}
	best := d.totals[0]
	for _, t := range d.totals {
		best = max(best, t)
	}
	var out []int
	for k, t := range d.totals {
		if t == best {
			out = append(out, d.feasible[k])
		}
	}
	return out
}
