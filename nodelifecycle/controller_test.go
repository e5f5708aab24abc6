package nodelifecycle

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// zoneSim drives a Controller as kube-controller-manager does: a
// monitor pass every 5 s and a tainting pass every 100 ms, writing back
// what each pass writes. Healthy nodes renew their lease at every pass;
// lost nodes stopped at t0.
type zoneSim struct {
	t       *testing.T
	c       *Controller
	nodes   []*api.Node
	lost    map[string]bool
	tainted map[string]time.Duration // first NoExecute taint, from t0
	passes  []Report
}

func newZoneSim(t *testing.T, cfg Config, zones map[string]int) *zoneSim {
	s := &zoneSim{t: t, c: mustController(cfg), lost: map[string]bool{}, tainted: map[string]time.Duration{}}
	names := make([]string, 0, len(zones))
	for z := range zones {
		names = append(names, z)
	}
	slices.Sort(names)
	for _, z := range names {
		for i := range zones[z] {
			n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
			n.Name = fmt.Sprintf("%s-%02d", z, i)
			n.Labels = map[string]string{api.LabelTopologyRegion: "r", api.LabelTopologyZone: z}
			s.nodes = append(s.nodes, n)
		}
	}
	return s
}

func (s *zoneSim) lose(names ...string) {
	for _, n := range names {
		s.lost[n] = true
	}
}

func (s *zoneSim) node(name string) *api.Node {
	for _, n := range s.nodes {
		if n.Name == name {
			return n
		}
	}
	s.t.Fatalf("no node %s", name)
	return nil
}

// leases are the nodes' Lease renewTimes at now: healthy kubelets renew
// at every step, lost ones stopped at t0.
func (s *zoneSim) leases(now time.Time) map[string]time.Time {
	leases := map[string]time.Time{}
	for _, n := range s.nodes {
		if s.lost[n.Name] {
			leases[n.Name] = t0
		} else {
			leases[n.Name] = now
		}
	}
	return leases
}

// run simulates from t0+from to t0+end, stepping every 100 ms.
func (s *zoneSim) run(from, end time.Duration) {
	s.t.Helper()
	for d := from; d <= end; d += TaintPassPeriod {
		s.step(d)
	}
}

// step steps the controller at t0+d and writes back what it wrote.
func (s *zoneSim) step(d time.Duration) Report {
	s.t.Helper()
	now := t0.Add(d)
	r, err := s.c.Step(Input{Nodes: s.nodes, Leases: s.leases(now)}, now)
	if err != nil {
		s.t.Fatal(err)
	}
	if r.MonitorPass {
		s.passes = append(s.passes, r)
		writeReports(s.nodes, r)
		for _, rep := range r.Nodes {
			s.note(rep.Node, rep.NoExecute, d)
		}
	}
	for _, w := range r.Tainted {
		for i, n := range s.nodes {
			if n.Name == w.Node {
				m := *n
				m.Spec.Taints = w.Update.Taints
				s.nodes[i] = &m
			}
		}
		s.note(w.Node, w.Update, d)
	}
	return r
}

func (s *zoneSim) note(node string, u TaintUpdate, d time.Duration) {
	for _, t := range u.Added {
		if t.Effect == api.TaintEffectNoExecute {
			if _, ok := s.tainted[node]; !ok {
				s.tainted[node] = d
			}
		}
	}
	for _, t := range u.Removed {
		if t.Effect == api.TaintEffectNoExecute {
			delete(s.tainted, node)
		}
	}
}

func (s *zoneSim) lastZones() map[string]ZoneState {
	out := map[string]ZoneState{}
	for _, z := range s.passes[len(s.passes)-1].Zones {
		out[z.Zone] = z.State
	}
	return out
}

