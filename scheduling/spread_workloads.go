package scheduling

// SetSpreadWorkloads records the Services, ReplicationControllers,
// ReplicaSets and StatefulSets of the cluster, from which PodTopologySpread
// takes the selector of its default constraints for pods without
// constraints of their own (see DefaultSpreadSelector). It replaces what
// was recorded before; like the other update methods it must not run
// concurrently with queries. The snapshot keeps the slices; do not modify
// them afterwards.
func (c *Cluster) SetSpreadWorkloads(w SpreadWorkloads) {
	if c.spread == nil {
		c.spread = newSpreadCache()
	}
	c.spread.workloads = w
}

// SpreadWorkloads returns what SetSpreadWorkloads recorded.
func (c *Cluster) SpreadWorkloads() SpreadWorkloads {
	if c.spread == nil {
		return SpreadWorkloads{}
	}
	return c.spread.workloads
}
