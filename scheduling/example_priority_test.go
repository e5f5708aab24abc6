package scheduling_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// The scheduling queue hands out higher priorities first, and the earlier
// arrival among equals.
func ExampleSortQueue() {
	t0 := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	prio := func(v int32) *int32 { return &v }
	pod := func(name string, p *int32) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1"}, Spec: api.PodSpec{Priority: p}}
	}
	q := []scheduling.QueuedPod{
		{Pod: pod("low", prio(0)), Timestamp: t0},
		{Pod: pod("high", prio(1000)), Timestamp: t0.Add(2 * time.Second)},
		{Pod: pod("mid-late", prio(100)), Timestamp: t0.Add(3 * time.Second)},
		{Pod: pod("mid-early", prio(100)), Timestamp: t0.Add(time.Second)},
	}
	scheduling.SortQueue(q)
	for _, p := range q {
		fmt.Println(p.Pod.Key())
	}
	// Output:
	// ns-1/high
	// ns-1/mid-early
	// ns-1/mid-late
	// ns-1/low
}
