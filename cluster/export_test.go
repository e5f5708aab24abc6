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

// writeStatusPosts makes m's kubelets, and those it registers later,
// write their unchanged periodic node status posts rather than compute
// them when read: the reference TestLazyStatusPosts compares with.
func (m *Machine) writeStatusPosts() {
	m.eagerStatus = true
	for _, k := range m.kubelets {
		k.eagerStatus = true
		if k.q != nil {
			k.q.mark(k) // its periodic post is a deadline now
		}
	}
}
