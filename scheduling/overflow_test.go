package scheduling

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// hugeNode is a node with the given allocatable cpu and 110 pod slots.
func hugeNode(name, cpu string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.NodeStatus{Allocatable: api.ResourceList{
		api.ResourceCPU: api.MustParseQuantity(cpu), api.ResourcePods: api.MustParseQuantity("110"),
		api.ResourceMemory: api.MustParseQuantity("8Gi")}}}
}

// cpuPod is a pod requesting cpu, bound to node (unbound when node is "").
func cpuPod(name, node, cpu string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}}}}}}
}

// TestHugeRequestsSaturate: two valid pods requesting 2^62 cpu each used to
// wrap the node's requested cpu around to -2, after which a 3-cpu pod
// "fit" a 4-cpu node. The total now saturates, the node stays full, and
// the exact total comes back when pods leave.
func TestHugeRequestsSaturate(t *testing.T) {
	c, err := NewCluster([]*api.Node{hugeNode("n1", "4")},
		[]*api.Pod{cpuPod("a", "n1", "4611686018427387904"), cpuPod("b", "n1", "4611686018427387904")}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.NodeByName("n1").Requested().MilliCPU; got != math.MaxInt64 {
		t.Fatalf("requested cpu = %d, want MaxInt64", got)
	}
	d := decide(c, cpuPod("small", "", "3"))
	if d.Fits(0) {
		t.Fatalf("a 3-cpu pod fits a 4-cpu node holding 2×2^62 cpu: %v", d.Status(0))
	}
	if st := d.Status(0); len(st.Reasons) != 1 || st.Reasons[0] != "Insufficient cpu" {
		t.Fatalf("status = %v, want Insufficient cpu", st)
	}
	// Removing both huge pods in a what-if frees the node; removing one
	// does not.
	n := c.NodeByName("n1")
	cy := c.NewCycle(cpuPod("small", "", "3"))
	w := cy.WhatIf(n)
	w.RemovePod(w.Pod("default", "a"))
	if w.Filter().IsSuccess() {
		t.Fatal("what-if without a: the 3-cpu pod fits")
	}
	w.RemovePod(w.Pod("default", "b"))
	if !w.Filter().IsSuccess() {
		t.Fatalf("what-if without a and b: %v", w.Filter())
	}
	var l Ledger
	if !l.Reset(cy, n, []*PodInfo{w.Pod("default", "a"), w.Pod("default", "b")}) {
		t.Fatal("Ledger declined")
	}
	if !l.Fits() {
		t.Fatal("Ledger without a and b: does not fit")
	}
	if l.Reprieve(w.Pod("default", "a")) || !l.Fits() {
		t.Fatal("Ledger reprieved a 2^62-cpu pod on a 4-cpu node")
	}
	if err := c.RemovePod("default", "a"); err != nil {
		t.Fatal(err)
	}
	if err := c.RemovePod("default", "b"); err != nil {
		t.Fatal(err)
	}
	if got := c.NodeByName("n1").Requested().MilliCPU; got != 0 {
		t.Fatalf("requested cpu after removing both = %d, want 0", got)
	}
	if d := decide(c, cpuPod("small", "", "3")); !d.Fits(0) {
		t.Fatalf("empty node: %v", d.Status(0))
	}
}

// TestHugeTotalsAreExact: three pods of 2^62 milli-cpu sum past int64;
// taking two away again leaves exactly 2^62, not the saturated total less
// 2^63.
func TestHugeTotalsAreExact(t *testing.T) {
	pods := []*api.Pod{cpuPod("a", "n1", "4611686018427387904m"), cpuPod("b", "n1", "4611686018427387904m"),
		cpuPod("c", "n1", "4611686018427387904m")}
	c, err := NewCluster([]*api.Node{hugeNode("n1", "9223372036854775807m")}, pods, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.NodeByName("n1").Requested().MilliCPU; got != math.MaxInt64 {
		t.Fatalf("requested = %d, want MaxInt64", got)
	}
	for _, name := range []string{"a", "b"} {
		if err := c.RemovePod("default", name); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.NodeByName("n1").Requested().MilliCPU; got != 1<<62 {
		t.Fatalf("requested after two removals = %d, want 2^62", got)
	}
	if c.NodeByName("n1").over != nil {
		t.Fatal("exact totals kept although they fit int64 again")
	}
}

// TestScoresOfHugeNodes: kube-scheduler's LeastAllocated product
// (capacity − requested) × 100 overflows for a capacity beyond ~9.2e16;
// the score is the exact share instead, and ImageLocality's sum of huge
// image sizes saturates instead of turning negative.
func TestScoresOfHugeNodes(t *testing.T) {
	if got := leastRequestedScore(1<<61, 1<<62); got != 50 {
		t.Fatalf("leastRequestedScore(2^61, 2^62) = %d, want 50", got)
	}
	if got := leastRequestedScore(0, math.MaxInt64); got != 100 {
		t.Fatalf("leastRequestedScore(0, MaxInt64) = %d, want 100", got)
	}
	if got := leastRequestedScore(100, 1000); got != 90 {
		t.Fatalf("leastRequestedScore(100, 1000) = %d, want 90", got)
	}
	node := hugeNode("n1", "4")
	node.Status.Images = []api.ContainerImage{{Names: []string{"big:1"}, SizeBytes: math.MaxInt64},
		{Names: []string{"big:2"}, SizeBytes: math.MaxInt64}}
	c, err := NewCluster([]*api.Node{node}, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	pod := cpuPod("p", "", "1")
	pod.Spec.Containers = append(pod.Spec.Containers, api.Container{Name: "d", Image: "big:2"})
	pod.Spec.Containers[0].Image = "big:1"
	for _, s := range decide(c, pod).Scores(nil) {
		for _, ps := range s.Plugins {
			if ps.Score < 0 || ps.Score > MaxNodeScore {
				t.Errorf("%s scores %d", ps.Plugin, ps.Score)
			}
		}
	}
}

// hugeAmounts are cpu requests near and beyond the int64 range of
// milli-cpu, and ordinary ones.
var hugeAmounts = []string{"0", "1", "3", "500m", "4611686018427387904m", "9223372036854775807m",
	"4611686018427387904", "9223372036854775", "9223372036854776", "8E", "1e30"}

// TestNoSignChange is the property "no arithmetic result changes sign": on
// a node whose pods request cpu anywhere up to and far beyond int64
// milli-cpu, bound and removed in any order, the node's requested cpu is
// the exact sum saturated at MaxInt64 (never negative), NodeResourcesFit
// decides as on unbounded integers, and every score stays within 0..100.
func TestNoSignChange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alloc := rapid.SampledFrom(append([]string{"4", "64"}, hugeAmounts...)).Draw(t, "alloc")
		c, err := NewCluster([]*api.Node{hugeNode("n1", alloc)}, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		bound := map[string]*big.Int{}
		milli := func(s string) *big.Int {
			return big.NewInt(api.MustParseQuantity(s).MilliValue())
		}
		for i, n := 0, rapid.IntRange(1, 12).Draw(t, "steps"); i < n; i++ {
			name := fmt.Sprintf("p%d", rapid.IntRange(0, 5).Draw(t, "pod"))
			if _, ok := bound[name]; ok && rapid.Bool().Draw(t, "remove") {
				if err := c.RemovePod("default", name); err != nil {
					t.Fatal(err)
				}
				delete(bound, name)
			} else if !ok {
				cpu := rapid.SampledFrom(hugeAmounts).Draw(t, "cpu")
				if err := c.AddPod(cpuPod(name, "n1", cpu)); err != nil {
					t.Fatal(err)
				}
				bound[name] = milli(cpu)
			}
			sum := new(big.Int)
			for _, v := range bound {
				sum.Add(sum, v)
			}
			want := int64(math.MaxInt64)
			if sum.IsInt64() {
				want = sum.Int64()
			}
			if got := c.NodeByName("n1").Requested().MilliCPU; got != want {
				t.Fatalf("requested cpu = %d, want %d (exact %s)", got, want, sum)
			}
			in := rapid.SampledFrom(hugeAmounts[1:]).Draw(t, "incoming")
			room := new(big.Int).Sub(milli(alloc), sum)
			fits := milli(in).Cmp(room) <= 0
			d := decide(c, cpuPod("in", "", in))
			if d.Fits(0) != fits {
				t.Fatalf("incoming %s on alloc %s with %s requested: fits %v, want %v (%v)", in, alloc, sum, d.Fits(0), fits, d.Status(0))
			}
			for _, s := range d.Scores(nil) {
				for _, ps := range s.Plugins {
					if ps.Score < 0 || ps.Score > MaxNodeScore {
						t.Fatalf("%s scores %d", ps.Plugin, ps.Score)
					}
				}
			}
		}
	})
}

// TestWideArithmetic checks the exact sums and saturating helpers against
// math/big.
func TestWideArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.OneOf(rapid.Int64(), rapid.SampledFrom([]int64{math.MaxInt64, math.MinInt64, 0, 1, -1, 1 << 62}))
		var w wide
		exact := new(big.Int)
		for i, n := 0, rapid.IntRange(0, 20).Draw(t, "n"); i < n; i++ {
			x := gen.Draw(t, "x")
			sign := int64(1)
			if rapid.Bool().Draw(t, "neg") {
				sign = -1
			}
			w.add(x, sign)
			exact.Add(exact, new(big.Int).Mul(big.NewInt(x), big.NewInt(sign)))
			want := exact
			if exact.Cmp(big.NewInt(math.MaxInt64)) > 0 {
				want = big.NewInt(math.MaxInt64)
			} else if exact.Cmp(big.NewInt(math.MinInt64)) < 0 {
				want = big.NewInt(math.MinInt64)
			}
			if w.sat() != want.Int64() {
				t.Fatalf("sat = %d, want %s (exact %s)", w.sat(), want, exact)
			}
		}
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		clamp := func(x *big.Int) int64 {
			if x.Cmp(big.NewInt(math.MaxInt64)) > 0 {
				return math.MaxInt64
			}
			if x.Cmp(big.NewInt(math.MinInt64)) < 0 {
				return math.MinInt64
			}
			return x.Int64()
		}
		if got, want := satAdd(a, b), clamp(new(big.Int).Add(big.NewInt(a), big.NewInt(b))); got != want {
			t.Fatalf("satAdd(%d, %d) = %d, want %d", a, b, got, want)
		}
		if got, want := satSub(a, b), clamp(new(big.Int).Sub(big.NewInt(a), big.NewInt(b))); got != want {
			t.Fatalf("satSub(%d, %d) = %d, want %d", a, b, got, want)
		}
		for _, sign := range []int64{1, -1} {
			r := new(big.Int).Add(big.NewInt(a), new(big.Int).Mul(big.NewInt(b), big.NewInt(sign)))
			if got, want := addOverflows(a, b, sign), !r.IsInt64(); got != want {
				t.Fatalf("addOverflows(%d, %d, %d) = %v, want %v", a, b, sign, got, want)
			}
		}
	})
}

