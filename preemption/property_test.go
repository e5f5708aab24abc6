package preemption_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
	"pgregory.net/rapid"
)

type world struct {
	c    *scheduling.Cluster
	pod  *api.Pod
	pdbs []*api.PodDisruptionBudget
}

// genWorld draws a small cluster whose pods only compete for cpu and pod
// slots, a preemptor and some budgets.
func genWorld(t *rapid.T) world {
	numNodes := rapid.IntRange(1, 6).Draw(t, "nodes")
	nodes := make([]*api.Node, numNodes)
	for i := range nodes {
		n := node(fmt.Sprintf("node-%d", i), rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "cpu"), "8Gi")
		n.Status.Allocatable[api.ResourcePods] = api.MustParseQuantity(rapid.SampledFrom([]string{"3", "110"}).Draw(t, "slots"))
		nodes[i] = n
	}
	prios := []int32{-10, 0, 10, 100, 1000}
	apps := []string{"a", "b", "c"}
	numPods := rapid.IntRange(0, 20).Draw(t, "pods")
	var pods []*api.Pod
	for i := 0; i < numPods; i++ {
		start := rapid.IntRange(-1, 30).Draw(t, "start")
		cpu := rapid.SampledFrom([]string{"100m", "250m", "500m", "1", "1500m"}).Draw(t, "req")
		prio := rapid.SampledFrom(prios).Draw(t, "prio")
		var p *api.Pod
		if rapid.IntRange(0, 9).Draw(t, "kind") == 0 {
			p = pending(fmt.Sprintf("nominee-%d", i), cpu, prio)
			p.Status.NominatedNodeName = nodes[rapid.IntRange(0, numNodes-1).Draw(t, "nominated")].Name
		} else {
			p = bound(fmt.Sprintf("pod-%d", i), nodes[rapid.IntRange(0, numNodes-1).Draw(t, "on")].Name, cpu, prio, start)
			if rapid.IntRange(0, 7).Draw(t, "terminating") == 0 {
				p.DeletionTimestamp = api.NewTimePtr(t0)
			}
		}
		p.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}
		pods = append(pods, p)
	}
	var pdbs []*api.PodDisruptionBudget
	for i, n := 0, rapid.IntRange(0, 2).Draw(t, "pdbs"); i < n; i++ {
		pdbs = append(pdbs, pdb(fmt.Sprintf("pdb-%d", i), rapid.SampledFrom(apps).Draw(t, "selects"), int32(rapid.IntRange(0, 2).Draw(t, "allowed"))))
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		t.Fatal(err)
	}
	preemptor := pending("preemptor", rapid.SampledFrom([]string{"500m", "1", "2", "3", "4"}).Draw(t, "preemptor cpu"),
		rapid.SampledFrom([]int32{0, 100, 1000, 5000, 5000}).Draw(t, "preemptor prio"))
	return world{c: c, pod: preemptor, pdbs: pdbs}
}

// fitsWithout reports whether the snapshot's own filters let pod onto the
// node once the victims are gone.
func fitsWithout(c *scheduling.Cluster, pod *api.Pod, nodeName string, victims []*api.Pod) bool {
	w := c.NewCycle(pod).WhatIf(c.NodeByName(nodeName))
	for _, v := range victims {
		w.RemovePod(w.Pod(v.Namespace, v.Name))
	}
	return w.Filter().IsSuccess()
}

