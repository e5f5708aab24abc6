package scheduling_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/scheduling"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilWorld is a one-node snapshot with a pod bound to the node ("shop/web")
// and a cycle for a pending pod ("shop/new") that fits there, so that the
// nil cases of one argument are not answered by another being empty.
type nilWorld struct {
	c  *scheduling.Cluster
	cy *scheduling.Cycle
	d  *scheduling.Decision
	n  *scheduling.NodeInfo
	p  *scheduling.PodInfo
}

func newNilWorld(t *testing.T) nilWorld {
	t.Helper()
	web := pod("web", "n1", "1", "1Gi", map[string]string{"app": "web"})
	web.Namespace = "shop"
	c, err := scheduling.NewCluster([]*api.Node{node("n1", "4", "8Gi", nil)}, []*api.Pod{web}, scheduling.Config{})
	if err != nil {
		t.Fatalf("NewCluster: %v", err)
	}
	pending := pod("new", "", "1", "1Gi", nil)
	pending.Namespace = "shop"
	cy := c.NewCycle(pending)
	w := nilWorld{c: c, cy: cy, d: cy.Decide(nil), n: c.NodeByName("n1")}
	if w.n == nil || !w.d.Fits(0) {
		t.Fatalf("fixture: node n1 missing or the pending pod does not fit: %s", w.d.Message())
	}
	if w.p = cy.WhatIf(w.n).Pod("shop", "web"); w.p == nil {
		t.Fatalf("fixture: pod shop/web is not on n1")
	}
	return w
}

// invalid checks the nil rule's error: one wrapping api.ErrInvalidInput that
// names the argument.
func invalid(t *testing.T, err error, arg string) {
	t.Helper()
	niltest.Invalid(t, err, api.ErrInvalidInput, arg)
}

// emptyDecision checks that d is a decision that covers no node.
func emptyDecision(t *testing.T, d *scheduling.Decision) {
	t.Helper()
	if d == nil {
		t.Fatalf("got a nil decision, want an empty one")
	}
	if d.NumNodes() != 0 || len(d.Feasible()) != 0 || len(d.Evaluated()) != 0 || d.Cycle() != nil {
		t.Errorf("got a decision over %d nodes (feasible %v), want an empty one", d.NumNodes(), d.Feasible())
	}
}

var nilCluster = (*scheduling.Cluster)(nil)

// nilClusterUpdate checks that an update method of a nil Cluster returns
// the nil-cluster error.
func nilClusterUpdate(t *testing.T, err error) {
	t.Helper()
	invalid(t, err, "cluster")
}

