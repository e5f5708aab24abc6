package scheduling

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Decision is the outcome of one scheduling decision for a pod over the
// snapshot: PreFilter, Filter (with the pods nominated there, as
// addNominatedPods does), then PreScore, Score and NormalizeScore on the
// nodes that passed, with the plugins' weights applied as RunScorePlugins
// does, and the node selectHost picks. (*Cycle).Decide writes it for every
// node; (*Scheduler).ScheduleOne writes it as kube-scheduler's schedulePod
// makes it, walking the node tree from a start index and stopping once
// enough nodes fit. Everything a caller asks of the decision is read from
// it:
//
//   - per node, by snapshot index: Fits and Status (Success, the status of
//     the first plugin that rejected it, with upstream's reasons and, for
//     NodeResourcesFit, the numbers, or for a node the cycle did not
//     evaluate the framework's status for absent nodes);
//   - the nodes evaluated (Evaluated), the feasible ones in evaluation
//     order (Feasible), their weighted totals (Totals), their per-plugin
//     breakdown (Scores), the best of them (BestIndex, Tied) and the node
//     kube-scheduler picks (Chosen);
//   - the PreFilter and PreScore statuses, the plugins that rejected the
//     pod (UnschedulablePlugins) and Message, the FitError text
//     kube-scheduler records when no node fits.
//
// A Decision is a reusable buffer: each decision overwrites it, reusing its
// storage, so that a caller scheduling pod after pod allocates nothing per
// node once the buffer has grown to the snapshot's size. It holds the
// verdicts compactly — one small integer per node and a Status only for
// the nodes a filter rejected with numbers; or, when the walk ran the
// block sieve, nothing per node at all: the range of the walk evaluated
// and the feasible nodes, a rejected node's Status being rebuilt from the
// cycle when asked for — and the scores as one column per score plugin;
// NodeScore values are built only when Scores asks for them.
//
// The zero value is an empty decision ready for use; the read methods of a
// nil *Decision answer as an empty decision does. A Decision refers to
// the cycle and the snapshot it was computed on: its node indexes are valid
// until the snapshot is next updated or the Decision is reused. It is not
// safe for concurrent use.
type Decision struct {
	cy    *Cycle
	nodes []*NodeInfo
	// verdict[i] is -1 when node i was not evaluated, 0 when it passed
	// every filter, 1 + the position of its rejection in rejections, or
	// lazyVerdict(j) when check j rejected it. Unused when sieved.
	verdict    []int32
	rejections []Status
	// feasible holds the nodes that passed, evaluated those that passed or
	// were rejected, both in evaluation order; numEvaluated is
	// len(evaluated), which a sieved decision lists only when asked
	// (evaluatedOK).
	feasible     []int
	evaluated    []int
	numEvaluated int
	evaluatedOK  bool
	// sieved is set when the walk ran the block sieve (sieve.go), which
	// writes no verdict: the nodes at positions [0, walkEnd) of walk were
	// evaluated, besides nomIndex (the pod's nominated node, evaluated
	// first; -1 when none) whose verdict is nomVerdict (0 or 1 + its
	// position in rejections); an evaluated node fits when the cycle's
	// exact checks all pass it, and is rejected by the first that fails.
	sieved     bool
	walk       walker
	walkEnd    int
	nomIndex   int
	nomVerdict int32
	infos      []*NodeInfo // feasible nodes, for PreScore
	// scorers and weights are the score plugins and their weights; raw
	// holds their normalized scores, one column of len(feasible) per
	// scorer; totals the weighted sums per feasible node.
	scorers []string
	weights []int64
	raw     []int64
	totals  []int64
	// fixed[j] is scorer j's normalized score of every node when it is
	// the same for all (its column in raw is then not written), -1 when
	// the column holds the scores; one is scratch space for telling it.
	fixed     []int64
	one       [1]int64
	preFilter []Status
	preScore  []Status
	heap      []int32
	// chosen is the position in feasible of the node selectHost picks, -1
	// when none is feasible.
	chosen int
	scored bool
	// numToFind is numFeasibleNodesToFind; nominatedFirst is set when the
	// pod's nominated node passed and was taken without a walk.
	numToFind      int
	nominatedFirst bool
	// rejectAll is set when a PreFilter rejected or failed.
	rejectAll bool
	// arena holds the reasons and numbers of the statuses Status builds
	// for nodes whose rejection the walk recorded only as "rejected by
	// check j" (lazyStatus); view is the node view it runs the filter on,
	// kept here so that the call does not allocate one per node.
	arena statusArena
	view  nodeView
}

