package proptest

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// CheckPlacementFeasible checks that binding pod to the named node is a
// placement kube-scheduler could make: the node exists in the snapshot and
// passes every filter of the snapshot's profile there (NodeResourcesFit,
// NodeName, NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
// InterPodAffinity, PodTopologySpread, as configured). That is the
// guarantee a scheduler gives for every binding it makes; a controller
// that binds pods itself (a custom scheduler, a simulator, an autoscaler's
// bin-packer) should give it too.
//
// pod is the incoming pod, not yet in the snapshot. The error wraps
// ErrViolation and carries the first failing filter's reasons and numbers;
// a nil snapshot or pod wraps api.ErrInvalidInput.
func CheckPlacementFeasible(snap *scheduling.Cluster, pod *api.Pod, node string) error {
	switch {
	case snap == nil:
		return fmt.Errorf("%w: snapshot: nil", errInvalidInput)
	case pod == nil:
		return fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	n := snap.NodeByName(node)
	if n == nil {
		return fmt.Errorf("%w: pod %s placed on node %q, which is not in the cluster", ErrViolation, pod.Key(), node)
	}
	var d scheduling.Decision
	decide(newCycle(snap, pod), &d)
	if d.Fits(n.Index()) {
		return nil
	}
	return fmt.Errorf("%w: pod %s does not fit node %s: %s", ErrViolation, pod.Key(), node, d.Status(n.Index()))
}
