package apitest

import (
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// This file is the one place the package drives kube-scheduler's
// evaluation (scheduling's cycle API).

// decide runs one scheduling cycle for pod over snap (PreFilter, Filter on
// every node, then the scores), writing the outcome into d.
func decide(snap *scheduling.Cluster, pod *api.Pod, d *scheduling.Decision) *scheduling.Decision {
	return snap.NewCycle(pod).Decide(d)
}

// fitsNode reports whether the cycle's pod passes every filter on node i
// of the snapshot as it stands.
func fitsNode(cy *scheduling.Cycle, snap *scheduling.Cluster, i int) bool {
	return cy.WhatIf(snap.NodeAt(i)).Filter().IsSuccess()
}
