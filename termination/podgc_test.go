package termination

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func gcPod(ns, name, node string, phase api.PodPhase, created time.Time) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: api.NewTime(created)},
		Spec:       api.PodSpec{NodeName: node},
		Status:     api.PodStatus{Phase: phase},
	}
}

func gcNode(name string, ready api.ConditionStatus, taints ...string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
	if ready != "" {
		n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: ready}}
	}
	for _, k := range taints {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: k, Effect: api.TaintEffectNoExecute})
	}
	return n
}

func deletedKeys(r GCResult) []string {
	out := []string{}
	for _, a := range r.Actions {
		out = append(out, a.Pod)
	}
	return out
}

func TestCollectorTerminatedOverThreshold(t *testing.T) {
	base := t0.Add(-time.Hour)
	evicted := gcPod("default", "evicted", "node-1", api.PodFailed, base.Add(3*time.Minute))
	evicted.Status.Reason = "Evicted"
	pods := []*api.Pod{
		gcPod("default", "c", "node-1", api.PodSucceeded, base.Add(2*time.Minute)),
		gcPod("default", "b", "node-1", api.PodFailed, base.Add(time.Minute)),
		gcPod("default", "a", "node-1", "", base.Add(time.Minute)), // no phase counts as terminated
		gcPod("default", "running", "node-1", api.PodRunning, base),
		evicted,
	}
	nodes := []*api.Node{gcNode("node-1", api.ConditionTrue)}
	r := NewCollector(GCConfig{TerminatedPodThreshold: 1}).Collect(pods, nodes, nil, t0)
	if got, want := deletedKeys(r), []string{"default/evicted", "default/a", "default/b"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("deleted %v, want %v", got, want)
	}
	if r.Actions[0].Patched != nil || r.Actions[2].Patched != nil {
		t.Error("Failed pods must be deleted without a status patch")
	}
	if p := r.Actions[1].Patched; p == nil || p.Phase != api.PodFailed || api.FindCondition(p.Conditions, api.DisruptionTarget) != nil {
		t.Errorf("phase-less pod: patch %+v, want Failed without DisruptionTarget", p)
	}
	if len(r.Remaining) != 2 {
		t.Errorf("remaining %d pods, want 2", len(r.Remaining))
	}
	// Disabled terminated-pod GC deletes nothing.
	if r := NewCollector(GCConfig{DisableTerminatedPodGC: true}).Collect(pods, nodes, nil, t0); len(r.Actions) != 0 {
		t.Errorf("disabled GC deleted %v", deletedKeys(r))
	}
}

func TestCollectorOutOfService(t *testing.T) {
	p := terminating(gcPod("default", "web-0", "node-1", api.PodRunning, t0.Add(-time.Hour)), t0.Add(-time.Minute), 30)
	for _, tt := range []struct {
		node *api.Node
		gc   bool
	}{
		{gcNode("node-1", api.ConditionFalse, api.TaintNodeOutOfService), true},
		{gcNode("node-1", "", api.TaintNodeOutOfService), true},
		{gcNode("node-1", api.ConditionTrue, api.TaintNodeOutOfService), false},
		{gcNode("node-1", api.ConditionFalse), false},
	} {
		r := NewCollector(GCConfig{}).Collect([]*api.Pod{p}, []*api.Node{tt.node}, nil, t0)
		if (len(r.Actions) == 1) != tt.gc {
			t.Errorf("node %+v: actions %v", tt.node.Status.Conditions, deletedKeys(r))
			continue
		}
		if tt.gc && (r.Actions[0].Reason != GCTerminatingOutOfService || r.Actions[0].Patched == nil || r.Actions[0].Patched.Phase != api.PodFailed) {
			t.Errorf("action %+v", r.Actions[0])
		}
	}
}

func TestCollectorOrphansNeedQuarantine(t *testing.T) {
	orphan := gcPod("default", "orphan", "node-gone", api.PodRunning, t0)
	orphan.Generation = 2
	late := gcPod("default", "late", "node-late", api.PodRunning, t0) // known to the API, not yet to the cache
	pods := []*api.Pod{orphan, late}
	exists := func(n string) bool { return n == "node-late" }
	for _, after := range []time.Duration{0, 20 * time.Second, 39 * time.Second, 40 * time.Second, 2 * time.Minute} {
		c := NewCollector(GCConfig{})
		r1 := c.Collect(pods, nil, exists, t0)
		if len(r1.Actions) != 0 {
			t.Fatalf("first pass deleted %v", deletedKeys(r1))
		}
		if !reflect.DeepEqual(r1.Quarantined, []string{"node-gone", "node-late"}) {
			t.Errorf("quarantined %v", r1.Quarantined)
		}
		r2 := c.Collect(r1.Remaining, nil, exists, t0.Add(after))
		want := []string{}
		if after >= DefaultOrphanQuarantine {
			want = []string{"default/orphan"}
		}
		if got := deletedKeys(r2); !reflect.DeepEqual(got, want) {
			t.Errorf("second pass after %s deleted %v, want %v", after, got, want)
			continue
		}
		if len(want) == 1 {
			st := r2.Actions[0].Patched
			c := api.FindCondition(st.Conditions, api.DisruptionTarget)
			if st.Phase != api.PodFailed || st.ObservedGeneration != 2 || c == nil || c.Reason != api.PodReasonDeletionByPodGC ||
				c.Message != MessageDeletionByPodGC || c.Status != api.ConditionTrue || c.ObservedGeneration != 2 {
				t.Errorf("orphan patch %+v", st)
			}
		}
	}
}

