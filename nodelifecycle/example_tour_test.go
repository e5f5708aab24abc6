package nodelifecycle_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodelifecycle"
)

// The node lifecycle controller stops hearing from a node and taints it
// node.kubernetes.io/unreachable:NoExecute. A pod with the API server's
// default tolerations is evicted after 300s, a DaemonSet pod tolerating
// the taint forever stays, and a pod without tolerations goes at once.
func ExampleEvaluateNoExecute_nodeLost() {
	taints := []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}}
	fiveMinutes := int64(300)
	for _, pod := range []struct {
		name        string
		tolerations []api.Toleration
	}{
		{"web", []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists,
			Effect: api.TaintEffectNoExecute, TolerationSeconds: &fiveMinutes}}},
		{"fluentd", []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists,
			Effect: api.TaintEffectNoExecute}}},
		{"bare", nil},
	} {
		d := nodelifecycle.EvaluateNoExecute(taints, pod.tolerations)
		fmt.Println(pod.name, d.Outcome, d.After)
	}
	// Output:
	// web Deadline 5m0s
	// fluentd Forever 0s
	// bare Untolerated 0s
}
