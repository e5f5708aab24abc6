package cluster

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// hasAdmissionTaint reports whether n carries the TaintNodesByCondition
// admission plugin's node.kubernetes.io/not-ready:NoSchedule.
func hasAdmissionTaint(n *api.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == api.TaintNodeNotReady && t.Effect == api.TaintEffectNoSchedule {
			return true
		}
	}
	return false
}

// TestPropertyNewNodeTaint: over random clusters, with Deployments scaled
// and new Nodes applied (reporting Ready=True, or no condition yet) at
// random times, every Node reaches the informers first with
// node.kubernetes.io/not-ready:NoSchedule (the API server's
// TaintNodesByCondition admission on create); no pod is bound to a node
// while the informers' copy of it carries that taint (the scenario's pods
// do not tolerate it); the scenario starts with no node carrying it (the
// harness's steady state), and it is gone from every node at the end (the
// node lifecycle controller's NoSchedule pass takes it off once the
// kubelet has registered its node Ready).
func TestPropertyNewNodeTaint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genCluster(t)
		nodes := 0
		for _, o := range objs {
			if _, ok := o.(*api.Node); ok {
				nodes++
			}
		}
		m, _, err := newMachine(start, Config{})
		if err != nil {
			t.Fatal(err)
		}
		m.onDeliver = func(w watchEvent) {
			switch o := w.Object.(type) {
			case *api.Node:
				if w.Type == watchAdded && !hasAdmissionTaint(o) {
					t.Fatalf("node %s created without the not-ready:NoSchedule taint: %v", o.Name, o.Spec.Taints)
				}
			case *api.Pod:
				if w.Type != watchModified || o.Spec.NodeName == "" || nodeOf(w.Old) != "" {
					return
				}
				if n, _ := m.cache.get("Node", o.Spec.NodeName).(*api.Node); n != nil && hasAdmissionTaint(n) {
					t.Fatalf("%s bound to %s while it carries the not-ready:NoSchedule taint", o.Key(), n.Name)
				}
			}
		}
		if _, err := m.load(objs, start); err != nil {
			t.Fatal(err)
		}
		noTaint := func(when string) {
			for _, o := range m.store.list("Node") {
				if n := o.(*api.Node); hasAdmissionTaint(n) {
					t.Fatalf("%s: node %s still carries the not-ready:NoSchedule taint", when, n.Name)
				}
			}
		}
		noTaint("at t=0")
		now := start
		for i, n := 0, rapid.IntRange(1, 6).Draw(t, "actions"); i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 30).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			var a Action
			if rapid.Bool().Draw(t, "new node") {
				nodes++
				name := fmt.Sprintf("node-%d", nodes)
				alloc := api.ResourceList{"cpu": api.MustParseQuantity("2"), "memory": api.MustParseQuantity("4Gi"), "pods": api.MustParseQuantity("110")}
				node := &api.Node{TypeMeta: api.TypeMeta{Kind: "Node", APIVersion: "v1"},
					ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name}},
					Status:     api.NodeStatus{Allocatable: alloc, Capacity: alloc}}
				if rapid.Bool().Draw(t, "registers Ready") {
					node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}
				}
				a = Action{Kind: ActionApply, Object: node}
			} else {
				a = Action{Kind: ActionScale, Ref: ObjectRef{Kind: "Deployment", Namespace: "default", Name: fmt.Sprintf("app%d", rapid.IntRange(0, 2).Draw(t, "deployment"))},
					Replicas: int32(rapid.IntRange(0, 8).Draw(t, "scale"))}
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(time.Minute))
		noTaint("at the end")
	})
}