// TestRemovingTheMostNegativeRequest: taking away a pod whose request is
// math.MinInt64 milli-cpu (an invalid negative request) subtracts it
// exactly, instead of adding it (−MinInt64 wraps to MinInt64).
func TestRemovingTheMostNegativeRequest(t *testing.T) {
	c, err := NewCluster([]*api.Node{hugeNode("n1", "4")},
		[]*api.Pod{cpuPod("a", "n1", "1"), cpuPod("b", "n1", "-9223372036854775808m")}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.NodeByName("n1").Requested().MilliCPU; got != math.MinInt64+1000 {
		t.Fatalf("requested = %d", got)
	}
	if err := c.RemovePod("default", "b"); err != nil {
		t.Fatal(err)
	}
	if got := c.NodeByName("n1").Requested().MilliCPU; got != 1000 {
		t.Fatalf("requested after removing b = %d, want 1000", got)
	}
}

// TestLeastRequestedScoreAgreesWithBig checks the score against the
// formula on unbounded integers, truncating toward zero.
func TestLeastRequestedScoreAgreesWithBig(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.OneOf(rapid.Int64(), rapid.Int64Range(-2000, 2000),
			rapid.SampledFrom([]int64{0, 1, math.MaxInt64, math.MinInt64, math.MaxInt64 / 100, math.MaxInt64/100 + 1}))
		req, capacity := gen.Draw(t, "requested"), gen.Draw(t, "capacity")
		want := int64(0)
		if capacity != 0 && req <= capacity {
			q := new(big.Int).Sub(big.NewInt(capacity), big.NewInt(req))
			q.Mul(q, big.NewInt(MaxNodeScore))
			q.Quo(q, big.NewInt(capacity))
			switch {
			case q.IsInt64():
				want = q.Int64()
			case q.Sign() > 0:
				want = math.MaxInt64
			default:
				want = math.MinInt64
			}
		}
		if got := leastRequestedScore(req, capacity); got != want {
			t.Fatalf("leastRequestedScore(%d, %d) = %d, want %d", req, capacity, got, want)
		}
	})
}
