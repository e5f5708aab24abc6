package admission_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// A pod that tolerates node.kubernetes.io/unreachable for 6000 s keeps its
// own toleration and gains only the default not-ready one.
func ExampleDefaultTolerations() {
	long := int64(6000)
	pod := &api.Pod{Spec: api.PodSpec{Tolerations: []api.Toleration{
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &long},
	}}}
	for _, t := range admission.DefaultTolerations(pod, admission.TolerationSeconds{}) {
		fmt.Printf("%s %s %s %ds\n", t.Key, t.Operator, t.Effect, *t.TolerationSeconds)
	}
	// Output:
	// node.kubernetes.io/unreachable Exists NoExecute 6000s
	// node.kubernetes.io/not-ready Exists NoExecute 300s
}
