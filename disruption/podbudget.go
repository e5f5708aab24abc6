package disruption

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// EventMultiplePodDisruptionBudgets is the reason of the Warning the
// disruption controller records on a pod that several budgets select, when
// an event of the pod reaches it (BudgetForPod).
const EventMultiplePodDisruptionBudgets = "MultiplePodDisruptionBudgets"

// BudgetForPod is the budget kube-controller-manager's disruption
// controller syncs when an event of the pod (added, updated, deleted)
// reaches it (getPdbForPod): of pdbs, those of the pod's namespace whose
// selector selects the pod — an empty selector selects every pod, an
// absent or invalid one none, and a pod without labels is selected by
// none — and of those the first by name. Only that budget learns of the
// pod's event: another budget that selects the pod keeps its status until
// an event of its own (its creation, an update) syncs it.
//
// When several budgets select the pod, event is the Warning
// (EventMultiplePodDisruptionBudgets) the controller records on the pod,
// naming the one it chose; otherwise nil. Upstream takes the first its
// budget lister lists; the real control plane chose the first by name in
// every sync recorded (the cluster package's real run pdb-overlap-drain).
// A nil pod, and nil budgets, select nothing.
func BudgetForPod(pod *api.Pod, pdbs []*api.PodDisruptionBudget) (chosen *api.PodDisruptionBudget, event *api.Event) {
	if pod == nil || len(pod.Labels) == 0 {
		return nil, nil
	}
	selecting := budgetsFor(pod, pdbs)
	for _, pdb := range selecting {
		if chosen == nil || pdb.Name < chosen.Name {
			chosen = pdb
		}
	}
	if len(selecting) > 1 {
		event = &api.Event{Type: api.EventTypeWarning, Reason: EventMultiplePodDisruptionBudgets,
			Note:      fmt.Sprintf("Pod %q/%q matches multiple PodDisruptionBudgets.  Chose %q arbitrarily.", pod.Namespace, pod.Name, chosen.Name),
			Regarding: api.PodReference(pod), Source: EventSourceDisruption}
	}
	return chosen, event
}
