package scheduling

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// refNodeTree is kube-scheduler's nodeTree as upstream writes it: zone key
// to node names, zones in order of first appearance, and list() taking the
// i-th node of every zone in turn.
type refNodeTree struct {
	tree  map[string][]string
	zones []string
}

func (t *refNodeTree) add(n *api.Node) {
	z := api.ZoneKey(n)
	if _, ok := t.tree[z]; !ok {
		t.zones = append(t.zones, z)
	}
	t.tree[z] = append(t.tree[z], n.Name)
}

func (t *refNodeTree) remove(n *api.Node) {
	z := api.ZoneKey(n)
	list := t.tree[z]
	i := slices.Index(list, n.Name)
	if i < 0 {
		return
	}
	t.tree[z] = slices.Delete(list, i, i+1)
	if len(t.tree[z]) == 0 {
		delete(t.tree, z)
		t.zones = slices.DeleteFunc(t.zones, func(s string) bool { return s == z })
	}
}

func (t *refNodeTree) list() []string {
	var out []string
	for i := 0; ; i++ {
		added := false
		for _, z := range t.zones {
			if i < len(t.tree[z]) {
				out = append(out, t.tree[z][i])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

func genTreeNode(t *rapid.T, name string) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = map[string]string{}
	switch rapid.IntRange(0, 3).Draw(t, "labels") {
	case 1:
		n.Labels[api.LabelTopologyZone] = rapid.SampledFrom([]string{"z1", "z2", "z3"}).Draw(t, "zone")
	case 2:
		n.Labels[api.LabelFailureDomainBetaZone] = rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "betazone")
		n.Labels[api.LabelTopologyRegion] = rapid.SampledFrom([]string{"r1", "r2"}).Draw(t, "region")
	case 3:
		n.Labels[api.LabelFailureDomainBetaRegion] = "r1"
	}
	return n
}

// The node list the snapshot walks equals upstream's nodeTree list through
// any sequence of node additions, updates and removals, and a cursor at
// any position walks it with wrap-around.
func TestTreeOrderMatchesNodeTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, err := NewCluster(nil, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		ref := &refNodeTree{tree: map[string][]string{}}
		objs := map[string]*api.Node{}
		for i := range rapid.IntRange(0, 40).Draw(t, "ops") {
			name := fmt.Sprintf("n%d", rapid.IntRange(0, 15).Draw(t, "node"))
			old := objs[name]
			switch {
			case old == nil:
				n := genTreeNode(t, name)
				if err := c.AddNode(n); err != nil {
					t.Fatal(err)
				}
				ref.add(n)
				objs[name] = n
			case rapid.Bool().Draw(t, "remove"):
				if err := c.RemoveNode(name); err != nil {
					t.Fatal(err)
				}
				ref.remove(old)
				delete(objs, name)
			default:
				n := genTreeNode(t, name)
				if err := c.UpdateNode(n); err != nil {
					t.Fatal(err)
				}
				if api.ZoneKey(n) != api.ZoneKey(old) {
					ref.remove(old)
					ref.add(n)
				}
				objs[name] = n
			}
			var got []string
			for _, idx := range c.TreeOrder() {
				got = append(got, c.NodeAt(idx).Name())
			}
			if want := ref.list(); !slices.Equal(got, want) {
				t.Fatalf("after op %d: tree order %v, want %v", i, got, want)
			}
			if n := len(got); n > 0 {
				start := rapid.IntRange(0, n-1).Draw(t, "start")
				cur := c.tree.cursor(start)
				for k := range 2 * n {
					if name := c.NodeAt(cur.next()).Name(); name != got[(start+k)%n] {
						t.Fatalf("cursor at %d, step %d: %s, want %s", start, k, name, got[(start+k)%n])
					}
				}
			}
		}
	})
}

func TestNumFeasibleNodesToFind(t *testing.T) {
	for _, tc := range []struct {
		pct   int32
		nodes int
		want  int
	}{
		{0, 0, 0}, {0, 1, 1}, {0, 99, 99}, {50, 99, 99},
		{0, 100, 100}, // 50 - 0 = 50% of 100 = 50, at least 100
		{0, 1000, 420}, {0, 5000, 500}, {0, 6000, 300}, {0, 15000, 750}, {0, 100000, 5000},
		{1, 5000, 100}, {10, 5000, 500}, {100, 5000, 5000}, {34, 273, 100}, {50, 300, 150},
	} {
		if got := NumFeasibleNodesToFind(tc.pct, tc.nodes); got != tc.want {
			t.Errorf("NumFeasibleNodesToFind(%d, %d) = %d, want %d", tc.pct, tc.nodes, got, tc.want)
		}
	}
}

