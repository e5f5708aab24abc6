package preemption_test

import (
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
	"pgregory.net/rapid"
)

// richWorld is a world whose pods compete for cpu, memory, pod slots, a
// scalar resource and host ports, some with inter-pod anti-affinity, with
// nominated and terminating pods, budgets in two namespaces, and a
// preemptor that may carry host ports, a topology spread constraint or
// (anti-)affinity, so that both ways of dry-running a node are exercised:
// the Ledger's arithmetic and WhatIf's filters.
type richWorld struct {
	world
	nodes []*api.Node
	pods  []*api.Pod
}

const gpu = api.ResourceName("example.com/gpu")

func genRichWorld(t *rapid.T) richWorld {
	numNodes := rapid.IntRange(1, 5).Draw(t, "nodes")
	nodes := make([]*api.Node, numNodes)
	for i := range nodes {
		n := node(fmt.Sprintf("node-%d", i), rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "cpu"),
			rapid.SampledFrom([]string{"2Gi", "8Gi"}).Draw(t, "mem"))
		n.Labels[api.LabelTopologyZone] = rapid.SampledFrom([]string{"za", "zb"}).Draw(t, "zone")
		if rapid.IntRange(0, 3).Draw(t, "few slots") == 0 {
			n.Status.Allocatable[api.ResourcePods] = api.MustParseQuantity(rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "slots"))
		}
		if rapid.Bool().Draw(t, "gpus") {
			n.Status.Allocatable[gpu] = api.MustParseQuantity(rapid.SampledFrom([]string{"1", "2"}).Draw(t, "gpu count"))
		}
		if rapid.IntRange(0, 5).Draw(t, "tainted") == 0 {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
		}
		nodes[i] = n
	}
	apps := []string{"a", "b", "c"}
	namespaces := []string{"default", "other"}
	var pods []*api.Pod
	for i, num := 0, rapid.IntRange(0, 16).Draw(t, "pods"); i < num; i++ {
		cpu := rapid.SampledFrom([]string{"100m", "250m", "500m", "1", "1500m"}).Draw(t, "req")
		prio := rapid.SampledFrom([]int32{-10, 0, 10, 100, 1000}).Draw(t, "prio")
		var p *api.Pod
		if rapid.IntRange(0, 7).Draw(t, "kind") == 0 {
			p = pending(fmt.Sprintf("nominee-%d", i), cpu, prio)
			p.Status.NominatedNodeName = nodes[rapid.IntRange(0, numNodes-1).Draw(t, "nominated")].Name
		} else {
			p = bound(fmt.Sprintf("pod-%d", i), nodes[rapid.IntRange(0, numNodes-1).Draw(t, "on")].Name, cpu, prio,
				rapid.IntRange(-1, 6).Draw(t, "start"))
			if rapid.IntRange(0, 7).Draw(t, "terminating") == 0 {
				p.DeletionTimestamp = api.NewTimePtr(t0)
			}
		}
		p.Namespace = rapid.SampledFrom(namespaces).Draw(t, "namespace")
		p.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}
		if rapid.IntRange(0, 5).Draw(t, "unlabelled") == 0 {
			p.Labels = nil
		}
		decorate(t, p)
		pods = append(pods, p)
	}
	var pdbs []*api.PodDisruptionBudget
	for i, n := 0, rapid.IntRange(0, 3).Draw(t, "pdbs"); i < n; i++ {
		b := pdb(fmt.Sprintf("pdb-%d", i), rapid.SampledFrom(apps).Draw(t, "selects"), int32(rapid.IntRange(0, 2).Draw(t, "allowed")))
		b.Namespace = rapid.SampledFrom(namespaces).Draw(t, "pdb namespace")
		if len(pods) > 0 && rapid.IntRange(0, 3).Draw(t, "disrupted") == 0 {
			b.Status.DisruptedPods = map[string]api.Time{rapid.SampledFrom(pods).Draw(t, "disrupted pod").Name: api.NewTime(t0)}
		}
		pdbs = append(pdbs, b)
	}
	preemptor := pending("preemptor", rapid.SampledFrom([]string{"500m", "1", "2", "3"}).Draw(t, "preemptor cpu"),
		rapid.SampledFrom([]int32{0, 100, 1000, 5000, 5000}).Draw(t, "preemptor prio"))
	preemptor.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "preemptor app")}
	decorate(t, preemptor)
	switch rapid.IntRange(0, 9).Draw(t, "preemptor constraint") {
	case 0:
		preemptor.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1,
			TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}
	case 1:
		preemptor.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "b"}},
				TopologyKey:   api.LabelTopologyZone}}}}
	}
	if len(pods) > 0 && rapid.IntRange(0, 5).Draw(t, "shared uid") == 0 {
		// A pod of the snapshot with the preemptor's UID (as pod-0 has in
		// the benchmark file) is still another pod.
		preemptor.UID = rapid.SampledFrom(pods).Draw(t, "uid of").UID
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return richWorld{world: world{c: c, pod: preemptor, pdbs: pdbs}, nodes: nodes, pods: pods}
}

