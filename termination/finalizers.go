package termination

import (
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/api/validation"
)

// Apply returns pod as the API server stores it after the DELETE that d
// decided: nil when the object left storage (d.Immediate), pod itself
// (unchanged) for a pending or rejected request, otherwise a copy with the
// new deletionTimestamp, deletionGracePeriodSeconds, generation and
// finalizers. pod is not modified; the copy shares what did not change. A
// nil pod gives nil.
func (d APIServerDecision) Apply(pod *api.Pod) *api.Pod {
	if pod == nil || d.Immediate {
		return nil
	}
	if d.Outcome == OutcomePending || d.Outcome == OutcomeRejected {
		return pod
	}
	p := *pod
	if d.DeletionTimestamp != nil {
		p.DeletionTimestamp = api.NewTimePtr(*d.DeletionTimestamp)
	}
	p.DeletionGracePeriodSeconds = copyInt64(d.DeletionGracePeriodSeconds)
	p.Generation = d.Generation
	p.Finalizers = slices.Clone(d.Finalizers)
	return &p
}

// FinalizerUpdate is the API server's answer to an update of a stored
// pod's metadata.finalizers.
type FinalizerUpdate struct {
	// Pod is the pod as stored after the update, nil when the update
	// removed it from storage.
	Pod *api.Pod
	// Removed reports that the update emptied the finalizers of a pod
	// whose deletion was under way with grace 0 (or none recorded): the
	// generic registry (Store.Update, ShouldDeleteDuringUpdate) deletes it
	// instead of writing it. A pod marked for deletion with a longer grace
	// stays: nothing times it out, and the kubelet's DELETE with grace 0
	// removes it.
	Removed bool
}

// UpdateFinalizers answers what the API server does when a client writes
// pod back with metadata.finalizers set to finalizers and nothing else
// changed (a finalizer's controller removing its own, a client adding
// one), as kube-apiserver v1.36.3's pod registry does: the update is
// validated (validation.ValidatePodUpdate: finalizer names, and no new
// finalizer once a deletion is under way — removing, reordering or
// repeating existing ones is allowed), refused with a 422 Invalid
// *admission.Error when it fails, and otherwise stored, or the pod removed
// (FinalizerUpdate.Removed) when the last finalizer of a pod marked for
// deletion with grace 0 goes. A finalizer change leaves metadata.generation
// alone. pod is not modified. A nil pod is an error wrapping
// api.ErrInvalidInput.
func UpdateFinalizers(pod *api.Pod, finalizers []string) (FinalizerUpdate, error) {
	if pod == nil {
		return FinalizerUpdate{}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	next := *pod
	next.Finalizers = slices.Clone(finalizers)
	if errs := validation.ValidatePodUpdate(&next, pod); len(errs) > 0 {
		return FinalizerUpdate{Pod: pod}, &admission.Error{Reason: "Invalid", Resource: "Pod", Name: pod.Name, FieldErrors: errs}
	}
	if len(finalizers) == 0 && pod.DeletionTimestamp != nil &&
		(pod.DeletionGracePeriodSeconds == nil || *pod.DeletionGracePeriodSeconds == 0) {
		return FinalizerUpdate{Removed: true}, nil
	}
	return FinalizerUpdate{Pod: &next}, nil
}
