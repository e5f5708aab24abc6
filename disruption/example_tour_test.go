package disruption_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

// Draining a node evicts the ZooKeeper pods of the "Specifying a Disruption
// Budget" page, guarded by minAvailable: 2. The first eviction is granted
// (201) and recorded in the budget; the second would leave one pod, so the
// API server answers 429 Too Many Requests.
func ExampleEvict_budget() {
	now := time.Date(2025, 3, 3, 8, 0, 0, 0, time.UTC)
	var pods []*api.Pod
	for _, name := range []string{"zk-0", "zk-1", "zk-2"} {
		pods = append(pods, &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "zookeeper"}},
			Status:     api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
		})
	}
	pdb := &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: "zk-pdb", Namespace: "default", Generation: 1},
		Spec: api.PodDisruptionBudgetSpec{MinAvailable: &api.IntOrString{IntVal: 2},
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "zookeeper"}}},
	}
	pdb.Status, _ = disruption.Evaluate(pdb, pods, disruption.Controllers{}, now) // the disruption controller's view
	for _, p := range pods[:2] {
		ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		d := disruption.Evict(p, ev, []*api.PodDisruptionBudget{pdb}, disruption.EvictOptions{}, now)
		fmt.Printf("evict %s: %d %s %v\n", p.Name, d.Code, d.Rule, d.Causes)
		if d.BudgetUpdated {
			pdb.Status = *d.BudgetStatus
		}
	}
	// Output:
	// evict zk-0: 201 BudgetAllows []
	// evict zk-1: 429 BudgetExhausted [DisruptionBudget: The disruption budget zk-pdb needs 2 healthy pods and has 3 currently]
}
