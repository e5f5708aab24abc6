package proptest

import (
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// CheckBoundPodsFit checks that the pods bound to nodes are ones the nodes
// can hold, the guarantee kube-scheduler's NodeResourcesFit and the
// kubelet's admission give together: every pod with spec.nodeName names a
// node that exists, and on every node the pods that count (not Succeeded
// or Failed) request no more cpu, memory, ephemeral-storage or scalar
// resource than the node's allocatable, and are no more than its pods
// allocatable. Requests are summed as the scheduler sums them
// (scheduling's snapshot: init containers, sidecars and overhead
// included).
//
// The error wraps ErrViolation and names the node, the resource and the
// amounts; a nil node or pod wraps api.ErrInvalidInput.
func CheckBoundPodsFit(nodes []*api.Node, pods []*api.Pod) error {
	names := make(map[string]bool, len(nodes))
	for i, n := range nodes {
		if n == nil {
			return fmt.Errorf("%w: nodes[%d]: nil", errInvalidInput, i)
		}
		names[n.Name] = true
	}
	for i, p := range pods {
		if p == nil {
			return fmt.Errorf("%w: pods[%d]: nil", errInvalidInput, i)
		}
		if p.Spec.NodeName != "" && !names[p.Spec.NodeName] {
			return fmt.Errorf("%w: pod %s is bound to node %q, which does not exist", ErrViolation, p.Key(), p.Spec.NodeName)
		}
	}
	snap, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		return fmt.Errorf("%w: %w", errInvalidInput, err)
	}
	for i := range snap.NumNodes() {
		n := snap.NodeAt(i)
		req, alloc := n.Requested(), n.Allocatable()
		over := func(what string, used, have int64) error {
			return fmt.Errorf("%w: node %s: pods request %d %s, allocatable %d", ErrViolation, n.Name(), used, what, have)
		}
		switch {
		case req.MilliCPU > alloc.MilliCPU:
			return over("millicpu", req.MilliCPU, alloc.MilliCPU)
		case req.Memory > alloc.Memory:
			return over("bytes of memory", req.Memory, alloc.Memory)
		case req.EphemeralStorage > alloc.EphemeralStorage:
			return over("bytes of ephemeral-storage", req.EphemeralStorage, alloc.EphemeralStorage)
		case int64(len(n.Pods())) > alloc.AllowedPodNumber:
			return over("pod slots", int64(len(n.Pods())), alloc.AllowedPodNumber)
		}
		names := make([]api.ResourceName, 0, len(req.Scalar))
		for name := range req.Scalar {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if req.Scalar[name] > alloc.Scalar[name] {
				return over(string(name), req.Scalar[name], alloc.Scalar[name])
			}
		}
	}
	return nil
}
