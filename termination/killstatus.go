package termination

import (
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// KubeletKillStatus is the status the kubelet writes for a pod it
// terminates on its own initiative — a node-pressure eviction, a graceful
// node shutdown: pod's status with phase, reason and message replaced, and
// a DisruptionTarget condition (True, reason
// api.PodReasonTerminationByKubelet, the same message, observedGeneration
// = metadata.generation) set the way podutil.UpdatePodCondition sets it:
// it replaces an existing DisruptionTarget condition, keeping that one's
// lastTransitionTime when its status was already True, and otherwise
// transitions at now. The pod is not modified; the result shares nothing
// with it but container statuses. A nil pod gives a status holding only
// what the kill writes.
func KubeletKillStatus(pod *api.Pod, phase api.PodPhase, reason, message string, now time.Time) api.PodStatus {
	var st api.PodStatus
	var gen int64
	if pod != nil {
		st = pod.Status
		gen = pod.Generation
	}
	st.Phase, st.Reason, st.Message = phase, reason, message
	st.Conditions = slices.Clone(st.Conditions)
	api.UpdatePodCondition(&st, api.PodCondition{
		Type:               api.DisruptionTarget,
		ObservedGeneration: gen,
		Status:             api.ConditionTrue,
		Reason:             api.PodReasonTerminationByKubelet,
		Message:            message,
	}, now)
	return st
}
