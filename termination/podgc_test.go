package termination

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
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
	r := NewCollector(GCConfig{TerminatedPodThreshold: 1}).Step(GCInput{Pods: pods, Nodes: nodes}, t0)
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
	if r := NewCollector(GCConfig{DisableTerminatedPodGC: true}).Step(GCInput{Pods: pods, Nodes: nodes}, t0); len(r.Actions) != 0 {
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
		r := NewCollector(GCConfig{}).Step(GCInput{Pods: []*api.Pod{p}, Nodes: []*api.Node{tt.node}}, t0)
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
		r1 := c.Step(GCInput{Pods: pods, NodeExists: exists}, t0)
		if len(r1.Actions) != 0 {
			t.Fatalf("first pass deleted %v", deletedKeys(r1))
		}
		if !reflect.DeepEqual(r1.Quarantined, []string{"node-gone", "node-late"}) {
			t.Errorf("quarantined %v", r1.Quarantined)
		}
		r2 := c.Step(GCInput{Pods: r1.Remaining, NodeExists: exists}, t0.Add(after))
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
			if st == nil {
				t.Fatalf("second pass after %s: the orphan was deleted without a status patch", after)
			}
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
	r := NewCollector(GCConfig{}).Step(GCInput{Pods: []*api.Pod{p, q}}, t0)
	if got := deletedKeys(r); !reflect.DeepEqual(got, []string{"default/pending"}) || r.Actions[0].Reason != GCUnscheduledTerminating {
		t.Errorf("deleted %v", r.Actions)
	}
}

func TestCollectorEachPodOncePerPass(t *testing.T) {
	// A terminated pod, terminating on an out-of-service node, over the
	// threshold: handled by the first rule only.
	p := terminating(gcPod("default", "done", "node-1", api.PodSucceeded, t0), t0, 30)
	r := NewCollector(GCConfig{TerminatedPodThreshold: 0, DisableTerminatedPodGC: false}).Step(GCInput{Pods: []*api.Pod{p}, Nodes: []*api.Node{gcNode("node-1", api.ConditionFalse, api.TaintNodeOutOfService)}}, t0)
	if len(r.Actions) != 1 || r.Actions[0].Reason != GCTerminatingOutOfService {
		t.Errorf("actions %+v", r.Actions)
	}
	r = NewCollector(GCConfig{TerminatedPodThreshold: -1}).Step(GCInput{Pods: []*api.Pod{p}, Nodes: []*api.Node{gcNode("node-1", api.ConditionFalse, api.TaintNodeOutOfService)}}, t0)
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
		c.Step(GCInput{Pods: pods, Nodes: nodes}, t0)
	}
}

// BenchmarkCollectorBetweenPasses is a Step between passes over 150,000
// pods and 5,000 nodes with nothing for the collector to do: the look at
// the caches that decides whether a pass is needed.
func BenchmarkCollectorBetweenPasses(b *testing.B) {
	const nNodes, nPods = 5000, 150000
	nodes := make([]*api.Node, nNodes)
	for i := range nodes {
		nodes[i] = gcNode(fmt.Sprintf("node-%d", i), api.ConditionTrue)
	}
	pods := make([]*api.Pod, nPods)
	for i := range pods {
		pods[i] = gcPod("default", fmt.Sprintf("pod-%d", i), fmt.Sprintf("node-%d", i%nNodes), api.PodRunning, t0)
	}
	c := NewCollector(GCConfig{})
	c.Step(GCInput{Pods: pods, Nodes: nodes}, t0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := c.Step(GCInput{Pods: pods, Nodes: nodes}, t0.Add(time.Second)); r.Ran {
			b.Fatal("a pass between passes")
		}
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
	if st == nil {
		t.Fatalf("action %+v has no status patch", r.Actions[0])
	}
	c := api.FindCondition(st.Conditions, api.DisruptionTarget)
	if len(st.Conditions) != 2 || c == nil || c.Reason != api.PodReasonDeletionByPodGC || !c.LastTransitionTime.Equal(old) || c.ObservedGeneration != 3 {
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
			r := NewCollector(GCConfig{DisableTerminatedPodGC: true}).Step(GCInput{Pods: []*api.Pod{p}}, t0)
			if len(r.Actions) != 1 || r.Actions[0].Patched == nil {
				t.Fatalf("actions %+v, want one patched deletion", r.Actions)
			}
			if got := r.Actions[0].Patched.ObservedGeneration; got != tc.wantObserved {
				t.Errorf("observedGeneration %d, want %d", got, tc.wantObserved)
			}
		})
	}
}

