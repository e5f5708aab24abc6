package scheduling

import (
	"slices"
	"testing"

	"github.com/podsem/podsem/api"
)

// newEventLoop is a loop over one 1-cpu node running a 1-cpu pod, with
// "big" (2 cpu, rejected by NodeResourcesFit) in the unschedulable pool.
func newEventLoop(t *testing.T) *Loop {
	t.Helper()
	c := ftCluster(t, []*api.Node{ftNode("n1", 1000, 110, nil)}, []*api.Pod{ftPod("d", "run", "n1", 1000, map[string]string{"app": "run"})}, Config{})
	l, err := NewLoop(c, LoopConfig{}, queueStart)
	if err != nil {
		t.Fatal(err)
	}
	mustStep(t, l, PodAdded(ftPod("d", "big", "", 2000, nil)), 0)
	if res := mustStep(t, l, Tick(), 0); res.Node != "" {
		t.Fatalf("big bound to %s", res.Node)
	}
	if place(l, "d/big") != QueueUnschedulable {
		t.Fatalf("big is %v", place(l, "d/big"))
	}
	return l
}

func mustStep(t *testing.T, l *Loop, in Input, ms int64) StepResult {
	t.Helper()
	res, err := l.Step(in, at(ms))
	if err != nil {
		t.Fatalf("%v: %v", in, err)
	}
	return res
}

func place(l *Loop, key string) QueuePlace {
	e, _ := l.Queue().Entry(key)
	return e.Place
}

// Which cluster events bring a pod NodeResourcesFit rejected back from the
// unschedulable pool.
func TestLoopEventsMovePods(t *testing.T) {
	relabelled := ftNode("n1", 1000, 110, map[string]string{"tier": "gold"})
	sameNode := ftNode("n1", 1000, 110, nil)
	sameNode.Annotations = map[string]string{"note": "heartbeat"}
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Namespace: "d", Name: "data"}}
	for _, tc := range []struct {
		name  string
		input Input
		moved bool
	}{
		{"node added", NodeAdded(ftNode("n2", 4000, 110, nil)), true},
		{"node relabelled (NodeResourcesFit registers no label change)", NodeUpdated(relabelled), false},
		{"node grown", NodeUpdated(ftNode("n1", 4000, 110, nil)), true},
		{"node updated in nothing the filters read", NodeUpdated(sameNode), false},
		{"node deleted (only PodTopologySpread cares)", NodeDeleted("n1"), false},
		{"bound pod deleted", PodDeleted("d", "run"), true},
		{"bound pod added (only affinity and spread care)", PodAdded(ftPod("d", "other", "n1", 0, nil)), false},
		{"bound pod finished", PodUpdated(func() *api.Pod {
			p := ftPod("d", "run", "n1", 1000, map[string]string{"app": "run"})
			p.Status.Phase = api.PodSucceeded
			return p
		}()), true},
		{"claim set (only the volume plugins care)", ObjectSet(claim), false},
		{"budget set", ObjectSet(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "d", Name: "b"}}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newEventLoop(t)
			mustStep(t, l, tc.input, 5000)
			if got := place(l, "d/big") != QueueUnschedulable; got != tc.moved {
				t.Errorf("moved %v (now %v), want %v", got, place(l, "d/big"), tc.moved)
			}
		})
	}
}

