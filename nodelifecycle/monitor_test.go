package nodelifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/podsem/podsem/api"
)

func nodeWith(conds ...api.NodeCondition) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", CreationTimestamp: api.NewTime(t0.Add(-time.Hour))}, Status: api.NodeStatus{Conditions: conds}}
}

func cond(t api.NodeConditionType, s api.ConditionStatus) api.NodeCondition {
	return api.NodeCondition{Type: t, Status: s, LastHeartbeatTime: api.NewTime(t0.Add(-time.Minute)), LastTransitionTime: api.NewTime(t0.Add(-time.Hour))}
}

func keysOf(taints []api.Taint) []string {
	var out []string
	for _, t := range taints {
		out = append(out, t.Key+":"+string(t.Effect))
	}
	return out
}

func TestConditionTaints(t *testing.T) {
	n := nodeWith(cond(api.NodeReady, api.ConditionUnknown), cond(api.NodeMemoryPressure, api.ConditionTrue),
		cond(api.NodeDiskPressure, api.ConditionFalse), cond(api.NodePIDPressure, api.ConditionTrue), cond(api.NodeNetworkUnavailable, api.ConditionTrue))
	n.Spec.Unschedulable = true
	want := []string{
		api.TaintNodeUnreachable + ":NoSchedule", api.TaintNodeMemoryPressure + ":NoSchedule", api.TaintNodePIDPressure + ":NoSchedule",
		api.TaintNodeNetworkUnavailable + ":NoSchedule", api.TaintNodeUnschedulable + ":NoSchedule",
	}
	if d := cmp.Diff(want, keysOf(ConditionTaints(n))); d != "" {
		t.Errorf("-want +got:\n%s", d)
	}
	if ConditionTaints(nil) != nil {
		t.Error("nil node")
	}
}

func TestTaintPasses(t *testing.T) {
	old := api.NewTimePtr(t0.Add(-time.Hour))
	tests := []struct {
		name       string
		ready      api.ConditionStatus
		taints     []api.Taint
		noSchedule []string
		final      []string
	}{
		{"Ready: stale condition taints go, foreign ones stay", api.ConditionTrue,
			[]api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}, {Key: "dedicated", Value: "db", Effect: api.TaintEffectNoSchedule}, {Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: old}},
			[]string{"dedicated:NoSchedule", api.TaintNodeUnreachable + ":NoExecute"},
			[]string{"dedicated:NoSchedule"}},
		{"NotReady", api.ConditionFalse, nil,
			[]string{api.TaintNodeNotReady + ":NoSchedule"},
			[]string{api.TaintNodeNotReady + ":NoSchedule", api.TaintNodeNotReady + ":NoExecute"}},
		{"Unknown swaps not-ready for unreachable", api.ConditionUnknown,
			[]api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}, {Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute, TimeAdded: old}},
			[]string{api.TaintNodeNotReady + ":NoExecute", api.TaintNodeUnreachable + ":NoSchedule"},
			[]string{api.TaintNodeUnreachable + ":NoSchedule", api.TaintNodeUnreachable + ":NoExecute"}},
		{"a value on an existing condition taint is ignored", api.ConditionFalse,
			[]api.Taint{{Key: api.TaintNodeNotReady, Value: "x", Effect: api.TaintEffectNoSchedule}},
			[]string{api.TaintNodeNotReady + ":NoSchedule"},
			[]string{api.TaintNodeNotReady + ":NoSchedule", api.TaintNodeNotReady + ":NoExecute"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := nodeWith(cond(api.NodeReady, tt.ready))
			n.Spec.Taints = tt.taints
			ns := NoScheduleTaintPass(n, t0)
			if d := cmp.Diff(tt.noSchedule, keysOf(ns.Taints), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("NoSchedule pass -want +got:\n%s", d)
			}
			after := *n
			after.Spec.Taints = ns.Taints
			ne := NoExecuteTaintPass(&after, t0)
			if d := cmp.Diff(tt.final, keysOf(ne.Taints), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("NoExecute pass -want +got:\n%s", d)
			}
			for _, a := range append(ns.Added, ne.Added...) {
				if !a.TimeAdded.Equal(t0) {
					t.Errorf("added %s without timeAdded now: %v", a.Key, a.TimeAdded)
				}
			}
		})
	}
}

func TestMarkPodNotReady(t *testing.T) {
	p := newPod("web-0")
	p.Status.Conditions[0].Reason = "kept"
	c := MarkPodNotReady(p, t0)
	want := &api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse, Reason: "kept", LastTransitionTime: api.NewTime(t0)}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("-want +got:\n%s", d)
	}
	unready(p)
	if MarkPodNotReady(p, t0) != nil {
		t.Error("already not ready: want no write")
	}
	if MarkPodNotReady(nil, t0) != nil {
		t.Error("nil pod")
	}
}

