package nodelifecycle

import (
	"time"

	"github.com/podsem/podsem/api"
)

// conditionTaintKey maps a node condition and status to the taint key the
// controller puts on with effect NoSchedule (nodeConditionToTaintKeyStatusMap).
func conditionTaintKey(c *api.NodeCondition) (string, bool) {
	switch c.Type {
	case api.NodeReady:
		switch c.Status {
		case api.ConditionFalse:
			return api.TaintNodeNotReady, true
		case api.ConditionUnknown:
			return api.TaintNodeUnreachable, true
		}
		return "", false
	case api.NodeMemoryPressure:
		return api.TaintNodeMemoryPressure, c.Status == api.ConditionTrue
	case api.NodeDiskPressure:
		return api.TaintNodeDiskPressure, c.Status == api.ConditionTrue
	case api.NodeNetworkUnavailable:
		return api.TaintNodeNetworkUnavailable, c.Status == api.ConditionTrue
	case api.NodePIDPressure:
		return api.TaintNodePIDPressure, c.Status == api.ConditionTrue
	}
	return "", false
}

// isConditionTaintKey reports whether key is one the NoSchedule pass owns:
// a condition taint or the unschedulable taint.
func isConditionTaintKey(key string) bool {
	switch key {
	case api.TaintNodeNotReady, api.TaintNodeUnreachable, api.TaintNodeMemoryPressure, api.TaintNodeDiskPressure,
		api.TaintNodeNetworkUnavailable, api.TaintNodePIDPressure, api.TaintNodeUnschedulable:
		return true
	}
	return false
}

// ConditionTaints returns the NoSchedule taints a node's conditions call for,
// as the node lifecycle controller's NoSchedule pass computes them
// (doNoScheduleTaintingPass), in the order of status.conditions: Ready False
// → node.kubernetes.io/not-ready, Ready Unknown → unreachable,
// MemoryPressure/DiskPressure/PIDPressure/NetworkUnavailable True → the
// matching pressure or network-unavailable key; then
// node.kubernetes.io/unschedulable when spec.unschedulable. The taints carry
// no value and no timeAdded. A nil node has no taints: the result is nil.
func ConditionTaints(node *api.Node) []api.Taint {
	if node == nil {
		return nil
	}
	var out []api.Taint
	for i := range node.Status.Conditions {
		if key, ok := conditionTaintKey(&node.Status.Conditions[i]); ok {
			out = append(out, api.Taint{Key: key, Effect: api.TaintEffectNoSchedule})
		}
	}
	if node.Spec.Unschedulable {
		out = append(out, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule})
	}
	return out
}

// TaintUpdate is what one taint pass of the node lifecycle controller
// does to a node's spec.taints.
type TaintUpdate struct {
	// Taints is the node's spec.taints after the pass, in upstream's order:
	// a taint replacing one of the same key and effect takes its place,
	// a new one is appended, removed ones are dropped.
	Taints []api.Taint
	// Added holds the taints written, each with timeAdded = the pass's
	// time; Removed the taints taken off. Both empty means no write.
	Added, Removed []api.Taint
}

// Changed reports whether the pass wrote the node.
func (u TaintUpdate) Changed() bool { return len(u.Added)+len(u.Removed) > 0 }

// NoScheduleTaintPass is the node lifecycle controller's NoSchedule pass over
// node at now (doNoScheduleTaintingPass, run on every node add or update):
// the NoSchedule taints with a condition or unschedulable key that
// ConditionTaints no longer calls for are removed, the missing ones added
// with timeAdded now. Taints are matched by key and effect only (a value on
// an existing taint is ignored); every other taint is left alone. A nil node
// has nothing to update: the result is empty.
func NoScheduleTaintPass(node *api.Node, now time.Time) TaintUpdate {
	if node == nil {
		return TaintUpdate{}
	}
	want := ConditionTaints(node)
	var have []api.Taint
	for _, t := range node.Spec.Taints {
		if t.Effect == api.TaintEffectNoSchedule && isConditionTaintKey(t.Key) {
			have = append(have, t)
		}
	}
	var add, del []api.Taint
	for _, t := range want {
		if !hasTaint(have, t.Key, t.Effect) {
			add = append(add, t)
		}
	}
	for _, t := range have {
		if !hasTaint(want, t.Key, t.Effect) {
			del = append(del, t)
		}
	}
	return swapTaints(node.Spec.Taints, add, del, now)
}