func TestControllerOneLostNode(t *testing.T) {
	// One node of a healthy zone: Unknown at 55 s, queued by the same pass
	// and tainted at once (the bucket is full) — Monitor's timing.
	s := newZoneSim(t, Config{}, map[string]int{"a": 3, "b": 3})
	s.lose("a-01")
	s.run(0, 2*time.Minute)
	if got := s.tainted; !cmp.Equal(got, map[string]time.Duration{"a-01": 55 * time.Second}) {
		t.Errorf("tainted %v", got)
	}
	if got := s.lastZones(); !cmp.Equal(got, map[string]ZoneState{"a": ZoneNormal, "b": ZoneNormal}) {
		t.Errorf("zones %v", got)
	}
	// Monitor, one node at a time, taints it at the same look.
	m := mustMonitor(Config{})
	n := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	for d := time.Duration(0); d <= time.Minute; d += DefaultMonitorPeriod {
		rep, _ := m.Step(MonitorInput{Node: n, LeaseRenew: t0}, t0.Add(d))
		if rep.Status != nil {
			c := *n
			c.Status = *rep.Status
			n = &c
		}
		n.Spec.Taints = rep.Taints
		if len(rep.NoExecute.Added) > 0 && d != 55*time.Second {
			t.Errorf("Monitor tainted at %v", d)
		}
	}
}

func TestControllerZoneOutage(t *testing.T) {
	// Zone a is lost whole while b is healthy: a is fully disrupted, which
	// keeps the eviction rate: one node every 10 s, in input order.
	s := newZoneSim(t, Config{}, map[string]int{"a": 5, "b": 5})
	s.lose("a-00", "a-01", "a-02", "a-03", "a-04")
	s.run(0, 3*time.Minute)
	want := map[string]time.Duration{"a-00": 55 * time.Second, "a-01": 65 * time.Second, "a-02": 75 * time.Second, "a-03": 85 * time.Second, "a-04": 95 * time.Second}
	if !cmp.Equal(s.tainted, want) {
		t.Errorf("tainted %v, want %v", s.tainted, want)
	}
	if got := s.lastZones(); !cmp.Equal(got, map[string]ZoneState{"a": ZoneFullDisruption, "b": ZoneNormal}) {
		t.Errorf("zones %v", got)
	}
}

func TestControllerPartialDisruption(t *testing.T) {
	t.Run("small zone: tainting stops", func(t *testing.T) {
		s := newZoneSim(t, Config{}, map[string]int{"a": 10, "b": 2})
		s.lose("a-00", "a-01", "a-02", "a-03", "a-04", "a-05")
		s.run(0, 5*time.Minute)
		if len(s.tainted) != 0 {
			t.Errorf("tainted %v", s.tainted)
		}
		if got := s.lastZones()["a"]; got != ZonePartialDisruption {
			t.Errorf("zone a %s", got)
		}
		for _, z := range s.passes[len(s.passes)-1].Zones {
			if z.Zone == "a" && (z.Rate != 0 || z.Nodes != 10 || z.NotReady != 6) {
				t.Errorf("zone a %+v", z)
			}
		}
	})
	t.Run("large zone: the secondary rate", func(t *testing.T) {
		s := newZoneSim(t, Config{}, map[string]int{"a": 60})
		var lost []string
		for i := range 40 {
			lost = append(lost, fmt.Sprintf("a-%02d", i))
		}
		s.lose(lost...)
		s.run(0, 4*time.Minute)
		// The rate turns 0.01/s at 55 s with a fresh bucket (the old one
		// still had its token): the first node at 55 s, the next a token
		// later — 100 s and one tainting pass, since the rate is the
		// float32 0.01 (0.00999999977…/s), as client-go hands it to
		// golang.org/x/time/rate.
		want := map[string]time.Duration{"a-00": 55 * time.Second, "a-01": 155*time.Second + 100*time.Millisecond}
		if !cmp.Equal(s.tainted, want) {
			t.Errorf("tainted %v, want %v", s.tainted, want)
		}
	})
}

