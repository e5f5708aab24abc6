package preemption_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// benchCluster is numNodes full 32-cpu nodes carrying podsPerNode pods
// each of mixed priority (150,000 pods for 5,000 nodes).
func benchCluster(b *testing.B, numNodes, podsPerNode int) *scheduling.Cluster {
	b.Helper()
	nodes := make([]*api.Node, numNodes)
	pods := make([]*api.Pod, 0, numNodes*podsPerNode)
	prios := []int32{0, 10, 100, 1000, 5000}
	for i := range nodes {
		n := node(fmt.Sprintf("node-%05d", i), "32", "128Gi")
		n.Labels[api.LabelTopologyZone] = fmt.Sprintf("zone-%d", i%3)
		nodes[i] = n
		for j := 0; j < podsPerNode; j++ {
			p := bound(fmt.Sprintf("pod-%05d-%02d", i, j), n.Name, "1", prios[(i+j)%len(prios)], (i*7+j)%60)
			p.Labels = map[string]string{"app": fmt.Sprintf("app-%d", j%10)}
			pods = append(pods, p)
		}
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkPreempt5000Nodes: one scheduling cycle that finds no node
// (Decide into a reused Decision) and the preemption decision on it, on
// 5,000 full nodes and 150,000 pods; every node is a potential node and
// the dry run stops after the default 500 candidates.
func BenchmarkPreempt5000Nodes(b *testing.B) {
	c := benchCluster(b, 5000, 30)
	pod := pending("urgent", "4", 2000)
	var d scheduling.Decision
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cy := c.NewCycle(pod)
		r := preemption.Preempt(cy, cy.Decide(&d), nil, preemption.Config{}, time.Time{})
		if r.Node == "" {
			b.Fatal("no node chosen")
		}
	}
}

// BenchmarkPreempt5000NodesWithBudgets adds ten budgets, one per app, each
// already exhausted, so every victim is checked against them.
func BenchmarkPreempt5000NodesWithBudgets(b *testing.B) {
	c := benchCluster(b, 5000, 30)
	var pdbs []*api.PodDisruptionBudget
	for j := 0; j < 10; j++ {
		pdbs = append(pdbs, pdb(fmt.Sprintf("pdb-%d", j), fmt.Sprintf("app-%d", j), 0))
	}
	pod := pending("urgent", "4", 2000)
	var d scheduling.Decision
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cy := c.NewCycle(pod)
		if r := preemption.Preempt(cy, cy.Decide(&d), pdbs, preemption.Config{}, time.Time{}); r.Node == "" {
			b.Fatal("no node chosen")
		}
	}
}

// BenchmarkPreempt5000NodesSpread is BenchmarkPreempt5000Nodes for a pod
// with a DoNotSchedule zone spread constraint: a filter that counts pods,
// so every node's dry run goes through the cycle's WhatIf filters instead
// of a Ledger's arithmetic.
func BenchmarkPreempt5000NodesSpread(b *testing.B) {
	c := benchCluster(b, 5000, 30)
	pod := pending("urgent", "4", 2000)
	pod.Labels = map[string]string{"app": "app-3"}
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1000, TopologyKey: api.LabelTopologyZone,
		WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "app-3"}}}}
	var d scheduling.Decision
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		cy := c.NewCycle(pod)
		if r := preemption.Preempt(cy, cy.Decide(&d), nil, preemption.Config{}, time.Time{}); r.Node == "" {
			b.Fatal("no node chosen")
		}
	}
}
