package api

import "time"

// FindCondition returns the first pod condition of type t in conds, or nil
// (pkg/api/v1/pod GetPodConditionFromList).
func FindCondition(conds []PodCondition, t PodConditionType) *PodCondition {
	return firstOfType(conds, t, func(c *PodCondition) PodConditionType { return c.Type })
}

// FindStatusCondition returns the condition of type t in conds (a
// PodDisruptionBudget's status.conditions, say), or nil, as apimachinery's
// meta.FindStatusCondition does.
func FindStatusCondition(conds []Condition, t string) *Condition {
	return firstOfType(conds, t, func(c *Condition) string { return c.Type })
}

// FindCondition returns the node's condition of type t, or nil. A nil node
// has none.
func (n *Node) FindCondition(t NodeConditionType) *NodeCondition {
	if n == nil {
		return nil
	}
	return firstOfType(n.Status.Conditions, t, func(c *NodeCondition) NodeConditionType { return c.Type })
}

// firstOfType is the one condition lookup: the first entry of list whose
// type is t, or nil.
func firstOfType[C any, T comparable](list []C, t T, typeOf func(*C) T) *C {
	for i := range list {
		if typeOf(&list[i]) == t {
			return &list[i]
		}
	}
	return nil
}

// IsPodReady reports whether the pod's Ready condition is True, the test
// every controller applies to call a pod ready (pkg/api/v1/pod
// IsPodReady): the disruption controller's healthy pods, the Eviction
// API's, a StatefulSet's running-and-ready pods. A nil pod is not ready.
func IsPodReady(pod *Pod) bool {
	if pod == nil {
		return false
	}
	c := FindCondition(pod.Status.Conditions, PodReady)
	return c != nil && c.Status == ConditionTrue
}

// PodReadiness reports whether pod is ready (IsPodReady) and whether it is
// available: ready for at least minReadySeconds by the Ready condition's
// lastTransitionTime at now, a time exactly minReadySeconds after it
// counting (pkg/api/v1/pod IsPodAvailable, which every workload controller
// counts availableReplicas with; with minReadySeconds 0, ready is
// available). It reads the conditions once. A nil pod is neither.
func PodReadiness(pod *Pod, minReadySeconds int32, now time.Time) (ready, available bool) {
	if pod == nil {
		return false, false
	}
	c := FindCondition(pod.Status.Conditions, PodReady)
	if c == nil || c.Status != ConditionTrue {
		return false, false
	}
	if minReadySeconds == 0 {
		return true, true
	}
	t := c.LastTransitionTime
	return true, !t.IsZero() && t.Add(time.Duration(minReadySeconds)*time.Second).Compare(now) <= 0
}

// IsPodAvailable reports whether pod is available at now: ready for at
// least minReadySeconds (the second answer of PodReadiness). A nil pod is
// not.
func IsPodAvailable(pod *Pod, minReadySeconds int32, now time.Time) bool {
	_, available := PodReadiness(pod, minReadySeconds, now)
	return available
}

// UpdatePodCondition sets c in status the way every component that writes
// a pod condition does (pkg/api/v1/pod UpdatePodCondition): c replaces the
// condition of its type whole, or is appended when there is none; its
// lastTransitionTime is now, unless a condition of its type already had
// the same status, whose lastTransitionTime it keeps. Nothing else of the
// old condition survives (a lastProbeTime c does not carry is dropped).
// It reports whether the status changed: a new condition, or a different
// status, reason, message, lastProbeTime or lastTransitionTime — callers
// send no update when it did not. A nil status changes nothing.
func UpdatePodCondition(status *PodStatus, c PodCondition, now time.Time) bool {
	if status == nil {
		return false
	}
	c.LastTransitionTime = NewTime(now)
	old := FindCondition(status.Conditions, c.Type)
	if old == nil {
		status.Conditions = append(status.Conditions, c)
		return true
	}
	if old.Status == c.Status {
		c.LastTransitionTime = old.LastTransitionTime
	}
	same := old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message &&
		old.LastProbeTime.Equal(c.LastProbeTime.Time) && old.LastTransitionTime.Equal(c.LastTransitionTime.Time)
	*old = c
	return !same
}
