package scheduling

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// Steps place pending pods one by one: a gated pod is never popped, a bound
// pod was feasible on its node when decided and is then counted there, a
// pod that fits nowhere goes back to the queue, and the loop ends when
// nothing can be popped.
func TestStepProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods := genWalkCluster(t)
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, n := range nodes {
			names = append(names, n.Name)
		}
		now := time.Unix(1_000_000, 0)
		q, err := NewQueue(QueueConfig{}, now)
		if err != nil {
			t.Fatal(err)
		}
		gated := map[string]bool{}
		for i := range rapid.IntRange(1, 8).Draw(t, "batch") {
			p := genWalkPod(t, names)
			p.Name, p.UID = fmt.Sprintf("batch-%d", i), fmt.Sprintf("uid-batch-%d", i)
			if rapid.IntRange(0, 3).Draw(t, "gated") == 0 {
				p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/hold"}}
				gated[p.Key()] = true
			}
			if err := q.Add(p, now); err != nil {
				t.Fatal(err)
			}
		}
		s := Scheduler{PercentageOfNodesToScore: int32(rapid.IntRange(0, 100).Draw(t, "pct"))}
		var d Decision
		for step := 0; ; step++ {
			if step > 50 {
				t.Fatal("the loop does not end")
			}
			now = now.Add(time.Millisecond)
			res, err := s.Step(c, q, &d, now)
			if err != nil {
				t.Fatal(err)
			}
			if res.Pod == nil {
				break
			}
			if gated[res.Pod.Key()] {
				t.Fatalf("gated pod %s popped", res.Pod.Key())
			}
			if res.Node == "" {
				if res.Message == "" {
					t.Fatalf("%s fits nowhere without a message", res.Pod.Key())
				}
				if e, ok := q.Entry(res.Pod.Key()); !ok || e.Place == QueueInFlight {
					t.Fatalf("%s not handed back to the queue: %+v", res.Pod.Key(), e)
				}
				continue
			}
			ni := c.NodeByName(res.Node)
			if i, ok := d.Chosen(); !ok || i != ni.Index() || !d.Fits(i) {
				t.Fatalf("%s bound to %s, decision chose %d (%v)", res.Pod.Key(), res.Node, i, ok)
			}
			if p := c.pods[res.Pod.Key()]; p == nil || p.node != ni {
				t.Fatalf("%s not counted on %s", res.Pod.Key(), res.Node)
			}
			if _, ok := q.Entry(res.Pod.Key()); ok {
				t.Fatalf("%s still queued after binding", res.Pod.Key())
			}
		}
	})
}

func TestStepBadInput(t *testing.T) {
	c, _ := NewCluster(nil, nil, Config{})
	q, _ := NewQueue(QueueConfig{}, time.Unix(0, 0))
	var s *Scheduler
	if _, err := s.Step(c, q, nil, time.Unix(1, 0)); err == nil {
		t.Error("nil scheduler accepted")
	}
	var ok Scheduler
	if _, err := ok.Step(nil, q, nil, time.Unix(1, 0)); err == nil {
		t.Error("nil cluster accepted")
	}
	if _, err := ok.Step(c, nil, nil, time.Unix(1, 0)); err == nil {
		t.Error("nil queue accepted")
	}
	// No node at all: the pod backs off as after an error.
	if err := q.Add(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "d"}}, time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	res, err := ok.Step(c, q, nil, time.Unix(2, 0))
	if err != nil || res.Message != ErrNoNodesAvailable.Error() {
		t.Fatalf("no nodes: %+v, %v", res, err)
	}
	if e, _ := q.Entry("d/p"); e.Place != QueueBackoff {
		t.Fatalf("no nodes: pod %v, want backoff", e.Place)
	}
}
