package scheduling

import "slices"

// filterDecision runs the filters over the nodes in the walk's order until
// enough are feasible (findNodesThatFitPod and findNodesThatPassFilters).
func (cy *Cycle) filterDecision(d *Decision, o walkOptions) {
	nodes := cy.c.nodes
	w := walker{n: len(nodes), start: o.start}
	switch {
	case cy.hasSubset:
		w.list = cy.subset
		w.n = len(cy.subset)
	case o.tree:
		w.tree = true
	}
	if w.n > 0 {
		w.start %= w.n
		if w.tree {
			w.flat, w.at = cy.c.tree.lists()
		}
	}
	k := o.limit
	if k <= 0 || k > w.n {
		k = w.n
	}
	if o.limit > 0 {
		d.numToFind = k
	} else {
		d.numToFind = w.n
	}
	// The pod's nominated node is tried alone first; if it passes, it is
	// the only feasible node and nothing else is evaluated.
	nominatedRejected := -1
	if o.nominatedFirst {
		if ni := cy.c.byName[cy.pod.pod.Status.NominatedNodeName]; ni != nil && cy.pod.pod.Status.NominatedNodeName != "" {
			i := ni.index
			d.evaluated = append(d.evaluated, i)
			d.numEvaluated++
			st := cy.evaluate(cy.active, &nodeView{info: ni}, cy.nominatedFor(ni))
			if d.sieved {
				d.nomIndex = i
				if !st.IsSuccess() {
					d.rejections = append(d.rejections, st)
					d.nomVerdict = int32(len(d.rejections))
				}
			}
			if !st.IsSuccess() {
				if !d.sieved {
					d.reject(i, st)
				}
				nominatedRejected = i
			} else {
				if !d.sieved {
					d.verdict[i] = 0
				}
				d.feasible = append(d.feasible, i)
				d.nominatedFirst = true
				return
			}
		}
	}
	if d.sieved {
		d.walk = w
		cy.sieveWalk(d, &w, k, nominatedRejected)
		return
	}
	nominated := len(cy.c.nominated) > 0
	for w.pos < w.n {
		i := w.next()
		if i == nominatedRejected {
			continue // evaluated above; the filters say the same again
		}
		var pass bool
		if ni := nodes[i]; nominated && len(cy.c.nominated[ni.name]) > 0 {
			st := cy.evaluate(cy.active, &nodeView{info: ni}, cy.nominatedFor(ni))
			if pass = st.IsSuccess(); !pass {
				d.reject(i, st)
			}
		} else {
			pass = cy.filterNode(d, i)
		}
		if pass {
			if len(d.feasible) == k {
				// The (k+1)-th feasible node: upstream's search stops
				// here and drops it unevaluated.
				break
			}
			d.verdict[i] = 0
			d.feasible = append(d.feasible, i)
		}
		d.evaluated = append(d.evaluated, i)
		d.numEvaluated++
	}
}

// walker yields the node indexes of a decision's walk: the snapshot's index
// order, a PreFilter's node subset, or the node tree, from a start position
// with wrap-around.
type walker struct {
	list  []int
	n     int
	start int
	pos   int
	tree  bool
	flat  []int32 // the node tree's list, for tree
	at    []int32 // flat's inverse, for tree
}

// position returns the position of node index i in the walk (counted from
// its start), -1 when the walk does not pass it.
func (w *walker) position(i int) int {
	var p int
	switch {
	case w.list != nil:
		q, ok := slices.BinarySearch(w.list, i)
		if !ok {
			return -1
		}
		p = q
	case w.tree:
		if i < 0 || i >= len(w.at) {
			return -1
		}
		p = int(w.at[i])
	default:
		if i < 0 || i >= w.n {
			return -1
		}
		p = i
	}
	if p -= w.start; p < 0 {
		p += w.n
	}
	return p
}

// index returns the node index at position p of the walk (counted from
// its start), p < w.n.
func (w *walker) index(p int) int {
	if p += w.start; p >= w.n {
		p -= w.n
	}
	switch {
	case w.list != nil:
		return w.list[p]
	case w.tree:
		return int(w.flat[p])
	}
	return p
}

// next returns the next node index of the walk (w.pos < w.n).
func (w *walker) next() int {
	i := w.index(w.pos)
	w.pos++
	return i
}

// filterNode runs the filters on node index i in plugin order and reports
// whether it passes; otherwise it records the status of the first plugin
// that rejects it (RunFilterPlugins). The plugins that cannot reject any
// node in this cycle are left out (see buildChecks), and the hot plugins'
// checks are called through their concrete types, so a passing node costs
// no interface call and builds no Status. A rejection by a plugin whose
// check is exact is recorded as "rejected by check j" and its Status built
// only when asked for (lazyStatus), so that rejecting thousands of nodes
// costs a store each.
func (cy *Cycle) filterNode(d *Decision, i int) bool {
	view := &cy.view
	loaded := false
	for j := range cy.checks {
		ch := &cy.checks[j]
		var ok bool
		switch ch.kind {
		case checkResources:
			ok = ch.fit.fitsAt(cy.c, i)
		case checkSpread:
			ok = ch.spread.fitsIndex(i)
		default:
			if !loaded {
				view.info, loaded = cy.c.nodes[i], true
			}
			switch ch.kind {
			case checkTaint:
				ok = ch.p.(*taintPlugin).fits(view)
			case checkNodeAffinity:
				ok = ch.p.(*nodeAffinityPlugin).fits(view)
			case checkUnschedulable:
				ok = ch.p.(*nodeUnschedulablePlugin).fits(view)
			case checkNodeName:
				ok = ch.p.(*nodeNamePlugin).fits(view)
			case checkQuick:
				ok = ch.q.fits(view)
			}
		}
		if ok {
			continue
		}
		if ch.kind > checkQuick {
			d.verdict[i] = lazyVerdict(j)
			return false
		}
		if !loaded {
			view.info, loaded = cy.c.nodes[i], true
		}
		st := ch.p.filter(view)
		if st.Code == Success || st.Code == Skip {
			continue
		}
		st.Plugin = ch.p.name()
		d.reject(i, st)
		return false
	}
	return true
}