func TestControllerFullDisruption(t *testing.T) {
	// Every node of every zone is lost: the controller stops tainting. When
	// one comes back, it restarts every node's grace period and the rate,
	// with an empty bucket.
	s := newZoneSim(t, Config{}, map[string]int{"a": 2, "b": 2})
	s.lose("a-00", "a-01", "b-00", "b-01")
	s.run(0, 2*time.Minute)
	if len(s.tainted) != 0 {
		t.Fatalf("tainted %v", s.tainted)
	}
	entered := 0
	for _, p := range s.passes {
		if p.EnteredFullDisruption {
			entered++
		}
	}
	if entered != 1 {
		t.Fatalf("entered full disruption %d times", entered)
	}
	// b-00's kubelet posts Ready again at 2m05s (a new object, as the API
	// server stores a write).
	delete(s.lost, "b-00")
	i := indexOf(s.nodes, "b-00")
	posted := *s.nodes[i]
	posted.Status.Conditions = slices.Clone(posted.Status.Conditions)
	s.nodes[i] = &posted
	n := &posted
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == api.NodeReady {
			n.Status.Conditions[i] = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue,
				LastHeartbeatTime: api.NewTime(t0.Add(125 * time.Second)), LastTransitionTime: api.NewTime(t0.Add(125 * time.Second))}
		}
	}
	s.run(125*time.Second, 5*time.Minute)
	if !slices.ContainsFunc(s.passes, func(p Report) bool { return p.ExitedFullDisruption }) {
		t.Fatal("never exited full disruption")
	}
	// Exit at 125 s restarts every node's probe time, and each zone's rate
	// from an empty bucket. The lost nodes are Unknown already: the pass
	// queues them again, and the first token comes 10 s later in each zone.
	want := map[string]time.Duration{"a-00": 135 * time.Second, "b-01": 135 * time.Second, "a-01": 145 * time.Second}
	if !cmp.Equal(s.tainted, want) {
		t.Errorf("tainted %v, want %v", s.tainted, want)
	}
	// The exit restarted every node's probe time.
	if exit := slices.IndexFunc(s.passes, func(p Report) bool { return p.ExitedFullDisruption }); exit < 0 {
		t.Fatal("no pass exited full disruption")
	}
	for name, h := range s.c.monitor.nodes {
		if h.probe.Before(t0.Add(125 * time.Second)) {
			t.Errorf("%s: probe time %v after the exit", name, h.probe)
		}
	}
}

