package api_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// A cordoned GPU node and a pod that tolerates the GPU taint: the first
// taint it does not tolerate, among those that keep pods off (NoSchedule,
// NoExecute), is the cordon's.
func ExampleFindUntoleratedTaint() {
	taints := []api.Taint{
		{Key: "example.com/spot", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "nvidia.com/gpu", Value: "present", Effect: api.TaintEffectNoSchedule},
		{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule},
	}
	tols := []api.Toleration{{Key: "nvidia.com/gpu", Operator: api.TolerationOpExists}}
	if t, ok := api.FindUntoleratedTaint(taints, tols, api.TaintEffectNoSchedule, api.TaintEffectNoExecute); ok {
		fmt.Println(t.Key, t.Effect)
	}
	// Output: node.kubernetes.io/unschedulable NoSchedule
}
