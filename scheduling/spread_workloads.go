package scheduling

// SetSpreadWorkloads records the Services, ReplicationControllers,
// ReplicaSets and StatefulSets of the cluster. PodTopologySpread gives a pod
// without constraints of its own the default constraints (SpreadArgs) with
// a selector taken from them, as the scheduler's helper.DefaultSelector
// builds it: the merged selectors of the Services in the pod's namespace
// that select it, together with the selector of the ReplicationController,
// ReplicaSet or StatefulSet that controls it. A pod none of them selects
// is not spread by default. It replaces what was recorded before; like the
// other update methods it must not run concurrently with queries. The
// snapshot keeps the slices; do not modify them afterwards. It does
// nothing on a nil Cluster.
func (c *Cluster) SetSpreadWorkloads(w SpreadWorkloads) {
	if c == nil {
		return
	}
	if c.spread == nil {
		c.spread = newSpreadCache()
	}
	c.spread.workloads = w
}
