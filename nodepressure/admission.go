package nodepressure

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// Admission is the kubelet's answer to a pod it is asked to run.
type Admission struct {
	Admit bool
	// Reason and Message say why a pod was refused, as the kubelet writes
	// them into the rejected pod's status (phase Failed).
	Reason  string
	Message string
}

// Admit is the eviction manager's admission check
// (pkg/kubelet/eviction Admit) for a node reporting conditions (the
// pressure conditions the eviction manager currently reports, as
// Pass.Conditions lists them):
//
//   - with no condition, every pod is admitted;
//   - a critical pod (api.IsCriticalPod) is always admitted;
//   - when MemoryPressure is the only condition, a pod that is not
//     BestEffort is admitted, and so is a BestEffort pod that tolerates the
//     node.kubernetes.io/memory-pressure:NoSchedule taint;
//   - otherwise — DiskPressure or PIDPressure present, or a BestEffort pod
//     under memory pressure — the pod is refused with reason Evicted and
//     the message "The node had condition: [MemoryPressure DiskPressure]. "
//     listing conditions in the order given.
//
// A nil pod gets the zero Admission (refused, without a reason).
func Admit(pod *api.Pod, conditions []api.NodeConditionType) Admission {
	if pod == nil {
		return Admission{}
	}
	if len(conditions) == 0 || api.IsCriticalPod(pod) {
		return Admission{Admit: true}
	}
	if len(conditions) == 1 && conditions[0] == api.NodeMemoryPressure {
		if api.PodQOS(pod) != api.PodQOSBestEffort {
			return Admission{Admit: true}
		}
		taint := api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}
		if api.TolerationsTolerateTaint(pod.Spec.Tolerations, &taint) {
			return Admission{Admit: true}
		}
	}
	return Admission{Reason: api.PodStatusReasonEvicted, Message: fmt.Sprintf(nodeConditionMessageFmt, conditions)}
}

// The eviction manager's message formats (pkg/kubelet/eviction).
const (
	nodeConditionMessageFmt = "The node had condition: %v. "
	nodeLowMessageFmt       = "The node was low on resource: %v. "
	thresholdMetMessageFmt  = "Threshold quantity: %v, available: %v. "
	containerMessageFmt     = "Container %s was using %s, request is %s, has larger consumption of %v. "
	podMessageFmt           = "Pod %s was using %s, request is %s, has larger consumption of %v. "
)
