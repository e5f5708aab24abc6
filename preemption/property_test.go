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
		prio := api.PodPriority(w.pod)
		for _, cand := range r.Candidates {
			if len(cand.Victims) == 0 {
				t.Fatalf("candidate %s without victims", cand.Node)
			}
			for _, v := range cand.Victims {
				if api.PodPriority(v) >= prio {
					t.Fatalf("victim %s priority %d >= preemptor's %d", v.Name, api.PodPriority(v), prio)
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
				if p.Status.NominatedNodeName != r.Node || api.PodPriority(p) >= prio {
					t.Fatalf("cleared nomination of %s (node %s, priority %d)", p.Name, p.Status.NominatedNodeName, api.PodPriority(p))
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
