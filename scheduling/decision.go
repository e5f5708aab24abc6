package scheduling

import (
	"fmt"
	"sort"
	"strings"
)

// Decision is the outcome of one full scheduling decision for a pod over
// the snapshot — kube-scheduler's schedulePod without the host selection:
// PreFilter, Filter on every node (with the pods nominated there, as
// addNominatedPods does), then PreScore, Score and NormalizeScore on the
// nodes that passed, with the plugins' weights applied as RunScorePlugins
// does. (*Cycle).Decide writes it; everything a caller asks of the
// decision is read from it:
//
//   - per node, by snapshot index: Fits and Status (Success, or the status
//     of the first plugin that rejected the node, with upstream's reasons
//     and, for NodeResourcesFit, the numbers);
//   - the feasible nodes (Feasible), their weighted totals (Totals), their
//     per-plugin breakdown (Scores) and the best of them (BestIndex);
//   - the PreFilter and PreScore statuses, and Message, the FitError text
//     kube-scheduler records when no node fits.
//
// A Decision is a reusable buffer: Decide overwrites it, reusing its
// storage, so that a caller scheduling pod after pod allocates nothing per
// node once the buffer has grown to the snapshot's size. It holds the
// verdicts compactly (one small integer per node; a Status only for the
// nodes a filter rejected) and the scores as one column per score plugin;
// NodeScore values are built only when Scores asks for them.
//
// The zero value is an empty decision ready for use. A Decision refers to
// the cycle and the snapshot it was computed on: its node indexes are valid
// until the snapshot is next updated or the Decision is reused. It is not
// safe for concurrent use.
type Decision struct {
	cy    *Cycle
	nodes []*NodeInfo
	// verdict[i] is 0 when node i passed every filter, otherwise 1 + the
	// position of its rejection in rejections (nodes a plugin rejects with
	// the same status may share one).
	verdict    []int32
	rejections []Status
	// cands holds the node indexes still passing during the filters;
	// afterwards feasible holds the survivors in index order.
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
}

// Decide runs the filters on every node and scores the feasible ones,
// writing the outcome into d (reused; nil allocates a new Decision) and
// returning it. Every node is evaluated, in index order: this is
// kube-scheduler's findNodesThatPassFilters without its stopping once
// numFeasibleNodesToFind nodes fit. A nil Cycle gives an empty decision: no
// node, no message beyond "0/0 nodes are available:".
func (cy *Cycle) Decide(d *Decision) *Decision {
	if d == nil {
		d = &Decision{}
	}
	if cy == nil {
		d.clear()
		return d
	}
	cy.runPreFilter()
	d.cy = cy
	cy.filterDecision(d)
	cy.scoreDecision(d)
	return d
}

