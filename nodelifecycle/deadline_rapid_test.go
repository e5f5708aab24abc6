package nodelifecycle

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// A scripted node of the deadline properties: what its kubelet does, in
// whole seconds from t0 (multiples of 5, so that a world change falls on a
// monitor tick; -1: never).
type nodeScript struct {
	name, zone string
	lostAt     int // the kubelet stops: no lease renewal, no status
	backAt     int // it posts Ready=True again and renews its lease
	sickAt     int // it posts Ready=False while renewing its lease
	dropAt     int // the node's conditions are cleared (no Ready condition)
	goneAt     int // the Node object is deleted
}

func drawScripts(t *rapid.T) []nodeScript {
	at := func(label string) int {
		if rapid.IntRange(0, 2).Draw(t, label+"?") > 0 {
			return -1
		}
		return 5 * rapid.IntRange(0, 40).Draw(t, label)
	}
	var out []nodeScript
	for z := range rapid.IntRange(1, 3).Draw(t, "zones") {
		zone := string(rune('a' + z))
		for i := range rapid.IntRange(1, 8).Draw(t, "nodes-"+zone) {
			s := nodeScript{name: fmt.Sprintf("%s-%d", zone, i), zone: zone, lostAt: at("lost"), backAt: -1, sickAt: -1, dropAt: -1, goneAt: -1}
			if s.lostAt >= 0 && rapid.Bool().Draw(t, "back?") {
				s.backAt = s.lostAt + 5*rapid.IntRange(1, 30).Draw(t, "backAfter")
			}
			if rapid.IntRange(0, 5).Draw(t, "sick?") == 0 {
				s.sickAt = at("sick")
			}
			if rapid.IntRange(0, 7).Draw(t, "drop?") == 0 {
				s.dropAt = at("drop")
			}
			if rapid.IntRange(0, 7).Draw(t, "gone?") == 0 {
				s.goneAt = at("gone")
			}
			out = append(out, s)
		}
	}
	return out
}

// world is the API server's nodes and leases, changed by the scripts and
// by what the controller writes.
type world struct {
	scripts []nodeScript
	nodes   []*api.Node
	leases  map[string]time.Time
}

func newWorld(scripts []nodeScript) *world {
	w := &world{scripts: scripts, leases: map[string]time.Time{}}
	for _, s := range scripts {
		w.nodes = append(w.nodes, &api.Node{
			ObjectMeta: api.ObjectMeta{Name: s.name, CreationTimestamp: api.NewTime(t0.Add(-time.Hour)),
				Labels: map[string]string{api.LabelTopologyRegion: "r", api.LabelTopologyZone: s.zone}},
			Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue,
				LastHeartbeatTime: api.NewTime(t0.Add(-time.Minute)), LastTransitionTime: api.NewTime(t0.Add(-time.Hour))}}},
		})
	}
	return w
}

// advance applies the scripts at second s (a multiple of 5).
func (w *world) advance(s int) {
	now := t0.Add(time.Duration(s) * time.Second)
	post := func(i int, status api.ConditionStatus) {
		n := *w.nodes[i]
		n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: status,
			LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}}
		w.nodes[i] = &n
	}
	for _, sc := range w.scripts {
		i := slices.IndexFunc(w.nodes, func(n *api.Node) bool { return n.Name == sc.name })
		if i < 0 {
			continue
		}
		switch {
		case s == sc.goneAt:
			w.nodes = slices.Delete(w.nodes, i, i+1)
			delete(w.leases, sc.name)
			continue
		case s == sc.dropAt:
			n := *w.nodes[i]
			n.Status.Conditions = nil
			w.nodes[i] = &n
		case s == sc.backAt:
			post(i, api.ConditionTrue)
		case s == sc.sickAt:
			post(i, api.ConditionFalse)
		}
		if sc.lostAt < 0 || s < sc.lostAt || sc.backAt >= 0 && s >= sc.backAt {
			w.leases[sc.name] = now
		}
	}
}