func TestControllerRestart(t *testing.T) {
	// A starting controller sees a node that already carries the
	// unreachable NoExecute taint: its monitor pass removes it and queues
	// the node, and the tainting pass of the same step writes it again with
	// a new timeAdded. (A healthy node keeps the zone out of full
	// disruption.)
	c := mustController(Config{})
	n := nodeWith(cond(api.NodeReady, api.ConditionUnknown))
	n.Spec.Taints = []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: api.NewTimePtr(t0.Add(-time.Hour))}}
	healthy := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	healthy.Name = "node-2"
	r, err := c.Step(Input{Nodes: []*api.Node{n, healthy}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := r.Node("node-1")
	if !r.MonitorPass || len(rep.NoExecute.Removed) != 1 || hasTaint(rep.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute) || !cmp.Equal(r.Queued, []string{"node-1"}) {
		t.Fatalf("monitor pass: %+v queued %v", rep.NoExecute, r.Queued)
	}
	res := r.Tainted
	if !r.TaintPass || len(res) != 1 || !res[0].Update.Taints[len(res[0].Update.Taints)-1].TimeAdded.Equal(t0) {
		t.Fatalf("tainting pass: %+v", res)
	}
	// Tainted and still in the set: the next passes queue nothing, and no
	// deadline comes before the next monitor pass.
	m := *n
	m.Spec.Taints = res[0].Update.Taints
	if next := c.NextDeadline(); !next.Equal(t0.Add(DefaultMonitorPeriod)) {
		t.Errorf("next deadline %v", next)
	}
	if r, _ := c.Step(Input{Nodes: []*api.Node{&m, healthy}}, t0.Add(5*time.Second)); len(r.Queued) != 0 || len(r.Nodes) != 0 || len(r.Tainted) != 0 {
		t.Errorf("second pass: %+v", r)
	}
}

func TestControllerExcludedAndErrors(t *testing.T) {
	// Excluded nodes do not count: a zone of one excluded lost node and
	// one healthy node stays Normal with one node.
	c := mustController(Config{})
	lost := nodeWith(cond(api.NodeReady, api.ConditionUnknown))
	lost.Labels = map[string]string{LabelNodeExcludeDisruption: "", api.LabelTopologyZone: "a"}
	ok := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	ok.Name, ok.Labels = "node-2", map[string]string{api.LabelTopologyZone: "a"}
	pass, err := c.Step(Input{Nodes: []*api.Node{lost, ok}}, t0)
	if err != nil || len(pass.Zones) != 1 || pass.Zones[0].Nodes != 1 || pass.Zones[0].State != ZoneNormal || pass.Zones[0].Zone != "a" {
		t.Errorf("zones %+v %v", pass.Zones, err)
	}
	if _, err := c.Step(Input{Nodes: []*api.Node{ok, nil}}, t0); !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), "nodes[1]") {
		t.Errorf("nil node: %v", err)
	}
	var nilC *Controller
	if _, err := nilC.Step(Input{}, t0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil controller: %v", err)
	}
	if !nilC.NextDeadline().IsZero() {
		t.Error("nil controller: a deadline")
	}
	var zero Controller
	if !zero.NextDeadline().IsZero() {
		t.Error("zero Controller: a deadline before the first step")
	}
	if r, err := zero.Step(Input{Nodes: []*api.Node{ok}}, t0); err != nil || !r.MonitorPass || !r.TaintPass {
		t.Errorf("zero Controller: %+v %v", r, err)
	}
	// Between the ticks nothing runs.
	if r, err := zero.Step(Input{Nodes: []*api.Node{ok}}, t0.Add(50*time.Millisecond)); err != nil || r.MonitorPass || r.TaintPass {
		t.Errorf("between ticks: %+v %v", r, err)
	}
}

