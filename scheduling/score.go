package scheduling

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// Score scores the feasible nodes of results (the output of Filter for the
// same pod and snapshot) with the score plugins of the configuration, as
// kube-scheduler's RunPreScorePlugins / RunScorePlugins do: each plugin's
// raw scores are normalized to 0..100 and multiplied by the plugin's
// weight in the default profile (TaintToleration 3, NodeAffinity 2,
// PodTopologySpread 2, InterPodAffinity 2, NodeResourcesFit 1 with the
// LeastAllocated strategy over cpu and memory,
// NodeResourcesBalancedAllocation 1); a plugin whose PreScore says Skip
// contributes 0. ImageLocality (weight 1) is not modelled: the snapshot
// holds no node images. The result lists the feasible nodes in the order of
// results.
func (c *Cluster) Score(pod *api.Pod, results []NodeResult) []NodeScore {
	return c.NewCycle(pod).Score(results)
}

// Score scores the feasible nodes of results (see Cluster.Score). Results
// that name no node of the snapshot are ignored.
func (cy *Cycle) Score(results []NodeResult) []NodeScore {
	return cy.ScoreInto(results, nil)
}

// ScoreInto is Score writing into dst's storage (and its entries' Plugins
// storage) when large enough, so that a caller scoring pod after pod
// allocates the score list once; dst's contents are overwritten. It
// returns nil when no node is feasible. (*Cycle).Decide goes further and
// keeps the filter verdicts and scores in one reusable Decision.
func (cy *Cycle) ScoreInto(results []NodeResult, dst []NodeScore) []NodeScore {
	var d Decision
	d.nodes = cy.c.nodes
	for _, r := range results {
		if !r.Fits() || r.Index < 0 || r.Index >= len(cy.c.nodes) || cy.c.nodes[r.Index].node.Name != r.Node {
			continue
		}
		d.feasible = append(d.feasible, r.Index)
	}
	cy.scoreDecision(&d)
	if len(d.feasible) == 0 {
		return nil
	}
	return d.Scores(dst)
}

// PreScore returns the PreScore status of each score plugin from the last
// call of Score (nil before, or when no node was feasible).
func (cy *Cycle) PreScore() []Status { return append([]Status(nil), cy.preScore...) }

// String renders a node score with its breakdown.
func (s NodeScore) String() string {
	out := fmt.Sprintf("%s: %d", s.Node, s.Total)
	for i, p := range s.Plugins {
		if i == 0 {
			out += " ("
		} else {
			out += ", "
		}
		out += fmt.Sprintf("%s %d×%d", p.Plugin, p.Score, p.Weight)
		if i == len(s.Plugins)-1 {
			out += ")"
		}
	}
	return out
}
