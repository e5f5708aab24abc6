package downward_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
)

// A container's environment as the kubelet builds it: a downward API
// field, a resource limit in millicores, a ConfigMap's keys under a
// prefix, and $(VAR) references expanded ($$ escapes one).
func ExampleEnvironment_expansion() {
	milli := api.MustParseQuantity("1m")
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "shop"},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{
			Name: "app", Image: "nginx",
			Resources: api.ResourceRequirements{Limits: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("250m")}},
			EnvFrom:   []api.EnvFromSource{{Prefix: "CFG_", ConfigMapRef: &api.ConfigMapEnvSource{LocalObjectReference: api.LocalObjectReference{Name: "site"}}}},
			Env: []api.EnvVar{
				{Name: "POD_NAME", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				{Name: "CPU_MILLIS", ValueFrom: &api.EnvVarSource{ResourceFieldRef: &api.ResourceFieldSelector{Resource: "limits.cpu", Divisor: &milli}}},
				{Name: "GREETING", Value: "$(POD_NAME) serves $(CFG_HOST), not $$(POD_NAME)"},
			},
		}}},
	}
	objects := downward.Objects{ConfigMaps: map[string]map[string]string{"shop/site": {"HOST": "shop.example.com"}}}
	node := &api.Node{Status: api.NodeStatus{Allocatable: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4")}}}
	env, err := downward.Environment(pod, "app", &downward.Context{Node: node}, objects)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range env {
		fmt.Printf("%s=%s\n", e.Name, e.Value)
	}
	// Output:
	// CFG_HOST=shop.example.com
	// POD_NAME=web-0
	// CPU_MILLIS=250
	// GREETING=web-0 serves shop.example.com, not $(POD_NAME)
}
