package scheduling_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// A scheduler loop over the scheduling queue: a pod that fits nowhere
// waits in the unschedulable pool until a cluster event, then finishes its
// one-second backoff (truncated to a whole second, released by the flush
// one second later) while a pod whose gates were removed goes first.
func ExampleQueue() {
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	q, err := scheduling.NewQueue(scheduling.QueueConfig{}, start) // v1.36.3 defaults: 1 s to 10 s backoff
	if err != nil {
		fmt.Println(err)
		return
	}
	high := int32(1000)
	web := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}}
	batch := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "batch"}, Spec: api.PodSpec{Priority: &high}}
	gated := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "gated"},
		Spec: api.PodSpec{SchedulingGates: []api.PodSchedulingGate{{Name: "example.com/quota"}}}}
	for _, p := range []*api.Pod{web, batch, gated} {
		if err := q.Add(p, start); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(strings.Join(scheduling.SchedulingGatesPreEnqueue(gated).Reasons, "; "))

	t := start.Add(100 * time.Millisecond)
	pod, attempts, _ := q.Pop(t)
	fmt.Println("pop:", pod.Name, "attempt", attempts) // the higher priority first
	_ = q.Fail(pod.Key(), []string{scheduling.PluginNodeResourcesFit}, t)

	pod, _, _ = q.Pop(t)
	fmt.Println("pop:", pod.Name)
	_ = q.Done(pod.Key(), t)

	if _, _, ok := q.Pop(t); !ok {
		fmt.Println("pop: nothing;", q.State().Unschedulable, "waits for an event")
	}

	t = start.Add(500 * time.Millisecond)
	q.Move(t) // e.g. a node was added
	e, _ := q.Entry("default/batch")
	fmt.Println("after the event:", e.Place, "until", e.BackoffUntil.Format("15:04:05"))

	_ = q.Update(&api.Pod{ObjectMeta: gated.ObjectMeta}, t) // gates removed
	pod, _, _ = q.Pop(t)
	fmt.Println("pop:", pod.Name)
	_ = q.Done(pod.Key(), t)

	next, _ := q.NextFlush()
	pod, attempts, _ = q.Pop(next)
	fmt.Println("flush at", next.Format("15:04:05"), "then pop:", pod.Name, "attempt", attempts)
	// Output:
	// waiting for scheduling gates: [example.com/quota]
	// pop: batch attempt 1
	// pop: web
	// pop: nothing; [default/batch] waits for an event
	// after the event: backoff until 12:00:01
	// pop: gated
	// flush at 12:00:02 then pop: batch attempt 2
}
