package disruption

import (
	"time"

	"github.com/podsem/podsem/api"
)

// The PodDisruptionBudget DisruptionAllowed condition and its reasons
// (k8s.io/api/policy/v1): True/SufficientPods when disruptionsAllowed > 0,
// False/InsufficientPods otherwise, False/SyncFailed when the disruption
// controller could not compute the status.
const (
	ConditionDisruptionAllowed = "DisruptionAllowed"
	ReasonSufficientPods       = "SufficientPods"
	ReasonInsufficientPods     = "InsufficientPods"
	ReasonSyncFailed           = "SyncFailed"
)

// MessageEvictionByEvictionAPI is the message of the DisruptionTarget
// condition the Eviction API adds.
const MessageEvictionByEvictionAPI = "Eviction API: evicting"

// StalePodDisruptionTimeout is how long a DisruptionTarget=True condition
// may stay on a pod that is not being deleted before the disruption
// controller resets it to False (pkg/controller/disruption
// stalePodDisruptionTimeout).
const StalePodDisruptionTimeout = 2 * time.Minute

// DisruptionAllowed returns the DisruptionAllowed condition the disruption
// controller and the Eviction API derive from a budget status
// (k8s.io/component-helpers/apps/poddisruptionbudget
// UpdateDisruptionAllowedCondition), without a transition time.
func DisruptionAllowed(st *api.PodDisruptionBudgetStatus) api.Condition {
	c := api.Condition{
		Type:               ConditionDisruptionAllowed,
		Status:             api.ConditionFalse,
		Reason:             ReasonInsufficientPods,
		ObservedGeneration: st.ObservedGeneration,
	}
	if st.DisruptionsAllowed > 0 {
		c.Status, c.Reason = api.ConditionTrue, ReasonSufficientPods
	}
	return c
}

// StaleDisruption reports whether pod carries a stale DisruptionTarget
// condition as the disruption controller judges it
// (nonTerminatingPodHasStaleDisruptionCondition): True, not set by the
// kubelet, on a pod that is neither terminating nor finished. clearIn is
// how long until StalePodDisruptionTimeout has passed since the
// condition's last transition (0 when it already has); then Reset gives
// the condition the controller writes.
func StaleDisruption(pod *api.Pod, now time.Time) (stale bool, clearIn time.Duration) {
	if pod == nil || pod.DeletionTimestamp != nil || pod.Status.Phase.IsTerminal() {
		return false, 0
	}
	c := api.FindCondition(pod.Status.Conditions, api.DisruptionTarget)
	if c == nil || c.Status != api.ConditionTrue || c.Reason == api.PodReasonTerminationByKubelet {
		return false, 0
	}
	return true, max(StalePodDisruptionTimeout-now.Sub(c.LastTransitionTime.Time), 0)
}

// ResetDisruption is the DisruptionTarget condition the disruption
// controller writes over a stale one: status False, reason and message
// cleared, transition time now.
func ResetDisruption(now time.Time) api.PodCondition {
	return api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(now)}
}

// setCondition is apimachinery's meta.SetStatusCondition: the condition of
// the same type is replaced, keeping its lastTransitionTime unless the
// status changes; a new one gets now.
func setCondition(conds []api.Condition, c api.Condition, now time.Time) []api.Condition {
	for i := range conds {
		if conds[i].Type != c.Type {
			continue
		}
		if conds[i].Status != c.Status {
			conds[i].Status = c.Status
			conds[i].LastTransitionTime = api.NewTime(now)
		}
		conds[i].Reason = c.Reason
		conds[i].Message = c.Message
		conds[i].ObservedGeneration = c.ObservedGeneration
		return conds
	}
	if c.LastTransitionTime.IsZero() {
		c.LastTransitionTime = api.NewTime(now)
	}
	return append(conds, c)
}
