package preemption

// WithFullDryRun returns cfg with every node's dry run evaluated through
// the scheduling.WhatIf filters, never through the Ledger's arithmetic.
func WithFullDryRun(cfg Config) Config {
	cfg.fullDryRun = true
	return cfg
}
