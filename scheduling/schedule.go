package scheduling

import (
	"errors"
	"fmt"
)

// The scheduling algorithm around the plugins (pkg/scheduler/schedule_one.go
// in kube-scheduler v1.36.3).
const (
	// MinFeasibleNodesToFind is the fewest feasible nodes a cycle looks for
	// before it stops filtering (minFeasibleNodesToFind); clusters with
	// fewer nodes have every node filtered.
	MinFeasibleNodesToFind = 100
	// MinFeasibleNodesPercentageToFind is the floor of the adaptive
	// percentageOfNodesToScore (minFeasibleNodesPercentageToFind).
	MinFeasibleNodesPercentageToFind = 5
)

// ErrNoNodesAvailable is what ScheduleOne returns for a snapshot without
// nodes, with upstream's text ("no nodes available to schedule pods"):
// kube-scheduler fails the cycle before any plugin runs.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// NumFeasibleNodesToFind is how many feasible nodes a scheduling cycle
// looks for among numAllNodes candidate nodes before it stops filtering
// (kube-scheduler's numFeasibleNodesToFind): every node when there are
// fewer than 100; otherwise numAllNodes × p / 100 but at least 100, where p
// is percentageOfNodesToScore, or, when that is 0 (the default), the
// adaptive 50 − numAllNodes/125 but at least 5. Integer arithmetic
// throughout, as upstream's; a negative count gives 0.
func NumFeasibleNodesToFind(percentageOfNodesToScore int32, numAllNodes int) int {
	if numAllNodes < MinFeasibleNodesToFind {
		return max(numAllNodes, 0)
	}
	n := int64(numAllNodes)
	p := int64(percentageOfNodesToScore)
	if p == 0 {
		p = max(50-n/125, MinFeasibleNodesPercentageToFind)
	}
	return int(max(n*p/100, MinFeasibleNodesToFind))
}

// Scheduler is the state kube-scheduler's scheduling algorithm keeps from
// one cycle to the next (the Scheduler's percentageOfNodesToScore and
// nextStartNodeIndex): a value the caller owns and passes to ScheduleOne
// for every decision. The zero value is v1.36.3's default (adaptive
// percentage, starting at the first node of the node list).
type Scheduler struct {
	// PercentageOfNodesToScore is the KubeSchedulerConfiguration field:
	// the share of the nodes (0..100) a cycle stops filtering after, once
	// that many fit; 0 means adaptive (see NumFeasibleNodesToFind).
	PercentageOfNodesToScore int32
	// NextStartNodeIndex is the position in the node list (Cluster's
	// TreeOrder) where the next cycle starts filtering. ScheduleOne
	// advances it past the nodes the cycle evaluated, modulo the node
	// count, so that every node gets its turn across pods.
	NextStartNodeIndex int
}

// ScheduleOne makes kube-scheduler's placement decision for the cycle's pod
// (Scheduler.SchedulePod: schedulePod, findNodesThatFitPod,
// findNodesThatPassFilters, prioritizeNodes, selectHost), writing it into
// d (reused; nil allocates one) and returning it:
//
//   - PreFilter runs once; a rejection there is every node's status and
//     ends the decision (the start index does not move).
//   - A pod with status.nominatedNodeName tries that node first: if it
//     passes the filters it is the only feasible node, nothing else is
//     evaluated and the start index does not move.
//   - Otherwise the filters run node by node in the node tree's order (see
//     TreeOrder) from NextStartNodeIndex, wrapping around, on nodes with
//     nominated pods twice (with and without them), and the search stops
//     as soon as a feasible node beyond NumFeasibleNodesToFind turns up:
//     that node is dropped unevaluated, like every node after it. A
//     PreFilter node subset (NodeAffinity's matchFields on metadata.name)
//     replaces the node list, in snapshot index order (upstream's order is
//     a Go map's), and the count to find is taken over the subset.
//   - NextStartNodeIndex advances by the number of nodes evaluated, modulo
//     the number of nodes.
//   - Two or more feasible nodes are scored (PreScore, Score,
//     NormalizeScore, weights) and the node is picked as selectHost's heap
//     picks it (Decision.Chosen); a lone feasible node is taken unscored.
//
// It returns an error, leaving s unchanged, for a nil cycle,
// PercentageOfNodesToScore outside 0..100, a negative NextStartNodeIndex,
// or a snapshot without nodes (ErrNoNodesAvailable); d is then emptied. A
// nil Scheduler is the zero value.
func (s *Scheduler) ScheduleOne(cy *Cycle, d *Decision) (*Decision, error) {
	if d == nil {
		d = &Decision{}
	}
	var zero Scheduler
	if s == nil {
		s = &zero
	}
	switch {
	case cy == nil:
		d.clear()
		return d, fmt.Errorf("%w: cycle: nil", errInvalidInput)
	case s.PercentageOfNodesToScore < 0 || s.PercentageOfNodesToScore > 100:
		d.clear()
		return d, fmt.Errorf("%w: Scheduler.PercentageOfNodesToScore: %d: not in valid range [0-100]",
			errInvalidInput, s.PercentageOfNodesToScore)
	case s.NextStartNodeIndex < 0:
		d.clear()
		return d, fmt.Errorf("%w: Scheduler.NextStartNodeIndex: %d: must not be negative",
			errInvalidInput, s.NextStartNodeIndex)
	case len(cy.c.nodes) == 0:
		d.clear()
		return d, ErrNoNodesAvailable
	}
	cy.runPreFilter()
	n := len(cy.c.nodes)
	candidates := n
	if cy.hasSubset {
		candidates = len(cy.subset)
	}
	limit := NumFeasibleNodesToFind(s.PercentageOfNodesToScore, candidates)
	if !cy.c.hasScorePlugins() {
		limit = 1 // no extender, no score plugin: the first fit will do
	}
	if limit == 0 {
		limit = -1 // an empty subset: nothing to walk
	}
	cy.decide(d, walkOptions{tree: true, start: s.NextStartNodeIndex, limit: limit, nominatedFirst: true})
	if !d.rejectAll && !d.nominatedFirst {
		s.NextStartNodeIndex = (s.NextStartNodeIndex + d.numEvaluated) % n
	}
	return d, nil
}

// hasScorePlugins reports whether any enabled plugin scores.
func (c *Cluster) hasScorePlugins() bool {
	for _, p := range defaultPlugins {
		if defaultScoreWeight(p) > 0 && c.enabled(p) {
			return true
		}
	}
	return false
}
