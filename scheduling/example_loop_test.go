package scheduling_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/scheduling"
)

// The scheduling loop driven as a simulator drives it: inputs when the
// world changes, Tick at each deadline the loop gives. Two pods arrive on
// a one-node cluster; the second does not fit and waits in the
// unschedulable pool (this loop has no PostFilter plugin, so no
// preemption) until a second node is registered.
func ExampleLoop() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c, _ := scheduling.NewCluster(nil, nil, scheduling.Config{})
	l, err := scheduling.NewLoop(c, scheduling.LoopConfig{}, start)
	if err != nil {
		fmt.Println(err)
		return
	}
	step := func(in scheduling.Input, now time.Time) {
		res, err := l.Step(in, now)
		if err != nil {
			fmt.Println(err)
		}
		for _, a := range res.Actions {
			fmt.Printf("%v %s\n", now.Sub(start), a)
		}
	}
	run := func(until time.Time) {
		for d := l.NextDeadline(); !d.IsZero() && !d.After(until); d = l.NextDeadline() {
			step(scheduling.Tick(), d)
		}
	}
	step(scheduling.NodeAdded(node("node-a", "4", "8Gi", nil)), start)
	step(scheduling.PodAdded(pod("web", "", "3", "1Gi", nil)), start)
	step(scheduling.PodAdded(pod("batch", "", "2", "1Gi", nil)), start)
	run(start.Add(time.Minute))
	fmt.Println("queue:", l.Queue().State().Unschedulable)

	later := start.Add(2 * time.Minute)
	step(scheduling.NodeAdded(node("node-b", "4", "8Gi", nil)), later)
	run(later)
	// Output:
	// 0s Bind(default/web, node-a)
	// 0s FailedScheduling(default/batch, Unschedulable: 0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate)
	// queue: [default/batch]
	// 2m0s Bind(default/batch, node-b)
}