func TestCollectorUnscheduledTerminating(t *testing.T) {
	p := terminating(gcPod("default", "pending", "", api.PodPending, t0), t0, 30)
	q := gcPod("default", "pending-not-deleted", "", api.PodPending, t0)
	r := NewCollector(GCConfig{}).Collect([]*api.Pod{p, q}, nil, nil, t0)
	if got := deletedKeys(r); !reflect.DeepEqual(got, []string{"default/pending"}) || r.Actions[0].Reason != GCUnscheduledTerminating {
		t.Errorf("deleted %v", r.Actions)
	}
}

func TestCollectorEachPodOncePerPass(t *testing.T) {
	// A terminated pod, terminating on an out-of-service node, over the
	// threshold: handled by the first rule only.
	p := terminating(gcPod("default", "done", "node-1", api.PodSucceeded, t0), t0, 30)
	r := NewCollector(GCConfig{TerminatedPodThreshold: 0, DisableTerminatedPodGC: false}).Collect([]*api.Pod{p}, []*api.Node{gcNode("node-1", api.ConditionFalse, api.TaintNodeOutOfService)}, nil, t0)
	if len(r.Actions) != 1 || r.Actions[0].Reason != GCTerminatingOutOfService {
		t.Errorf("actions %+v", r.Actions)
	}
	r = NewCollector(GCConfig{TerminatedPodThreshold: -1}).Collect([]*api.Pod{p}, []*api.Node{gcNode("node-1", api.ConditionFalse, api.TaintNodeOutOfService)}, nil, t0)
	if len(r.Actions) != 1 {
		t.Errorf("actions %+v", r.Actions)
	}
}

func TestCollectGarbageSteadyState(t *testing.T) {
	pods := []*api.Pod{gcPod("ns", "orphan", "node-gone", api.PodRunning, t0), gcPod("ns", "ok", "node-1", api.PodRunning, t0)}
	r := CollectGarbage(pods, []*api.Node{gcNode("node-1", api.ConditionTrue)}, GCConfig{}, t0)
	if got := deletedKeys(r); !reflect.DeepEqual(got, []string{"ns/orphan"}) || r.Actions[0].Reason != GCOrphaned {
		t.Errorf("deleted %+v", r.Actions)
	}
}

func BenchmarkCollect(b *testing.B) {
	const nNodes, nPods = 5000, 150000
	nodes := make([]*api.Node, nNodes)
	for i := range nodes {
		nodes[i] = gcNode(fmt.Sprintf("node-%d", i), api.ConditionTrue)
	}
	pods := make([]*api.Pod, nPods)
	for i := range pods {
		phase := api.PodRunning
		if i%10 == 0 {
			phase = api.PodSucceeded
		}
		pods[i] = gcPod("default", fmt.Sprintf("pod-%d", i), fmt.Sprintf("node-%d", i%(nNodes+10)), phase, t0.Add(time.Duration(i)*time.Second))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := NewCollector(GCConfig{TerminatedPodThreshold: 12500})
		c.Collect(pods, nodes, nil, t0)
	}
}

func TestCollectorReplacesDisruptionTargetOfOrphans(t *testing.T) {
	p := gcPod("default", "victim", "node-gone", api.PodRunning, t0)
	p.Generation = 3
	old := t0.Add(-time.Hour)
	p.Status.Conditions = []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue},
		{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "PreemptionByScheduler", LastTransitionTime: api.NewTime(old)},
	}
	r := CollectGarbage([]*api.Pod{p}, nil, GCConfig{Quarantine: time.Second}, t0)
	if len(r.Actions) != 1 {
		t.Fatalf("actions %+v", r.Actions)
	}
	st := r.Actions[0].Patched
	c := api.FindCondition(st.Conditions, api.DisruptionTarget)
	if len(st.Conditions) != 2 || c.Reason != api.PodReasonDeletionByPodGC || !c.LastTransitionTime.Equal(old) || c.ObservedGeneration != 3 {
		t.Errorf("conditions %+v", st.Conditions)
	}
	if len(p.Status.Conditions) != 2 || p.Status.Conditions[1].Reason != "PreemptionByScheduler" || p.Status.Phase != api.PodRunning {
		t.Errorf("input pod modified: %+v", p.Status)
	}
}

// The Failed-phase patch always writes metadata.generation into
// status.observedGeneration (the tracking feature is on by default), so a
// pod whose generation is 0 but whose status carries a stale observed
// generation ends up with none.
func TestCollectorPatchOverwritesObservedGeneration(t *testing.T) {
	cases := []struct {
		name         string
		generation   int64
		oldObserved  int64
		wantObserved int64
	}{
		{"generation 0 clears a stale value", 0, 2, 0},
		{"generation 3 replaces an older value", 3, 1, 3},
		{"generation 0 with nothing recorded", 0, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := terminating(gcPod("default", "p", "", api.PodPending, t0.Add(-time.Hour)), t0, 30)
			p.Generation = tc.generation
			p.Status.ObservedGeneration = tc.oldObserved
			r := NewCollector(GCConfig{DisableTerminatedPodGC: true}).Collect([]*api.Pod{p}, nil, nil, t0)
			if len(r.Actions) != 1 || r.Actions[0].Patched == nil {
				t.Fatalf("actions %+v, want one patched deletion", r.Actions)
			}
			if got := r.Actions[0].Patched.ObservedGeneration; got != tc.wantObserved {
				t.Errorf("observedGeneration %d, want %d", got, tc.wantObserved)
			}
		})
	}
}
