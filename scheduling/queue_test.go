package scheduling

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func queued(name string, prio *int32, at time.Time) QueuedPod {
	return QueuedPod{Pod: &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns"}, Spec: api.PodSpec{Priority: prio}}, Timestamp: at}
}

func TestSortQueueDocExample(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	q := []QueuedPod{
		queued("low", i32(0), t0),
		queued("high", i32(1000), t0.Add(2*time.Second)),
		queued("mid-late", i32(100), t0.Add(3*time.Second)),
		queued("mid-early", i32(100), t0.Add(time.Second)),
		queued("unset", nil, t0.Add(-time.Second)),
	}
	SortQueue(q)
	var got []string
	for _, p := range q {
		got = append(got, p.Pod.Name)
	}
	want := "[high mid-early mid-late unset low]"
	if fmt.Sprint(got) != want {
		t.Fatalf("order %v, want %s", got, want)
	}
}

// The sorted queue never hands out a lower-priority pod before a higher
// one, nor, at equal priority, a later-queued pod before an earlier one.
func TestSortQueueProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 20).Draw(t, "n")
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		q := make([]QueuedPod, n)
		for i := range q {
			var prio *int32
			if rapid.Bool().Draw(t, "has-prio") {
				prio = i32(rapid.Int32Range(-3, 3).Draw(t, "prio"))
			}
			q[i] = queued(fmt.Sprint("p", i), prio, t0.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "at"))*time.Second))
		}
		SortQueue(q)
		for i := 1; i < len(q); i++ {
			a, b := q[i-1], q[i]
			if QueueCompare(a, b) > 0 {
				t.Fatalf("%s (prio %d, %v) handed out before %s (prio %d, %v)",
					a.Pod.Name, api.PodPriority(a.Pod), a.Timestamp, b.Pod.Name, api.PodPriority(b.Pod), b.Timestamp)
			}
		}
	})
}