// The collector's DisruptionTarget replaces an older one whole, as
// podutil.UpdatePodCondition does: the transition time carries over when
// the status stays True, but the old lastProbeTime does not (upstream's
// condition sets none, and its status patch clears the field).
func TestCollectorOrphanConditionDropsLastProbeTime(t *testing.T) {
	old := t0.Add(-time.Hour)
	probed := t0.Add(-time.Minute)
	for _, tc := range []struct {
		oldStatus      api.ConditionStatus
		wantTransition time.Time
	}{
		{api.ConditionTrue, old},
		{api.ConditionFalse, t0},
	} {
		p := gcPod("default", "victim", "node-gone", api.PodRunning, t0)
		p.Status.Conditions = []api.PodCondition{{Type: api.DisruptionTarget, Status: tc.oldStatus, Reason: "EvictionByEvictionAPI",
			LastTransitionTime: api.NewTime(old), LastProbeTime: api.NewTime(probed)}}
		r := CollectGarbage([]*api.Pod{p}, nil, GCConfig{}, t0)
		if len(r.Actions) != 1 || r.Actions[0].Patched == nil {
			t.Fatalf("actions %+v", r.Actions)
		}
		c := api.FindCondition(r.Actions[0].Patched.Conditions, api.DisruptionTarget)
		if c == nil || !c.LastProbeTime.IsZero() || !c.LastTransitionTime.Equal(tc.wantTransition) || c.Reason != api.PodReasonDeletionByPodGC {
			t.Errorf("old status %s: condition %+v, want no lastProbeTime and the transition at %v", tc.oldStatus, c, tc.wantTransition)
		}
		if got := p.Status.Conditions[0].LastProbeTime; !got.Equal(probed) {
			t.Errorf("input pod modified: lastProbeTime %v", got)
		}
	}
}

// The collector's passes keep the controller's 20 s rhythm from its first
// Step; between passes a Step only brings the deadline forward.
func TestCollectorDeadlines(t *testing.T) {
	nodes := []*api.Node{gcNode("node-1", api.ConditionTrue)}
	c := NewCollector(GCConfig{})
	if !c.NextDeadline().IsZero() {
		t.Fatal("a new collector has a deadline")
	}
	// The first Step is a pass; nothing to do leaves no deadline.
	running := gcPod("default", "web", "node-1", api.PodRunning, t0)
	r := c.Step(GCInput{Pods: []*api.Pod{running}, Nodes: nodes}, t0)
	if !r.Ran || !c.NextDeadline().IsZero() {
		t.Fatalf("first step: ran %v, next %v", r.Ran, c.NextDeadline())
	}
	if got := c.NextPass(t0.Add(47 * time.Second)); !got.Equal(t0.Add(time.Minute)) {
		t.Fatalf("NextPass(47s) = %v, want the pass time at 1m", got)
	}
	if got := c.NextPass(t0.Add(time.Minute)); !got.Equal(t0.Add(time.Minute)) {
		t.Fatalf("NextPass(1m) = %v, want 1m itself", got)
	}
	if got := c.NextPass(t0); !got.Equal(t0.Add(GCCheckPeriod)) {
		t.Fatalf("NextPass(0) after the pass at 0 = %v, want the next one at 20s", got)
	}
	// Work appears at 47 s: the pass at 60 s handles it, not the step.
	unscheduled := terminating(gcPod("default", "pending", "", api.PodPending, t0), t0, 30)
	pods := []*api.Pod{running, unscheduled}
	r = c.Step(GCInput{Pods: pods, Nodes: nodes}, t0.Add(47*time.Second))
	if r.Ran || len(r.Actions) != 0 || !c.NextDeadline().Equal(t0.Add(time.Minute)) {
		t.Fatalf("work between passes: ran %v, %v, next %v; want the pass at 1m", r.Ran, r.Actions, c.NextDeadline())
	}
	// A step before the deadline changes nothing.
	r = c.Step(GCInput{Pods: pods, Nodes: nodes}, t0.Add(50*time.Second))
	if r.Ran || len(r.Remaining) != 2 || !c.NextDeadline().Equal(t0.Add(time.Minute)) {
		t.Fatalf("early step: ran %v, remaining %d, next %v", r.Ran, len(r.Remaining), c.NextDeadline())
	}
	// A late step at 1m3s does the overdue pass. The rhythm stays: the
	// pod on an unknown node starts a 40 s quarantine (to 1m43s), which
	// the pass at 2m ends.
	orphan := gcPod("default", "orphan", "node-gone", api.PodRunning, t0)
	pods = []*api.Pod{running, unscheduled, orphan}
	r = c.Step(GCInput{Pods: pods, Nodes: nodes}, t0.Add(63*time.Second))
	if !r.Ran || len(r.Actions) != 1 || r.Actions[0].Pod != "default/pending" {
		t.Fatalf("late pass: ran %v, %+v", r.Ran, r.Actions)
	}
	if want := t0.Add(2 * time.Minute); !c.NextDeadline().Equal(want) || !reflect.DeepEqual(r.Quarantined, []string{"node-gone"}) {
		t.Fatalf("after the late pass: next %v (want %v), quarantined %v", c.NextDeadline(), want, r.Quarantined)
	}
	r = c.Step(GCInput{Pods: r.Remaining, Nodes: nodes}, t0.Add(2*time.Minute))
	if !r.Ran || len(r.Actions) != 1 || r.Actions[0].Reason != GCOrphaned {
		t.Fatalf("quarantine over: ran %v, %+v", r.Ran, r.Actions)
	}
	// The pass saw the orphan before deleting it, so node-gone is
	// quarantined again (as the controller's delaying queue has it): one
	// more pass at 2m40s finds no pod on it and the collector goes quiet.
	if want := t0.Add(160 * time.Second); !c.NextDeadline().Equal(want) {
		t.Fatalf("after the orphan: next %v, want %v", c.NextDeadline(), want)
	}
	r = c.Step(GCInput{Pods: r.Remaining, Nodes: nodes}, t0.Add(160*time.Second))
	if !r.Ran || len(r.Actions) != 0 || len(r.Quarantined) != 0 || !c.NextDeadline().IsZero() {
		t.Fatalf("the last quarantine ends: ran %v, %+v, quarantined %v, next %v", r.Ran, r.Actions, r.Quarantined, c.NextDeadline())
	}
	// Work that shows up exactly on a pass time is handled at once.
	unscheduled2 := terminating(gcPod("default", "pending-2", "", api.PodPending, t0), t0, 30)
	r = c.Step(GCInput{Pods: []*api.Pod{running, unscheduled2}, Nodes: nodes}, t0.Add(200*time.Second))
	if !r.Ran || len(r.Actions) != 1 {
		t.Fatalf("work on a pass time: ran %v, %+v", r.Ran, r.Actions)
	}
	// Work that shows up right after that pass, at the same time, waits
	// for the next pass: one pass per period.
	unscheduled3 := terminating(gcPod("default", "pending-3", "", api.PodPending, t0), t0, 30)
	r = c.Step(GCInput{Pods: []*api.Pod{running, unscheduled3}, Nodes: nodes}, t0.Add(200*time.Second))
	if r.Ran || !c.NextDeadline().Equal(t0.Add(220*time.Second)) {
		t.Fatalf("work after the pass at 200s: ran %v, next %v; want the pass at 220s", r.Ran, c.NextDeadline())
	}
}

