package scheduling

import (
	"container/heap"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// checkDecisionMatches checks that d, decided for pod on c, reports node
// for node what the plain oracle (plainFilter, plainScore, plainMessage)
// reports, and that Explain agrees with it.
func checkDecisionMatches(t *rapid.T, c *Cluster, pod *api.Pod, d *Decision) {
	oracle := c.NewCycle(pod)
	want := plainFilter(oracle)
	wantScores, wantPreScore := plainScore(oracle, want)
	wantMsg := plainMessage(oracle, want)
	cy := c.NewCycle(pod)
	got := cy.Decide(d)
	if got != d || got.Cycle() != cy {
		t.Fatalf("Decide wrote another decision or cycle")
	}
	if got.NumNodes() != len(want) {
		t.Fatalf("NumNodes %d, want %d", got.NumNodes(), len(want))
	}
	if res := results(got); !reflect.DeepEqual(res, want) && !(len(res) == 0 && len(want) == 0) {
		t.Fatalf("results\n got %v\nwant %v", res, want)
	}
	feasible := 0
	for i, r := range want {
		if got.Fits(i) != r.Fits() {
			t.Fatalf("node %d: Fits %v, want %v", i, got.Fits(i), r.Fits())
		}
		if r.Fits() {
			feasible++
		}
	}
	if len(got.Feasible()) != feasible {
		t.Fatalf("%d feasible, want %d", len(got.Feasible()), feasible)
	}
	gotScores := got.Scores(nil)
	if len(gotScores) != len(wantScores) {
		t.Fatalf("scores\n got %v\nwant %v", gotScores, wantScores)
	}
	if len(got.Totals()) != len(wantScores) || len(got.Feasible()) != len(wantScores) {
		t.Fatalf("%d totals, %d feasible nodes, want %d of each", len(got.Totals()), len(got.Feasible()), len(wantScores))
	}
	for k := range wantScores {
		g, w := gotScores[k], wantScores[k]
		if g.Node != w.Node || g.Index != w.Index || g.Total != w.Total || !reflect.DeepEqual(g.Plugins, w.Plugins) {
			t.Fatalf("score %d: got %v, want %v", k, g, w)
		}
		if got.Totals()[k] != w.Total || got.Feasible()[k] != w.Index {
			t.Fatalf("Totals/Feasible %d disagree with %v", k, w)
		}
	}
	if ps := got.PreScore(); !reflect.DeepEqual(ps, wantPreScore) {
		t.Fatalf("PreScore\n got %v\nwant %v", ps, wantPreScore)
	}
	if got.Message() != wantMsg {
		t.Fatalf("Message %q, want %q", got.Message(), wantMsg)
	}
	if idx, total, ok := got.BestIndex(); ok != (feasible > 0) {
		t.Fatalf("BestIndex ok=%v with %d feasible", ok, feasible)
	} else if ok {
		for _, s := range wantScores {
			if s.Total > total || (s.Total == total && s.Index < idx) {
				t.Fatalf("BestIndex %d (%d), but %v", idx, total, s)
			}
		}
	}
	// A cycle may be asked again: Explain, then Decide once more, on the
	// same cycle give the same answers.
	e := cy.Explain()
	again := cy.Decide(nil)
	if !reflect.DeepEqual(results(again), results(got)) || !reflect.DeepEqual(again.Scores(nil), gotScores) {
		t.Fatalf("deciding again on the same cycle differs")
	}
	if e.Message != wantMsg {
		t.Fatalf("Explain message %q, want %q", e.Message, wantMsg)
	}
	for i, ne := range e.Nodes {
		if !reflect.DeepEqual(ne.Status, want[i].Status) {
			t.Fatalf("Explain node %d: %v, want %v", i, ne.Status, want[i].Status)
		}
		if ne.Fits() != (len(ne.Rejections) == 0) {
			t.Fatalf("Explain node %d fits=%v with rejections %v", i, ne.Fits(), ne.Rejections)
		}
	}
	for i, n := range c.nodes {
		if st := c.NewCycle(pod).WhatIf(n).Filter(); !reflect.DeepEqual(st, want[i].Status) {
			t.Fatalf("WhatIf(%s) unchanged: %v, want %v", n.name, st, want[i].Status)
		}
	}
}

// A Decision reused across pods and snapshots reports exactly what the
// plain filters and scores report, with every default plugin, nominated
// pods and PreFilter rejections.
func TestDecisionEqualsPlainFilterAndScore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for _, name := range snapNodeNames[:rapid.IntRange(0, len(snapNodeNames)).Draw(t, "nodes")] {
			nodes = append(nodes, genSnapNode(t, name))
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			pods = append(pods, genSnapPod(t, fmt.Sprintf("p%d", i)))
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var d Decision
		for i := range 3 {
			in := genSnapPod(t, fmt.Sprintf("incoming-%d", i))
			in.Spec.NodeName = ""
			checkDecisionMatches(t, c, in, &d)
		}
	})
}