// genWalkCluster draws a cluster of up to 160 nodes over a few zones, with
// pods bound, nominated or pending, so that the feasible-node cut-off,
// the nominated node and the node tree all come into play.
func genWalkCluster(t *rapid.T) (nodes []*api.Node, pods []*api.Pod) {
	// Small clusters, and clusters past the 100 nodes where the search
	// stops early.
	n := rapid.OneOf(rapid.IntRange(1, 12), rapid.IntRange(100, 160)).Draw(t, "nodes")
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("n%03d", i)
		node := genTreeNode(t, names[i])
		node.Labels[api.LabelHostname] = names[i]
		node.Status.Allocatable = api.ResourceList{
			api.ResourceCPU:  api.NewMilliQuantity(int64(rapid.IntRange(0, 4000).Draw(t, "cpu")), api.DecimalSI),
			api.ResourcePods: api.NewQuantity(int64(rapid.IntRange(0, 5).Draw(t, "maxpods")), api.DecimalSI),
		}
		if rapid.IntRange(0, 5).Draw(t, "tainted") == 0 {
			node.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
		}
		if rapid.IntRange(0, 8).Draw(t, "cordoned") == 0 {
			node.Spec.Unschedulable = true
		}
		nodes = append(nodes, node)
	}
	for i := range rapid.IntRange(0, n).Draw(t, "pods") {
		p := &api.Pod{}
		p.Name, p.Namespace = fmt.Sprintf("p%d", i), "ns"
		p.UID = "uid-" + p.Name
		p.Labels = map[string]string{"app": rapid.SampledFrom([]string{"a", "b"}).Draw(t, "app")}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
			api.ResourceCPU: api.NewMilliQuantity(int64(rapid.IntRange(0, 1500).Draw(t, "reqcpu")), api.DecimalSI)}}}}
		prio := int32(rapid.IntRange(0, 2).Draw(t, "prio"))
		p.Spec.Priority = &prio
		switch rapid.IntRange(0, 6).Draw(t, "placement") {
		case 0:
			p.Status.NominatedNodeName = rapid.SampledFrom(names).Draw(t, "nominated")
		default:
			p.Spec.NodeName = rapid.SampledFrom(names).Draw(t, "node")
		}
		pods = append(pods, p)
	}
	return nodes, pods
}

func genWalkPod(t *rapid.T, names []string) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace, p.UID = "incoming", "ns", "uid-incoming"
	p.Labels = map[string]string{"app": "a"}
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		api.ResourceCPU: api.NewMilliQuantity(int64(rapid.IntRange(0, 2000).Draw(t, "podcpu")), api.DecimalSI)}}}}
	prio := int32(rapid.IntRange(0, 2).Draw(t, "podprio"))
	p.Spec.Priority = &prio
	if rapid.Bool().Draw(t, "tolerates") {
		p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	}
	if rapid.IntRange(0, 3).Draw(t, "nominated") == 0 {
		p.Status.NominatedNodeName = rapid.SampledFrom(names).Draw(t, "podnominated")
	}
	switch rapid.IntRange(0, 4).Draw(t, "constraint") {
	case 1:
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: api.LabelHostname,
			WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}
	case 2:
		// A DaemonSet pod's node pin: a PreFilter node subset.
		var pin []string
		for range rapid.IntRange(1, 4).Draw(t, "pins") {
			pin = append(pin, rapid.SampledFrom(append(names, "gone")).Draw(t, "pin"))
		}
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{
				Key: api.NodeFieldName, Operator: api.NodeSelectorOpIn, Values: pin}}}}}}}
	case 3:
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}, TopologyKey: api.LabelTopologyZone}}}}
	}
	return p
}

