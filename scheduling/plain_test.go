package scheduling

import (
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
)

// nodeResult is one node's verdict, for comparing decisions in tests.
type nodeResult struct {
	Node   string
	Index  int
	Status Status
}

func (r nodeResult) Fits() bool { return r.Status.Code == Success }

func (r nodeResult) String() string {
	return fmt.Sprintf("%s(%d): %s", r.Node, r.Index, r.Status)
}

// decide makes the decision for pod on c the public way.
func decide(c *Cluster, pod *api.Pod) *Decision { return c.NewCycle(pod).Decide(nil) }

// results lists a decision's verdicts node by node.
func results(d *Decision) []nodeResult {
	out := make([]nodeResult, d.NumNodes())
	for i := range out {
		out[i] = nodeResult{Node: d.nodes[i].name, Index: i, Status: d.Status(i)}
	}
	return out
}

// plainFilter is the test oracle for Decide's filters: the framework's
// rules followed the plain way, node by node and plugin by plugin through
// the cyclePlugin interface, with no quick checks, sieve or index paths.
// A PreFilter rejection is every node's status; on a node with nominated
// pods of at least the pod's priority the pod must fit both with them
// (on clones of the plugins, updated by addPod) and without them.
func plainFilter(cy *Cycle) []nodeResult {
	cy.runPreFilter()
	out := make([]nodeResult, len(cy.c.nodes))
	for i, n := range cy.c.nodes {
		out[i] = nodeResult{Node: n.name, Index: i}
		switch {
		case cy.rejectAll != nil:
			out[i].Status = *cy.rejectAll
		case cy.hasSubset && !slices.Contains(cy.subset, i):
			out[i].Status = cy.absent
		default:
			out[i].Status = plainFilterNode(cy, n)
		}
	}
	return out
}

// plainFilterNode runs the active plugins' filters on one node the plain
// way, twice when pods are nominated there.
func plainFilterNode(cy *Cycle, n *NodeInfo) Status {
	run := func(plugins []cyclePlugin, v *nodeView) Status {
		for _, p := range plugins {
			if st := p.filter(v); !st.IsSuccess() {
				st.Plugin = p.name()
				return st
			}
		}
		return Status{}
	}
	if nom := cy.nominatedFor(n); len(nom) > 0 {
		with := make([]cyclePlugin, len(cy.active))
		for j, p := range cy.active {
			with[j] = p.clone()
			for _, q := range nom {
				with[j].addPod(q, n)
			}
		}
		if st := run(with, &nodeView{info: n, added: nom}); !st.IsSuccess() {
			return st
		}
	}
	return run(cy.active, &nodeView{info: n})
}

// plainScore is the test oracle for Decide's scores: every score plugin's
// PreScore over the feasible nodes of res, then its Score node by node
// through the cyclePlugin interface, NormalizeScore, and the weighted sum.
// It returns the scores in node order and the PreScore statuses (nil when
// no node is feasible).
func plainScore(cy *Cycle, res []nodeResult) ([]NodeScore, []Status) {
	var feasible []*NodeInfo
	for _, r := range res {
		if r.Fits() {
			feasible = append(feasible, cy.c.nodes[r.Index])
		}
	}
	if len(feasible) == 0 {
		return nil, nil
	}
	scores := make([]NodeScore, len(feasible))
	for k, n := range feasible {
		scores[k] = NodeScore{Node: n.name, Index: n.index}
	}
	var pre []Status
	for _, p := range cy.plugins {
		w := defaultScoreWeight(p.name())
		if w == 0 {
			continue
		}
		st := p.preScore(feasible)
		st.Plugin = p.name()
		pre = append(pre, st)
		raw := make([]int64, len(feasible))
		if st.Code == Success {
			for k, n := range feasible {
				raw[k] = p.score(n)
			}
			p.normalizeScore(raw)
		}
		for k := range scores {
			scores[k].Plugins = append(scores[k].Plugins, PluginScore{Plugin: p.name(), Score: raw[k], Weight: w})
			scores[k].Total += w * raw[k]
		}
	}
	return scores, pre
}

// plainWalk is the test oracle for ScheduleOne's walk, following
// findNodesThatFitPod the plain way over the plain filters' verdicts: the
// nominated node first, then the node tree's list (or the PreFilter's node
// subset, in index order) from start, one node at a time, stopping at the
// (k+1)-th feasible node. It returns the evaluated and feasible nodes in
// order and whether the nominated node was taken alone.
func plainWalk(cy *Cycle, res []nodeResult, percentage int32, start int) (evaluated, feasible []int, nominatedFirst bool) {
	if cy.rejectAll != nil {
		return nil, nil, false
	}
	skip := -1
	if nn := cy.pod.pod.Status.NominatedNodeName; nn != "" {
		if ni := cy.c.byName[nn]; ni != nil {
			// Tried whatever the node subset says.
			st := plainFilterNode(cy, ni)
			if st.IsSuccess() {
				return []int{ni.index}, []int{ni.index}, true
			}
			res[ni.index].Status = st
			evaluated = append(evaluated, ni.index)
			skip = ni.index
		}
	}
	list := cy.c.TreeOrder()
	if cy.hasSubset {
		list = cy.subset
	}
	n := len(list)
	k := NumFeasibleNodesToFind(percentage, n)
	if !cy.c.hasScorePlugins() {
		k = 1
	}
	for p := range n {
		i := list[(start%n+p)%n]
		if i == skip {
			continue
		}
		if res[i].Fits() {
			if len(feasible) == k {
				break
			}
			feasible = append(feasible, i)
		}
		evaluated = append(evaluated, i)
	}
	return evaluated, feasible, false
}

// plainMessage is the FitError message over the oracle's verdicts.
func plainMessage(cy *Cycle, res []nodeResult) string {
	var rejected []Status
	for _, r := range res {
		if r.Fits() {
			return ""
		}
		rejected = append(rejected, r.Status)
	}
	if cy.rejectAll != nil {
		return fitErrorMessage(len(res), cy.rejectAll, nil)
	}
	return FitErrorMessage(len(res), rejected)
}