// apply writes what one step of the controller wrote, and renders it.
func (w *world) apply(r Report, d time.Duration) []string {
	var out []string
	write := func(name string, st *api.NodeStatus, taints []api.Taint) {
		i := slices.IndexFunc(w.nodes, func(n *api.Node) bool { return n.Name == name })
		n := *w.nodes[i]
		if st != nil {
			n.Status = *st
		}
		n.Spec.Taints = taints
		w.nodes[i] = &n
	}
	if r.MonitorPass {
		for _, rep := range r.Nodes {
			line := fmt.Sprintf("%v monitor %s probe=%v taints=%s", d, rep.Node, rep.ProbeTime.Sub(t0), renderTaints(rep.Taints))
			if rep.Status != nil {
				line += fmt.Sprintf(" status Ready=%s", rep.CurrentReady.Status)
			}
			if rep.MarkPodsNotReady {
				line += " mark-pods-not-ready"
			}
			out = append(out, line)
			write(rep.Node, rep.Status, rep.Taints)
		}
		out = append(out, fmt.Sprintf("%v queued %v entered=%v exited=%v", d, r.Queued, r.EnteredFullDisruption, r.ExitedFullDisruption))
		for _, z := range r.Zones {
			out = append(out, fmt.Sprintf("%v zone %+v", d, z))
		}
	}
	for _, tw := range r.Tainted {
		out = append(out, fmt.Sprintf("%v tainted %s %s", d, tw.Node, renderTaints(tw.Update.Taints)))
		write(tw.Node, nil, tw.Update.Taints)
	}
	return out
}

func renderTaints(taints []api.Taint) string {
	var parts []string
	for _, t := range taints {
		p := t.Key + ":" + string(t.Effect)
		if t.TimeAdded != nil {
			p += "@" + t.TimeAdded.Sub(t0).String()
		}
		parts = append(parts, p)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func drawConfig(t *rapid.T) Config {
	return Config{
		EvictionRate:              rapid.SampledFrom([]float32{0, 0.05, 0.3, 1, 2.5}).Draw(t, "rate"),
		SecondaryEvictionRate:     rapid.SampledFrom([]float32{0, 0.02, 0.15}).Draw(t, "secondary"),
		UnhealthyZoneThreshold:    rapid.SampledFrom([]float32{0, 0.3}).Draw(t, "threshold"),
		LargeClusterSizeThreshold: rapid.SampledFrom([]int32{0, 2, 4}).Draw(t, "large"),
	}
}

// A caller that jumps from deadline to deadline sees exactly what a caller
// stepping the controller every 100 ms sees: the same monitor passes, the
// same taints at the same times (the float32 rates, the token buckets and
// the 100 ms tainting ticks included), over random clusters whose nodes
// are lost, come back, turn NotReady, lose their Ready condition or are
// deleted, under random rates and thresholds.
func TestControllerDeadlinesMatchTicking(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		scripts := drawScripts(t)
		cfg := drawConfig(t)
		const end = 4 * time.Minute

		// Every 100 ms.
		wa, ca := newWorld(scripts), mustController(cfg)
		var ticking []string
		for d := time.Duration(0); d <= end; d += TaintPassPeriod {
			if d%DefaultMonitorPeriod == 0 {
				wa.advance(int(d / time.Second))
			}
			r, err := ca.Step(Input{Nodes: wa.nodes, Leases: wa.leases}, t0.Add(d))
			if err != nil {
				t.Fatal(err)
			}
			ticking = append(ticking, wa.apply(r, d)...)
		}

		// From deadline to deadline. World changes fall on monitor passes,
		// which are always deadlines.
		wb, cb := newWorld(scripts), mustController(cfg)
		var jumping []string
		steps := 0
		for now := t0; now.Sub(t0) <= end; now = cb.NextDeadline() {
			d := now.Sub(t0)
			if d%TaintPassPeriod != 0 {
				t.Fatalf("deadline %v off the 100 ms grid", d)
			}
			if d%DefaultMonitorPeriod == 0 {
				wb.advance(int(d / time.Second))
			}
			r, err := cb.Step(Input{Nodes: wb.nodes, Leases: wb.leases}, now)
			if err != nil {
				t.Fatal(err)
			}
			if !r.MonitorPass && !r.TaintPass {
				t.Fatalf("at %v: a deadline with no pass due", d)
			}
			jumping = append(jumping, wb.apply(r, d)...)
			steps++
		}
		if diff := cmp.Diff(ticking, jumping); diff != "" {
			t.Fatalf("jumping from deadline to deadline differs from ticking every 100 ms (-ticking +jumping):\n%s", diff)
		}
		if steps > int(end/DefaultMonitorPeriod)+1+len(ticking) {
			t.Fatalf("%d steps for %d events", steps, len(ticking))
		}
	})
}