// ScheduleOne walks the nodes as findNodesThatFitPod does (the plain
// oracle over the plain filters' verdicts), rotates the start index as
// upstream does, and chooses a feasible node whose total is the best; the
// Decision's statuses, message and node subset agree with the oracle.
func TestScheduleOneEqualsPlainWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods := genWalkCluster(t)
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, n := range nodes {
			names = append(names, n.Name)
		}
		var d Decision
		s := Scheduler{
			PercentageOfNodesToScore: int32(rapid.SampledFrom([]int{0, 0, 1, 5, 34, 50, 100}).Draw(t, "pct")),
			NextStartNodeIndex:       rapid.IntRange(0, 2*len(nodes)).Draw(t, "start"),
		}
		for range 3 {
			pod := genWalkPod(t, names)
			oracle := c.NewCycle(pod)
			res := plainFilter(oracle)
			start := s.NextStartNodeIndex
			wantEval, wantFeasible, wantNom := plainWalk(oracle, res, s.PercentageOfNodesToScore, start)
			if _, err := s.ScheduleOne(c.NewCycle(pod), &d); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Evaluated(), wantEval) || !slices.Equal(d.Feasible(), wantFeasible) {
				t.Fatalf("evaluated %v feasible %v, want %v %v", d.Evaluated(), d.Feasible(), wantEval, wantFeasible)
			}
			if d.NominatedNodeFirst() != wantNom {
				t.Fatalf("nominatedNodeFirst %v, want %v", d.NominatedNodeFirst(), wantNom)
			}
			for _, i := range wantEval {
				if st := d.Status(i); !reflect.DeepEqual(st, res[i].Status) {
					t.Fatalf("node %d: %v, want %v", i, st, res[i].Status)
				}
			}
			wantStart := start
			if oracle.rejectAll == nil && !wantNom {
				wantStart = (start + len(wantEval)) % len(nodes)
			}
			if s.NextStartNodeIndex != wantStart {
				t.Fatalf("next start index %d, want %d", s.NextStartNodeIndex, wantStart)
			}
			if len(wantFeasible) == 0 {
				if _, ok := d.Chosen(); ok {
					t.Fatal("a node chosen with none feasible")
				}
				if want := plainMessage(oracle, res); d.Message() != want {
					t.Fatalf("message %q, want %q", d.Message(), want)
				}
				continue
			}
			chosen, ok := d.Chosen()
			if !ok || !d.Fits(chosen) || !slices.Contains(wantFeasible, chosen) {
				t.Fatalf("chosen %d (ok %v) is not feasible: %v", chosen, ok, wantFeasible)
			}
			if len(wantFeasible) == 1 {
				if d.Totals() != nil {
					t.Fatal("a lone feasible node was scored")
				}
				continue
			}
			// The plain scores over the same feasible nodes.
			only := make([]nodeResult, len(res))
			for i := range res {
				only[i] = nodeResult{Node: res[i].Node, Index: i, Status: Status{Code: Unschedulable}}
			}
			for _, i := range wantFeasible {
				only[i].Status = Status{}
			}
			scores, _ := plainScore(oracle, only)
			best := int64(-1)
			totals := map[int]int64{}
			for _, sc := range scores {
				totals[sc.Index] = sc.Total
				best = max(best, sc.Total)
			}
			if len(d.Totals()) != len(d.Feasible()) {
				t.Fatalf("%d totals for %d feasible nodes", len(d.Totals()), len(d.Feasible()))
			}
			for k, i := range d.Feasible() {
				if d.Totals()[k] != totals[i] {
					t.Fatalf("node %d total %d, want %d", i, d.Totals()[k], totals[i])
				}
			}
			if totals[chosen] != best {
				t.Fatalf("chosen %d scores %d, the best is %d", chosen, totals[chosen], best)
			}
			if !slices.Contains(d.Tied(), chosen) {
				t.Fatalf("chosen %d not among the tied %v", chosen, d.Tied())
			}
		}
	})
}

func TestScheduleOneBadInput(t *testing.T) {
	c, err := NewCluster([]*api.Node{{ObjectMeta: api.ObjectMeta{Name: "n"},
		Status: api.NodeStatus{Allocatable: api.ResourceList{api.ResourcePods: api.MustParseQuantity("10")}}}}, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}}
	for _, s := range []Scheduler{{PercentageOfNodesToScore: -1}, {PercentageOfNodesToScore: 101}, {NextStartNodeIndex: -1}} {
		if _, err := s.ScheduleOne(c.NewCycle(pod), nil); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
	var s Scheduler
	if _, err := s.ScheduleOne(nil, nil); err == nil {
		t.Error("nil cycle: no error")
	}
	empty, _ := NewCluster(nil, nil, Config{})
	if _, err := s.ScheduleOne(empty.NewCycle(pod), nil); err != ErrNoNodesAvailable {
		t.Errorf("no nodes: %v, want ErrNoNodesAvailable", err)
	}
	var nilScheduler *Scheduler
	if d, err := nilScheduler.ScheduleOne(c.NewCycle(pod), nil); err != nil || len(d.Feasible()) != 1 {
		t.Errorf("nil scheduler: %v, %v", d.Feasible(), err)
	}
}
