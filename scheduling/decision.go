package scheduling

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

// grow returns s with length n, reusing its storage when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Cycle returns the cycle that wrote the decision, nil for an empty one. A
// PostFilter plugin (DefaultPreemption in package preemption) uses it to
// check that a decision belongs to the cycle it is given.
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