// TestPreemptVictimsProperty: every candidate's victims have a lower
// priority than the preemptor and sit on the candidate node, evicting them
// makes the pod fit there by the snapshot's filters, and (the pods only
// competing for cpu and slots) sparing any one of them would not.
func TestPreemptVictimsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		r := preempt(w.c, w.pod, w.pdbs, preemption.Config{}, time.Time{})
		prio := scheduling.PodPriority(w.pod)
		for _, cand := range r.Candidates {
			if len(cand.Victims) == 0 {
				t.Fatalf("candidate %s without victims", cand.Node)
			}
			for _, v := range cand.Victims {
				if scheduling.PodPriority(v) >= prio {
					t.Fatalf("victim %s priority %d >= preemptor's %d", v.Name, scheduling.PodPriority(v), prio)
				}
				if v.Spec.NodeName != cand.Node {
					t.Fatalf("victim %s is on %q, not %q", v.Name, v.Spec.NodeName, cand.Node)
				}
			}
			if !fitsWithout(w.c, w.pod, cand.Node, cand.Victims) {
				t.Fatalf("pod does not fit on %s without %v", cand.Node, names(cand.Victims))
			}
			for i := range cand.Victims {
				spared := slices.Delete(slices.Clone(cand.Victims), i, i+1)
				if fitsWithout(w.c, w.pod, cand.Node, spared) {
					t.Fatalf("victim %s on %s need not go", cand.Victims[i].Name, cand.Node)
				}
			}
		}
		switch r.Nomination {
		case preemption.NominationSet:
			i := slices.IndexFunc(r.Candidates, func(c preemption.Candidate) bool { return c.Node == r.Node })
			if i < 0 || !slices.Equal(r.Candidates[i].Victims, r.Victims) {
				t.Fatalf("chosen node %s is not a candidate with the same victims", r.Node)
			}
			for _, v := range r.Deleted {
				if v.DeletionTimestamp != nil || !slices.Contains(r.Victims, v) {
					t.Fatalf("deleted %s is terminating or no victim", v.Name)
				}
			}
			for _, v := range r.Victims {
				if v.DeletionTimestamp == nil && !slices.Contains(r.Deleted, v) {
					t.Fatalf("victim %s not deleted", v.Name)
				}
			}
			for _, p := range r.ClearedNominations {
				if p.Status.NominatedNodeName != r.Node || scheduling.PodPriority(p) >= prio {
					t.Fatalf("cleared nomination of %s (node %s, priority %d)", p.Name, p.Status.NominatedNodeName, scheduling.PodPriority(p))
				}
			}
		case preemption.NominationClear:
			if len(r.Candidates) != 0 || r.Node != "" {
				t.Fatalf("clear with candidates %v / node %q", r.Candidates, r.Node)
			}
		}
		if again := preempt(w.c, w.pod, w.pdbs, preemption.Config{}, time.Time{}); !reflect.DeepEqual(names(again.Victims), names(r.Victims)) || again.Node != r.Node {
			t.Fatalf("not deterministic: %s %v then %s %v", r.Node, names(r.Victims), again.Node, names(again.Victims))
		}
	})
}

// oracleLess restates the eviction manager's ranking over the explained
// numbers: negative when a goes first.
func oracleCompare(a, b preemption.EvictionRank) int {
	stats := func() int {
		if a.HasStats == b.HasStats {
			return 0
		}
		if !a.HasStats {
			return -1
		}
		return 1
	}
	prio := func() int {
		if a.Priority == b.Priority {
			return 0
		}
		if a.Priority < b.Priority {
			return -1
		}
		return 1
	}
	if a.Measure == preemption.MeasureProcesses {
		if c := prio(); c != 0 {
			return c
		}
		if c := stats(); c != 0 || !a.HasStats {
			return c
		}
		return b.Usage.Cmp(a.Usage)
	}
	if c := stats(); c != 0 {
		return c
	}
	if a.HasStats && a.ExceedsRequests != b.ExceedsRequests {
		if a.ExceedsRequests {
			return -1
		}
		return 1
	}
	if c := prio(); c != 0 || !a.HasStats {
		return c
	}
	return b.Overage.Cmp(a.Overage)
}

var allSignals = []preemption.Signal{
	preemption.SignalMemoryAvailable, preemption.SignalAllocatableMemoryAvailable, preemption.SignalPIDAvailable,
	preemption.SignalNodeFsAvailable, preemption.SignalNodeFsInodesFree, preemption.SignalImageFsAvailable,
	preemption.SignalImageFsInodesFree, preemption.SignalContainerFsAvailable, preemption.SignalContainerFsInodesFree,
}