// clear empties d, keeping its storage.
func (d *Decision) clear() {
	clear(d.rejections)
	*d = Decision{
		verdict: d.verdict[:0], rejections: d.rejections[:0], cands: d.cands[:0], feasible: d.feasible[:0],
		infos: d.infos[:0], scorers: d.scorers[:0], weights: d.weights[:0], raw: d.raw[:0], totals: d.totals[:0],
		preFilter: d.preFilter[:0], preScore: d.preScore[:0],
	}
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
			if st := cy.evaluate(cy.active, nodeView{info: ni}, cy.nominatedFor(ni)); !st.IsSuccess() {
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
		// The plugin rejects with one of two statuses: each is recorded
		// once, and the nodes it rejects share it.
		var shared [spreadSkew + 1]int32
		for _, i := range cands {
			v := pl.verdictAt(i)
			switch {
			case v == spreadFits:
				cands[w] = i
				w++
			case shared[v] != 0:
				d.verdict[i] = shared[v]
			default:
				st := pl.verdictStatus(v)
				st.Plugin = p.name()
				d.reject(i, st)
				shared[v] = d.verdict[i]
			}
		}
		return cands[:w]
	}
	for _, i := range cands {
		view.info = nodes[i]
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
// snapshot's nodes, in index order).
func (d *Decision) NumNodes() int {
	if d == nil {
		return 0
	}
	return len(d.verdict)
}

// Fits reports whether node index i passed every filter.
func (d *Decision) Fits(i int) bool {
	return d != nil && i >= 0 && i < len(d.verdict) && d.verdict[i] == 0
}

// Status returns the filters' verdict on node index i: Success, or the
// status of the first plugin that rejected it, as kube-scheduler's
// findNodesThatPassFilters records it (a PreFilter that rejects gives
// every node its status). An index outside the decision gives Success's
// zero Status.
func (d *Decision) Status(i int) Status {
	if d == nil || i < 0 || i >= len(d.verdict) || d.verdict[i] == 0 {
		return Status{}
	}
	return d.rejections[d.verdict[i]-1]
}

// Feasible returns the indexes of the nodes that passed every filter, in
// index order. The slice belongs to the decision: read it, do not keep it
// past the next Decide.
func (d *Decision) Feasible() []int {
	if d == nil {
		return nil
	}
	return d.feasible
}

// Totals returns the weighted score of each feasible node, aligned with
// Feasible. The slice belongs to the decision.
func (d *Decision) Totals() []int64 {
	if d == nil {
		return nil
	}
	return d.totals
}

func (d *Decision) fillScore(k int, s *NodeScore) {
	f := len(d.feasible)
	i := d.feasible[k]
	s.Node, s.Index, s.Total = d.nodes[i].name, i, d.totals[k]
	for j, name := range d.scorers {
		s.Plugins[j] = PluginScore{Plugin: name, Score: d.raw[j*f+k], Weight: d.weights[j]}
	}
}

// Scores returns the feasible nodes' scores with their per-plugin
// breakdown, aligned with Feasible, written into dst's storage (and its
// entries' Plugins storage) when large enough; nil when no node is
// feasible.
func (d *Decision) Scores(dst []NodeScore) []NodeScore {
	if d == nil || len(d.feasible) == 0 {
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
// feasible.
func (d *Decision) BestIndex() (index int, total int64, ok bool) {
	if d == nil || len(d.feasible) == 0 {
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
func (d *Decision) PreFilter() []Status {
	if d == nil {
		return nil
	}
	return append([]Status(nil), d.preFilter...)
}

// PreScore returns the PreScore status of each score plugin, in plugin
// order (nil when no node was feasible: PreScore did not run).
func (d *Decision) PreScore() []Status {
	if d == nil || len(d.preScore) == 0 {
		return nil
	}
	return append([]Status(nil), d.preScore...)
}

// Message returns kube-scheduler's FitError message ("0/3 nodes are
// available: ...", see FitErrorMessage) when no node is feasible, ""
// otherwise. When a PreFilter rejected the pod, the message carries that
// plugin's reasons once instead of a count per node, as upstream's
// FitError does.
func (d *Decision) Message() string {
	if d == nil {
		return fitErrorMessage(0, nil, nil, nil)
	}
	if len(d.feasible) > 0 {
		return ""
	}
	if d.rejectAll {
		st := d.preFilterRejection()
		return fitErrorMessage(len(d.verdict), &st, nil, nil)
	}
	perStatus := make([]int, len(d.rejections))
	for _, v := range d.verdict {
		if v > 0 {
			perStatus[v-1]++
		}
	}
	return fitErrorMessage(len(d.verdict), nil, d.rejections, perStatus)
}

// preFilterRejection returns the first PreFilter status that rejected.
func (d *Decision) preFilterRejection() Status {
	for _, st := range d.preFilter {
		if !st.IsSuccess() {
			return st
		}
	}
	return Status{}
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
// as upstream prints it. Decision.Message is this over a decision's
// rejections; preemption builds its own message from it.
func FitErrorMessage(numNodes int, statuses []Status) string {
	return fitErrorMessage(numNodes, nil, statuses, nil)
}

// fitErrorMessage is FitErrorMessage, or, when preFilter is set, the
// message of a PreFilter rejection: that status's reasons once, not per
// node. perStatus, when not nil, gives the number of nodes each status
// stands for (one each otherwise).
func fitErrorMessage(numNodes int, preFilter *Status, statuses []Status, perStatus []int) string {
	msg := fmt.Sprintf("0/%d nodes are available:", numNodes)
	if preFilter != nil {
		return msg + " " + strings.Join(statusReasons(preFilter), ", ") + "."
	}
	counts := map[string]int{}
	for i := range statuses {
		n := 1
		if perStatus != nil {
			n = perStatus[i]
		}
		for _, reason := range statusReasons(&statuses[i]) {
			counts[reason] += n
		}
	}
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
