package preemption_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// kube-scheduler as it ships (the default profile, DefaultPreemption as
// its PostFilter) takes its turn for a high-priority pod on a full node:
// the victims are deleted after getting the DisruptionTarget condition,
// the pod is nominated to the node and waits; once the victims are gone
// it is bound there.
func ExampleNewLoop() {
	c := cluster([]*api.Node{node("node-1", "2", "4Gi")},
		bound("low-1", "node-1", "1", 0, 1),
		bound("low-2", "node-1", "1", 0, 2))
	l, err := preemption.NewLoop(c, t0)
	if err != nil {
		fmt.Println(err)
		return
	}
	l.Step(scheduling.PodAdded(pending("high-prio", "2", 1000)), t0)
	res, _ := l.Step(scheduling.Tick(), t0)
	for _, a := range res.Actions {
		fmt.Println(a)
		if a.Kind == scheduling.ActionPreempt {
			fmt.Printf("  %s %s: %s\n", a.Condition.Type, a.Condition.Reason, a.Condition.Message)
		}
	}
	// The kubelet stops the victims; their deletions reach the loop.
	l.Step(scheduling.PodDeleted("default", "low-1"), t0)
	l.Step(scheduling.PodDeleted("default", "low-2"), t0)
	res, _ = l.Step(scheduling.Tick(), l.NextDeadline())
	fmt.Println(res.Actions[0])
	// Output:
	// Preempt(default/low-1 on node-1 for default/high-prio)
	//   DisruptionTarget PreemptionByScheduler: default-scheduler: preempting to accommodate a higher priority pod
	// Preempt(default/low-2 on node-1 for default/high-prio)
	//   DisruptionTarget PreemptionByScheduler: default-scheduler: preempting to accommodate a higher priority pod
	// Nominate(default/high-prio, node-1)
	// FailedScheduling(default/high-prio, Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.)
	// Bind(default/high-prio, node-1)
}