// lazyVerdict encodes "rejected by check j" in a verdict: -2, -3, ...
func lazyVerdict(j int) int32 { return int32(-2 - j) }

// lazyStatus builds the status of a node rejected by check j: that
// plugin's filter on the node, as the walk would have recorded it.
func (d *Decision) lazyStatus(i int, j int) Status {
	p := d.cy.checks[j].p
	// Reasons and numbers come from the decision's arena, so that reading
	// every node's status (preemption does) does not allocate per node.
	// Only the node changes from call to call: the view never removes or
	// adds pods, and it keeps the last node (one the decision refers to
	// anyway) rather than paying a clearing write per call.
	d.view.info, d.view.arena = d.nodes[i], &d.arena
	st := p.filter(&d.view)
	st.Plugin = p.name()
	return st
}

// The states of a node in a decision (verdictOf).
const (
	nodeAbsent   = iota // not evaluated
	nodeFits            // evaluated and feasible
	nodeRejected        // rejected, with rejections[k]
	nodeLazy            // rejected by check k, its Status built when asked
)

// verdictOf returns node index i's state in the decision and, for a
// rejection, its position in rejections or its check.
func (d *Decision) verdictOf(i int) (state, k int) {
	if !d.sieved {
		switch v := d.verdict[i]; {
		case v == 0:
			return nodeFits, 0
		case v > 0:
			return nodeRejected, int(v - 1)
		case v <= -2:
			return nodeLazy, int(-2 - v)
		}
		return nodeAbsent, 0
	}
	if i == d.nomIndex {
		if d.nomVerdict == 0 {
			return nodeFits, 0
		}
		return nodeRejected, int(d.nomVerdict - 1)
	}
	p := d.walk.position(i)
	if p < 0 || p >= d.walkEnd {
		return nodeAbsent, 0
	}
	// The feasible nodes are in walk order.
	if _, ok := slices.BinarySearchFunc(d.feasible, p, func(f, p int) int { return d.walk.position(f) - p }); ok {
		return nodeFits, 0
	}
	for j := range d.cy.checks {
		if !d.cy.exactCheck(&d.cy.checks[j], i) {
			return nodeLazy, j
		}
	}
	// Only a snapshot updated since can pass a node the walk rejected.
	return nodeLazy, len(d.cy.checks) - 1
}

// filterCheck is one active plugin as filterNodes runs it.
type filterCheck struct {
	p    cyclePlugin
	q    quickFilter
	kind int
	// fit and spread are p for those kinds, called without an assertion.
	fit    *fitPlugin
	spread *spreadPlugin
}

// The kinds of filterCheck: any plugin by its filter alone or with a quick
// check, or one of the hot plugins, called by concrete type, whose check
// is exact (false exactly when the filter rejects).
const (
	checkFilter = iota
	checkQuick
	checkResources
	checkSpread
	checkTaint
	checkNodeAffinity
	checkUnschedulable
	checkNodeName
)

// buildChecks lists the active plugins filterNodes runs, leaving out those
// that pass every node of the snapshot in this cycle: NodeName for a pod
// that names no node, NodeUnschedulable when no node is cordoned or the
// pod tolerates it, TaintToleration when no node has a NoSchedule or
// NoExecute taint, PodTopologySpread without DoNotSchedule constraints.
// The what-if path (WhatIf, nominated pods) runs every active plugin.
func (cy *Cycle) buildChecks() {
	cy.checks = cy.checks[:0]
	for j, p := range cy.active {
		ch := filterCheck{p: p, q: cy.quick[j]}
		switch pl := p.(type) {
		case *fitPlugin:
			ch.kind, ch.fit = checkResources, pl
		case *spreadPlugin:
			if !pl.hardOK {
				continue
			}
			ch.kind, ch.spread = checkSpread, pl
		case *taintPlugin:
			if cy.c.taintedNodes == 0 {
				continue
			}
			ch.kind = checkTaint
		case *nodeAffinityPlugin:
			ch.kind = checkNodeAffinity
		case *nodeUnschedulablePlugin:
			if cy.c.unschedulableNodes == 0 || pl.tolerates {
				continue
			}
			ch.kind = checkUnschedulable
		case *nodeNamePlugin:
			if pl.nodeName == "" {
				continue
			}
			ch.kind = checkNodeName
		default:
			if ch.q != nil {
				ch.kind = checkQuick
			}
		}
		cy.checks = append(cy.checks, ch)
	}
}