// nilCases calls each exported function and method of scheduling that can
// be handed nil with nil arguments and checks the documented answer:
//
//   - the update methods of a nil Cluster, and the Set and Add methods
//     given a nil object, return an error wrapping api.ErrInvalidInput that
//     names it ("cluster: nil", "node: nil");
//   - the read accessors of a nil Cluster, Cycle, Decision, NodeInfo,
//     PodInfo, WhatIf, Ledger, Queue and Explanation answer as for an
//     empty one: no node, no pod, no score, nothing feasible (an index
//     that names nothing is -1, as it is for an empty decision);
//   - a nil Cycle decides nothing (Decide returns an empty decision,
//     ScheduleOne an error), and a nil Decision argument is allocated;
//   - a nil pod has no priority, requests, limits or scheduling gates and
//     is never scheduled; a nil node has no zone;
//   - nil lists are empty, nil entries of workload and status lists are
//     skipped, and a nil plugin list given to Queue.Fail is an attempt
//     that ended in an error, as documented.
//
// Keyed by the names niltest.Nilable lists; TestNilTableComplete keeps it
// complete.
var nilCases = map[string]func(t *testing.T){
	// Cluster: updates.
	"(*Cluster).AddNode": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.AddNode(node("n2", "1", "1Gi", nil)))
		w := newNilWorld(t)
		invalid(t, w.c.AddNode(nil), "node")
		if w.c.NumNodes() != 1 {
			t.Errorf("a nil node was added: %d nodes", w.c.NumNodes())
		}
	},
	"(*Cluster).AddObjects": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.AddObjects(node("n2", "1", "1Gi", nil)))
		w := newNilWorld(t)
		invalid(t, w.c.AddObjects(node("n2", "1", "1Gi", nil), nil), "objects[1]")
		invalid(t, w.c.AddObjects((*api.Pod)(nil)), "objects[0]")
		invalid(t, w.c.AddObjects((*api.Service)(nil)), "objects[0]")
		if w.c.NumNodes() != 1 {
			t.Errorf("objects were added along with a nil one: %d nodes", w.c.NumNodes())
		}
		if err := w.c.AddObjects(); err != nil {
			t.Errorf("no objects: %v", err)
		}
	},
	"(*Cluster).AddPod": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.AddPod(pod("p", "", "1", "1Gi", nil)))
		invalid(t, newNilWorld(t).c.AddPod(nil), "pod")
	},
	"(*Cluster).NewCycle": func(t *testing.T) {
		if cy := nilCluster.NewCycle(pod("p", "", "1", "1Gi", nil)); cy != nil {
			t.Errorf("nil cluster: got a cycle, want nil")
		}
		if cy := newNilWorld(t).c.NewCycle(nil); cy != nil {
			t.Errorf("nil pod: got a cycle, want nil")
		}
	},
	"(*Cluster).NodeAt": func(t *testing.T) {
		niltest.Zero(t, nilCluster.NodeAt(0))
	},
	"(*Cluster).NodeByName": func(t *testing.T) {
		niltest.Zero(t, nilCluster.NodeByName("n1"))
	},
	"(*Cluster).NominatedPods": func(t *testing.T) {
		niltest.Zero(t, nilCluster.NominatedPods("n1"))
	},
	"(*Cluster).NumNodes": func(t *testing.T) {
		niltest.Zero(t, nilCluster.NumNodes())
	},
	"(*Cluster).RemoveCSIDriver": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemoveCSIDriver("d"))
	},
	"(*Cluster).RemoveCSINode": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemoveCSINode("n1"))
	},
	"(*Cluster).RemoveNamespace": func(t *testing.T) {
		nilCluster.RemoveNamespace("shop") // does nothing
	},
	"(*Cluster).RemoveNode": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemoveNode("n1"))
	},
	"(*Cluster).RemovePersistentVolume": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemovePersistentVolume("pv"))
	},
	"(*Cluster).RemovePersistentVolumeClaim": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemovePersistentVolumeClaim("shop", "claim"))
	},
	"(*Cluster).RemovePod": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemovePod("shop", "web"))
	},
	"(*Cluster).RemoveStorageClass": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.RemoveStorageClass("fast"))
	},
	"(*Cluster).SetCSIDriver": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.SetCSIDriver(&api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: "d"}}))
		invalid(t, newNilWorld(t).c.SetCSIDriver(nil), "csiDriver")
	},
	"(*Cluster).SetCSINode": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.SetCSINode(&api.CSINode{ObjectMeta: api.ObjectMeta{Name: "n1"}}))
		invalid(t, newNilWorld(t).c.SetCSINode(nil), "csiNode")
	},
	"(*Cluster).SetNamespace": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.SetNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "shop"}}))
		invalid(t, newNilWorld(t).c.SetNamespace(nil), "namespace")
	},
	"(*Cluster).SetPersistentVolume": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.SetPersistentVolume(&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv"}}))
		invalid(t, newNilWorld(t).c.SetPersistentVolume(nil), "persistentVolume")
	},
	"(*Cluster).SetPersistentVolumeClaim": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.SetPersistentVolumeClaim(&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "claim"}}))
		invalid(t, newNilWorld(t).c.SetPersistentVolumeClaim(nil), "persistentVolumeClaim")
	},
	"(*Cluster).SetSpreadWorkloads": func(t *testing.T) {
		nilCluster.SetSpreadWorkloads(scheduling.SpreadWorkloads{}) // does nothing
		// nil entries are skipped: the pod still gets no default
		// constraints and fits.
		w := newNilWorld(t)
		w.c.SetSpreadWorkloads(scheduling.SpreadWorkloads{
			Services:               []*api.Service{nil},
			ReplicationControllers: []*api.ReplicationController{nil},
			ReplicaSets:            []*api.ReplicaSet{nil},
			StatefulSets:           []*api.StatefulSet{nil},
		})
		if d := w.c.NewCycle(w.cy.Pod().Pod()).Decide(nil); !d.Fits(0) {
			t.Errorf("nil workloads: got %s, want the pod to fit", d.Message())
		}
	},
	"(*Cluster).SetStorageClass": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.SetStorageClass(&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "fast"}}))
		invalid(t, newNilWorld(t).c.SetStorageClass(nil), "storageClass")
	},
	"(*Cluster).TreeOrder": func(t *testing.T) {
		niltest.Zero(t, nilCluster.TreeOrder())
	},
	"(*Cluster).UpdateNode": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.UpdateNode(node("n1", "1", "1Gi", nil)))
		invalid(t, newNilWorld(t).c.UpdateNode(nil), "node")
	},
	"(*Cluster).UpdatePod": func(t *testing.T) {
		nilClusterUpdate(t, nilCluster.UpdatePod(pod("web", "n1", "1", "1Gi", nil)))
		invalid(t, newNilWorld(t).c.UpdatePod(nil), "pod")
	},

	// Cycle.
	"(*Cycle).Cluster": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Cycle)(nil).Cluster())
	},
	"(*Cycle).Decide": func(t *testing.T) {
		// Documented: a nil Cycle gives an empty decision, written into d.
		emptyDecision(t, (*scheduling.Cycle)(nil).Decide(nil))
		w := newNilWorld(t)
		emptyDecision(t, (*scheduling.Cycle)(nil).Decide(w.d))
		// A nil d is allocated.
		if d := w.cy.Decide(nil); d == nil || !d.Fits(0) {
			t.Errorf("nil decision: got %v, want a new decision in which n1 fits", d)
		}
	},
	"(*Cycle).Explain": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Cycle)(nil).Explain())
	},
	"(*Cycle).Pod": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Cycle)(nil).Pod())
	},
	"(*Cycle).WhatIf": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Cycle)(nil).WhatIf(newNilWorld(t).n))
		niltest.Zero(t, newNilWorld(t).cy.WhatIf(nil))
	},

	// Decision: a nil one reads as an empty one.
	"(*Decision).AbsentNodesStatus": func(t *testing.T) {
		niltest.Zero(t, nilDecision.AbsentNodesStatus())
	},
	"(*Decision).BestIndex": func(t *testing.T) {
		if i, total, ok := nilDecision.BestIndex(); i != -1 || total != 0 || ok {
			t.Errorf("got %d, %d, %v; want -1, 0, false", i, total, ok)
		}
	},
	"(*Decision).Chosen": func(t *testing.T) {
		if i, ok := nilDecision.Chosen(); i != -1 || ok {
			t.Errorf("got %d, %v; want -1, false", i, ok)
		}
	},
	"(*Decision).Cycle": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Cycle())
	},
	"(*Decision).Evaluated": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Evaluated())
	},
	"(*Decision).Feasible": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Feasible())
	},
	"(*Decision).Fits": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Fits(0))
	},
	"(*Decision).Message": func(t *testing.T) {
		// Documented: the message of a decision over no node.
		if got, want := nilDecision.Message(), (*scheduling.Cycle)(nil).Decide(nil).Message(); got != want {
			t.Errorf("got %q, want %q (an empty decision's)", got, want)
		}
	},
	"(*Decision).NominatedNodeFirst": func(t *testing.T) {
		niltest.Zero(t, nilDecision.NominatedNodeFirst())
	},
	"(*Decision).NumFeasibleNodesToFind": func(t *testing.T) {
		niltest.Zero(t, nilDecision.NumFeasibleNodesToFind())
	},
	"(*Decision).NumNodes": func(t *testing.T) {
		niltest.Zero(t, nilDecision.NumNodes())
	},
	"(*Decision).PreFilter": func(t *testing.T) {
		niltest.Zero(t, nilDecision.PreFilter())
	},
	"(*Decision).PreFilterNodeSubset": func(t *testing.T) {
		niltest.Zero(t, nilDecision.PreFilterNodeSubset())
	},
	"(*Decision).PreScore": func(t *testing.T) {
		niltest.Zero(t, nilDecision.PreScore())
	},
	"(*Decision).Scores": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Scores(nil), nilDecision.Scores(make([]scheduling.NodeScore, 2)))
		// A nil dst is allocated.
		w := newNilWorld(t)
		if got := w.d.Scores(nil); len(got) != 1 || got[0].Node != "n1" {
			t.Errorf("nil dst: got %v, want n1's score", got)
		}
	},
	"(*Decision).Status": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Status(0))
	},
	"(*Decision).Tied": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Tied())
	},
	"(*Decision).Totals": func(t *testing.T) {
		niltest.Zero(t, nilDecision.Totals())
	},
	"(*Decision).UnschedulablePlugins": func(t *testing.T) {
		niltest.Zero(t, nilDecision.UnschedulablePlugins())
	},

	"(*Explanation).String": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Explanation)(nil).String())
	},

	// Ledger.
	"(*Ledger).Fits": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Ledger)(nil).Fits(), new(scheduling.Ledger).Fits())
	},
	"(*Ledger).Reprieve": func(t *testing.T) {
		w := newNilWorld(t)
		niltest.Zero(t, (*scheduling.Ledger)(nil).Reprieve(w.p))
		var l scheduling.Ledger
		if !l.Reset(w.cy, w.n, []*scheduling.PodInfo{w.p}) {
			t.Skip("the arithmetic does not decide the fixture's filters")
		}
		niltest.Zero(t, l.Reprieve(nil))
	},
	"(*Ledger).Reset": func(t *testing.T) {
		w := newNilWorld(t)
		niltest.Zero(t, (*scheduling.Ledger)(nil).Reset(w.cy, w.n, nil))
		var l scheduling.Ledger
		niltest.Zero(t, l.Reset(nil, w.n, nil), l.Reset(w.cy, nil, nil))
		// nil entries of removed are skipped.
		if !l.Reset(w.cy, w.n, []*scheduling.PodInfo{nil, w.p, nil}) || !l.Fits() {
			t.Errorf("nil removed entries: want the arithmetic to decide that the pod fits")
		}
	},
	"(*Ledger).Status": func(t *testing.T) {
		st := (*scheduling.Ledger)(nil).Status()
		if st.Code != scheduling.Error {
			t.Errorf("got code %v, want Error", st.Code)
		}
		invalid(t, st.Err, "ledger")
	},

	// NodeInfo: a nil one is an empty node with index -1.
	"(*NodeInfo).Allocatable": func(t *testing.T) {
		niltest.Zero(t, nilNodeInfo.Allocatable())
	},
	"(*NodeInfo).Index": func(t *testing.T) {
		if got := nilNodeInfo.Index(); got != -1 {
			t.Errorf("got %d, want -1", got)
		}
	},
	"(*NodeInfo).Name": func(t *testing.T) {
		niltest.Zero(t, nilNodeInfo.Name())
	},
	"(*NodeInfo).Node": func(t *testing.T) {
		niltest.Zero(t, nilNodeInfo.Node())
	},
	"(*PodInfo).Pod": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.PodInfo)(nil).Pod())
	},
	"(*NodeInfo).Pods": func(t *testing.T) {
		niltest.Zero(t, nilNodeInfo.Pods())
	},
	"(*NodeInfo).Requested": func(t *testing.T) {
		niltest.Zero(t, nilNodeInfo.Requested())
	},

	// PodInfo: a nil one, or one without a pod, is a pod with nothing set.
	"(*PodInfo).HasLabels": func(t *testing.T) {
		niltest.Zero(t, nilPodInfo.HasLabels(), new(scheduling.PodInfo).HasLabels())
	},
	"(*PodInfo).LabelSet": func(t *testing.T) {
		niltest.Zero(t, nilPodInfo.LabelSet(), new(scheduling.PodInfo).LabelSet())
	},
	"(*PodInfo).Labels": func(t *testing.T) {
		// An empty set, usable as one.
		for _, p := range []*scheduling.PodInfo{nilPodInfo, new(scheduling.PodInfo)} {
			l := p.Labels()
			if l == nil || l.Has("app") || l.Get("app") != "" {
				t.Errorf("got %v, want an empty label set", l)
			}
		}
	},
	"(*PodInfo).Name": func(t *testing.T) {
		niltest.Zero(t, nilPodInfo.Name(), new(scheduling.PodInfo).Name())
	},
	"(*PodInfo).Namespace": func(t *testing.T) {
		niltest.Zero(t, nilPodInfo.Namespace(), new(scheduling.PodInfo).Namespace())
	},
	"(*PodInfo).Priority": func(t *testing.T) {
		niltest.Zero(t, nilPodInfo.Priority(), new(scheduling.PodInfo).Priority())
	},
	"(*PodInfo).StartUnixNano": func(t *testing.T) {
		n, ok := nilPodInfo.StartUnixNano()
		niltest.Zero(t, n, ok)
	},

	// Queue: a nil one holds nothing; its updates fail.
	"(*Queue).Activate": func(t *testing.T) {
		niltest.Zero(t, nilQueue.Activate("shop/web", nilT0))
	},
	"(*Queue).Add": func(t *testing.T) {
		invalid(t, nilQueue.Add(pod("web", "", "1", "1Gi", nil), nilT0), "queue")
		invalid(t, newNilQueue(t).Add(nil, nilT0), "pod")
	},
	"(*Queue).Config": func(t *testing.T) {
		niltest.Zero(t, nilQueue.Config())
	},
	"(*Queue).Delete": func(t *testing.T) {
		invalid(t, nilQueue.Delete("default/web", nilT0), "queue")
	},
	"(*Queue).Done": func(t *testing.T) {
		invalid(t, nilQueue.Done("default/web", nilT0), "queue")
	},
	"(*Queue).Entry": func(t *testing.T) {
		e, ok := nilQueue.Entry("default/web")
		niltest.Zero(t, e, ok)
	},
	"(*Queue).Fail": func(t *testing.T) {
		invalid(t, nilQueue.Fail("default/web", []string{"NodeResourcesFit"}, nilT0), "queue")
		// Documented: no plugins means the attempt ended in an error.
		q := newNilQueue(t)
		if err := q.Add(pod("web", "", "1", "1Gi", nil), nilT0); err != nil {
			t.Fatal(err)
		}
		if _, _, ok := q.Pop(nilT0); !ok {
			t.Fatal("nothing to pop")
		}
		if err := q.Fail("default/web", nil, nilT0); err != nil {
			t.Fatal(err)
		}
		if e, ok := q.Entry("default/web"); !ok || e.ConsecutiveErrors != 1 || e.Place != scheduling.QueueBackoff {
			t.Errorf("nil plugins: got %+v, want one error and backoff", e)
		}
	},
	"(*Queue).FailWithError": func(t *testing.T) {
		invalid(t, nilQueue.FailWithError("default/web", nilT0), "queue")
	},
	"(*Queue).Len": func(t *testing.T) {
		niltest.Zero(t, nilQueue.Len())
	},
	"(*Queue).Move": func(t *testing.T) {
		nilQueue.Move(nilT0) // does nothing
	},
	"(*Queue).NextFlush": func(t *testing.T) {
		at, ok := nilQueue.NextFlush()
		niltest.Zero(t, at, ok)
	},
	"(*Queue).Pop": func(t *testing.T) {
		p, n, ok := nilQueue.Pop(nilT0)
		niltest.Zero(t, p, n, ok)
	},
	"(*Queue).State": func(t *testing.T) {
		niltest.Zero(t, nilQueue.State())
	},
	"(*Queue).Tick": func(t *testing.T) {
		nilQueue.Tick(nilT0) // does nothing
	},
	"(*Queue).Update": func(t *testing.T) {
		invalid(t, nilQueue.Update(pod("web", "", "1", "1Gi", nil), nilT0), "queue")
		invalid(t, newNilQueue(t).Update(nil, nilT0), "pod")
	},

	// Scheduler.
	"(*Scheduler).ScheduleOne": func(t *testing.T) {
		w := newNilWorld(t)
		// Documented: a nil Scheduler is the zero one.
		if d, err := (*scheduling.Scheduler)(nil).ScheduleOne(w.cy, nil); err != nil || !d.Fits(0) {
			t.Errorf("nil scheduler and decision: got %v, %v; want a decision in which n1 fits", d, err)
		}
		d, err := new(scheduling.Scheduler).ScheduleOne(nil, w.d)
		invalid(t, err, "cycle")
		emptyDecision(t, d)
	},

	// Loop: a nil one has no parts and no deadline, and refuses to step.
	"NewLoop": func(t *testing.T) {
		l, err := scheduling.NewLoop(nil, scheduling.LoopConfig{}, nilT0)
		niltest.Zero(t, l)
		invalid(t, err, "cluster")
	},
	"(*Loop).Cluster": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Loop)(nil).Cluster())
	},
	"(*Loop).Queue": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Loop)(nil).Queue())
	},
	"(*Loop).Scheduler": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Loop)(nil).Scheduler())
	},
	"(*Loop).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Loop)(nil).NextDeadline())
	},
	"(*Loop).Step": func(t *testing.T) {
		res, err := (*scheduling.Loop)(nil).Step(scheduling.Tick(), nilT0)
		niltest.Zero(t, res)
		invalid(t, err, "loop")
		w := newNilWorld(t)
		l, err := scheduling.NewLoop(w.c, scheduling.LoopConfig{}, nilT0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			in  scheduling.Input
			arg string
		}{
			{scheduling.PodAdded(nil), "input.Pod"},
			{scheduling.PodUpdated(nil), "input.Pod"},
			{scheduling.NodeAdded(nil), "input.Node"},
			{scheduling.NodeUpdated(nil), "input.Node"},
			{scheduling.ObjectSet(nil), "object"},
			{scheduling.ObjectDeleted(nil), "object"},
			{scheduling.BindFailed(nil, "x"), "pod"},
		} {
			res, err := l.Step(c.in, nilT0)
			niltest.Zero(t, res)
			invalid(t, err, c.arg)
		}
	},
	"PodAdded": func(t *testing.T) {
		niltest.Zero(t, scheduling.PodAdded(nil).Pod) // refused by Step
	},
	"PodUpdated": func(t *testing.T) {
		niltest.Zero(t, scheduling.PodUpdated(nil).Pod) // refused by Step
	},
	"NodeAdded": func(t *testing.T) {
		niltest.Zero(t, scheduling.NodeAdded(nil).Node) // refused by Step
	},
	"NodeUpdated": func(t *testing.T) {
		niltest.Zero(t, scheduling.NodeUpdated(nil).Node) // refused by Step
	},
	"ObjectSet": func(t *testing.T) {
		niltest.Zero(t, scheduling.ObjectSet(nil).Object) // refused by Step
	},
	"ObjectDeleted": func(t *testing.T) {
		niltest.Zero(t, scheduling.ObjectDeleted(nil).Object) // refused by Step
	},
	"BindFailed": func(t *testing.T) {
		niltest.Zero(t, scheduling.BindFailed(nil, "").Pod) // refused by Step
	},
	"(*Queue).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, nilQueue.NextDeadline())
	},

	// Budgets.
	"(*Cluster).SetPodDisruptionBudget": func(t *testing.T) {
		invalid(t, (*scheduling.Cluster)(nil).SetPodDisruptionBudget(&api.PodDisruptionBudget{}), "cluster")
		invalid(t, newNilWorld(t).c.SetPodDisruptionBudget(nil), "podDisruptionBudget")
	},
	"(*Cluster).RemovePodDisruptionBudget": func(t *testing.T) {
		invalid(t, (*scheduling.Cluster)(nil).RemovePodDisruptionBudget("shop", "web"), "cluster")
	},
	"(*Cluster).PodDisruptionBudgets": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.Cluster)(nil).PodDisruptionBudgets())
	},

	// WhatIf: a nil one changes nothing and its verdict is an error.
	"(*WhatIf).AddPod": func(t *testing.T) {
		w := newNilWorld(t)
		(*scheduling.WhatIf)(nil).AddPod(w.p)
		wi := w.cy.WhatIf(w.n)
		wi.AddPod(nil)
		if st := wi.Filter(); !st.IsSuccess() {
			t.Errorf("after adding nil: got %v, want Success", st)
		}
	},
	"(*WhatIf).Filter": func(t *testing.T) {
		st := (*scheduling.WhatIf)(nil).Filter()
		if st.Code != scheduling.Error {
			t.Errorf("got code %v, want Error", st.Code)
		}
		invalid(t, st.Err, "what-if")
	},
	"(*WhatIf).Reset": func(t *testing.T) {
		w := newNilWorld(t)
		invalid(t, (*scheduling.WhatIf)(nil).Reset(w.n), "what-if")
		wi := w.cy.WhatIf(w.n)
		wi.RemovePod(wi.Pod("shop", "web"))
		invalid(t, wi.Reset(nil), "node")
		if wi.Pod("shop", "web") == nil {
			t.Error("a refused reset changed the what-if's node")
		}
	},
	"(*WhatIf).Pod": func(t *testing.T) {
		niltest.Zero(t, (*scheduling.WhatIf)(nil).Pod("shop", "web"))
	},
	"(*WhatIf).RemovePod": func(t *testing.T) {
		w := newNilWorld(t)
		(*scheduling.WhatIf)(nil).RemovePod(w.p)
		wi := w.cy.WhatIf(w.n)
		wi.RemovePod(nil)
		if st := wi.Filter(); !st.IsSuccess() {
			t.Errorf("after removing nil: got %v, want Success", st)
		}
	},

	// Functions.
	"FitErrorMessage": func(t *testing.T) {
		// A nil list is no rejection.
		if got, want := scheduling.FitErrorMessage(3, nil), scheduling.FitErrorMessage(3, []scheduling.Status{}); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	},
	"NewCluster": func(t *testing.T) {
		c, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
		if err != nil || c.NumNodes() != 0 {
			t.Errorf("no nodes or pods: got %d nodes, %v; want an empty cluster", c.NumNodes(), err)
		}
		c, err = scheduling.NewCluster([]*api.Node{node("n1", "1", "1Gi", nil), nil}, nil, scheduling.Config{})
		niltest.Zero(t, c)
		invalid(t, err, "nodes[1]")
		c, err = scheduling.NewCluster(nil, []*api.Pod{nil}, scheduling.Config{})
		niltest.Zero(t, c)
		invalid(t, err, "pods[0]")
	},

	"SchedulingGatesPreEnqueue": func(t *testing.T) {
		// Documented: a nil pod has no gates.
		if st := scheduling.SchedulingGatesPreEnqueue(nil); !st.IsSuccess() {
			t.Errorf("got %v, want Success", st)
		}
	},
	"SortQueue": func(t *testing.T) {
		scheduling.SortQueue(nil)
		// A queued pod without a pod object has priority 0.
		high := pod("high", "", "1", "1Gi", nil)
		prio := int32(10)
		high.Spec.Priority = &prio
		pods := []scheduling.QueuedPod{{Timestamp: nilT0}, {Pod: high, Timestamp: nilT0.Add(time.Second)}}
		scheduling.SortQueue(pods)
		if pods[0].Pod != high || pods[1].Pod != nil {
			t.Errorf("got %v, want the priority-10 pod first", pods)
		}
	},
	"AdmissionCheck": func(t *testing.T) {
		n := node("n1", "1", "1Gi", nil)
		p := pod("new", "n1", "500m", "512Mi", nil)
		got, err := scheduling.AdmissionCheck(nil, n, nil)
		niltest.Zero(t, got)
		invalid(t, err, "pod")
		got, err = scheduling.AdmissionCheck(p, nil, nil)
		niltest.Zero(t, got)
		invalid(t, err, "node")
		got, err = scheduling.AdmissionCheck(p, n, []*api.Pod{nil})
		niltest.Zero(t, got)
		invalid(t, err, "pods[0]")
		// No other pods: the pod fits.
		if got, err := scheduling.AdmissionCheck(p, n, nil); err != nil || len(got) != 0 {
			t.Errorf("nil pods: got %v, %v; want no failure", got, err)
		}
	},
}

var (
	nilDecision = (*scheduling.Decision)(nil)
	nilNodeInfo = (*scheduling.NodeInfo)(nil)
	nilPodInfo  = (*scheduling.PodInfo)(nil)
	nilQueue    = (*scheduling.Queue)(nil)
)

func newNilQueue(t *testing.T) *scheduling.Queue {
	t.Helper()
	q, err := scheduling.NewQueue(scheduling.QueueConfig{}, nilT0)
	if err != nil {
		t.Fatalf("NewQueue: %v", err)
	}
	return q
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// scheduling that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
