package preemption_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// The scenario of the Kubernetes "Pod Priority and Preemption" page: a
// high-priority pod needs 1.5 cpu on a full 2-cpu node. The scheduling
// cycle finds no node; preemption works from that cycle and its decision.
// The two priority-0 pods go; the priority-500 pod is reprieved because
// the preemptor fits beside it.
func ExamplePreempt() {
	c := cluster([]*api.Node{node("node-1", "2", "4Gi")},
		bound("low-1", "node-1", "1", 0, 1),
		bound("low-2", "node-1", "500m", 0, 2),
		bound("mid-1", "node-1", "500m", 500, 3))
	cy := c.NewCycle(pending("high-prio", "1500m", 1000000))
	var d scheduling.Decision
	if cy.Decide(&d); len(d.Feasible()) > 0 {
		return // it fits somewhere: nothing to preempt
	}
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC) // a scheduler passes time.Now()
	r := preemption.Preempt(cy, &d, nil, preemption.Config{}, now)
	fmt.Println(r.Nomination, r.Node)
	fmt.Println(names(r.Victims))
	fmt.Println(r)
	// Output:
	// set node-1
	// [low-1 low-2]
	// nominate node-1: evict default/low-1, default/low-2 (0 PDB violation(s))
	//   node-1: NodeResourcesFit: Unschedulable: Insufficient cpu -> candidate: evict default/low-1, default/low-2 (0 PDB violation(s))
}

// A PodDisruptionBudget steers preemption to the node where no budget is
// broken, even though the victim there has a higher priority.
func ExamplePreempt_disruptionBudget() {
	c := cluster([]*api.Node{node("node-a", "2", "4Gi"), node("node-b", "2", "4Gi")},
		bound("zk-0", "node-a", "2", 0, 1),
		bound("batch", "node-b", "2", 100, 1))
	zk := pdb("zk", "zk-0", 0)
	cy := c.NewCycle(pending("urgent", "1", 1000))
	r := preemption.Preempt(cy, cy.Decide(nil), []*api.PodDisruptionBudget{zk}, preemption.Config{}, time.Time{})
	for _, cand := range r.Candidates {
		fmt.Println(cand.Node, names(cand.Victims), "violations:", cand.PDBViolations)
	}
	fmt.Println("chosen:", r.Node)
	// Output:
	// node-b [batch] violations: 0
	// node-a [zk-0] violations: 1
	// chosen: node-b
}

// A pod with preemptionPolicy Never waits instead of preempting; its
// nomination is left alone.
func ExamplePreempt_never() {
	c := cluster([]*api.Node{node("node-1", "2", "4Gi")}, bound("low", "node-1", "2", 0, 1))
	p := pending("polite", "1", 1000)
	never := api.PreemptNever
	p.Spec.PreemptionPolicy = &never
	cy := c.NewCycle(p)
	r := preemption.Preempt(cy, cy.Decide(nil), nil, preemption.Config{}, time.Time{})
	fmt.Println(r.Nomination)
	fmt.Println(r.Message)
	// Output:
	// keep
	// preemption: not eligible due to preemptionPolicy=Never.
}

// The exhaustive mode: with minCandidateNodesPercentage 100 every
// potential node is dry-run, so the choice is the best over the whole
// cluster. Here the default would stop after one candidate (a 1% sample,
// at least one node) and take the only node it saw; the exhaustive run
// finds the node whose victim has the lowest priority.
func ExampleConfig_exhaustive() {
	c := cluster([]*api.Node{node("node-a", "2", "4Gi"), node("node-b", "2", "4Gi"), node("node-c", "2", "4Gi")},
		bound("web", "node-a", "2", 500, 1),
		bound("batch", "node-b", "2", 0, 1),
		bound("cache", "node-c", "2", 100, 1))
	cy := c.NewCycle(pending("urgent", "1", 1000))
	var d scheduling.Decision
	cy.Decide(&d)
	sample := preemption.Config{MinCandidateNodesPercentage: 1, MinCandidateNodesAbsolute: 1}
	every := preemption.Config{MinCandidateNodesPercentage: 100}
	for _, cfg := range []preemption.Config{sample, every} {
		r := preemption.Preempt(cy, &d, nil, cfg, time.Time{})
		fmt.Printf("%d candidate(s): evict %v on %s\n", len(r.Candidates), names(r.Victims), r.Node)
	}
	// Output:
	// 1 candidate(s): evict [web] on node-a
	// 3 candidate(s): evict [batch] on node-b
}

// How many nodes the dry run looks for candidates on before it stops.
func ExampleConfig_NumCandidates() {
	var cfg preemption.Config // v1.36.3 defaults: 10%, at least 100
	fmt.Println(cfg.NumCandidates(50), cfg.NumCandidates(500), cfg.NumCandidates(5000))
	// Output:
	// 50 100 500
}