// The same with topology spread constraints, inclusion policies and
// minDomains, on nodes with room for the pod (so that PodTopologySpread,
// not NodeResourcesFit, decides).
func TestDecisionEqualsPlainFilterAndScoreSpread(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
		for _, n := range nodes {
			n.Status.Allocatable = api.ResourceList{api.ResourcePods: api.MustParseQuantity("110"),
				api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("8Gi")}
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var d Decision
		checkDecisionMatches(t, c, pod, &d)
		soft := *pod
		soft.Spec.TopologySpreadConstraints = append([]api.TopologySpreadConstraint(nil), pod.Spec.TopologySpreadConstraints...)
		soft.Spec.TopologySpreadConstraints[0].WhenUnsatisfiable = api.ScheduleAnyway
		checkDecisionMatches(t, c, &soft, &d)
	})
}

// Scores written into a reused list equal a fresh list.
func TestScoresReuse(t *testing.T) {
	nodes, pods := spreadBenchCluster(30, 3)
	c, err := NewCluster(nodes, pods, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var d Decision
	var dst []NodeScore
	for _, app := range []string{"app-1", "app-2", "app-1"} {
		pod := spreadBenchPod(app)
		c.NewCycle(pod).Decide(&d)
		want := decide(c, pod).Scores(nil)
		dst = d.Scores(dst)
		if !reflect.DeepEqual(dst, want) {
			t.Fatalf("%s: Scores\n got %v\nwant %v", app, dst, want)
		}
	}
}

// A nil Cycle, Decision or WhatIf answers with empty values.
func TestDecisionNil(t *testing.T) {
	var cy *Cycle
	d := cy.Decide(nil)
	if d.NumNodes() != 0 || len(d.Feasible()) != 0 || d.Message() != "0/0 nodes are available:" || d.Cycle() != nil {
		t.Fatalf("nil cycle: %d nodes, message %q", d.NumNodes(), d.Message())
	}
	var nd *Decision
	if nd.Fits(0) || nd.Status(0).Code != Success || nd.Scores(nil) != nil || nd.Message() != "0/0 nodes are available:" {
		t.Fatal("nil Decision")
	}
	if _, _, ok := nd.BestIndex(); ok {
		t.Fatal("nil Decision has a best node")
	}
	if cy.Explain() != nil || cy.WhatIf(nil) != nil || cy.Pod() != nil || cy.Cluster() != nil {
		t.Fatal("nil Cycle")
	}
	var w *WhatIf
	w.RemovePod(nil)
	w.AddPod(nil)
	if st := w.Filter(); st.Code != Error || !errors.Is(st.Err, api.ErrInvalidInput) || w.Pod("a", "b") != nil {
		t.Fatalf("nil WhatIf: %v", st)
	}
	c, err := NewCluster(nil, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c.NewCycle(nil) != nil || c.NewCycle(&api.Pod{}).WhatIf(nil) != nil || c.NodeAt(0) != nil {
		t.Fatal("nil pod or node")
	}
	var nc *Cluster
	if nc.NewCycle(&api.Pod{}) != nil || nc.NumNodes() != 0 || nc.NodeByName("a") != nil || nc.NominatedPods("a") != nil {
		t.Fatal("nil Cluster")
	}
	if err := nc.AddPod(&api.Pod{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Fatalf("AddPod on a nil Cluster: %v", err)
	}
	var n *NodeInfo
	if n.Name() != "" || n.Index() != -1 || n.Node() != nil || n.Pods() != nil || n.Requested().MilliCPU != 0 {
		t.Fatal("nil NodeInfo")
	}
}

// Deciding with a warm Decision allocates nothing per node.
func TestDecisionAllocsIndependentOfNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two clusters")
	}
	allocs := func(n int) float64 {
		nodes, pods := spreadBenchCluster(n, 2)
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		pod := spreadBenchPod("app-3")
		var d Decision
		c.NewCycle(pod).Decide(&d)
		return testing.AllocsPerRun(5, func() { c.NewCycle(pod).Decide(&d) })
	}
	if small, large := allocs(50), allocs(500); large > small {
		t.Fatalf("allocations grow with nodes: %v at 50 nodes, %v at 500", small, large)
	}
}

// totalsHeap is container/heap's view of a decision's totals, as
// kube-scheduler's selectHost builds it: the feasible positions, the
// highest total first.
type totalsHeap struct {
	pos    []int
	totals []int64
}

func (h *totalsHeap) Len() int           { return len(h.pos) }
func (h *totalsHeap) Less(i, j int) bool { return h.totals[h.pos[i]] > h.totals[h.pos[j]] }
func (h *totalsHeap) Swap(i, j int)      { h.pos[i], h.pos[j] = h.pos[j], h.pos[i] }
func (h *totalsHeap) Push(x any)         { h.pos = append(h.pos, x.(int)) }
func (h *totalsHeap) Pop() any {
	x := h.pos[len(h.pos)-1]
	h.pos = h.pos[:len(h.pos)-1]
	return x
}

// choose picks the feasible node heap.Init followed by heap.Pop gives, ties
// and all.
func TestChooseEqualsContainerHeap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		totals := rapid.SliceOfN(rapid.Int64Range(0, 3), 2, 200).Draw(t, "totals")
		d := Decision{scored: true, totals: totals, feasible: make([]int, len(totals))}
		d.choose()
		h := &totalsHeap{totals: totals}
		for k := range totals {
			h.pos = append(h.pos, k)
		}
		heap.Init(h)
		if want := heap.Pop(h).(int); d.chosen != want {
			t.Fatalf("chose position %d (total %d), heap pops %d (total %d)", d.chosen, totals[d.chosen], want, totals[want])
		}
	})
}
