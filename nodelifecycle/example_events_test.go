package nodelifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodelifecycle"
)

// What `kubectl events` shows when node-2's kubelet goes silent at 0s: the
// node lifecycle controller registers the nodes, records NodeNotReady on
// node-2 when its 50 s grace period is over (at the next monitor pass)
// and on each of its pods as it marks them not ready, and taints it; the
// pod's 300 s toleration of the unreachable taint later, the taint
// eviction controller marks the pod for deletion.
func ExampleMarkPodsNotReady() {
	show := func(at time.Duration, events ...api.Event) {
		for _, e := range events {
			fmt.Printf("%-6v %-7s %-20s %s/%s: %s\n", at, e.Type, e.Reason, e.Regarding.Kind, e.Regarding.Name, e.Note)
		}
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-2", UID: "4f1c"}, Status: api.NodeStatus{Conditions: []api.NodeCondition{
		{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: api.NewTime(lostAt), LastTransitionTime: api.NewTime(lostAt.Add(-time.Hour))},
	}}}
	seconds := int64(300)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "default"},
		Spec: api.PodSpec{NodeName: "node-2", Tolerations: []api.Toleration{
			{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &seconds},
		}},
		Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
	}

	// node-1 stays healthy, its kubelet renewing its Lease: the zone is not
	// fully disrupted, so node-2 gets its NoExecute taint.
	healthy := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", UID: "9a0e"}, Status: node.Status}
	c, _ := nodelifecycle.NewController(nodelifecycle.Config{})
	evictor := nodelifecycle.NewTaintEviction()
	if _, err := evictor.Step(nodelifecycle.PodUpdated(pod), lostAt); err != nil {
		fmt.Println(err)
		return
	}
	for now := lostAt; !now.After(lostAt.Add(6 * time.Minute)); now = now.Add(5 * time.Second) {
		at := now.Sub(lostAt)
		r, err := c.Step(nodelifecycle.Input{Nodes: []*api.Node{healthy, node}, Leases: map[string]time.Time{"node-1": now}}, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		show(at, r.Events...)
		for _, rep := range r.Nodes {
			show(at, rep.Events...)
		}
		// node-2's report: its status write, and its pods marked not ready.
		if rep, ok := r.Node(node.Name); ok {
			if rep.MarkPodsNotReady {
				for _, w := range nodelifecycle.MarkPodsNotReady(node.Name, []*api.Pod{pod}, now) {
					show(at, w.Event)
				}
			}
			n := *node
			if rep.Status != nil {
				n.Status = *rep.Status
			}
			n.Spec.Taints = rep.Taints
			node = &n
		}
		for _, w := range r.Tainted {
			n := *node
			n.Spec.Taints = w.Update.Taints
			node = &n
		}
		for _, ev := range []nodelifecycle.Event{nodelifecycle.NodeUpdated(node), nodelifecycle.Tick()} {
			acts, _ := evictor.Step(ev, now)
			for _, a := range acts {
				if a.Event != nil {
					show(at, *a.Event)
				}
			}
		}
	}
	// Output:
	// 0s     Normal  RegisteredNode       Node/node-1: Node node-1 event: Registered Node node-1 in Controller
	// 0s     Normal  RegisteredNode       Node/node-2: Node node-2 event: Registered Node node-2 in Controller
	// 55s    Normal  NodeNotReady         Node/node-2: Node node-2 status is now: NodeNotReady
	// 55s    Warning NodeNotReady         Pod/web-0: Node is not ready
	// 5m55s  Normal  TaintManagerEviction Pod/web-0: Marking for deletion Pod default/web-0
}