// decorate gives a pod memory, a GPU, a host port or required
// anti-affinity, each now and then.
func decorate(t *rapid.T, p *api.Pod) {
	c := &p.Spec.Containers[0]
	if mem := rapid.SampledFrom([]string{"", "", "512Mi", "1Gi"}).Draw(t, "memory"); mem != "" {
		c.Resources.Requests[api.ResourceMemory] = api.MustParseQuantity(mem)
	}
	if rapid.IntRange(0, 5).Draw(t, "gpu") == 0 {
		c.Resources.Requests[gpu] = api.MustParseQuantity("1")
		c.Resources.Limits = api.ResourceList{gpu: api.MustParseQuantity("1")}
	}
	if rapid.IntRange(0, 5).Draw(t, "host port") == 0 {
		c.Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080,
			HostIP: rapid.SampledFrom([]string{"", "10.0.0.1"}).Draw(t, "host ip")}}
	}
	if rapid.IntRange(0, 9).Draw(t, "anti-affinity") == 0 {
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}},
				TopologyKey:   rapid.SampledFrom([]string{api.LabelHostname, api.LabelTopologyZone}).Draw(t, "anti key")}}}}
	}
}

// equateErrors compares errors by their text.
var equateErrors = cmp.Comparer(func(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
})

var exhaustive = preemption.Config{MinCandidateNodesPercentage: 100}

// TestDryRunWaysAgree: the Ledger's arithmetic and WhatIf's filters give
// the same preemption result, whole, for the default configuration and
// for the exhaustive one.
func TestDryRunWaysAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genRichWorld(t)
		cfg := rapid.SampledFrom([]preemption.Config{{}, exhaustive, {MinCandidateNodesAbsolute: 1, MinCandidateNodesPercentage: 1}}).Draw(t, "cfg")
		cfg.Offset = rapid.IntRange(0, 5).Draw(t, "offset")
		now := rapid.SampledFrom([]time.Time{{}, t0.Add(time.Hour)}).Draw(t, "now")
		got := preempt(w.c, w.pod, w.pdbs, cfg, now)
		want := preemptWithFilters(w.c, w.pod, w.pdbs, cfg, now)
		if d := cmp.Diff(want, got, equateErrors); d != "" {
			t.Fatalf("arithmetic dry run differs from the filters' (-filters +arithmetic):\n%s", d)
		}
	})
}

// TestDryRunMatchesScratch: every node's dry run in exhaustive mode, which
// Preempt computes incrementally on one snapshot, equals the same dry run
// done from scratch: for each potential node, a new snapshot without the
// node's lower-priority pods decides whether the pod fits there, then
// every reprieve adds the pod back to that snapshot and decides again.
// Both the arithmetic and the filters' way are compared with it.
func TestDryRunMatchesScratch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genRichWorld(t)
		now := rapid.SampledFrom([]time.Time{{}, t0.Add(time.Hour)}).Draw(t, "now")
		for _, run := range []func(*scheduling.Cluster, *api.Pod, []*api.PodDisruptionBudget, preemption.Config, time.Time) preemption.Result{preempt, preemptWithFilters} {
			r := run(w.c, w.pod, w.pdbs, exhaustive, now)
			if !r.Eligible || r.Err != nil {
				continue
			}
			cands := map[string]preemption.Candidate{}
			for _, c := range r.Candidates {
				cands[c.Node] = c
			}
			for i, out := range r.Nodes {
				if out.Filter.Code != scheduling.Unschedulable {
					if out.Evaluated {
						t.Fatalf("%s (%v) was dry-run", out.Node, out.Filter.Code)
					}
					continue
				}
				if !out.Evaluated {
					t.Fatalf("exhaustive mode left %s out", out.Node)
				}
				victims, violations, st, ok := scratchDryRun(t, w, i, now)
				if !ok {
					continue
				}
				if d := cmp.Diff(st, out.DryRun, equateErrors); d != "" {
					t.Fatalf("%s: dry-run status (-scratch +incremental):\n%s", out.Node, d)
				}
				c, ok := cands[out.Node]
				if ok != st.IsSuccess() {
					t.Fatalf("%s: candidate %v, scratch status %v", out.Node, ok, st)
				}
				if ok && (!slices.Equal(names(c.Victims), names(victims)) || c.PDBViolations != violations) {
					t.Fatalf("%s: victims %v (%d violations), from scratch %v (%d)", out.Node, names(c.Victims),
						c.PDBViolations, names(victims), violations)
				}
			}
		}
	})
}

