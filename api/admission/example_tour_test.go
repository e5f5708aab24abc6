package admission_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// The DefaultTolerationSeconds admission plugin gives every new pod five
// minutes on a not-ready or unreachable node before taint-based eviction,
// unless the pod already says how long it tolerates the taint.
func ExampleDefaultTolerations_ownToleration() {
	sixHundred := int64(600)
	pod := &api.Pod{Spec: api.PodSpec{Tolerations: []api.Toleration{{
		Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists,
		Effect: api.TaintEffectNoExecute, TolerationSeconds: &sixHundred,
	}}}}
	for _, t := range admission.DefaultTolerations(pod, admission.TolerationSeconds{}) {
		fmt.Printf("%s:%s for %ds\n", t.Key, t.Effect, *t.TolerationSeconds)
	}
	// Output:
	// node.kubernetes.io/unreachable:NoExecute for 600s
	// node.kubernetes.io/not-ready:NoExecute for 300s
}