// NoExecuteTaintPass is the node lifecycle controller's Ready-based NoExecute
// tainting of node at now (processTaintBaseEviction and
// doNoExecuteTaintingPass), as a controller that has not tainted this node
// before does it — after a controller-manager restart, or when the node
// first goes bad. It looks at the Ready condition alone: False writes
// node.kubernetes.io/not-ready:NoExecute and removes unreachable:NoExecute;
// Unknown the reverse; True removes both (even ones put on by hand); no
// Ready condition, or another status, changes nothing. The written taint
// replaces one of the same key and effect with a fresh timeAdded = now, so
// the taint eviction controller sees a change. A nil node has nothing to
// update: the result is empty.
//
// Monitor applies the same pass but remembers which nodes it has tainted,
// so that it does not rewrite the taint at every look.
func NoExecuteTaintPass(node *api.Node, now time.Time) TaintUpdate {
	if node == nil {
		return TaintUpdate{}
	}
	ready := node.FindCondition(api.NodeReady)
	if ready == nil {
		return TaintUpdate{Taints: node.Spec.Taints}
	}
	return noExecutePass(node, ready.Status, true, now)
}

var (
	notReadyNoExecute    = api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}
	unreachableNoExecute = api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
)

// noExecutePass is processTaintBaseEviction followed, when the node was
// queued, by the tainting pass. queue says whether markNodeForTainting
// queues the node (it is not in the tainter's set yet).
func noExecutePass(node *api.Node, ready api.ConditionStatus, queue bool, now time.Time) TaintUpdate {
	taints := node.Spec.Taints
	switch ready {
	case api.ConditionFalse, api.ConditionUnknown:
		add, opposite := notReadyNoExecute, unreachableNoExecute
		if ready == api.ConditionUnknown {
			add, opposite = opposite, add
		}
		// A node tainted with the opposite taint is swapped at once; else
		// it goes through the tainting queue.
		if hasTaint(taints, opposite.Key, opposite.Effect) || queue {
			return swapTaints(taints, []api.Taint{add}, []api.Taint{opposite}, now)
		}
	case api.ConditionTrue:
		return swapTaints(taints, nil, []api.Taint{notReadyNoExecute, unreachableNoExecute}, now)
	}
	return TaintUpdate{Taints: taints}
}

func hasTaint(taints []api.Taint, key string, effect api.TaintEffect) bool {
	for i := range taints {
		if taints[i].Key == key && taints[i].Effect == effect {
			return true
		}
	}
	return false
}

// swapTaints is the controller's SwapNodeControllerTaint: every taint of add
// gets timeAdded now and is added or replaces the taints of the same key and
// effect (unless equal), then every taint with the key and effect of one in
// del is removed. The input is not modified.
func swapTaints(taints, add, del []api.Taint, now time.Time) TaintUpdate {
	out := TaintUpdate{Taints: taints}
	cur := taints
	for _, t := range add {
		t.TimeAdded = api.NewTimePtr(now)
		next := make([]api.Taint, 0, len(cur)+1)
		replaced, changed := false, false
		for _, old := range cur {
			if old.Key == t.Key && old.Effect == t.Effect {
				replaced = true
				if old.Value == t.Value && sameTimePtr(old.TimeAdded, t.TimeAdded) {
					next = append(next, old)
					continue
				}
				changed = true
				next = append(next, t)
				continue
			}
			next = append(next, old)
		}
		if !replaced {
			next, changed = append(next, t), true
		}
		if changed {
			cur = next
			out.Added = append(out.Added, t)
		}
	}
	for _, t := range del {
		if !hasTaint(cur, t.Key, t.Effect) {
			continue
		}
		next := make([]api.Taint, 0, len(cur))
		for _, old := range cur {
			if old.Key == t.Key && old.Effect == t.Effect {
				out.Removed = append(out.Removed, old)
				continue
			}
			next = append(next, old)
		}
		cur = next
	}
	out.Taints = cur
	return out
}

func sameTimePtr(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b.Time)
}

// MarkPodNotReady returns the Ready condition the node lifecycle controller
// writes on a pod of a node whose Ready condition left True
// (pkg/controller/util/node MarkPodsNotReady): the pod's first Ready
// condition with status False and, when that changes the status,
// lastTransitionTime now. It returns nil when nothing is written: the pod
// has no Ready condition or it is already False. Only the status changes —
// the reason and message stay as the kubelet left them. A nil pod gives nil.
func MarkPodNotReady(pod *api.Pod, now time.Time) *api.PodCondition {
	if pod == nil {
		return nil
	}
	old := api.FindCondition(pod.Status.Conditions, api.PodReady)
	if old == nil || old.Status == api.ConditionFalse {
		return nil
	}
	c := *old
	c.Status = api.ConditionFalse
	c.LastTransitionTime = api.NewTime(now)
	return &c
}
