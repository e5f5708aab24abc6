package nodelifecycle_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodelifecycle"
)

var lostAt = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// A pod admitted with the default tolerations, on a node that turned
// unreachable: it may stay 300 s after the taint eviction controller
// notices the taint.
func ExampleEvaluateNoExecute() {
	seconds := int64(300)
	taints := []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}}
	tolerations := []api.Toleration{
		{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &seconds},
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &seconds},
	}
	d := nodelifecycle.EvaluateNoExecute(taints, tolerations)
	fmt.Println(d.Outcome, d.After, d.Decisive.Key)
	// Output: Deadline 5m0s node.kubernetes.io/unreachable
}

// The deadline counts from when the controller sees the taint, not from
// its timeAdded; a later, shorter toleration does not bring it forward.
func ExampleTaintEviction() {
	c := nodelifecycle.NewTaintEviction()
	seconds := int64(300)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "default", Generation: 1},
		Spec: api.PodSpec{NodeName: "node-2", Tolerations: []api.Toleration{
			{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &seconds},
		}},
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-2"}, Spec: api.NodeSpec{Taints: []api.Taint{
		{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: api.NewTimePtr(lostAt.Add(-time.Hour))},
	}}}
	show := func(acts []nodelifecycle.TaintEvictionAction) {
		for _, a := range acts {
			fmt.Printf("%s %s at %s", a.Kind, a.Pod, a.At.Format("15:04:05"))
			if a.DisruptionTarget != nil {
				fmt.Printf(" (%s: %s)", a.DisruptionTarget.Reason, a.DisruptionTarget.Message)
			}
			fmt.Println()
		}
	}
	step := func(ev nodelifecycle.Event, now time.Time) {
		acts, err := c.Step(ev, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		show(acts)
	}
	step(nodelifecycle.PodUpdated(pod), lostAt)
	step(nodelifecycle.NodeUpdated(node), lostAt)
	shorter := *pod
	five := int64(5)
	shorter.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &five}}
	step(nodelifecycle.PodUpdated(&shorter), lostAt.Add(time.Minute))
	step(nodelifecycle.Tick(), c.NextDeadline())
	// Output:
	// ScheduleEviction default/web-0 at 10:05:00
	// EvictPod default/web-0 at 10:05:00 (DeletionByTaintManager: Taint manager: deleting due to NoExecute taint)
}

// The NoSchedule taints a node's conditions call for.
func ExampleConditionTaints() {
	node := &api.Node{
		Spec: api.NodeSpec{Unschedulable: true},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{
			{Type: api.NodeReady, Status: api.ConditionFalse},
			{Type: api.NodeDiskPressure, Status: api.ConditionTrue},
		}},
	}
	for _, t := range nodelifecycle.ConditionTaints(node) {
		fmt.Printf("%s:%s\n", t.Key, t.Effect)
	}
	// Output:
	// node.kubernetes.io/not-ready:NoSchedule
	// node.kubernetes.io/disk-pressure:NoSchedule
	// node.kubernetes.io/unschedulable:NoSchedule
}

// The Ready-based NoExecute pass: an Unknown node trades its not-ready
// taint for unreachable, with a fresh timeAdded.
func ExampleNoExecuteTaintPass() {
	node := &api.Node{
		Spec:   api.NodeSpec{Taints: []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}}},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}},
	}
	u := nodelifecycle.NoExecuteTaintPass(node, lostAt)
	for _, t := range u.Added {
		fmt.Println("added", t.Key, t.TimeAdded.Format(time.TimeOnly))
	}
	for _, t := range u.Removed {
		fmt.Println("removed", t.Key)
	}
	// Output:
	// added node.kubernetes.io/unreachable 10:00:00
	// removed node.kubernetes.io/not-ready
}

// The pod status write of MarkPodsNotReady.
func ExampleMarkPodNotReady() {
	pod := &api.Pod{Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}}
	c := nodelifecycle.MarkPodNotReady(pod, lostAt)
	fmt.Println(c.Type, c.Status, c.LastTransitionTime.Format(time.TimeOnly))
	// Output: Ready False 10:00:00
}

// The node lifecycle controller looks every 5 s; a kubelet silent since
// 10:00:00 is marked Unknown at the first look strictly after the 50 s
// grace period; that look adds both unreachable taints, NoSchedule and
// NoExecute, for the NoExecute pass reads the Unknown the look has just
// written. Nothing is due after that until the kubelet is heard from.
// Jumping from deadline to deadline, the caller steps only at those looks.
func ExampleMonitor() {
	m, err := nodelifecycle.NewMonitor(nodelifecycle.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	node := &api.Node{
		ObjectMeta: api.ObjectMeta{Name: "node-2"},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{
			{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: api.NewTime(lostAt)},
		}},
	}
	for now := lostAt; !now.IsZero(); now = m.NextDeadline() {
		rep, _ := m.Step(nodelifecycle.MonitorInput{Node: node, LeaseRenew: lostAt}, now)
		s := int(now.Sub(lostAt).Seconds())
		fmt.Printf("t=%ds look\n", s)
		if rep.Status != nil {
			fmt.Printf("t=%ds Ready=%s (%s); mark pods not ready: %v\n", s, rep.CurrentReady.Status, rep.CurrentReady.Reason, rep.MarkPodsNotReady)
			node.Status = *rep.Status // what the API server now holds
		}
		for _, t := range rep.NoSchedule.Added {
			fmt.Printf("t=%ds tainted %s:%s\n", s, t.Key, t.Effect)
		}
		for _, t := range rep.NoExecute.Added {
			fmt.Printf("t=%ds tainted %s:%s\n", s, t.Key, t.Effect)
		}
		node.Spec.Taints = rep.Taints
	}
	// Output:
	// t=0s look
	// t=55s look
	// t=55s Ready=Unknown (NodeStatusUnknown); mark pods not ready: true
	// t=55s tainted node.kubernetes.io/unreachable:NoSchedule
	// t=55s tainted node.kubernetes.io/unreachable:NoExecute
}
