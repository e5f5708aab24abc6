package cluster

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// checkBudgets is the property "an eviction through the API never takes a
// budget below what it allows": when a pod's eviction reaches the
// informers (a Ready pod turns terminating with the DisruptionTarget
// condition of the Eviction API), the pods its budgets select that are still Ready and
// not terminating number at least the budget's minAvailable. It holds in
// clusters where nothing but evictions makes a Ready pod go (no scale-down,
// no delete: those bypass budgets, as upstream).
func checkBudgets(t *rapid.T, m *Machine) func(w watchEvent) {
	return func(w watchEvent) {
		p, ok := w.Object.(*api.Pod)
		if !ok || w.Type != watchModified || p.DeletionTimestamp == nil {
			return
		}
		// Only a Ready pod's eviction uses the budget: a Pending one is
		// evicted without consulting it, an unready Running one passes when
		// the budget is met (disruption.Evict), and neither lowers the count.
		if old, _ := w.Old.(*api.Pod); old == nil || old.DeletionTimestamp != nil || !api.IsPodReady(old) {
			return
		}
		evicted := false
		for _, c := range p.Status.Conditions {
			if c.Type == api.DisruptionTarget && c.Status == api.ConditionTrue && c.Reason == "EvictionByEvictionAPI" {
				evicted = true
			}
		}
		if !evicted {
			return
		}
		for _, o := range m.cache.list("PodDisruptionBudget") {
			pdb := o.(*api.PodDisruptionBudget)
			sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector)
			if err != nil || pdb.Namespace != p.Namespace || !sel.Matches(api.Set(p.Labels)) || pdb.Spec.MinAvailable == nil {
				continue
			}
			healthy := 0
			for _, q := range inNamespace[*api.Pod](m.cache, "Pod", p.Namespace) {
				if sel.Matches(api.Set(q.Labels)) && q.DeletionTimestamp == nil && api.IsPodReady(q) {
					healthy++
				}
			}
			if int32(healthy) < pdb.Spec.MinAvailable.IntVal {
				t.Fatalf("eviction of %s left %d healthy pods under budget %s (minAvailable %d)", p.Key(), healthy, pdb.Name, pdb.Spec.MinAvailable.IntVal)
			}
		}
	}
}

// TestPropertyEvictionsKeepBudgets: random clusters, each Deployment
// guarded by a budget of a random minAvailable, drained node by node at
// random times (with random retries of cordons and uncordons): no
// eviction takes a budget below its minAvailable.
func TestPropertyEvictionsKeepBudgets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genCluster(t)
		nodes := 0
		for _, o := range objs {
			if d, ok := o.(*api.Deployment); ok {
				min := api.FromInt32(int32(rapid.IntRange(0, int(*d.Spec.Replicas)).Draw(t, "minAvailable")))
				objs = append(objs, &api.PodDisruptionBudget{
					TypeMeta:   api.TypeMeta{Kind: "PodDisruptionBudget", APIVersion: "policy/v1"},
					ObjectMeta: api.ObjectMeta{Name: d.Name, Namespace: d.Namespace},
					Spec:       api.PodDisruptionBudgetSpec{MinAvailable: &min, Selector: d.Spec.Selector},
				})
			} else if _, ok := o.(*api.Node); ok {
				nodes++
			}
		}
		m, _, err := newMachine(start, Config{})
		if err != nil {
			t.Fatal(err)
		}
		m.onDeliver = checkBudgets(t, m)
		if _, err := m.load(objs, start); err != nil {
			t.Fatal(err)
		}
		now := start
		steps := rapid.IntRange(1, 5).Draw(t, "actions")
		for i := 0; i < steps; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 60).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			a := Action{Kind: ActionDrain, Node: node}
			if rapid.IntRange(0, 3).Draw(t, "uncordon") == 0 {
				a.Kind = ActionUncordon
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(3*time.Minute))
	})
}
