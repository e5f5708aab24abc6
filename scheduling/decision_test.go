package scheduling

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// checkDecisionMatches checks that d, decided for pod on c, reports node
// for node what Filter and Score report, and the same FitError message as
// Explain.
func checkDecisionMatches(t *rapid.T, c *Cluster, pod *api.Pod, d *Decision) {
	want := c.Filter(pod)
	wantScores := c.Score(pod, want)
	got := c.Decide(pod, d)
	if got.NumNodes() != len(want) {
		t.Fatalf("NumNodes %d, want %d", got.NumNodes(), len(want))
	}
	if res := got.Results(nil); !reflect.DeepEqual(res, want) && !(len(res) == 0 && len(want) == 0) {
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
	if got.NumFeasible() != feasible {
		t.Fatalf("NumFeasible %d, want %d", got.NumFeasible(), feasible)
	}
	gotScores := got.Scores(nil)
	if len(gotScores) != len(wantScores) {
		t.Fatalf("scores\n got %v\nwant %v", gotScores, wantScores)
	}
	for k := range wantScores {
		g, w := gotScores[k], wantScores[k]
		if g.Node != w.Node || g.Index != w.Index || g.Total != w.Total || len(g.Plugins) != len(w.Plugins) ||
			(len(w.Plugins) > 0 && !reflect.DeepEqual(g.Plugins, w.Plugins)) {
			t.Fatalf("score %d: got %v, want %v", k, g, w)
		}
		if s := got.Score(k); s.String() != w.String() {
			t.Fatalf("Score(%d) = %v, want %v", k, s, w)
		}
		if got.Totals()[k] != w.Total || got.Feasible()[k] != w.Index {
			t.Fatalf("Totals/Feasible %d disagree with %v", k, w)
		}
	}
	fd := c.NewCycle(pod).FilterDecision(d)
	if res := fd.Results(nil); !reflect.DeepEqual(res, want) && !(len(res) == 0 && len(want) == 0) {
		t.Fatalf("FilterDecision results\n got %v\nwant %v", res, want)
	}
	if _, _, ok := fd.BestIndex(); ok || fd.Scores(nil) != nil || len(fd.Totals()) != 0 || fd.NumFeasible() != feasible {
		t.Fatalf("FilterDecision: scores %v, totals %v, %d feasible", fd.Scores(nil), fd.Totals(), fd.NumFeasible())
	}
	got = c.Decide(pod, d)
	if msg := c.Explain(pod).Message; got.Message() != msg {
		t.Fatalf("Message %q, want %q", got.Message(), msg)
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
}

// A Decision reused across pods and snapshots reports exactly what Filter
// and Score report, with every default plugin, nominated pods and
// PreFilter rejections.
func TestDecisionEqualsFilterAndScore(t *testing.T) {
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
// minDomains.
func TestDecisionEqualsFilterAndScoreSpread(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := genSpreadCluster(t)
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

// ScoreInto with a reused list equals Score.
func TestScoreIntoReuse(t *testing.T) {
	nodes, pods := spreadBenchCluster(30, 3)
	c, err := NewCluster(nodes, pods, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var dst []NodeScore
	for _, app := range []string{"app-1", "app-2", "app-1"} {
		pod := spreadBenchPod(app)
		cy := c.NewCycle(pod)
		res := cy.Filter()
		want := c.Score(pod, res)
		dst = cy.ScoreInto(res, dst)
		if !reflect.DeepEqual(dst, want) {
			t.Fatalf("%s: ScoreInto\n got %v\nwant %v", app, dst, want)
		}
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
		c.Decide(pod, &d)
		return testing.AllocsPerRun(5, func() { c.Decide(pod, &d) })
	}
	if small, large := allocs(50), allocs(500); large > small {
		t.Fatalf("allocations grow with nodes: %v at 50 nodes, %v at 500", small, large)
	}
}
