package nodelifecycle

import (
	"time"

	"github.com/podsem/podsem/api"
)

var t0 = time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func newPod(name string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1", UID: "uid-" + name, ResourceVersion: "10", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "node-1"},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
			{Type: api.PodReady, Status: api.ConditionTrue},
		}},
	}
}

func unready(p *api.Pod) {
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
}

// mustController is NewController for configurations known to be valid.
func mustController(cfg Config) *Controller {
	c, err := NewController(cfg)
	if err != nil {
		panic(err)
	}
	return c
}

// mustMonitor is NewMonitor for configurations known to be valid.
func mustMonitor(cfg Config) *Monitor {
	m, err := NewMonitor(cfg)
	if err != nil {
		panic(err)
	}
	return m
}

// indexOf is the position of the node named name in nodes, -1 if none.
func indexOf(nodes []*api.Node, name string) int {
	for i, n := range nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

// writeReports writes each monitor pass report of r (status and taints)
// on its node in nodes, as the API server would.
func writeReports(nodes []*api.Node, r Report) {
	for _, rep := range r.Nodes {
		i := indexOf(nodes, rep.Node)
		n := *nodes[i]
		if rep.Status != nil {
			n.Status = *rep.Status
		}
		n.Spec.Taints = rep.Taints
		nodes[i] = &n
	}
}
