package scheduling

import "github.com/podsem/podsem/api"

// Decision is the outcome of one full scheduling decision for a pod over
// the snapshot — kube-scheduler's schedulePod without the host selection:
// PreFilter, Filter on every node, then PreScore, Score and NormalizeScore
// on the nodes that passed, with the plugins' weights applied as
// RunScorePlugins does.
//
// A Decision is a reusable buffer: (*Cycle).Decide overwrites it, reusing
// its storage, so that a caller scheduling pod after pod allocates nothing
// per node once the buffer has grown to the snapshot's size. It holds the
// verdicts compactly (one small integer per node; the Status with its
// reasons and numbers only for the nodes a filter rejected) and the scores
// as one column per score plugin; NodeResult and NodeScore values are built
// only when asked for (Result, Results, Score, Scores).
//
// The zero value is an empty decision ready for use. A Decision refers to
// the snapshot it was computed on: its node names and indexes are valid
// until the snapshot is next updated or the Decision is reused. It is not
// safe for concurrent use.
type Decision struct {
	nodes []*NodeInfo
	// verdict[i] is 0 when node i passed every filter, otherwise 1 + the
	// position of its rejection in rejections.
	verdict    []int32
	rejections []Status
	// cands holds the node indexes still passing during Filter; afterwards
	// feasible holds the survivors in index order.
	cands    []int
	feasible []int
	infos    []*NodeInfo // feasible nodes, for PreScore
	// scorers and weights are the score plugins and their weights; raw
	// holds their normalized scores, one column of len(feasible) per
	// scorer; totals the weighted sums per feasible node.
	scorers   []string
	weights   []int64
	raw       []int64
	totals    []int64
	preFilter []Status
	preScore  []Status
	// rejectAll is set when a PreFilter rejected or failed.
	rejectAll bool
	// scored is false after FilterDecision: no scores were computed.
	scored bool
}

// Decide makes one full decision for pod (see Decision), writing into d
// and returning it; a nil d allocates a new one. It is c.NewCycle(pod)
// followed by (*Cycle).Decide.
func (c *Cluster) Decide(pod *api.Pod, d *Decision) *Decision {
	return c.NewCycle(pod).Decide(d)
}

// Decide runs the filters on every node and scores the feasible ones,
// writing the outcome into d (reused; nil allocates a new Decision) and
// returning it. The verdicts equal Filter's and the scores equal Score's
// over Filter's results, node for node. Like Score, it records the PreScore
// statuses that (*Cycle).PreScore returns.
func (cy *Cycle) Decide(d *Decision) *Decision {
	if d == nil {
		d = &Decision{}
	}
	cy.runPreFilter()
	cy.filterDecision(d)
	cy.scoreDecision(d)
	return d
}

// FilterDecision is the filter half of Decide: it runs the filters on
// every node and writes the verdicts into d (reused; nil allocates a new
// Decision), leaving the scores empty (Totals and Scores return nothing,
// BestIndex reports no node). Preemption and "does it fit anywhere"
// questions need no more.
func (cy *Cycle) FilterDecision(d *Decision) *Decision {
	if d == nil {
		d = &Decision{}
	}
	cy.runPreFilter()
	cy.filterDecision(d)
	d.scorers, d.weights, d.preScore = d.scorers[:0], d.weights[:0], d.preScore[:0]
	d.raw, d.totals, d.infos = d.raw[:0], d.totals[:0], d.infos[:0]
	d.scored = false
	return d
}

// reject records a rejection of node i.
func (d *Decision) reject(i int, st Status) {
	d.rejections = append(d.rejections, st)
	d.verdict[i] = int32(len(d.rejections))
}

