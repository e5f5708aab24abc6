package preemption_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

type want struct {
	nomination preemption.Nomination
	node       string
	victims    []string
	deleted    []string
	cleared    []string
	tied       []string
	candidates map[string]int // node -> PDB violations
	message    string         // prefix
}

func check(t *testing.T, r preemption.Result, w want) {
	t.Helper()
	if r.Nomination != w.nomination {
		t.Errorf("nomination = %v, want %v (%s)", r.Nomination, w.nomination, r.Message)
	}
	if r.Node != w.node {
		t.Errorf("node = %q, want %q", r.Node, w.node)
	}
	opt := cmp.Transformer("sorted", func(s []string) []string {
		out := append([]string{}, s...)
		slices.Sort(out)
		return out
	})
	empty := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	if d := cmp.Diff(empty(w.victims), empty(names(r.Victims)), opt); d != "" {
		t.Errorf("victims (-want +got):\n%s", d)
	}
	if d := cmp.Diff(empty(w.deleted), empty(names(r.Deleted)), opt); d != "" {
		t.Errorf("deleted (-want +got):\n%s", d)
	}
	if d := cmp.Diff(empty(w.cleared), empty(names(r.ClearedNominations)), opt); d != "" {
		t.Errorf("cleared (-want +got):\n%s", d)
	}
	if d := cmp.Diff(empty(w.tied), empty(r.Tied), opt); d != "" {
		t.Errorf("tied (-want +got):\n%s", d)
	}
	if w.candidates != nil {
		got := map[string]int{}
		for _, c := range r.Candidates {
			got[c.Node] = c.PDBViolations
		}
		if d := cmp.Diff(w.candidates, got); d != "" {
			t.Errorf("candidates (-want +got):\n%s", d)
		}
	}
	if !strings.HasPrefix(r.Message, w.message) {
		t.Errorf("message = %q, want prefix %q", r.Message, w.message)
	}
}

func never() *api.PreemptionPolicy { p := api.PreemptNever; return &p }

