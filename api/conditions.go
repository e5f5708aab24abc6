package api

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
