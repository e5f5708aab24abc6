package scheduling

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// PluginSchedulingGates is the name kube-scheduler registers its
// SchedulingGates PreEnqueue plugin under.
const PluginSchedulingGates = "SchedulingGates"

// SchedulingGatesPreEnqueue is kube-scheduler's SchedulingGates plugin
// (pkg/scheduler/framework/plugins/schedulinggates), the one PreEnqueue
// check of the default profile that can hold a pod back: a pod that still
// has spec.schedulingGates never enters the active queue. Such a pod gets
// an UnschedulableAndUnresolvable status from the plugin with the message
// "waiting for scheduling gates: [a b]", the gate names in spec order. A pod
// without gates gets Success; so does a nil pod (it has no gates).
func SchedulingGatesPreEnqueue(pod *api.Pod) Status {
	if pod == nil || len(pod.Spec.SchedulingGates) == 0 {
		return Status{Code: Success, Plugin: PluginSchedulingGates}
	}
	names := make([]string, len(pod.Spec.SchedulingGates))
	for i, g := range pod.Spec.SchedulingGates {
		names[i] = g.Name
	}
	return Status{
		Code:    UnschedulableAndUnresolvable,
		Plugin:  PluginSchedulingGates,
		Reasons: []string{fmt.Sprintf("waiting for scheduling gates: %v", names)},
	}
}
