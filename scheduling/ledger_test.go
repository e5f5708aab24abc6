package scheduling

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// TestLedgerMatchesWhatIf: on random snapshots (cpu, pod slots, a scalar
// resource, host ports, taints, nominated and terminating pods, inter-pod
// affinity), whenever Reset says the arithmetic decides, the Ledger agrees
// with a WhatIf given the same removals and reprieves at every step: Fits
// with Filter's success, Status with Filter; and it declines exactly when
// a filter that counts pods is active.
func TestLedgerMatchesWhatIf(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for _, name := range snapNodeNames[:rapid.IntRange(1, len(snapNodeNames)).Draw(t, "nodes")] {
			nodes = append(nodes, genSnapNode(t, name))
		}
		var pods []*api.Pod
		for i, n := 0, rapid.IntRange(0, 14).Draw(t, "pods"); i < n; i++ {
			pods = append(pods, genSnapPod(t, fmt.Sprintf("p%d", i)))
		}
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			t.Fatal(err)
		}
		in := genSnapPod(t, "incoming")
		in.Spec.NodeName, in.Status = "", api.PodStatus{}
		if rapid.Bool().Draw(t, "named") {
			in.Spec.NodeName = rapid.SampledFrom(snapNodeNames).Draw(t, "nodeName")
		}
		cy := c.NewCycle(in)
		var l Ledger
		for i := 0; i < c.NumNodes(); i++ {
			n := c.NodeAt(i)
			var removed []*PodInfo
			for _, p := range n.Pods() {
				if rapid.Bool().Draw(t, "remove") {
					removed = append(removed, p)
				}
			}
			if len(removed) > 0 && rapid.Bool().Draw(t, "repeat") {
				removed = append(removed, removed[0], nil)
			}
			ok := l.Reset(cy, n, removed)
			if want := arithmeticDecides(cy); ok != want {
				t.Fatalf("node %s: Reset %v, want %v (active %v)", n.Name(), ok, want, activeNames(cy))
			}
			if !ok {
				if l.Fits() || (len(removed) > 0 && l.Reprieve(removed[0])) {
					t.Fatalf("a declined ledger fits or reprieves")
				}
				continue
			}
			w := cy.WhatIf(n)
			for _, p := range removed {
				w.RemovePod(p)
			}
			compareLedger(t, &l, w, "after Reset")
			for _, p := range rapid.Permutation(removed).Draw(t, "reprieves") {
				got := l.Reprieve(p)
				want := false
				if p != nil && w.Pod(p.pod.Namespace, p.pod.Name) == p && indexOf(w.view.removed, p) >= 0 {
					w.AddPod(p)
					if w.Filter().IsSuccess() {
						want = true
					} else {
						w.RemovePod(p)
					}
				}
				if got != want {
					t.Fatalf("node %s: Reprieve(%v) = %v, want %v", n.Name(), podName(p), got, want)
				}
				compareLedger(t, &l, w, "after reprieving "+podName(p))
			}
		}
	})
}

func compareLedger(t *rapid.T, l *Ledger, w *WhatIf, when string) {
	want := w.Filter()
	if got := l.Fits(); got != want.IsSuccess() {
		t.Fatalf("%s on %s: Fits %v, Filter %v", when, w.view.info.Name(), got, want)
	}
	if got := l.Status(); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s on %s: Status\n got %+v\nwant %+v", when, w.view.info.Name(), got, want)
	}
}

// arithmeticDecides restates when a Ledger may decide: no PreFilter
// rejected and every active filter reads only the node, its pods' requests
// and count, or their host ports.
func arithmeticDecides(cy *Cycle) bool {
	if cy.rejectAll != nil {
		return false
	}
	for _, p := range cy.active {
		switch p.name() {
		case PluginNodeUnschedulable, PluginNodeName, PluginTaintToleration, PluginNodeAffinity, PluginNodePorts, PluginNodeResourcesFit:
		default:
			return false
		}
	}
	return true
}

func activeNames(cy *Cycle) []string {
	var out []string
	for _, p := range cy.active {
		out = append(out, p.name())
	}
	return out
}

func podName(p *PodInfo) string {
	if p == nil {
		return "<nil>"
	}
	return p.key
}

func TestLedgerWithoutReset(t *testing.T) {
	var l Ledger
	var nl *Ledger
	for _, l := range []*Ledger{&l, nl} {
		if l.Fits() || l.Reprieve(nil) || l.Reset(nil, nil, nil) {
			t.Fatal("an empty or nil ledger fits, reprieves or resets")
		}
		if st := l.Status(); st.Code != Error {
			t.Fatalf("Status of an empty or nil ledger: %v", st)
		}
	}
}

// TestFitReasonListsFollowTheirMasks: the shared reason list of every set
// of NodeResourcesFit's own resources holds their texts in the order the
// filter checks them, and is capped so that appending to it copies.
func TestFitReasonListsFollowTheirMasks(t *testing.T) {
	for mask := 1; mask < len(fitReasonLists); mask++ {
		var want []string
		for k, text := range fitReasonTexts {
			if mask&(1<<k) != 0 {
				want = append(want, text)
			}
		}
		got := fitReasonLists[mask]
		if !reflect.DeepEqual(got, want) || cap(got) != len(got) {
			t.Errorf("mask %04b: %q (cap %d), want %q", mask, got, cap(got), want)
		}
	}
}

// TestStatusArenaLimit: an arena with a limit grows its arrays fourfold up
// to the limit and no further, and still makes room for a list longer
// than the limit; lists handed out never overlap.
func TestStatusArenaLimit(t *testing.T) {
	a := statusArena{limit: 100}
	var caps []int
	var prev []InsufficientResource
	for range 200 {
		ins := a.insufficient(4)
		ins = append(ins, InsufficientResource{Resource: "cpu"})
		kept := a.keep(ins)
		if len(kept) != 1 || cap(kept) != 1 {
			t.Fatalf("kept len %d cap %d, want 1 and 1", len(kept), cap(kept))
		}
		if prev != nil && &prev[0] == &kept[0] {
			t.Fatal("a list was handed out twice")
		}
		prev = kept
		if len(caps) == 0 || caps[len(caps)-1] != cap(a.ins) {
			caps = append(caps, cap(a.ins))
		}
	}
	if want := []int{64, 100}; !reflect.DeepEqual(caps, want) {
		t.Errorf("array sizes %v, want %v", caps, want)
	}
	if got := cap(a.insufficient(150)); got != 150 {
		t.Errorf("room for 150 entries past the limit: cap %d", got)
	}
	if r := a.reasons(3); len(r) != 3 || cap(r) != 3 {
		t.Errorf("reasons: len %d cap %d, want 3 and 3", len(r), cap(r))
	}
}