// Decide runs the filters on every node and scores the feasible ones,
// writing the outcome into d (reused; nil allocates a new Decision) and
// returning it. Every node is evaluated, in index order, except those a
// PreFilter left out of its node subset: this is kube-scheduler's
// findNodesThatPassFilters without its rotating start index and without
// stopping once numFeasibleNodesToFind nodes fit (ScheduleOne adds both).
// The feasible nodes are scored even when only one fits. A nil Cycle gives
// an empty decision: no node, no message beyond "0/0 nodes are available:".
func (cy *Cycle) Decide(d *Decision) *Decision {
	if d == nil {
		d = &Decision{}
	}
	if cy == nil {
		d.clear()
		return d
	}
	cy.decide(d, walkOptions{scoreOne: true})
	return d
}

// walkOptions say how a decision walks the nodes: from which position of
// which list, how many feasible nodes it looks for (0: all), whether the
// pod's nominated node is tried first, and whether a lone feasible node is
// scored.
type walkOptions struct {
	tree           bool
	start          int
	limit          int
	nominatedFirst bool
	scoreOne       bool
}

// decide is the one evaluation path behind Decide and ScheduleOne.
func (cy *Cycle) decide(d *Decision, o walkOptions) {
	cy.runPreFilter()
	d.reset(cy)
	if !d.rejectAll {
		cy.filterDecision(d, o)
	}
	if n := len(d.feasible); n > 1 || (n == 1 && o.scoreOne) {
		cy.scoreDecision(d)
	}
	d.choose()
}

// clear empties d, keeping its storage.
func (d *Decision) clear() {
	clear(d.rejections)
	*d = Decision{
		verdict: d.verdict[:0], rejections: d.rejections[:0],
		feasible: d.feasible[:0], evaluated: d.evaluated[:0], infos: d.infos[:0], scorers: d.scorers[:0],
		weights: d.weights[:0], raw: d.raw[:0], totals: d.totals[:0], fixed: d.fixed[:0], preFilter: d.preFilter[:0],
		preScore: d.preScore[:0], heap: d.heap[:0], chosen: -1, nomIndex: -1, evaluatedOK: true,
	}
}

// reset prepares d for a decision of cy: every node not evaluated, or
// every node rejected by a PreFilter. A decision the block sieve will walk
// (every check exact, no nominated pods) keeps no verdict per node.
func (d *Decision) reset(cy *Cycle) {
	d.clear()
	// Statuses handed out from the arena may outlive the decision (a
	// preemption Result keeps them): start a fresh one, whose arrays grow
	// to room for two entries per node at most.
	nodes := cy.c.nodes
	n := len(nodes)
	d.arena = statusArena{limit: 2 * n}
	d.cy = cy
	d.nodes = nodes
	d.preFilter = cy.appendPreFilter(d.preFilter)
	d.rejectAll = cy.rejectAll != nil
	if !d.rejectAll && cy.sieveOK && len(cy.c.nominated) == 0 {
		d.sieved = true
		return
	}
	d.verdict = grow(d.verdict, n)
	if d.rejectAll {
		if n > 0 {
			d.rejections = append(d.rejections, *cy.rejectAll)
		}
		for i := range d.verdict {
			d.verdict[i] = 1
		}
		return
	}
	for i := range d.verdict {
		d.verdict[i] = -1
	}
}

