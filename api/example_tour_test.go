package api_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// `kubectl get pods,nodes -o json` prints a List; Decode returns its items
// as typed objects, quantities parsed as the API server parses them.
func ExampleDecode_list() {
	doc := `{"kind": "List", "items": [
	  {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "web", "namespace": "shop"},
	   "spec": {"containers": [{"name": "app", "image": "nginx",
	     "resources": {"requests": {"cpu": 0.25, "memory": "64Mi"}}}]}},
	  {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-a"},
	   "status": {"allocatable": {"cpu": "4", "memory": "16Gi"}}}]}`
	objs, err := api.Decode([]byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objs {
		switch o := o.(type) {
		case *api.Pod:
			r := o.Spec.Containers[0].Resources.Requests
			fmt.Println("pod", o.Key(), "requests", r.Cpu(), r.Memory())
		case *api.Node:
			fmt.Println("node", o.Name, "allocatable", o.Status.Allocatable.Cpu(), o.Status.Allocatable.Memory())
		}
	}
	// Output:
	// pod shop/web requests 250m 64Mi
	// node node-a allocatable 4 16Gi
}