func (cy *Cycle) filterDecision(d *Decision) {
	nodes := cy.c.nodes
	n := len(nodes)
	d.nodes = nodes
	d.preFilter = append(d.preFilter[:0], cy.preFilter...)
	d.verdict = grow(d.verdict, n)
	clear(d.verdict)
	clear(d.rejections) // drop references to old errors
	d.rejections = d.rejections[:0]
	d.feasible = d.feasible[:0]
	d.rejectAll = cy.rejectAll != nil
	if d.rejectAll {
		if n > 0 {
			d.rejections = append(d.rejections, *cy.rejectAll)
			for i := range d.verdict {
				d.verdict[i] = 1
			}
		}
		return
	}
	// Nodes with nominated pods take the framework's two-pass path; the
	// others are sieved plugin by plugin, which keeps "first rejecting
	// plugin" order: a node leaves the candidates at the first plugin that
	// rejects it.
	cands := d.cands[:0]
	nominated := len(cy.c.nominated) > 0
	for i, ni := range nodes {
		if nominated && len(cy.c.nominated[ni.name]) > 0 {
			if st := cy.filterNode(ni); !st.IsSuccess() {
				d.reject(i, st)
			}
			continue
		}
		cands = append(cands, i)
	}
	for j, p := range cy.active {
		if len(cands) == 0 {
			break
		}
		cands = cy.sieve(d, cands, p, cy.quick[j])
	}
	d.cands = cands
	if nominated {
		// Merge back the nominated nodes that passed, in index order.
		d.feasible = d.feasible[:0]
		for i := range nodes {
			if d.verdict[i] == 0 {
				d.feasible = append(d.feasible, i)
			}
		}
		return
	}
	d.feasible = append(d.feasible, cands...)
}

// sieve runs one plugin's filter over the candidate nodes, keeping those
// that pass (in place) and recording the status of the others. The hot
// plugins' checks are called directly, so a node costs no interface call
// and builds no Status unless it is rejected.
func (cy *Cycle) sieve(d *Decision, cands []int, p cyclePlugin, q quickFilter) []int {
	nodes := cy.c.nodes
	view := &cy.view
	w := 0
	switch pl := p.(type) {
	case *spreadPlugin:
		if !pl.hardOK {
			return cands
		}
		for _, i := range cands {
			if pl.fitsIndex(i) {
				cands[w] = i
				w++
				continue
			}
			view.Info = nodes[i]
			cy.rejectWith(d, i, p, &w, cands)
		}
		return cands[:w]
	}
	for _, i := range cands {
		view.Info = nodes[i]
		if q != nil && quickFits(q, view) {
			cands[w] = i
			w++
			continue
		}
		cy.rejectWith(d, i, p, &w, cands)
	}
	return cands[:w]
}

// rejectWith runs p's full filter on node i (in cy.view) for its status;
// a quick check may be conservative, so a pass keeps the node.
func (cy *Cycle) rejectWith(d *Decision, i int, p cyclePlugin, w *int, cands []int) {
	st := p.filter(&cy.view)
	if st.Code == Success || st.Code == Skip {
		cands[*w] = i
		*w++
		return
	}
	st.Plugin = p.name()
	d.reject(i, st)
}

func (cy *Cycle) scoreDecision(d *Decision) {
	nodes := cy.c.nodes
	f := len(d.feasible)
	d.infos = grow(d.infos, f)
	for k, i := range d.feasible {
		d.infos[k] = nodes[i]
	}
	d.scorers = d.scorers[:0]
	d.weights = d.weights[:0]
	d.preScore = d.preScore[:0]
	d.totals = grow(d.totals, f)
	clear(d.totals)
	cy.preScore = nil
	d.scored = true
	if f == 0 {
		d.raw = d.raw[:0]
		return
	}
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
	for j, p := range scorers[:ns] {
		var st Status
		if sp, ok := p.(*spreadPlugin); ok {
			st = sp.preScoreIndexes(d.feasible)
		} else {
			st = p.preScore(d.infos)
		}
		st.Plugin = p.name()
		d.preScore = append(d.preScore, st)
		col := d.raw[j*f : (j+1)*f]
		clear(col)
		if st.Code == Success {
			scoreColumn(p, d.feasible, d.infos, col)
			p.normalizeScore(col)
		}
		w := d.weights[j]
		for k, s := range col {
			d.totals[k] += w * s
		}
	}
	cy.preScore = append([]Status(nil), d.preScore...)
}