// Stepping the collector only when its caches change and at its
// NextDeadline deletes the same pods, for the same reasons, at the same
// times, as running a pass every GCCheckPeriod as the controller does.
func TestPropertyCollectorDeadlines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type change struct {
			at          time.Duration
			kind        string
			pod         int
			node        string
			phase       api.PodPhase
			terminating bool
		}
		nodeNames := []string{"n1", "n2", "n3"}
		var changes []change
		for i := range rapid.IntRange(1, 25).Draw(t, "changes") {
			changes = append(changes, change{
				at:   time.Duration(rapid.IntRange(0, 300).Draw(t, "at")) * time.Second,
				kind: rapid.SampledFrom([]string{"add", "add", "terminate", "succeed", "delete-node", "out-of-service"}).Draw(t, "kind"),
				pod:  i,
				node: rapid.SampledFrom(append([]string{""}, nodeNames...)).Draw(t, "node"),
				// New pods are mostly running; some arrive finished or
				// already being deleted.
				phase:       rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodRunning, api.PodSucceeded, api.PodFailed}).Draw(t, "phase"),
				terminating: rapid.IntRange(0, 3).Draw(t, "terminatingOdds") == 0,
			})
		}
		slices.SortStableFunc(changes, func(a, b change) int { return cmp.Compare(a.at, b.at) })
		cfg := GCConfig{TerminatedPodThreshold: rapid.IntRange(1, 3).Draw(t, "threshold")}

		type world struct {
			pods  []*api.Pod
			nodes map[string]*api.Node
			log   []string
		}
		newWorld := func() *world {
			w := &world{nodes: map[string]*api.Node{}}
			for _, n := range nodeNames {
				w.nodes[n] = gcNode(n, api.ConditionTrue)
			}
			return w
		}
		apply := func(w *world, ch change) {
			switch ch.kind {
			case "add":
				p := gcPod("ns", fmt.Sprintf("p%d", ch.pod), ch.node, ch.phase, t0.Add(ch.at))
				if ch.terminating {
					terminating(p, t0.Add(ch.at), 30)
				}
				w.pods = append(w.pods, p)
			case "terminate", "succeed":
				for i, p := range w.pods {
					if (ch.node == "" || p.Spec.NodeName == ch.node) && p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning {
						q := *p
						if ch.kind == "terminate" {
							terminating(&q, t0.Add(ch.at), 30)
						} else {
							q.Status.Phase = api.PodSucceeded
						}
						w.pods[i] = &q
						break
					}
				}
			case "delete-node":
				delete(w.nodes, ch.node)
			case "out-of-service":
				if n := w.nodes[ch.node]; n != nil {
					w.nodes[ch.node] = gcNode(ch.node, api.ConditionFalse, api.TaintNodeOutOfService)
				}
			}
		}
		step := func(w *world, c *Collector, at time.Duration) {
			var nodes []*api.Node
			for _, n := range nodeNames {
				if w.nodes[n] != nil {
					nodes = append(nodes, w.nodes[n])
				}
			}
			r := c.Step(GCInput{Pods: w.pods, Nodes: nodes, NodeExists: func(n string) bool { return w.nodes[n] != nil }}, t0.Add(at))
			for _, a := range r.Actions {
				w.log = append(w.log, fmt.Sprintf("%v %s %s", at, a.Pod, a.Reason))
			}
			w.pods = slices.Clone(r.Remaining)
		}
		const end = 400 * time.Second

		// The controller: a pass every 20 s, seeing every change up to it.
		a, ca := newWorld(), NewCollector(cfg)
		next := 0
		for at := time.Duration(0); at <= end; at += GCCheckPeriod {
			for ; next < len(changes) && changes[next].at <= at; next++ {
				apply(a, changes[next])
			}
			step(a, ca, at)
		}

		// The same controller stepped at its changes and deadlines only.
		// (A Step at a pass time is that pass: the changes at 0 come
		// first, as in the controller's run above.)
		b, cb := newWorld(), NewCollector(cfg)
		next = 0
		for ; next < len(changes) && changes[next].at == 0; next++ {
			apply(b, changes[next])
		}
		step(b, cb, 0)
		for {
			d := cb.NextDeadline()
			if next < len(changes) && (d.IsZero() || !t0.Add(changes[next].at).After(d)) {
				at := changes[next].at
				for ; next < len(changes) && changes[next].at == at; next++ {
					apply(b, changes[next])
				}
				step(b, cb, at)
				continue
			}
			if d.IsZero() || d.Sub(t0) > end {
				break
			}
			step(b, cb, d.Sub(t0))
		}
		if !slices.Equal(a.log, b.log) {
			t.Fatalf("a pass every 20 s deleted\n%s\nstepping by deadline deleted\n%s", strings.Join(a.log, "\n"), strings.Join(b.log, "\n"))
		}

		// And stepped at its deadlines and, once changes came since its
		// last step, at the next pass time only (NextPass), not at each
		// change.
		c, cc := newWorld(), NewCollector(cfg)
		if !cc.NextPass(t0).Equal(t0) {
			t.Fatalf("before the first step, NextPass(t0) = %v", cc.NextPass(t0))
		}
		next = 0
		for ; next < len(changes) && changes[next].at == 0; next++ {
			apply(c, changes[next])
		}
		step(c, cc, 0)
		dirty, now := false, time.Duration(0)
		for {
			d := cc.NextDeadline()
			if p := cc.NextPass(t0.Add(now)); dirty && (d.IsZero() || p.Before(d)) {
				if p.Before(t0.Add(now)) || (p.Sub(t0)-now) > GCCheckPeriod || (p.Sub(t0))%GCCheckPeriod != 0 {
					t.Fatalf("NextPass(%v) = %v: not the first pass time at or after it (or after the pass at it)", now, p.Sub(t0))
				}
				d = p
			}
			if next < len(changes) && (d.IsZero() || t0.Add(changes[next].at).Before(d)) {
				now = changes[next].at
				for ; next < len(changes) && changes[next].at == now; next++ {
					apply(c, changes[next])
				}
				dirty = true
				continue
			}
			if d.IsZero() || d.Sub(t0) > end {
				break
			}
			for ; next < len(changes) && t0.Add(changes[next].at).Equal(d); next++ {
				apply(c, changes[next])
			}
			now, dirty = d.Sub(t0), false
			step(c, cc, now)
		}
		if !slices.Equal(a.log, c.log) {
			t.Fatalf("a pass every 20 s deleted\n%s\nstepping at pass times after changes deleted\n%s", strings.Join(a.log, "\n"), strings.Join(c.log, "\n"))
		}
	})
}