// Over random clusters whose nodes are lost and come back at random
// times: the tainting pass never taints a node whose Ready condition is True, the
// taints of one zone come at least 1/rate (10 s) apart, and while every
// zone is fully disrupted no node carries a not-ready or unreachable
// NoExecute taint and none is written (nodes here only turn Unknown, so no
// pass swaps one taint for the other, which would keep the new one).
func TestControllerProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		zones := map[string]int{}
		for z := range rapid.IntRange(1, 3).Draw(rt, "zones") {
			zones[string(rune('a'+z))] = rapid.IntRange(1, 6).Draw(rt, "nodes-"+string(rune('a'+z)))
		}
		s := newZoneSim(t, Config{}, zones)
		lostAt := map[string]time.Duration{}
		backAt := map[string]time.Duration{}
		for _, n := range s.nodes {
			if rapid.Bool().Draw(rt, "lose-"+n.Name) {
				lostAt[n.Name] = time.Duration(rapid.IntRange(0, 12).Draw(rt, "lostAt-"+n.Name)) * 5 * time.Second
				if rapid.Bool().Draw(rt, "back-"+n.Name) {
					backAt[n.Name] = lostAt[n.Name] + time.Duration(rapid.IntRange(1, 30).Draw(rt, "backAfter-"+n.Name))*5*time.Second
				}
			}
		}
		lastTaint := map[string]time.Duration{}
		leases := map[string]time.Time{}
		for d := time.Duration(0); d <= 4*time.Minute; d += TaintPassPeriod {
			now := t0.Add(d)
			if d%DefaultMonitorPeriod == 0 {
				for i, n := range s.nodes {
					at, lost := lostAt[n.Name]
					back, returns := backAt[n.Name]
					switch {
					case lost && d >= at && (!returns || d < back):
						leases[n.Name] = t0.Add(at)
					case returns && d >= back:
						// The kubelet posts Ready=True again.
						leases[n.Name] = now
						if r := n.FindCondition(api.NodeReady); r != nil && r.Status != api.ConditionTrue {
							m := *n
							m.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue,
								LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}}
							s.nodes[i] = &m
						}
					default:
						leases[n.Name] = now
					}
				}
			}
			pass, err := s.c.Step(Input{Nodes: s.nodes, Leases: leases}, now)
			if err != nil {
				rt.Fatal(err)
			}
			if pass.MonitorPass != (d%DefaultMonitorPeriod == 0) || !pass.TaintPass {
				rt.Fatalf("t=%v: passes run: monitor %v, taint %v", d, pass.MonitorPass, pass.TaintPass)
			}
			if pass.MonitorPass {
				allFull := len(pass.Zones) > 0
				for _, z := range pass.Zones {
					allFull = allFull && z.State == ZoneFullDisruption
				}
				writeReports(s.nodes, pass)
				for _, m := range s.nodes {
					if allFull && (hasTaint(m.Spec.Taints, api.TaintNodeUnreachable, api.TaintEffectNoExecute) || hasTaint(m.Spec.Taints, api.TaintNodeNotReady, api.TaintEffectNoExecute)) {
						rt.Fatalf("t=%v: every zone fully disrupted, %s keeps %v", d, m.Name, m.Spec.Taints)
					}
				}
				s.passes = append(s.passes, pass)
			}
			for _, r := range pass.Tainted {
				for i, n := range s.nodes {
					if n.Name != r.Node {
						continue
					}
					if ready := n.FindCondition(api.NodeReady); ready == nil || ready.Status == api.ConditionTrue {
						rt.Fatalf("t=%v: %s tainted with Ready %v", d, n.Name, ready)
					}
					zone := n.Labels[api.LabelTopologyZone]
					if last, ok := lastTaint[zone]; ok && d-last < 10*time.Second {
						rt.Fatalf("t=%v: zone %s tainted %s %v after its previous taint", d, zone, n.Name, d-last)
					}
					lastTaint[zone] = d
					m := *n
					m.Spec.Taints = r.Update.Taints
					s.nodes[i] = &m
				}
			}
		}
	})
}

func TestControllerFullDisruptionKeepsSwappedTaint(t *testing.T) {
	// n1 carries not-ready:NoExecute and is found Unknown in the pass that
	// finds every zone fully disrupted: the pass swaps in unreachable, and
	// the untainting that follows checks the node as listed (not-ready),
	// so unreachable stays.
	c := mustController(Config{})
	n1 := nodeWith(cond(api.NodeReady, api.ConditionFalse))
	n2 := nodeWith(cond(api.NodeReady, api.ConditionTrue))
	n2.Name = "node-2"
	pass, _ := c.Step(Input{Nodes: []*api.Node{n1, n2}}, t0)
	if !cmp.Equal(pass.Queued, []string{"node-1"}) {
		t.Fatalf("queued %v", pass.Queued)
	}
	res := pass.Tainted
	if len(res) != 1 || !hasTaint(res[0].Update.Taints, api.TaintNodeNotReady, api.TaintEffectNoExecute) {
		t.Fatalf("tainting pass %+v", res)
	}
	m1 := *n1
	m1.Spec.Taints = res[0].Update.Taints
	m1.Status.Conditions = []api.NodeCondition{cond(api.NodeReady, api.ConditionUnknown)}
	m2 := *n2
	m2.Status.Conditions = []api.NodeCondition{cond(api.NodeReady, api.ConditionFalse)}
	pass, _ = c.Step(Input{Nodes: []*api.Node{&m1, &m2}}, t0.Add(5*time.Second))
	if !pass.EnteredFullDisruption {
		t.Fatalf("zones %+v", pass.Zones)
	}
	rep, _ := pass.Node("node-1")
	got := rep.Taints
	if !hasTaint(got, api.TaintNodeUnreachable, api.TaintEffectNoExecute) || hasTaint(got, api.TaintNodeNotReady, api.TaintEffectNoExecute) {
		t.Errorf("node-1 taints %v, want unreachable:NoExecute kept", got)
	}
}