// scoreColumn writes p's raw score of every feasible node into col,
// calling the hot plugins' scores directly.
func scoreColumn(p cyclePlugin, idx []int, feasible []*NodeInfo, col []int64) {
	switch pl := p.(type) {
	case *spreadPlugin:
		pl.scoreIndexes(idx, col)
		return
	}
	for k, n := range feasible {
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

// NumNodes returns the number of nodes the decision covered (the
// snapshot's nodes, in index order).
func (d *Decision) NumNodes() int { return len(d.verdict) }

// Fits reports whether node index i passed every filter.
func (d *Decision) Fits(i int) bool { return i >= 0 && i < len(d.verdict) && d.verdict[i] == 0 }

// Status returns Filter's status for node index i: Success, or the status
// of the first plugin that rejected it.
func (d *Decision) Status(i int) Status {
	if i < 0 || i >= len(d.verdict) || d.verdict[i] == 0 {
		return Status{}
	}
	return d.rejections[d.verdict[i]-1]
}

// Result returns node index i's result as Filter reports it.
func (d *Decision) Result(i int) NodeResult {
	return NodeResult{Node: d.nodes[i].name, Index: i, Status: d.Status(i)}
}

// Results returns every node's result, as Filter does, written into dst's
// storage when it is large enough.
func (d *Decision) Results(dst []NodeResult) []NodeResult {
	dst = grow(dst, len(d.verdict))
	for i := range dst {
		dst[i] = d.Result(i)
	}
	return dst
}

// Feasible returns the indexes of the nodes that passed every filter, in
// index order. The slice belongs to the decision: read it, do not keep it
// past the next Decide.
func (d *Decision) Feasible() []int { return d.feasible }

// NumFeasible returns the number of nodes that passed every filter.
func (d *Decision) NumFeasible() int { return len(d.feasible) }

// Totals returns the weighted score of each feasible node, aligned with
// Feasible (empty after FilterDecision). The slice belongs to the
// decision.
func (d *Decision) Totals() []int64 { return d.totals }

// Score returns the k-th feasible node's score with its breakdown, as
// Score reports it; k must be in [0, NumFeasible()) and the decision
// scored (Decide, not FilterDecision).
func (d *Decision) Score(k int) NodeScore {
	s := NodeScore{Plugins: make([]PluginScore, len(d.scorers))}
	d.fillScore(k, &s)
	return s
}

func (d *Decision) fillScore(k int, s *NodeScore) {
	f := len(d.feasible)
	i := d.feasible[k]
	s.Node, s.Index, s.Total = d.nodes[i].name, i, d.totals[k]
	for j, name := range d.scorers {
		s.Plugins[j] = PluginScore{Plugin: name, Score: d.raw[j*f+k], Weight: d.weights[j]}
	}
}

// Scores returns the feasible nodes' scores, as Score reports them, written
// into dst's storage (and its entries' Plugins storage) when large enough;
// nil when no node is feasible or the decision was not scored
// (FilterDecision).
func (d *Decision) Scores(dst []NodeScore) []NodeScore {
	if len(d.feasible) == 0 || !d.scored {
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
// that score; among equal totals the lowest index wins (kube-scheduler
// picks one of the tied nodes at random). ok is false when no node is
// feasible or the decision was not scored (FilterDecision).
func (d *Decision) BestIndex() (index int, total int64, ok bool) {
	if len(d.feasible) == 0 || !d.scored {
		return -1, 0, false
	}
	best := 0
	for k, t := range d.totals {
		if t > d.totals[best] {
			best = k
		}
	}
	return d.feasible[best], d.totals[best], true
}

// PreFilter returns each plugin's PreFilter status, in plugin order.
func (d *Decision) PreFilter() []Status { return append([]Status(nil), d.preFilter...) }

// PreScore returns the PreScore status of each score plugin (nil when no
// node was feasible).
func (d *Decision) PreScore() []Status {
	if len(d.preScore) == 0 {
		return nil
	}
	return append([]Status(nil), d.preScore...)
}

// Message returns kube-scheduler's FitError message ("0/3 nodes are
// available: ...") when no node is feasible, "" otherwise.
func (d *Decision) Message() string {
	if len(d.feasible) > 0 {
		return ""
	}
	if d.rejectAll {
		st := d.preFilterRejection()
		return fitErrorMessage(len(d.verdict), nil, &st)
	}
	return fitErrorMessage(len(d.verdict), d.Results(nil), nil)
}

// preFilterRejection returns the first PreFilter status that rejected.
func (d *Decision) preFilterRejection() Status {
	for _, st := range d.preFilter {
		if st.Code != Success && st.Code != Skip {
			return st
		}
	}
	return Status{}
}
