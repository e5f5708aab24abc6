package scheduling

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// The posting lists' bitsets (kept from any length here, so that small
// clusters have them) follow every pod and node update, and a selector
// counted through them, by candidates, or as the cost estimate chooses,
// gives the per-node counts of matching every pod's labels.
func TestSpreadPostingBitsetsBruteForce(t *testing.T) {
	values := []string{"", "a", "b", "1", "7"}
	genPod := func(t *rapid.T, name string, nodes []string) *api.Pod {
		p := spreadPodOn(name, rapid.SampledFrom(nodes).Draw(t, "node"))
		for _, k := range []string{"app", "tier", "rank"} {
			if v := rapid.SampledFrom(values).Draw(t, k); v != "" {
				p.Labels[k] = v
			}
		}
		if rapid.IntRange(0, 4).Draw(t, "otherNS") == 0 {
			p.Namespace = "other"
		}
		if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
			p.DeletionTimestamp = &api.Time{Time: time.Unix(100, 0)}
		}
		return p
	}
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"n0", "n1", "n2", "n3"}
		nodes := []*api.Node{spreadNode("n0"), spreadNode("n1"), spreadNode("n2")}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 150).Draw(t, "pods") {
			pods = append(pods, genPod(t, fmt.Sprintf("p%d", i), names))
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		pp := c.spread.pods
		pp.bitmapMin = rapid.SampledFrom([]int{0, 1, 4, bitmapMinIDs}).Draw(t, "bitmapMin")
		pp.rebits()
		next := 0
		for range rapid.IntRange(0, 40).Draw(t, "updates") {
			snapshotUpdate(t, c, func(name string) *api.Pod { return genPod(t, name, names) },
				func(name string) *api.Node { return spreadNode(name) }, &next)
		}
		// Every kept bitset holds exactly its list's ids.
		for ns, nsp := range pp.byNS {
			for key, byValue := range nsp.keys {
				for v, l := range byValue {
					if l.bits == nil {
						continue
					}
					want := map[int32]bool{}
					for _, id := range l.ids {
						want[id] = true
					}
					for w, x := range l.bits {
						for b := range 64 {
							id := int32(w*64 + b)
							if (x>>b&1 != 0) != want[id] {
								t.Fatalf("%s %s=%s: bit %d is %v, list %v", ns, key, v, id, x>>b&1 != 0, l.ids)
							}
						}
					}
				}
			}
		}
		ops := []api.SelectionOperator{api.SelectionIn, api.SelectionNotIn, api.SelectionEquals, api.SelectionNotEquals,
			api.SelectionExists, api.SelectionDoesNotExist, api.SelectionGreaterThan, api.SelectionLessThan}
		var reqs []api.Requirement
		for range rapid.IntRange(1, 4).Draw(t, "requirements") {
			key := rapid.SampledFrom([]string{"app", "tier", "rank", "absent"}).Draw(t, "key")
			op := rapid.SampledFrom(ops).Draw(t, "op")
			var vals []string
			switch op {
			case api.SelectionIn, api.SelectionNotIn:
				vals = rapid.SliceOfNDistinct(rapid.SampledFrom(values[1:]), 1, 3, rapid.ID[string]).Draw(t, "values")
			case api.SelectionEquals, api.SelectionNotEquals:
				vals = []string{rapid.SampledFrom(values[1:]).Draw(t, "value")}
			case api.SelectionGreaterThan, api.SelectionLessThan:
				vals = []string{rapid.SampledFrom([]string{"0", "1", "5"}).Draw(t, "number")}
			}
			r, err := api.NewRequirement(key, op, vals)
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, r)
		}
		sel := api.Everything().Add(reqs...)
		ns := rapid.SampledFrom([]string{"default", "other"}).Draw(t, "namespace")
		want := make([]int32, c.NumNodes())
		for _, p := range c.byNamespace[ns] {
			if countable(p) && sel.Matches(api.Set(p.pod.Labels)) {
				want[p.node.index]++
			}
		}
		pp.bitmapMode = rapid.SampledFrom([]int{0, 1, 2}).Draw(t, "bitmapMode")
		got := make([]int32, c.NumNodes())
		pp.countSelector(ns, sel, got)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("counts for %q in %s, bitmapMode %d (-brute force +index):\n%s", sel, ns, pp.bitmapMode, d)
		}
	})
}

// A topology key's domain index read from the snapshot's label column
// gives every node the domain id, and every domain the value and node
// count, that interning the nodes' label maps one by one gives, after any
// node updates (the critical paths break ties by domain id).
func TestSpreadKeyIndexFromColumn(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		zones := []string{"", "a", "b", "c"}
		newNode := func(name string) *api.Node {
			n := spreadNode(name)
			if z := rapid.SampledFrom(append(zones, "none")).Draw(t, "zone"); z != "none" {
				n.Labels["zone"] = z
			}
			return n
		}
		var nodes []*api.Node
		for i := range rapid.IntRange(0, 8).Draw(t, "nodes") {
			nodes = append(nodes, newNode(fmt.Sprintf("n%d", i)))
		}
		c, err := NewCluster(nodes, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		next := 0
		for range rapid.IntRange(0, 12).Draw(t, "updates") {
			snapshotUpdate(t, c, func(name string) *api.Pod { return spreadPodOn(name, "n0") }, newNode, &next)
		}
		got := newSpreadCache().keyIndex(c, "zone")
		want := &topoKeyIndex{key: "zone", ids: make([]int32, c.NumNodes()), values: []string{""}, nodesIn: []int32{0}}
		for i, n := range c.nodes {
			want.ids[i] = want.idOf(n.node.Labels)
			want.place(want.ids[i], 1)
		}
		if d := cmp.Diff(want.ids, got.ids); d != "" {
			t.Fatalf("domain ids (-label maps +column):\n%s", d)
		}
		if d := cmp.Diff(want.nodesIn, got.nodesIn); d != "" {
			t.Fatalf("nodes per domain (-label maps +column):\n%s", d)
		}
		if got.live != want.live || got.missing != want.missing {
			t.Fatalf("live %d missing %d, want %d %d", got.live, got.missing, want.live, want.missing)
		}
		for d := range want.numDomains() {
			if g, w := got.value(int32(d)), want.value(int32(d)); g != w {
				t.Fatalf("domain %d: value %q, want %q", d, g, w)
			}
		}
		// A node added afterwards is interned into the same domains.
		extra := newNode("extra")
		if err := c.AddNode(extra); err != nil {
			t.Fatal(err)
		}
		if g, w := got.idOf(extra.Labels), want.idOf(extra.Labels); g != w {
			t.Fatalf("added node's domain %d, want %d", g, w)
		}
	})
}
