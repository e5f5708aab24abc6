package scheduling

import "github.com/podsem/podsem/api"

// PodPriority is the priority the scheduler reads from a pod: spec.priority,
// or 0 when it is unset (component-helpers' PodPriority). The Priority
// admission plugin that fills spec.priority in is package api/admission.
// A nil pod has priority 0.
func PodPriority(pod *api.Pod) int32 {
	if pod != nil && pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}
