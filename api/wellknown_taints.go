package api

// Well-known taint keys (k8s.io/api/core/v1 well_known_taints.go). The node
// lifecycle controller (kube-controller-manager) writes the condition taints
// — NoSchedule for every one, and NoExecute for not-ready and unreachable,
// which the taint eviction controller then acts on; the DefaultTolerationSeconds
// admission plugin tolerates the NoExecute pair for 300 s by default. The
// out-of-service taint is put on by an administrator who asserts a node is
// shut down, so that pod GC may force-delete its terminating pods.
const (
	// TaintNodeNotReady: the node's Ready condition is False.
	TaintNodeNotReady = "node.kubernetes.io/not-ready"
	// TaintNodeUnreachable: the node's Ready condition is Unknown — the
	// node controller stopped hearing from the kubelet.
	TaintNodeUnreachable = "node.kubernetes.io/unreachable"
	// TaintNodeUnschedulable: the node is cordoned (spec.unschedulable).
	TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"
	// TaintNodeMemoryPressure: the MemoryPressure condition is True.
	TaintNodeMemoryPressure = "node.kubernetes.io/memory-pressure"
	// TaintNodeDiskPressure: the DiskPressure condition is True.
	TaintNodeDiskPressure = "node.kubernetes.io/disk-pressure"
	// TaintNodeNetworkUnavailable: the NetworkUnavailable condition is True.
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	// TaintNodePIDPressure: the PIDPressure condition is True.
	TaintNodePIDPressure = "node.kubernetes.io/pid-pressure"
	// TaintNodeOutOfService: an administrator marks the node as shut down
	// (non-graceful node shutdown).
	TaintNodeOutOfService = "node.kubernetes.io/out-of-service"
)