// The same for Monitor: a caller looking every 5 s and one stepping only at
// NextDeadline and when an input arrives (a lease renewal, a status the
// kubelet posts, the node changed) get the same writes at the same times.
func TestMonitorDeadlinesMatchTicking(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		scripts := drawScripts(t)
		cfg := Config{MonitorGracePeriod: rapid.SampledFrom([]time.Duration{0, 20 * time.Second, 42 * time.Second}).Draw(t, "grace")}
		const end = 4 * time.Minute

		// The world changes every 5 s: the looks of the ticking caller, and
		// the inputs of the jumping one.
		run := func(jump bool) []string {
			w, m := newWorld(scripts), mustMonitor(cfg)
			var out []string
			look := func(i int, d time.Duration) {
				n := w.nodes[i]
				rep, err := m.Step(MonitorInput{Node: n, LeaseRenew: w.leases[n.Name]}, t0.Add(d))
				if err != nil {
					t.Fatal(err)
				}
				if rep.Status == nil && !rep.NoSchedule.Changed() && !rep.NoExecute.Changed() && !rep.MarkPodsNotReady {
					return
				}
				out = append(out, fmt.Sprintf("%v %s taints=%s status=%v mark=%v", d, n.Name, renderTaints(rep.Taints), rep.Status != nil, rep.MarkPodsNotReady))
				m2 := *n
				if rep.Status != nil {
					m2.Status = *rep.Status
				}
				m2.Spec.Taints = rep.Taints
				w.nodes[i] = &m2
			}
			for d := time.Duration(0); d <= end; d += DefaultMonitorPeriod {
				before := slices.Clone(w.nodes)
				leases := map[string]time.Time{}
				for k, v := range w.leases {
					leases[k] = v
				}
				w.advance(int(d / time.Second))
				for _, n := range before {
					if !slices.ContainsFunc(w.nodes, func(m *api.Node) bool { return m.Name == n.Name }) {
						if _, err := m.Step(MonitorInput{Node: n, Deleted: true}, t0.Add(d)); err != nil {
							t.Fatal(err)
						}
					}
				}
				due := m.NextDeadline()
				if jump && !due.IsZero() && due.Before(t0.Add(d)) {
					t.Fatalf("at %v: overdue deadline %v", d, due.Sub(t0))
				}
				for i, n := range w.nodes {
					changed := !slices.Contains(before, n) || !leases[n.Name].Equal(w.leases[n.Name])
					if !jump || changed || d == 0 || !due.IsZero() && !t0.Add(d).Before(due) {
						look(i, d)
					}
				}
				if jump {
					// Nothing is due before the next world change.
					if next := m.NextDeadline(); next.After(t0.Add(d)) && next.Before(t0.Add(d+DefaultMonitorPeriod)) {
						t.Fatalf("at %v: deadline %v between two looks", d, next.Sub(t0))
					}
				}
			}
			return out
		}
		if diff := cmp.Diff(run(false), run(true)); diff != "" {
			t.Fatalf("-ticking +jumping:\n%s", diff)
		}
	})
}
