package api

import "slices"

// TaintsEqual reports whether two taint lists are equal as apimachinery's
// semantic equality (equality.Semantic.DeepEqual) compares them, which is
// how controllers compare a Node's taints before and after an update (the
// DaemonSet controller's shouldIgnoreNodeUpdate, the taint eviction
// controller's node handler): the same taints in the same order, field by
// field, timeAdded by instant; a nil and an empty list are equal.
func TaintsEqual(a, b []Taint) bool {
	return slices.EqualFunc(a, b, func(x, y Taint) bool {
		return x.Key == y.Key && x.Value == y.Value && x.Effect == y.Effect && sameTimeAdded(x.TimeAdded, y.TimeAdded)
	})
}

// sameTimeAdded compares two optional times by instant.
func sameTimeAdded(a, b *Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b.Time)
}
