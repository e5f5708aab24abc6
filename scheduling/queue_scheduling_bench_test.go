package scheduling

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

const benchQueuePods = 10_000

// benchQueue returns a queue holding benchQueuePods active pods of mixed
// priorities, added one millisecond apart.
func benchQueue(b *testing.B) (*Queue, time.Time) {
	b.Helper()
	q, err := NewQueue(QueueConfig{}, queueStart)
	if err != nil {
		b.Fatal(err)
	}
	now := queueStart
	for i := 0; i < benchQueuePods; i++ {
		prio := int32(i % 7 * 100)
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "bench", Name: fmt.Sprintf("pod-%05d", i)}}
		pod.Spec.Priority = &prio
		now = now.Add(time.Millisecond)
		if err := q.Add(pod, now); err != nil {
			b.Fatal(err)
		}
	}
	return q, now
}

// One scheduling attempt that is rejected, over 10,000 queued pods: Pop
// the best pod, Fail it to the unschedulable pool; every 100 attempts a
// cluster event moves the pool back (to backoff), and the clock runs 10 ms
// per attempt so the backoff flushes return pods to active.
func BenchmarkQueuePopFail(b *testing.B) {
	q, now := benchQueue(b)
	plugins := []string{PluginNodeResourcesFit}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(10 * time.Millisecond)
		pod, _, ok := q.Pop(now)
		if !ok {
			b.Fatal("nothing to pop")
		}
		if err := q.Fail(pod.Key(), plugins, now); err != nil {
			b.Fatal(err)
		}
		if i%100 == 99 {
			q.Move(now)
		}
	}
}

// One successful attempt over 10,000 queued pods: Pop, Done, and the
// scheduled pod's replacement is added (a steady stream of new pods).
func BenchmarkQueuePopDoneAdd(b *testing.B) {
	q, now := benchQueue(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Millisecond)
		pod, _, ok := q.Pop(now)
		if !ok {
			b.Fatal("nothing to pop")
		}
		if err := q.Done(pod.Key(), now); err != nil {
			b.Fatal(err)
		}
		if err := q.Add(pod, now); err != nil {
			b.Fatal(err)
		}
	}
}

// A wildcard cluster event over 10,000 pods in the unschedulable pool: all
// of them move (here to active, their backoff long over).
func BenchmarkQueueMove10k(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		q, now := benchQueue(b)
		for range benchQueuePods {
			pod, _, _ := q.Pop(now)
			_ = q.Fail(pod.Key(), []string{PluginNodeAffinity}, now)
		}
		now = now.Add(time.Minute)
		b.StartTimer()
		q.Move(now)
	}
}
