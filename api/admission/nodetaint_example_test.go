package admission_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// A kubelet registers its Node already reporting Ready=True, with a
// dedicated taint of its own. The TaintNodesByCondition admission plugin
// still adds node.kubernetes.io/not-ready:NoSchedule: the node lifecycle
// controller removes it once it has seen the node, and until then the
// scheduler places nothing there.
func ExampleNodeCreateTaints() {
	node := &api.Node{
		ObjectMeta: api.ObjectMeta{Name: "node-2"},
		Spec:       api.NodeSpec{Taints: []api.Taint{{Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}}},
		Status:     api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}},
	}
	for _, t := range admission.NodeCreateTaints(node) {
		fmt.Printf("%s=%s:%s\n", t.Key, t.Value, t.Effect)
	}
	// A node created with the taint already on keeps just the one.
	node.Spec.Taints = []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}}
	fmt.Println(len(admission.NodeCreateTaints(node)))
	// Output:
	// dedicated=db:NoSchedule
	// node.kubernetes.io/not-ready=:NoSchedule
	// 1
}