// TestEvictionOrderProperty: the ranking is a total preorder (every
// adjacent pair is in order by the stated rules), the sequence of ranks
// does not depend on the input order, and pods the rules cannot tell
// apart keep their input order (up to 12 pods, where the kubelet's sort is
// an insertion sort).
func TestEvictionOrderProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 14).Draw(t, "pods")
		var pods []*api.Pod
		var stats []preemption.PodStats
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("p%d", i)
			mem := rapid.SampledFrom([]string{"", "64Mi", "256Mi", "1Gi"}).Draw(t, "mem")
			disk := rapid.SampledFrom([]string{"", "100Mi", "1Gi"}).Draw(t, "disk")
			p := epod(name, rapid.SampledFrom([]int32{-1, 0, 0, 100}).Draw(t, "prio"), mem, disk,
				api.Volume{Name: "v", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}})
			pods = append(pods, p)
			if rapid.IntRange(0, 5).Draw(t, "stats?") == 0 {
				continue
			}
			s := diskStats(name, uint64(rapid.IntRange(0, 4).Draw(t, "rootfs"))*256*mi, uint64(rapid.IntRange(0, 2).Draw(t, "logs"))*mi,
				map[string]uint64{"v": uint64(rapid.IntRange(0, 2).Draw(t, "vol")) * 512 * mi})
			s.Memory = &preemption.MemoryStats{WorkingSetBytes: u(uint64(rapid.IntRange(0, 8).Draw(t, "ws")) * 128 * mi)}
			s.ProcessStats = &preemption.ProcessStats{ProcessCount: u(uint64(rapid.IntRange(0, 5).Draw(t, "procs")))}
			stats = append(stats, s)
		}
		signal := rapid.SampledFrom(allSignals).Draw(t, "signal")
		layout := rapid.SampledFrom([]preemption.FilesystemLayout{preemption.LayoutShared, preemption.LayoutDedicatedImageFs, preemption.LayoutSplitImageFs}).Draw(t, "layout")
		byUID := preemption.StatsByUID(stats)
		a, err := preemption.RankForEviction(pods, byUID, signal, layout)
		if err != nil {
			t.Fatal(err)
		}
		shuffled := rapid.Permutation(pods).Draw(t, "permutation")
		b, err := preemption.RankForEviction(shuffled, byUID, signal, layout)
		if err != nil {
			t.Fatal(err)
		}
		inputPos := map[*api.Pod]int{}
		for i, p := range shuffled {
			inputPos[p] = i
		}
		for i := 1; i < len(b); i++ {
			c := oracleCompare(b[i-1], b[i])
			if c > 0 {
				t.Fatalf("%s ranked before %s: %s / %s", b[i-1].Pod.Name, b[i].Pod.Name, b[i-1].Reason(), b[i].Reason())
			}
			if c == 0 && len(b) <= 12 && inputPos[b[i-1].Pod] > inputPos[b[i].Pod] {
				t.Fatalf("equal pods %s and %s swapped", b[i-1].Pod.Name, b[i].Pod.Name)
			}
		}
		for i := range a {
			if oracleCompare(a[i], b[i]) != 0 {
				t.Fatalf("position %d depends on input order: %s (%s) vs %s (%s)", i, a[i].Pod.Name, a[i].Reason(), b[i].Pod.Name, b[i].Reason())
			}
		}
	})
}

// The offset only decides where the dry run starts: with the default
// candidate count on a small cluster every potential node is tried, so
// the decision does not depend on it.
func TestOffsetIrrelevantOnSmallClusters(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		base := preempt(w.c, w.pod, w.pdbs, preemption.Config{}, time.Time{})
		other := preempt(w.c, w.pod, w.pdbs, preemption.Config{Offset: rapid.IntRange(-10, 10).Draw(t, "offset")}, t0.Add(time.Hour))
		if len(base.Candidates) != len(other.Candidates) || base.Nomination != other.Nomination {
			t.Fatalf("offset changed the outcome: %v vs %v", base.Candidates, other.Candidates)
		}
		if base.Node != other.Node && !slices.Contains(base.Tied, other.Node) {
			t.Fatalf("offset changed the node: %s vs %s (tied %v)", base.Node, other.Node, base.Tied)
		}
	})
}
