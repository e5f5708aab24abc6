package proptest

import (
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// This file is the one place the package drives kube-scheduler's
// evaluation (scheduling's cycle API).

// newCycle starts one scheduling cycle for pod over snap.
func newCycle(snap *scheduling.Cluster, pod *api.Pod) *scheduling.Cycle {
	return snap.NewCycle(pod)
}

// decide runs the cycle in full (PreFilter, Filter on every node, then the
// scores), writing the outcome into d.
func decide(cy *scheduling.Cycle, d *scheduling.Decision) *scheduling.Decision {
	return cy.Decide(d)
}

// fitsNode reports whether the cycle's pod passes every filter on node i
// of the snapshot as it stands.
func fitsNode(cy *scheduling.Cycle, snap *scheduling.Cluster, i int) bool {
	return cy.WhatIf(snap.NodeAt(i)).Filter().IsSuccess()
}
