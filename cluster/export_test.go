package cluster

import "github.com/podsem/podsem/api"

// ReadyNode is a registered node named name with 2 cpu and 110 pod slots
// and a Ready condition, for the tests of both packages.
func ReadyNode(name string) *api.Node {
	node := &api.Node{}
	node.APIVersion, node.Kind, node.Name = "v1", "Node", name
	node.Status.Allocatable = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("2"), api.ResourcePods: api.MustParseQuantity("110")}
	node.Status.Capacity = node.Status.Allocatable
	node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}
	return node
}
