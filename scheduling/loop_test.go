package scheduling

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// Ticks place pending pods one by one: a gated pod is never popped, a bound
// pod was feasible on its node when decided and is then counted there, a
// pod that fits nowhere goes back to the queue, and the loop ends when
// nothing can be popped, which is when NextDeadline stops being now.
func TestLoopProperties(t *testing.T) {
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
		pct := int32(rapid.IntRange(0, 100).Draw(t, "pct"))
		l, err := NewLoop(c, LoopConfig{PercentageOfNodesToScore: pct}, now)
		if err != nil {
			t.Fatal(err)
		}
		q := l.Queue()
		gated := map[string]bool{}
		for i := range rapid.IntRange(1, 8).Draw(t, "batch") {
			p := genWalkPod(t, names)
			p.Name, p.UID = fmt.Sprintf("batch-%d", i), fmt.Sprintf("uid-batch-%d", i)
			if rapid.IntRange(0, 3).Draw(t, "gated") == 0 {
				p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/hold"}}
				gated[p.Key()] = true
			}
			if _, err := l.Step(PodAdded(p), now); err != nil {
				t.Fatal(err)
			}
		}
		for step := 0; ; step++ {
			if step > 50 {
				t.Fatal("the loop does not end")
			}
			now = now.Add(time.Millisecond)
			ready := !l.NextDeadline().IsZero() && !l.NextDeadline().After(now)
			res, err := l.Step(Tick(), now)
			if err != nil {
				t.Fatal(err)
			}
			if (res.Pod != nil) != ready {
				t.Fatalf("popped %v with NextDeadline %v at %v", res.Pod != nil, l.NextDeadline(), now)
			}
			if res.Pod == nil {
				break
			}
			d := res.Decision
			if gated[res.Pod.Key()] {
				t.Fatalf("gated pod %s popped", res.Pod.Key())
			}
			if res.Node == "" {
				if res.Message == "" {
					t.Fatalf("%s fits nowhere without a message", res.Pod.Key())
				}
				if last := res.Actions[len(res.Actions)-1]; last.Kind != ActionFailedScheduling || last.Condition.Message != res.Message {
					t.Fatalf("%s fits nowhere: last action %v", res.Pod.Key(), last)
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
			if len(res.Actions) != 1 || res.Actions[0].Kind != ActionBind || res.Actions[0].Node != res.Node {
				t.Fatalf("%s bound: actions %v", res.Pod.Key(), res.Actions)
			}
		}
	})
}

func TestLoopBadInput(t *testing.T) {
	start := time.Unix(0, 0)
	if _, err := NewLoop(nil, LoopConfig{}, start); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil cluster: %v", err)
	}
	c, _ := NewCluster(nil, nil, Config{})
	if _, err := NewLoop(c, LoopConfig{PercentageOfNodesToScore: 101}, start); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("percentage 101: %v", err)
	}
	if _, err := NewLoop(c, LoopConfig{Queue: QueueConfig{PodInitialBackoff: -1}}, start); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("negative backoff: %v", err)
	}
	var nilLoop *Loop
	if _, err := nilLoop.Step(Tick(), start); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil loop: %v", err)
	}
	if !nilLoop.NextDeadline().IsZero() || nilLoop.Cluster() != nil || nilLoop.Queue() != nil {
		t.Error("nil loop has a deadline or parts")
	}
	l, err := NewLoop(c, LoopConfig{}, start)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []Input{PodAdded(nil), PodUpdated(nil), NodeAdded(nil), NodeUpdated(nil),
		ObjectSet(nil), ObjectDeleted((*api.StorageClass)(nil)), ObjectSet(&api.Pod{}), {Kind: 99},
		PodDeleted("d", "nobody"), NodeDeleted("nowhere")} {
		if _, err := l.Step(in, start); !errors.Is(err, api.ErrInvalidInput) {
			t.Errorf("%v: %v", in, err)
		}
	}
	// No node at all: the pod backs off as after an error, and the
	// failure says why.
	if _, err := l.Step(PodAdded(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "d"}}), time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	res, err := l.Step(Tick(), time.Unix(2, 0))
	if err != nil || res.Message != ErrNoNodesAvailable.Error() {
		t.Fatalf("no nodes: %+v, %v", res, err)
	}
	if e, _ := l.Queue().Entry("d/p"); e.Place != QueueBackoff {
		t.Fatalf("no nodes: pod %v, want backoff", e.Place)
	}
	if a := res.Actions; len(a) != 1 || a[0].Condition.Reason != api.PodReasonUnschedulable {
		t.Fatalf("no nodes: actions %v", a)
	}
}
