package cluster

// This file holds the rules the composition needs that have no home in a
// semantic package yet. Each belongs elsewhere (NEXT.md lists where) and
// moves there; until then it is written once, here, and nowhere else in
// the cluster package.

import (
	"time"

	"github.com/podsem/podsem/api"
)

// kubeletNodeConditions are the node conditions a healthy kubelet posts
// (pkg/kubelet/nodestatus setters: MemoryPressure, DiskPressure and
// PIDPressure False, Ready True), with lastHeartbeatTime now and
// lastTransitionTime kept when the status did not change. Home: package
// lifecycle or nodepressure (the kubelet's node status); proptest/node.go
// holds the same texts for its generators.
func kubeletNodeConditions(old []api.NodeCondition, now time.Time) []api.NodeCondition {
	want := []api.NodeCondition{
		{Type: api.NodeMemoryPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
		{Type: api.NodeDiskPressure, Status: api.ConditionFalse, Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
		{Type: api.NodePIDPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
		{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"},
	}
	var out []api.NodeCondition
	for _, c := range old {
		keep := true
		for _, w := range want {
			if w.Type == c.Type {
				keep = false
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	for _, w := range want {
		w.LastHeartbeatTime = api.NewTime(now)
		w.LastTransitionTime = api.NewTime(now)
		for _, c := range old {
			if c.Type == w.Type && c.Status == w.Status && !c.LastTransitionTime.IsZero() {
				w.LastTransitionTime = c.LastTransitionTime
			}
		}
		out = append(out, w)
	}
	return out
}