// scratchDryRun is SelectVictimsOnNode for node index i computed from
// scratch: snapshots rebuilt from the world's objects and decided whole.
// The scheduler's dry run keeps the PreFilter outcome of the whole
// snapshot (a plugin that said Skip there stays skipped, one that did not
// keeps counting the pods nominated to the node); a rebuilt snapshot
// without the victims may skip a plugin the whole one ran, or the other
// way round. ok is false when that happens: the two are then not the same
// computation.
func scratchDryRun(t *rapid.T, w richWorld, i int, now time.Time) (victims []*api.Pod, violations int, st scheduling.Status, ok bool) {
	prio := api.PodPriority(w.pod)
	var potential []*api.Pod
	for _, p := range w.c.NodeAt(i).Pods() {
		if api.PodPriority(p.Pod()) < prio {
			potential = append(potential, p.Pod())
		}
	}
	if len(potential) == 0 {
		return nil, 0, scheduling.Status{Code: scheduling.UnschedulableAndUnresolvable, Plugin: "DefaultPreemption",
			Reasons: []string{preemption.ReasonNoVictims}}, true
	}
	skips := func(d *scheduling.Decision) []bool {
		var out []bool
		for _, st := range d.PreFilter() {
			out = append(out, st.Code == scheduling.Skip)
		}
		return out
	}
	whole := skips(w.c.NewCycle(w.pod).Decide(nil))
	comparable := true
	// Upstream's PodTopologySpread does not count terminating pods, but
	// its RemovePod and AddPod move the counts for them all the same
	// (podsem does likewise): with a DoNotSchedule constraint, a
	// terminating victim makes the dry run differ from a rebuilt snapshot.
	if len(w.pod.Spec.TopologySpreadConstraints) > 0 {
		for _, p := range potential {
			comparable = comparable && p.DeletionTimestamp == nil
		}
	}
	var rest []*api.Pod
	for _, p := range w.pods {
		if !slices.Contains(potential, p) {
			rest = append(rest, p)
		}
	}
	c, err := scheduling.NewCluster(w.nodes, rest, scheduling.Config{})
	if err != nil {
		t.Fatal(err)
	}
	fits := func() scheduling.Status {
		d := c.NewCycle(w.pod).Decide(nil)
		comparable = comparable && slices.Equal(skips(d), whole)
		return d.Status(i)
	}
	if st := fits(); !st.IsSuccess() {
		return nil, 0, st, comparable
	}
	start := func(p *api.Pod) int64 {
		if p.Status.StartTime != nil {
			return p.Status.StartTime.UnixNano()
		}
		if now.IsZero() {
			return 1 << 62
		}
		return now.UnixNano()
	}
	// Upstream sorts with sort.Slice, higher priority then earlier start
	// first.
	sort.Slice(potential, func(a, b int) bool {
		pa, pb := api.PodPriority(potential[a]), api.PodPriority(potential[b])
		if pa != pb {
			return pa > pb
		}
		return start(potential[a]) < start(potential[b])
	})
	var violating, other []*api.Pod
	allowed := make([]int32, len(w.pdbs))
	for k, b := range w.pdbs {
		allowed[k] = b.Status.DisruptionsAllowed
	}
	for _, p := range potential {
		violates := false
		for k, b := range w.pdbs {
			sel, err := api.LabelSelectorAsSelector(b.Spec.Selector)
			if err != nil || sel.Empty() || b.Namespace != p.Namespace || len(p.Labels) == 0 || !sel.Matches(api.Set(p.Labels)) {
				continue
			}
			if _, ok := b.Status.DisruptedPods[p.Name]; ok {
				continue
			}
			allowed[k]--
			violates = violates || allowed[k] < 0
		}
		if violates {
			violating = append(violating, p)
		} else {
			other = append(other, p)
		}
	}
	for g, group := range [][]*api.Pod{violating, other} {
		for _, p := range group {
			if err := c.AddPod(p); err != nil {
				t.Fatal(err)
			}
			if fits().IsSuccess() {
				continue
			}
			if err := c.RemovePod(p.Namespace, p.Name); err != nil {
				t.Fatal(err)
			}
			victims = append(victims, p)
			if g == 0 {
				violations++
			}
		}
	}
	if len(victims) == 0 {
		err := fmt.Errorf("expected at least one victim pod on node %q", w.nodes[i].Name)
		return nil, 0, scheduling.Status{Code: scheduling.Error, Plugin: "DefaultPreemption", Reasons: []string{err.Error()}, Err: err}, comparable
	}
	if len(violating) > 0 && len(other) > 0 {
		sort.Slice(victims, func(a, b int) bool {
			pa, pb := api.PodPriority(victims[a]), api.PodPriority(victims[b])
			if pa != pb {
				return pa > pb
			}
			return start(victims[a]) < start(victims[b])
		})
	}
	return victims, violations, scheduling.Status{}, comparable
}