func TestMonitor(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	t.Run("Unknown strictly after the grace period, from the controller's own clock", func(t *testing.T) {
		m := mustMonitor(Config{})
		// The kubelet's heartbeat is an hour old, but the controller has
		// just started: it gives the node the full 50 s.
		n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
		n.Status.Conditions[0].LastHeartbeatTime = api.NewTime(t0.Add(-time.Hour))
		for _, s := range []int{0, 25, 50} {
			rep, err := m.Step(MonitorInput{Node: n}, at(s))
			if err != nil || rep.Status != nil || rep.MarkPodsNotReady {
				t.Fatalf("t=%d: %+v %v", s, rep, err)
			}
		}
		rep, _ := m.Step(MonitorInput{Node: n}, at(51))
		if rep.Status == nil || !rep.MarkPodsNotReady || rep.CurrentReady.Status != api.ConditionUnknown {
			t.Fatalf("t=51: no Unknown flip: %+v", rep)
		}
		// The flip adds both unreachable taints: the NoExecute pass reads
		// the Ready=Unknown the look has just written (v1.36.3 hands
		// processTaintBaseEviction the current condition).
		if got := keysOf(rep.Taints); !cmp.Equal(got, []string{api.TaintNodeUnreachable + ":NoSchedule", api.TaintNodeUnreachable + ":NoExecute"}) {
			t.Errorf("taints at the flip %v", got)
		}
		// Four conditions now: Ready Unknown, the three pressures never posted.
		if len(rep.Status.Conditions) != 4 || rep.Status.Conditions[1].Reason != ReasonNodeStatusNeverUpdated {
			t.Errorf("conditions %+v", rep.Status.Conditions)
		}
		// Next look: nothing new is written, no taint changes.
		n2 := *n
		n2.Status = *rep.Status
		n2.Spec.Taints = rep.Taints
		rep, _ = m.Step(MonitorInput{Node: &n2}, at(56))
		if rep.Status != nil || rep.NoSchedule.Changed() || rep.NoExecute.Changed() || rep.MarkPodsNotReady {
			t.Errorf("second look rewrote status or taints: %+v", rep)
		}
		if got := keysOf(rep.Taints); !cmp.Equal(got, []string{api.TaintNodeUnreachable + ":NoSchedule", api.TaintNodeUnreachable + ":NoExecute"}) {
			t.Errorf("taints at the second look %v", got)
		}
		// Third look: the taint is not rewritten.
		n2.Spec.Taints = rep.Taints
		rep, _ = m.Step(MonitorInput{Node: &n2}, at(61))
		if rep.Status != nil || rep.NoExecute.Changed() || rep.NoSchedule.Changed() {
			t.Errorf("third look changed something: %+v", rep)
		}
		if !m.NodeNotReady("node-1") {
			t.Error("NodeNotReady")
		}
	})
	t.Run("a renewed lease keeps the node alive", func(t *testing.T) {
		m := mustMonitor(Config{MonitorGracePeriod: 40 * time.Second})
		n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
		for s := 0; s <= 200; s += 5 {
			rep, _ := m.Step(MonitorInput{Node: n, LeaseRenew: at(s - s%10)}, at(s))
			if rep.Status != nil {
				t.Fatalf("t=%d: flipped with a fresh lease", s)
			}
		}
	})
	t.Run("a node that never posted status gets the startup grace from its creation", func(t *testing.T) {
		m := mustMonitor(Config{})
		n := nodeWith()
		n.CreationTimestamp = api.NewTime(t0)
		if rep, _ := m.Step(MonitorInput{Node: n}, at(60)); rep.Status != nil || rep.GracePeriod != DefaultStartupGracePeriod {
			t.Fatalf("t=60: %+v", rep)
		}
		rep, _ := m.Step(MonitorInput{Node: n}, at(61))
		if rep.Status == nil || rep.CurrentReady.Reason != ReasonNodeStatusNeverUpdated {
			t.Fatalf("t=61: %+v", rep)
		}
	})
	if _, err := mustMonitor(Config{}).Step(MonitorInput{Node: nil}, t0); err == nil {
		t.Error("nil node: want an error")
	}
}

func TestMonitorNextDeadline(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	m := mustMonitor(Config{})
	if !m.NextDeadline().IsZero() {
		t.Fatal("a deadline before any look")
	}
	n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	look := func(s int) HealthReport {
		t.Helper()
		rep, err := m.Step(MonitorInput{Node: n}, at(s))
		if err != nil {
			t.Fatal(err)
		}
		c := *n
		if rep.Status != nil {
			c.Status = *rep.Status
		}
		c.Spec.Taints = rep.Taints
		n = &c
		return rep
	}
	want := func(s int) {
		t.Helper()
		if got := m.NextDeadline(); s < 0 && !got.IsZero() || s >= 0 && !got.Equal(at(s)) {
			t.Errorf("next deadline %v, want %ds", got.Sub(t0), s)
		}
	}
	// Looks on a 5 s grid from 3s: the grace (50 s from the first look)
	// is over strictly after 53s, at the look of 58s.
	look(3)
	want(58)
	look(8) // an early look changes nothing, nor the deadline
	want(58)
	if rep := look(58); rep.Status == nil || len(rep.NoExecute.Added) != 1 {
		t.Fatalf("no flip and NoExecute taint at the deadline: %+v", rep)
	}
	want(-1) // Unknown and tainted: nothing until an input
	// A second node keeps its own deadline; a deleted one is forgotten.
	other := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	other.Name = "node-2"
	if _, err := m.Step(MonitorInput{Node: other}, at(70)); err != nil {
		t.Fatal(err)
	}
	want(125)
	if _, err := m.Step(MonitorInput{Node: other, Deleted: true}, at(71)); err != nil {
		t.Fatal(err)
	}
	want(-1)
}