func TestLoopPodEvents(t *testing.T) {
	l := newEventLoop(t)
	// A pod bound by another scheduler leaves the queue.
	elsewhere := ftPod("d", "big", "n1", 2000, nil)
	mustStep(t, l, PodUpdated(elsewhere), 10)
	if _, ok := l.Queue().Entry("d/big"); ok {
		t.Error("a pod bound elsewhere is still queued")
	}
	// An update that would unbind it is a stale view: ignored.
	mustStep(t, l, PodUpdated(ftPod("d", "big", "", 2000, nil)), 20)
	if _, ok := l.Queue().Entry("d/big"); ok || l.Cluster().NodeByName("n1").Pods()[1].pod.Spec.NodeName != "n1" {
		t.Error("an unbinding update was applied")
	}
	// A pod of another scheduler is recorded, never queued.
	other := ftPod("d", "theirs", "", 0, nil)
	other.Spec.SchedulerName = "my-scheduler"
	mustStep(t, l, PodAdded(other), 30)
	if _, ok := l.Queue().Entry("d/theirs"); ok {
		t.Error("a pod of another scheduler is queued")
	}
	// A pod being deleted is popped and dropped with only an event.
	gone := ftPod("d", "gone", "", 0, nil)
	gone.DeletionTimestamp = api.NewTimePtr(at(40))
	mustStep(t, l, PodAdded(gone), 40)
	res := mustStep(t, l, Tick(), 40)
	if len(res.Actions) != 1 || res.Actions[0].Condition != nil || res.Actions[0].Event.Note != "skip schedule deleting pod: d/gone" {
		t.Errorf("deleting pod: %v", res.Actions)
	}
	if _, ok := l.Queue().Entry("d/gone"); ok {
		t.Error("a pod being deleted is still queued")
	}
	// Deleting a pending pod takes it out of the snapshot and the queue.
	mustStep(t, l, PodAdded(ftPod("d", "later", "", 0, nil)), 50)
	mustStep(t, l, PodDeleted("d", "later"), 60)
	if _, ok := l.Queue().Entry("d/later"); ok || !l.NextDeadline().IsZero() {
		t.Errorf("a deleted pod is still queued (deadline %v)", l.NextDeadline())
	}
}

func TestLoopObjects(t *testing.T) {
	l := newEventLoop(t)
	c := l.Cluster()
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "d", Name: "b"}}
	mustStep(t, l, ObjectSet(pdb), 0)
	mustStep(t, l, ObjectSet(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "a", Name: "first"}}), 0)
	if got := c.PodDisruptionBudgets(); len(got) != 2 || got[0].Name != "first" || got[1] != pdb {
		t.Errorf("budgets %v", got)
	}
	mustStep(t, l, ObjectDeleted(pdb), 0)
	if got := c.PodDisruptionBudgets(); len(got) != 1 {
		t.Errorf("budgets after delete %v", got)
	}
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "d", Name: "web"}}
	rs2 := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "d", Name: "web"}}
	mustStep(t, l, ObjectSet(rs), 0)
	mustStep(t, l, ObjectSet(rs2), 0)
	if got := c.workloads.ReplicaSets; len(got) != 1 || got[0] != rs2 {
		t.Errorf("replica sets %v", got)
	}
	mustStep(t, l, ObjectDeleted(rs), 0)
	if len(c.workloads.ReplicaSets) != 0 {
		t.Errorf("replica sets after delete %v", c.workloads.ReplicaSets)
	}
	if _, err := l.Step(ObjectDeleted(rs), at(0)); err == nil {
		t.Error("deleting an unknown workload: no error")
	}
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "d", Labels: map[string]string{"team": "x"}}}
	mustStep(t, l, ObjectSet(ns), 0)
	mustStep(t, l, ObjectDeleted(ns), 0)
	if _, err := l.Step(ObjectDeleted(ns), at(0)); err == nil {
		t.Error("deleting an unknown namespace: no error")
	}
	if s := ObjectSet(ns).String(); s != "ObjectSet(*api.Namespace d)" {
		t.Errorf("input %q", s)
	}
	if !slices.Equal(inputNames[:], []string{"", "Tick", "PodAdded", "PodUpdated", "PodDeleted", "NodeAdded", "NodeUpdated",
		"NodeDeleted", "ObjectSet", "ObjectDeleted", "BindFailed"}) || InputKind(99).String() != "InputKind(99)" || ActionKind(99).String() != "ActionKind(99)" {
		t.Error("kind names")
	}
}

// A FailedScheduling note longer than an Event allows is cut as the
// scheduler cuts it; the condition keeps the whole message.
func TestTruncateNote(t *testing.T) {
	long := string(make([]byte, 2000))
	if got := truncateNote(long); len(got) != noteLengthLimit || got[len(got)-4:] != " ..." {
		t.Errorf("cut to %d bytes ending %q", len(got), got[len(got)-4:])
	}
	if truncateNote("short") != "short" {
		t.Error("short note changed")
	}
}