func TestPreempt(t *testing.T) {
	one := []*api.Node{node("node-1", "2", "4Gi")}
	two := []*api.Node{node("node-a", "2", "4Gi"), node("node-b", "2", "4Gi")}

	terminatingVictim := bound("old", "node-1", "1", 0, 1)
	terminatingVictim.DeletionTimestamp = api.NewTimePtr(t0)
	terminatingVictim.Status.Conditions = []api.PodCondition{{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: preemption.ReasonPreemptionByScheduler}}

	nominatedPreemptor := pending("high", "1500m", 1000)
	nominatedPreemptor.Status.NominatedNodeName = "node-1"

	cordoned := node("node-1", "2", "4Gi")
	cordoned.Spec.Unschedulable = true

	lowNominee := pending("low-nominee", "100m", 10)
	lowNominee.Status.NominatedNodeName = "node-1"
	highNominee := pending("high-nominee", "100m", 5000)
	highNominee.Status.NominatedNodeName = "node-1"

	deleting := bound("deleting", "node-1", "1", 0, 1)
	deleting.DeletionTimestamp = api.NewTimePtr(t0)

	tainted := node("node-b", "2", "4Gi")
	tainted.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}

	tests := []struct {
		name string
		c    *scheduling.Cluster
		pod  *api.Pod
		pdbs []*api.PodDisruptionBudget
		cfg  preemption.Config
		want want
	}{{
		name: "lowest-priority and earliest-started victims go, the rest are reprieved",
		c: cluster(one, bound("low-1", "node-1", "1", 0, 1), bound("low-2", "node-1", "500m", 0, 2),
			bound("mid-1", "node-1", "500m", 500, 3)),
		pod: pending("high", "1500m", 1000000),
		want: want{nomination: preemption.NominationSet, node: "node-1", victims: []string{"low-1", "low-2"},
			deleted: []string{"low-1", "low-2"}, candidates: map[string]int{"node-1": 0}},
	}, {
		name: "preemptionPolicy Never keeps the nomination",
		c:    cluster(one, bound("low-1", "node-1", "2", 0, 1)),
		pod: func() *api.Pod {
			p := pending("high", "1500m", 1000)
			p.Spec.PreemptionPolicy = never()
			return p
		}(),
		want: want{nomination: preemption.NominationKeep, message: "preemption: not eligible due to preemptionPolicy=Never."},
	}, {
		name: "a victim still terminating on the nominated node makes the pod wait",
		c:    cluster(one, terminatingVictim, bound("low-2", "node-1", "1", 0, 2)),
		pod:  nominatedPreemptor,
		want: want{nomination: preemption.NominationKeep, message: "preemption: not eligible due to a terminating pod on the nominated node."},
	}, {
		name: "an unresolvable nominated node lets the pod preempt again",
		c:    cluster([]*api.Node{cordoned}, terminatingVictim, bound("low-2", "node-1", "1", 0, 2)),
		pod:  nominatedPreemptor,
		want: want{nomination: preemption.NominationClear, message: "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
	}, {
		name: "no lower-priority pod: no node helps and the nomination is cleared",
		c:    cluster(one, bound("peer", "node-1", "2", 1000, 1)),
		pod:  pending("high", "1", 1000),
		want: want{nomination: preemption.NominationClear, candidates: map[string]int{},
			message: "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
	}, {
		name: "a node without budget violations wins",
		c:    cluster(two, bound("guarded", "node-a", "2", 0, 1), bound("free", "node-b", "2", 100, 1)),
		pod:  pending("high", "1", 1000),
		pdbs: []*api.PodDisruptionBudget{pdb("guard", "guarded", 0)},
		want: want{nomination: preemption.NominationSet, node: "node-b", victims: []string{"free"}, deleted: []string{"free"},
			candidates: map[string]int{"node-a": 1, "node-b": 0}},
	}, {
		name: "a pod listed in disruptedPods is no violation",
		c:    cluster(two, bound("guarded", "node-a", "2", 0, 1), bound("free", "node-b", "2", 100, 1)),
		pod:  pending("high", "1", 1000),
		pdbs: []*api.PodDisruptionBudget{pdb("guard", "guarded", 0, "guarded")},
		want: want{nomination: preemption.NominationSet, node: "node-a", victims: []string{"guarded"}, deleted: []string{"guarded"},
			candidates: map[string]int{"node-a": 0, "node-b": 0}},
	}, {
		name: "the priority sum counts every victim 2^31 above its priority",
		c: cluster(two, bound("neg-1", "node-a", "1", -10, 1), bound("neg-2", "node-a", "1", -10, 2),
			bound("neg-big", "node-b", "2", -10, 3)),
		pod:  pending("high", "2", 0),
		want: want{nomination: preemption.NominationSet, node: "node-b", victims: []string{"neg-big"}, deleted: []string{"neg-big"}},
	}, {
		name: "the node whose top victims started latest wins",
		c:    cluster(two, bound("early", "node-a", "2", 0, 1), bound("late", "node-b", "2", 0, 5)),
		pod:  pending("high", "1", 1000),
		want: want{nomination: preemption.NominationSet, node: "node-b", victims: []string{"late"}, deleted: []string{"late"}},
	}, {
		name: "a victim without startTime counts as started now",
		c:    cluster(two, bound("unstarted", "node-a", "2", 0, -1), bound("late", "node-b", "2", 0, 5)),
		pod:  pending("high", "1", 1000),
		want: want{nomination: preemption.NominationSet, node: "node-a", victims: []string{"unstarted"}, deleted: []string{"unstarted"}},
	}, {
		name: "equal nodes are a tie",
		c:    cluster(two, bound("a", "node-a", "2", 0, 1), bound("b", "node-b", "2", 0, 1)),
		pod:  pending("high", "1", 1000),
		want: want{nomination: preemption.NominationSet, node: "node-a", victims: []string{"a"}, deleted: []string{"a"},
			tied: []string{"node-a", "node-b"}},
	}, {
		name: "lower-priority nominations to the chosen node are cleared",
		c:    cluster(one, bound("low", "node-1", "1500m", 0, 1), lowNominee, highNominee),
		pod:  pending("high", "1", 1000),
		want: want{nomination: preemption.NominationSet, node: "node-1", victims: []string{"low"}, deleted: []string{"low"},
			cleared: []string{"low-nominee"}},
	}, {
		name: "a terminating victim counts but is not deleted again",
		c:    cluster(one, deleting, bound("low-2", "node-1", "1", 0, 2)),
		pod:  pending("high", "2", 1000),
		want: want{nomination: preemption.NominationSet, node: "node-1", victims: []string{"deleting", "low-2"}, deleted: []string{"low-2"}},
	}, {
		name: "only Unschedulable nodes are tried",
		c:    cluster([]*api.Node{node("node-a", "2", "4Gi"), tainted}, bound("a", "node-a", "2", 500, 1), bound("b", "node-b", "2", 0, 1)),
		pod:  pending("high", "1", 1000),
		want: want{nomination: preemption.NominationSet, node: "node-a", victims: []string{"a"}, deleted: []string{"a"},
			candidates: map[string]int{"node-a": 0}},
	}, {
		name: "the dry run stops once enough candidates are found, starting at the offset",
		c: cluster([]*api.Node{node("n1", "2", "4Gi"), node("n2", "2", "4Gi"), node("n3", "2", "4Gi")},
			bound("p1", "n1", "2", 0, 1), bound("p2", "n2", "2", 0, 9), bound("p3", "n3", "2", 0, 1)),
		pod: pending("high", "1", 1000),
		cfg: preemption.Config{MinCandidateNodesAbsolute: 1, MinCandidateNodesPercentage: 1, Offset: 2},
		want: want{nomination: preemption.NominationSet, node: "n3", victims: []string{"p3"}, deleted: []string{"p3"},
			candidates: map[string]int{"n3": 0}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, preempt(tt.c, tt.pod, tt.pdbs, tt.cfg, time.Time{}), tt.want)
		})
	}
}

