package termination

import (
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
	cond := api.PodCondition{
		Type:               api.DisruptionTarget,
		ObservedGeneration: gen,
		Status:             api.ConditionTrue,
		LastTransitionTime: api.NewTime(now),
		Reason:             api.PodReasonTerminationByKubelet,
		Message:            message,
	}
	conds := make([]api.PodCondition, len(st.Conditions), len(st.Conditions)+1)
	copy(conds, st.Conditions)
	if old := api.FindCondition(conds, api.DisruptionTarget); old != nil {
		if old.Status == cond.Status {
			cond.LastTransitionTime = old.LastTransitionTime
		}
		*old = cond
	} else {
		conds = append(conds, cond)
	}
	st.Conditions = conds
	return st
}
