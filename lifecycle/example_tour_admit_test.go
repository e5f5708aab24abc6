package lifecycle_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// Why the kubelet refused my pod: it was created with spec.nodeName (no
// scheduler checked it) on a node whose 4Gi of memory the running pod
// already holds 3Gi of. The kubelet writes it Failed with OutOfmemory.
func ExampleAdmit_outOfMemory() {
	q := api.MustParseQuantity
	pod := func(name, memory string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
		p.Spec.NodeName = "node-1"
		p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceMemory: q(memory)},
		}}}
		return p
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	node.Status.Allocatable = api.ResourceList{api.ResourceCPU: q("2"), api.ResourceMemory: q("4Gi"), api.ResourcePods: q("110")}

	r, err := lifecycle.Admit(lifecycle.AdmitInput{Node: node, Pod: pod("web", "2Gi"), Pods: []*api.Pod{pod("cache", "3Gi")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("admitted:", r.Admit, "by", r.Handler)
	fmt.Println(r.Status.Phase, r.Status.Reason)
	fmt.Println(r.Status.Message)
	// Output:
	// admitted: false by predicate
	// Failed OutOfmemory
	// Pod was rejected: Node didn't have enough resource: memory, requested: 2147483648, used: 3221225472, capacity: 4294967296
}
