package scheduling

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// The posting lists' bitsets follow every pod and node update, and
// selectors counted through them equal a brute-force count, on clusters
// large enough for requirements to span several long lists.
func TestSpreadPostingBitsetsBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { selectorCountsBruteForce(t, 150) })
}

// checkPostingBits fails t unless every bitset a posting list keeps holds
// exactly the list's ids.
func checkPostingBits(t *rapid.T, pp *podPostings) {
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
						if id := int32(w*64 + b); (x>>b&1 != 0) != want[id] {
							t.Fatalf("%s %s=%s: bit %d is %v, list %v", ns, key, v, id, x>>b&1 != 0, l.ids)
						}
					}
				}
			}
		}
	}
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
