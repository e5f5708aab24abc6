package volume

import (
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
)

// FinalizerChange is what one sync of the pvc-protection or pv-protection
// controller does to its object's protection finalizer: nothing, add it
// (an object created before the StorageObjectInUseProtection admission
// plugin was enabled), or remove it (the object is being deleted and
// nothing uses it any more; the API server then removes the object once
// no other finalizer is left). Both controllers write no Event.
type FinalizerChange uint8

// The finalizer changes.
const (
	// FinalizerKept: no write.
	FinalizerKept FinalizerChange = iota
	// FinalizerAdd: an update appending the finalizer.
	FinalizerAdd
	// FinalizerRemove: an update removing the finalizer.
	FinalizerRemove
)

// String names the change.
func (c FinalizerChange) String() string {
	switch c {
	case FinalizerAdd:
		return "AddFinalizer"
	case FinalizerRemove:
		return "RemoveFinalizer"
	}
	return "Kept"
}

// PodUsesClaimForDeletion is the pvc-protection controller's rule
// (pkg/controller/volume/pvcprotection, podUsesPVCForDeletion) for
// whether pod keeps claim from being deleted, as v1.36.3 ships it (the
// alpha PersistentVolumeClaimUnusedSinceTime gate off). Only a pod bound
// to a node counts: the kubelet refuses to start a pod whose claim is
// being deleted, so an unscheduled pod never will. A bound pod of the
// claim's namespace counts while it exists, whatever its phase, if one of
// its persistentVolumeClaim volumes names the claim (a Succeeded or Failed
// pod still counts until it is removed: the kubelet may still be
// unmounting); through a generic ephemeral volume it counts if the claim
// is that volume's (api.EphemeralVolumeClaimName, and the pod is the
// claim's controller: api.VolumeClaimIsForPod) and the pod is not shut
// down — being deleted with a grace period of 0, which the kubelet asks
// for once the volumes are unmounted and a force delete sets. A nil pod or
// claim uses nothing.
func PodUsesClaimForDeletion(pod *api.Pod, claim *api.PersistentVolumeClaim) bool {
	if pod == nil || claim == nil || pod.Spec.NodeName == "" || pod.Namespace != claim.Namespace {
		return false
	}
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		switch {
		case v.PersistentVolumeClaim != nil:
			if v.PersistentVolumeClaim.ClaimName == claim.Name {
				return true
			}
		case v.Ephemeral != nil:
			if !podShutDown(pod) && api.EphemeralVolumeClaimName(pod, v) == claim.Name && api.VolumeClaimIsForPod(pod, claim) == nil {
				return true
			}
		}
	}
	return false
}

// podShutDown is the pvc-protection controller's podIsShutDown: the pod
// is being deleted with a grace period of 0 (the kubelet's final delete
// after its volumes were unmounted, or a force delete).
func podShutDown(pod *api.Pod) bool {
	return pod.DeletionTimestamp != nil && pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == 0
}

// SyncClaimProtection is the pvc-protection controller's sync of one
// claim (pkg/controller/volume/pvcprotection, processPVC). A claim being
// deleted that still carries api.FinalizerPVCProtection loses it unless a
// pod uses it (PodUsesClaimForDeletion): the controller asks its informer
// cache first (informerPods: the pods its pod informer holds) and, when
// no pod there uses the claim, a live list of the claim's namespace from
// the API server (livePods), since a pod just created may not have reached
// the cache yet; either finding a user keeps the finalizer. A claim not
// being deleted that lacks the finalizer gets it. Pods of other
// namespaces are ignored. A nil claim is bad input.
func SyncClaimProtection(claim *api.PersistentVolumeClaim, informerPods, livePods []*api.Pod) (FinalizerChange, error) {
	if claim == nil {
		return FinalizerKept, fmt.Errorf("volume: %w: claim: nil", api.ErrInvalidInput)
	}
	has := slices.Contains(claim.Finalizers, api.FinalizerPVCProtection)
	switch {
	case claim.DeletionTimestamp == nil && !has:
		return FinalizerAdd, nil
	case claim.DeletionTimestamp == nil || !has:
		return FinalizerKept, nil
	}
	for _, pods := range [][]*api.Pod{informerPods, livePods} {
		for _, p := range pods {
			if PodUsesClaimForDeletion(p, claim) {
				return FinalizerKept, nil
			}
		}
	}
	return FinalizerRemove, nil
}

// SyncVolumeProtection is the pv-protection controller's sync of one
// PersistentVolume (pkg/controller/volume/pvprotection, processPV): a
// volume being deleted that carries api.FinalizerPVProtection loses it
// unless its status.phase is Bound (the PersistentVolume controller moves
// it to Released once its claim is gone); a volume not being deleted that
// lacks the finalizer gets it. A nil volume is bad input.
func SyncVolumeProtection(vol *api.PersistentVolume) (FinalizerChange, error) {
	if vol == nil {
		return FinalizerKept, fmt.Errorf("volume: %w: volume: nil", api.ErrInvalidInput)
	}
	has := slices.Contains(vol.Finalizers, api.FinalizerPVProtection)
	switch {
	case vol.DeletionTimestamp == nil && !has:
		return FinalizerAdd, nil
	case vol.DeletionTimestamp != nil && has && vol.Status.Phase != api.VolumeBound:
		return FinalizerRemove, nil
	}
	return FinalizerKept, nil
}

// ClaimProtectionQueued reports whether the pvc-protection controller
// queues the claim on its informer's add or update event: it is being
// deleted and carries the finalizer, or it is not and lacks it
// (pvcAddedUpdated). A nil claim is not queued.
func ClaimProtectionQueued(claim *api.PersistentVolumeClaim) bool {
	if claim == nil {
		return false
	}
	return (claim.DeletionTimestamp != nil) == slices.Contains(claim.Finalizers, api.FinalizerPVCProtection)
}

// VolumeProtectionQueued is ClaimProtectionQueued's rule for the
// pv-protection controller and a PersistentVolume (pvAddedUpdated). A
// nil volume is not queued.
func VolumeProtectionQueued(vol *api.PersistentVolume) bool {
	if vol == nil {
		return false
	}
	return (vol.DeletionTimestamp != nil) == slices.Contains(vol.Finalizers, api.FinalizerPVProtection)
}

// ClaimsOfPodEvent are the claims (namespace/name keys, in volume order)
// the pvc-protection controller queues on a pod's informer event
// (enqueuePVCs): every claim the pod's persistentVolumeClaim and generic
// ephemeral volumes name, but only when the event can free one — the pod
// was deleted, has terminated (PodTerminated) or is not bound to a node;
// an event of a running, bound pod queues nothing. A pod replaced by
// another of the same name in one update is the deletion of the old one
// (the caller passes it with deleted true). A nil pod queues nothing.
func ClaimsOfPodEvent(pod *api.Pod, deleted bool) []string {
	if pod == nil || (!deleted && !PodTerminated(pod) && pod.Spec.NodeName != "") {
		return nil
	}
	var out []string
	for i := range pod.Spec.Volumes {
		if name, _, ok := api.PodVolumeClaimName(pod, &pod.Spec.Volumes[i]); ok {
			out = append(out, pod.Namespace+"/"+name)
		}
	}
	return out
}
