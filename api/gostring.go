package api

import (
	"encoding/json"
	"strconv"
)

// The Go-syntax forms below are what %#v prints, and so what a failing
// property test (pgregory.net/rapid logs every drawn value with %#v) or a
// go-cmp diff shows: a quantity as the call that makes it, an object as
// its kind and its JSON on one line, as `kubectl get -o json` would write
// it, instead of pointers and internal fields. A reader can paste the JSON
// into a manifest.

// GoString renders q as api.MustParseQuantity("100m").
func (q Quantity) GoString() string {
	return "api.MustParseQuantity(" + strconv.Quote(q.String()) + ")"
}

// GoString renders the pod as "Pod " and its JSON on one line.
func (p *Pod) GoString() string { return goStringJSON("Pod", p) }

// GoString renders the node as "Node " and its JSON on one line.
func (n *Node) GoString() string { return goStringJSON("Node", n) }

// GoString renders the budget as "PodDisruptionBudget " and its JSON on one
// line.
func (b *PodDisruptionBudget) GoString() string { return goStringJSON("PodDisruptionBudget", b) }

// GoString renders the namespace as "Namespace " and its JSON on one line.
func (n *Namespace) GoString() string { return goStringJSON("Namespace", n) }

// GoString renders the class as "PriorityClass " and its JSON on one line.
func (c PriorityClass) GoString() string { return goStringJSON("PriorityClass", &c) }

// GoString renders the ReplicaSet as "ReplicaSet " and its JSON on one line.
func (r *ReplicaSet) GoString() string { return goStringJSON("ReplicaSet", r) }

// GoString renders the StatefulSet as "StatefulSet " and its JSON on one
// line.
func (s *StatefulSet) GoString() string { return goStringJSON("StatefulSet", s) }

// goStringJSON is kind followed by v's JSON, "(*api.Kind)(nil)" for a nil
// pointer, or Go's own %v when the JSON cannot be written.
func goStringJSON[T any](kind string, v *T) string {
	if v == nil {
		return "(*api." + kind + ")(nil)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return kind + " <" + err.Error() + ">"
	}
	return kind + " " + string(b)
}
