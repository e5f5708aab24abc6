package workloads

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// BurstReplicas is the most pods one ReplicaSet sync creates or deletes
// (pkg/controller/replicaset BurstReplicas); the rest wait for the next
// sync.
const BurstReplicas = 500

// ReplicaSetSync is the outcome of one sync of the ReplicaSet controller's
// replica management.
type ReplicaSetSync struct {
	// Active counts the pods the controller sees as running replicas:
	// neither Succeeded, Failed nor terminating.
	Active int
	// Terminating counts the pods with a deletionTimestamp that are not
	// yet Succeeded or Failed: gone as far as the count is concerned.
	Terminating int
	// Create is how many new pods (with generated names) the sync creates;
	// Delete how many active pods it deletes. At most BurstReplicas each.
	Create, Delete int
}

// SyncReplicaSet computes how one sync of the ReplicaSet controller
// (pkg/controller/replicaset manageReplicas) changes the number of pods of
// rs, given the pods it owns. A pod counts only while active
// (controller.IsPodActive): a terminating pod — say, one the taint eviction
// controller deleted on an unreachable node, whose kubelet will never
// confirm the kill — is already gone for the count, so its replacement is
// created at once, while the old object may linger for as long as the node
// stays away. That is the opposite of a StatefulSet (SyncStatefulSet),
// whose pod names are identities and never exist twice.
//
// Modelled: the active count, the difference to spec.replicas, the burst
// cap. Not modelled: which pods a scale-down picks (upstream ranks them by
// node, phase, readiness, pod-deletion-cost, co-location, ready time,
// restarts and age), the slow-start batching and expectations, adoption by
// selector, and the Deployment above the ReplicaSet. A nil set, or one
// without replicas, is an error.
func SyncReplicaSet(rs *api.ReplicaSet, pods []*api.Pod) (ReplicaSetSync, error) {
	if rs == nil {
		return ReplicaSetSync{}, fmt.Errorf("%w: replicaset: nil", errInvalidInput)
	}
	if rs.Spec.Replicas == nil || *rs.Spec.Replicas < 0 {
		return ReplicaSetSync{}, fmt.Errorf("%w: replicaset %s/%s: spec.replicas: %v", errInvalidInput, rs.Namespace, rs.Name, ptrString(rs.Spec.Replicas))
	}
	var res ReplicaSetSync
	for _, p := range pods {
		if p == nil {
			continue
		}
		switch {
		case p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed:
		case p.DeletionTimestamp != nil:
			res.Terminating++
		default:
			res.Active++
		}
	}
	diff := res.Active - int(*rs.Spec.Replicas)
	switch {
	case diff < 0:
		res.Create = min(-diff, BurstReplicas)
	case diff > 0:
		res.Delete = min(diff, BurstReplicas)
	}
	return res, nil
}
