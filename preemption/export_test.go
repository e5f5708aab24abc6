package preemption

import (
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// PreemptWithFilters is Preempt with every node's dry run evaluated
// through the scheduling.WhatIf filters, never through a Ledger's
// arithmetic.
func PreemptWithFilters(cy *scheduling.Cycle, d *scheduling.Decision, pdbs []*api.PodDisruptionBudget, cfg Config, now time.Time) Result {
	return preempt(cy, d, pdbs, cfg, now, false)
}