// reject records a rejection of node i. A rejection without numbers or
// error that repeats the previous one (same plugin, code and shared reason
// list, as the sieve's run of one plugin over many nodes gives) shares its
// entry, so that rejecting thousands of nodes stores a handful of statuses.
func (d *Decision) reject(i int, st Status) {
	if n := len(d.rejections); n > 0 && len(st.Insufficient) == 0 && st.Err == nil {
		last := &d.rejections[n-1]
		if last.Code == st.Code && last.Plugin == st.Plugin && len(last.Insufficient) == 0 && last.Err == nil &&
			sameReasons(last.Reasons, st.Reasons) {
			d.verdict[i] = int32(n)
			return
		}
	}
	d.rejections = append(d.rejections, st)
	d.verdict[i] = int32(len(d.rejections))
}

// sameReasons reports whether two reason lists are the same list (the
// package-level or per-cycle slices plugins share between rejections).
func sameReasons(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

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
		if ni := cy.c.byName[cy.pod.Pod.Status.NominatedNodeName]; ni != nil && cy.pod.Pod.Status.NominatedNodeName != "" {
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

// grow returns s with length n, reusing its storage when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Cycle returns the cycle that wrote the decision, nil for an empty one.
// preemption.Preempt uses it to check that a decision belongs to the cycle
// it is given.
func (d *Decision) Cycle() *Cycle {
	if d == nil {
		return nil
	}
	return d.cy
}

// NumNodes returns the number of nodes the decision covered (the
// snapshot's nodes, in index order); 0 for a nil Decision.
func (d *Decision) NumNodes() int {
	if d == nil {
		return 0
	}
	return len(d.nodes)
}

// Fits reports whether node index i passed every filter (never for a nil
// Decision).
func (d *Decision) Fits(i int) bool {
	if d == nil || i < 0 || i >= len(d.nodes) {
		return false
	}
	state, _ := d.verdictOf(i)
	return state == nodeFits
}

// Status returns the filters' verdict on node index i: Success, or the
// status of the first plugin that rejected it, as kube-scheduler's
// findNodesThatPassFilters records it (a PreFilter that rejects gives
// every node its status). A node the decision did not evaluate gets the
// framework's status for absent nodes: UnschedulableAndUnresolvable, with
// the reason "node(s) didn't satisfy plugin(s) [...]" when a PreFilter's
// node subset left it out, without reasons when the walk stopped before
// it. An index outside the decision, and a nil Decision, give Success's
// zero Status.
func (d *Decision) Status(i int) Status {
	if d == nil || i < 0 || i >= len(d.nodes) {
		return Status{}
	}
	switch state, k := d.verdictOf(i); state {
	case nodeFits:
		return Status{}
	case nodeRejected:
		return d.rejections[k]
	case nodeLazy:
		return d.lazyStatus(i, k)
	}
	return d.absentStatus()
}

// absentStatus is the status of the nodes not evaluated
// (NodeToStatus.AbsentNodesStatus).
func (d *Decision) absentStatus() Status {
	if d.cy != nil && d.cy.hasSubset {
		return d.cy.absent
	}
	return Status{Code: UnschedulableAndUnresolvable}
}

// Evaluated returns the indexes of the nodes the filters ran on, feasible
// and rejected, in evaluation order (kube-scheduler's EvaluatedNodes); nil
// when a PreFilter rejected the pod. The slice belongs to the decision.
func (d *Decision) Evaluated() []int {
	if d == nil || d.rejectAll {
		return nil
	}
	if !d.evaluatedOK {
		// A sieved walk: the nominated node, then the walk's positions.
		d.evaluated = d.evaluated[:0]
		if d.nomIndex >= 0 {
			d.evaluated = append(d.evaluated, d.nomIndex)
		}
		for p := range d.walkEnd {
			if i := d.walk.index(p); i != d.nomIndex {
				d.evaluated = append(d.evaluated, i)
			}
		}
		d.evaluatedOK = true
	}
	return d.evaluated
}

// Feasible returns the indexes of the nodes that passed every filter, in
// evaluation order (index order for Decide). The slice belongs to the
// decision: read it, do not keep it past the next decision. Nil for a nil
// Decision.
func (d *Decision) Feasible() []int {
	if d == nil {
		return nil
	}
	return d.feasible
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

// NumFeasibleNodesToFind returns how many feasible nodes the decision
// looked for (numFeasibleNodesToFind; every candidate node for Decide); 0
// for a nil Decision.
func (d *Decision) NumFeasibleNodesToFind() int {
	if d == nil {
		return 0
	}
	return d.numToFind
}

// NominatedNodeFirst reports whether the pod's status.nominatedNodeName
// passed the filters and was taken as the only feasible node without
// walking the others, as findNodesThatFitPod does after a preemption
// (false for a nil Decision).
func (d *Decision) NominatedNodeFirst() bool { return d != nil && d.nominatedFirst }

// PreFilterNodeSubset reports whether a PreFilter narrowed the nodes the
// filters ran on (NodeAffinity's matchFields on metadata.name, as every
// DaemonSet pod carries); the other nodes have AbsentNodesStatus. False
// for a nil Decision.
func (d *Decision) PreFilterNodeSubset() bool { return d != nil && d.cy != nil && d.cy.hasSubset }

// AbsentNodesStatus returns the status of the nodes the decision did not
// evaluate (see Status); the zero Status for a nil Decision.
func (d *Decision) AbsentNodesStatus() Status {
	if d == nil {
		return Status{}
	}
	return d.absentStatus()
}

// UnschedulablePlugins returns, sorted, the plugins that rejected the pod
// somewhere (the FitError's Diagnosis.UnschedulablePlugins, which decides
// which cluster events requeue it): the PreFilter that rejected it, or the
// plugins that narrowed the nodes and every filter that rejected an
// evaluated node. Nil when nothing rejected it.
func (d *Decision) UnschedulablePlugins() []string {
	if d == nil || d.cy == nil {
		return nil
	}
	set := map[string]bool{}
	if d.rejectAll {
		st := d.cy.rejectAll
		if st.Plugin == "" || st.Code == Unschedulable {
			for _, p := range d.cy.subsetPlugins {
				set[p] = true
			}
		}
		if st.Plugin != "" {
			set[st.Plugin] = true
		}
	} else {
		for _, p := range d.cy.subsetPlugins {
			set[p] = true
		}
		for i := range d.nodes {
			switch state, k := d.verdictOf(i); state {
			case nodeRejected:
				if p := d.rejections[k].Plugin; p != "" {
					set[p] = true
				}
			case nodeLazy:
				set[d.cy.checks[k].p.name()] = true
			}
		}
	}
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// PreFilter returns the PreFilter status of each plugin that ran, in
// plugin order: every plugin, unless one rejected the pod as
// UnschedulableAndUnresolvable or failed, which ends the phase there. Nil
// for a nil Decision.
func (d *Decision) PreFilter() []Status {
	if d == nil {
		return nil
	}
	return append([]Status(nil), d.preFilter...)
}

// PreScore returns the PreScore status of each score plugin, in plugin
// order (nil when the feasible nodes were not scored).
func (d *Decision) PreScore() []Status {
	if d == nil || len(d.preScore) == 0 {
		return nil
	}
	return append([]Status(nil), d.preScore...)
}

// Message returns kube-scheduler's FitError message when no node is
// feasible, "" otherwise: "0/<all nodes> nodes are available: " then,
// after a PreFilter rejection, that status's reasons once, or else every
// reason of every rejected node counted once per node, together with the
// reasons of the status of the nodes not evaluated counted once per such
// node (FitError.Error). A nil Decision gives an empty decision's message,
// "0/0 nodes are available: ".
func (d *Decision) Message() string {
	if d == nil {
		return fitErrorMessage(0, nil, nil)
	}
	if len(d.feasible) > 0 {
		return ""
	}
	if d.rejectAll {
		st := *d.cy.rejectAll
		return fitErrorMessage(len(d.nodes), &st, nil)
	}
	counts := map[string]int{}
	explicit := 0
	for i := range d.nodes {
		var st Status
		switch state, k := d.verdictOf(i); state {
		case nodeRejected:
			st = d.rejections[k]
		case nodeLazy:
			st = d.lazyStatus(i, k)
		default:
			continue
		}
		explicit++
		for _, reason := range statusReasons(&st) {
			counts[reason]++
		}
	}
	if absent := len(d.nodes) - explicit; absent > 0 {
		st := d.absentStatus()
		for _, reason := range st.Reasons {
			counts[reason] += absent
		}
	}
	return histogramMessage(len(d.nodes), counts)
}

// filterError returns the error of a PreFilter or filter that failed (an
// Error status, not a rejection): kube-scheduler ends such a cycle with
// that error instead of a FitError.
func (d *Decision) filterError() error {
	if d.rejectAll {
		if st := d.cy.rejectAll; st.Code == Error {
			return fmt.Errorf("running PreFilter plugin %q: %w", st.Plugin, statusError(st))
		}
		return nil
	}
	// Only a status the walk recorded can be an Error: the exact checks
	// whose verdicts are lazy never fail that way.
	for i := range d.nodes {
		if state, k := d.verdictOf(i); state == nodeRejected {
			if st := &d.rejections[k]; st.Code == Error {
				return fmt.Errorf("running %q filter plugin: %w", st.Plugin, statusError(st))
			}
		}
	}
	return nil
}

// FitErrorMessage is the text of kube-scheduler's FitError, the message of
// the FailedScheduling event when a pod fits on no node:
// "0/<numNodes> nodes are available: " followed by every reason the
// statuses give, each with the number of statuses that gave it, sorted as
// strings, and a period ("0/3 nodes are available: 1 node(s) were
// unschedulable, 2 Insufficient cpu."). statuses holds one status per node
// that was rejected (statuses without reasons add nothing); an Error
// status without reasons counts its error's text, as upstream's AsStatus
// makes it the reason. With no reason at all the text ends at the colon,
// as upstream prints it; a nil statuses list is one without rejections.
// Decision.Message is this over a decision's rejections; preemption builds
// its own message from it.
func FitErrorMessage(numNodes int, statuses []Status) string {
	return fitErrorMessage(numNodes, nil, statuses)
}

// fitErrorMessage is FitErrorMessage, or, when preFilter is set, the
// message of a PreFilter rejection: that status's reasons once, not per
// node.
func fitErrorMessage(numNodes int, preFilter *Status, statuses []Status) string {
	if preFilter != nil {
		return fmt.Sprintf("0/%d nodes are available: ", numNodes) + strings.Join(statusReasons(preFilter), ", ") + "."
	}
	counts := map[string]int{}
	for i := range statuses {
		for _, reason := range statusReasons(&statuses[i]) {
			counts[reason]++
		}
	}
	return histogramMessage(numNodes, counts)
}

// histogramMessage writes "0/<numNodes> nodes are available:" and the
// reason counts as "<count> <reason>", sorted as strings, comma-separated
// and ended with a period.
func histogramMessage(numNodes int, counts map[string]int) string {
	msg := fmt.Sprintf("0/%d nodes are available:", numNodes)
	if len(counts) == 0 {
		return msg
	}
	parts := make([]string, 0, len(counts))
	for reason, n := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", n, reason))
	}
	sort.Strings(parts)
	return msg + " " + strings.Join(parts, ", ") + "."
}

// statusReasons returns the reasons a status gives in a FitError: its
// reasons, or for an Error status without any, its error's text.
func statusReasons(st *Status) []string {
	if len(st.Reasons) == 0 && st.Code == Error && st.Err != nil {
		return []string{st.Err.Error()}
	}
	return st.Reasons
}