func TestNumCandidates(t *testing.T) {
	for _, tt := range []struct {
		cfg  preemption.Config
		n    int
		want int
	}{
		{preemption.Config{}, 5, 5},
		{preemption.Config{}, 100, 100},
		{preemption.Config{}, 999, 100},
		{preemption.Config{}, 5000, 500},
		{preemption.Config{MinCandidateNodesPercentage: 50, MinCandidateNodesAbsolute: 1}, 9, 4},
		{preemption.Config{MinCandidateNodesPercentage: 1, MinCandidateNodesAbsolute: 1}, 3, 1},
	} {
		if got := tt.cfg.NumCandidates(tt.n); got != tt.want {
			t.Errorf("%+v.NumCandidates(%d) = %d, want %d", tt.cfg, tt.n, got, tt.want)
		}
	}
}

func TestPreemptBadInput(t *testing.T) {
	c := cluster([]*api.Node{node("node-a", "2", "4Gi")}, bound("a", "node-a", "2", 0, 1))
	cy := c.NewCycle(pending("high", "1", 1000))
	other := c.NewCycle(pending("high", "1", 1000))
	for name, r := range map[string]preemption.Result{
		"nil cycle":          preemption.Preempt(nil, cy.Decide(nil), nil, preemption.Config{}, time.Time{}),
		"nil decision":       preemption.Preempt(cy, nil, nil, preemption.Config{}, time.Time{}),
		"empty decision":     preemption.Preempt(cy, &scheduling.Decision{}, nil, preemption.Config{}, time.Time{}),
		"another's decision": preemption.Preempt(cy, other.Decide(nil), nil, preemption.Config{}, time.Time{}),
	} {
		if !errors.Is(r.Err, api.ErrInvalidInput) || r.Nomination != preemption.NominationKeep {
			t.Errorf("%s: got %+v, want api.ErrInvalidInput and keep", name, r)
		}
	}
	if r := preemption.Preempt(cy, cy.Decide(nil), nil, preemption.Config{}, time.Time{}); r.Err != nil || r.Node != "node-a" {
		t.Errorf("the cycle's own decision: %+v", r)
	}
}

// With no node at all, upstream's dry run fails with an error before
// looking at nodes: the nomination is kept.
func TestPreemptNoNodes(t *testing.T) {
	r := preempt(cluster(nil), pending("high", "1", 1000), nil, preemption.Config{}, time.Time{})
	if r.Err == nil || r.Nomination != preemption.NominationKeep || r.Message != "preemption: no nodes available" || !r.Eligible {
		t.Fatalf("got %+v, want an error, keep and upstream's message", r)
	}
}

func TestTerminatingByPreemption(t *testing.T) {
	p := bound("v", "n", "1", 0, 1)
	if preemption.TerminatingByPreemption(p) {
		t.Error("running pod reported terminating")
	}
	p.DeletionTimestamp = api.NewTimePtr(t0)
	if preemption.TerminatingByPreemption(p) {
		t.Error("terminating pod without condition reported preempted")
	}
	p.Status.Conditions = []api.PodCondition{
		{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "EvictionByEvictionAPI"},
		{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: preemption.ReasonPreemptionByScheduler},
	}
	if preemption.TerminatingByPreemption(p) {
		t.Error("only the first DisruptionTarget condition counts")
	}
	p.Status.Conditions = p.Status.Conditions[1:]
	if !preemption.TerminatingByPreemption(p) {
		t.Error("preempted pod not recognised")
	}
}

