package disruption

import (
	"fmt"
	"slices"
	"strings"

	"github.com/podsem/podsem/api"
)

// EventSourceDisruption is the component the disruption controller records
// its events under (kube-controller-manager's generic name).
const EventSourceDisruption = "controllermanager"

// The reasons of the events Evaluate returns.
const (
	// EventNoPods: the budget's selector matches no pod.
	EventNoPods = "NoPods"
	// EventUnmanagedPods: some selected pods have no controller.
	EventUnmanagedPods = "UnmanagedPods"
	// EventCalculateExpectedPodCountFailed: a selected pod's controller
	// could not be found, so the sync failed.
	EventCalculateExpectedPodCountFailed = "CalculateExpectedPodCountFailed"
	// EventNotDeleted: a pod the Eviction API granted an eviction was not
	// deleted within DeletionTimeout.
	EventNotDeleted = "NotDeleted"
)

// pdbReference is the budget as an event's Regarding names it.
func pdbReference(pdb *api.PodDisruptionBudget) api.ObjectReference {
	return api.ObjectReference{Kind: "PodDisruptionBudget", APIVersion: "policy/v1", Namespace: pdb.Namespace, Name: pdb.Name,
		UID: pdb.UID, ResourceVersion: pdb.ResourceVersion}
}

func noPodsEvent(pdb *api.PodDisruptionBudget) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: EventNoPods, Note: "No matching pods found",
		Regarding: pdbReference(pdb), Source: EventSourceDisruption}
}

// expectedCountFailedEvent is the Warning a sync records when it could
// not count the budget's expected pods.
func expectedCountFailedEvent(pdb *api.PodDisruptionBudget, err error) api.Event {
	return api.Event{Type: api.EventTypeWarning, Reason: EventCalculateExpectedPodCountFailed,
		Note:      "Failed to calculate the number of expected pods: " + err.Error(),
		Regarding: pdbReference(pdb), Source: EventSourceDisruption}
}

func unmanagedPodsEvent(pdb *api.PodDisruptionBudget) api.Event {
	return api.Event{Type: api.EventTypeWarning, Reason: EventUnmanagedPods,
		Note: "Pods selected by this PodDisruptionBudget (selector: " + selectorString(pdb.Spec.Selector) + ") were found " +
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. " +
			"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
		Regarding: pdbReference(pdb), Source: EventSourceDisruption}
}

// notDeletedEvent names the budget by its namespace twice, as v1.36.3's
// disruption controller does.
func notDeletedEvent(pdb *api.PodDisruptionBudget, pod *api.Pod) api.Event {
	return api.Event{Type: api.EventTypeWarning, Reason: EventNotDeleted,
		Note:      "Pod was expected by PDB " + pdb.Namespace + "/" + pdb.Namespace + " to be deleted but it wasn't",
		Regarding: api.PodReference(pod), Source: EventSourceDisruption}
}

// selectorString prints a label selector as the API's generated String
// method does (what %v gives for a *metav1.LabelSelector): labels sorted by
// key, expressions in order, "nil" for none.
func selectorString(s *api.LabelSelector) string {
	if s == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("&LabelSelector{MatchLabels:map[string]string{")
	keys := make([]string, 0, len(s.MatchLabels))
	for k := range s.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%v: %v,", k, s.MatchLabels[k])
	}
	b.WriteString("},MatchExpressions:[]LabelSelectorRequirement{")
	for _, r := range s.MatchExpressions {
		fmt.Fprintf(&b, "LabelSelectorRequirement{Key:%v,Operator:%v,Values:%v,},", r.Key, r.Operator, r.Values)
	}
	b.WriteString("},}")
	return b.String()
}