// Preempt only reads the snapshot, so decisions may run side by side.
func TestPreemptConcurrentReaders(t *testing.T) {
	c := cluster([]*api.Node{node("node-a", "2", "4Gi"), node("node-b", "2", "4Gi")},
		bound("a", "node-a", "2", 0, 1), bound("b", "node-b", "2", 10, 1))
	done := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			done <- preempt(c, pending("high", "1", 1000), nil, preemption.Config{}, time.Time{}).Node
		}()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; got != "node-a" {
			t.Errorf("node = %q, want node-a", got)
		}
	}
}

// A preemptor sharing its UID with a pod of the snapshot (as the
// benchmark file's preemptor shares pod-0's) is not that pod: the bound
// pod is still a victim like any other. A pod nominated with the
// preemptor's UID is the preemptor itself, and is not counted on the
// node (the framework's addNominatedPods compares UIDs).
func TestPreemptorSharingUID(t *testing.T) {
	twin := bound("twin", "node-1", "1", 0, 1)
	nominee := pending("old-self", "2", 5000)
	nominee.Status.NominatedNodeName = "node-1"
	for _, run := range []func(*scheduling.Cluster, *api.Pod, []*api.PodDisruptionBudget, preemption.Config, time.Time) preemption.Result{preempt, preemptWithFilters} {
		c := cluster([]*api.Node{node("node-1", "2", "4Gi")}, twin, bound("other", "node-1", "1", 0, 2), nominee)
		p := pending("high", "2", 1000)
		p.UID, nominee.UID = twin.UID, twin.UID
		check(t, run(c, p, nil, preemption.Config{}, time.Time{}), want{nomination: preemption.NominationSet, node: "node-1",
			victims: []string{"twin", "other"}, deleted: []string{"twin", "other"}})
	}
}

// Preempt's allocations do not grow with the number of nodes: ten times
// the nodes (and pods), for the default sample and the exhaustive mode,
// with budgets, costs at most the few extra doublings of the arrays that
// hold the victims.
func TestPreemptAllocationsIndependentOfNodes(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	pdbs := []*api.PodDisruptionBudget{pdb("db", "app-1", 0), pdb("web", "app-2", 3)}
	allocs := func(numNodes int, cfg preemption.Config) float64 {
		c := allocCluster(t, numNodes)
		cy := c.NewCycle(pending("urgent", "4", 2000))
		d := cy.Decide(nil)
		return testing.AllocsPerRun(5, func() {
			if r := preemption.Preempt(cy, d, pdbs, cfg, t0); r.Node == "" {
				t.Fatal("no node chosen")
			}
		})
	}
	for _, cfg := range []preemption.Config{{}, {MinCandidateNodesPercentage: 100}} {
		small, large := allocs(300, cfg), allocs(3000, cfg)
		t.Logf("%+v: %v allocations for 300 nodes, %v for 3000", cfg, small, large)
		if large > small+4 {
			t.Errorf("%+v: %v allocations for 300 nodes, %v for 3000", cfg, small, large)
		}
	}
}

// allocCluster is numNodes full 8-cpu nodes of 8 pods each, of mixed
// priority; every third node's pods all outrank the preemptor, and every
// fifth node's high-priority pods leave no room even when the others go,
// so that nodes fail the dry run in both ways.
func allocCluster(t *testing.T, numNodes int) *scheduling.Cluster {
	t.Helper()
	var nodes []*api.Node
	var pods []*api.Pod
	prios := []int32{0, 10, 100, 1000, 5000}
	for i := 0; i < numNodes; i++ {
		n := node(fmt.Sprintf("node-%05d", i), "8", "32Gi")
		nodes = append(nodes, n)
		for j := 0; j < 8; j++ {
			prio := prios[(i+j)%len(prios)]
			switch {
			case i%3 == 0:
				prio = 10000
			case i%5 == 0 && j < 6:
				prio = 10000
			}
			p := bound(fmt.Sprintf("pod-%05d-%d", i, j), n.Name, "1", prio, (i*7+j)%60)
			p.Labels = map[string]string{"app": fmt.Sprintf("app-%d", j%4)}
			pods = append(pods, p)
		}
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
