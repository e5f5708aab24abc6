package disruption

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// Node lifecycle controller defaults of kube-controller-manager v1.36.3
// (pkg/controller/nodelifecycle and its configuration defaults).
const (
	// DefaultNodeMonitorGracePeriod is --node-monitor-grace-period: how
	// long a node that has posted a Ready condition may stay silent before
	// the controller marks it Unknown.
	DefaultNodeMonitorGracePeriod = 50 * time.Second
	// DefaultNodeStartupGracePeriod is --node-startup-grace-period: the
	// same for a node that never posted a Ready condition, counted from its
	// creationTimestamp.
	DefaultNodeStartupGracePeriod = 60 * time.Second
	// DefaultNodeMonitorPeriod is --node-monitor-period: how often the
	// controller looks at every node (the times of Observe calls).
	DefaultNodeMonitorPeriod = 5 * time.Second
	// DefaultNodeEvictionPeriod is how often the controller's NoExecute
	// tainting pass runs (NodeEvictionPeriod; the times of
	// NodeLifecycle.TaintPass calls).
	DefaultNodeEvictionPeriod = 100 * time.Millisecond
	// DefaultNodeEvictionRate is --node-eviction-rate: NoExecute taints per
	// second in a zone, with a burst of one.
	DefaultNodeEvictionRate float32 = 0.1
	// DefaultSecondaryNodeEvictionRate is --secondary-node-eviction-rate.
	DefaultSecondaryNodeEvictionRate float32 = 0.01
	// DefaultUnhealthyZoneThreshold is --unhealthy-zone-threshold.
	DefaultUnhealthyZoneThreshold float32 = 0.55
	// DefaultLargeClusterSizeThreshold is --large-cluster-size-threshold.
	DefaultLargeClusterSizeThreshold int32 = 50
)

// Reasons and messages of the node conditions the node lifecycle controller
// forces to Unknown when the kubelet stops posting status.
const (
	ReasonNodeStatusUnknown       = "NodeStatusUnknown"
	MessageNodeStatusUnknown      = "Kubelet stopped posting node status."
	ReasonNodeStatusNeverUpdated  = "NodeStatusNeverUpdated"
	MessageNodeStatusNeverUpdated = "Kubelet never posted node status."
)

// NodeLifecycleConfig is the node lifecycle controller's configuration. The
// zero value is kube-controller-manager v1.36.3's default.
type NodeLifecycleConfig struct {
	// MonitorGracePeriod is --node-monitor-grace-period; 0 means
	// DefaultNodeMonitorGracePeriod.
	MonitorGracePeriod time.Duration
	// StartupGracePeriod is --node-startup-grace-period; 0 means
	// DefaultNodeStartupGracePeriod.
	StartupGracePeriod time.Duration
	// EvictionRate is --node-eviction-rate, the NoExecute taints per
	// second per zone of NodeLifecycle's tainting queue in a healthy zone;
	// 0 means DefaultNodeEvictionRate.
	EvictionRate float32
	// SecondaryEvictionRate is --secondary-node-eviction-rate, the rate in
	// a partly disrupted zone larger than LargeClusterSizeThreshold; 0
	// means DefaultSecondaryNodeEvictionRate.
	SecondaryEvictionRate float32
	// UnhealthyZoneThreshold is --unhealthy-zone-threshold, the share of
	// not-Ready nodes (more than two) that makes a zone partly disrupted;
	// 0 means DefaultUnhealthyZoneThreshold.
	UnhealthyZoneThreshold float32
	// LargeClusterSizeThreshold is --large-cluster-size-threshold: a partly
	// disrupted zone of more nodes than this is tainted at the secondary
	// rate, a smaller one not at all; 0 means
	// DefaultLargeClusterSizeThreshold.
	LargeClusterSizeThreshold int32
}

func (c NodeLifecycleConfig) monitorGrace() time.Duration {
	return orDefault(c.MonitorGracePeriod, DefaultNodeMonitorGracePeriod)
}

func (c NodeLifecycleConfig) evictionRate() float32 {
	return orDefault(c.EvictionRate, DefaultNodeEvictionRate)
}

func (c NodeLifecycleConfig) secondaryEvictionRate() float32 {
	return orDefault(c.SecondaryEvictionRate, DefaultSecondaryNodeEvictionRate)
}

func (c NodeLifecycleConfig) unhealthyZoneThreshold() float32 {
	return orDefault(c.UnhealthyZoneThreshold, DefaultUnhealthyZoneThreshold)
}

func (c NodeLifecycleConfig) largeClusterSizeThreshold() int32 {
	return orDefault(c.LargeClusterSizeThreshold, DefaultLargeClusterSizeThreshold)
}

// orDefault is v, or def when v is the zero value (an unset setting).
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

func (c NodeLifecycleConfig) startupGrace() time.Duration {
	return orDefault(c.StartupGracePeriod, DefaultNodeStartupGracePeriod)
}

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

// conditionTaintKeys are the keys the NoSchedule pass owns: the condition
// taints and the unschedulable taint.
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

// NodeTaintUpdate is what one taint pass of the node lifecycle controller
// does to a node's spec.taints.
type NodeTaintUpdate struct {
	// Taints is the node's spec.taints after the pass, in upstream's order:
	// a taint replacing one of the same key and effect takes its place,
	// a new one is appended, removed ones are dropped.
	Taints []api.Taint
	// Added holds the taints written, each with timeAdded = the pass's
	// time; Removed the taints taken off. Both empty means no write.
	Added, Removed []api.Taint
}

// Changed reports whether the pass wrote the node.
func (u NodeTaintUpdate) Changed() bool { return len(u.Added)+len(u.Removed) > 0 }

// NoScheduleTaintPass is the node lifecycle controller's NoSchedule pass over
// node at now (doNoScheduleTaintingPass, run on every node add or update):
// the NoSchedule taints with a condition or unschedulable key that
// ConditionTaints no longer calls for are removed, the missing ones added
// with timeAdded now. Taints are matched by key and effect only (a value on
// an existing taint is ignored); every other taint is left alone. A nil node
// has nothing to update: the result is empty.
func NoScheduleTaintPass(node *api.Node, now time.Time) NodeTaintUpdate {
	if node == nil {
		return NodeTaintUpdate{}
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
// NodeMonitor applies the same pass but remembers which nodes it has
// tainted, so that it does not rewrite the taint at every look.
func NoExecuteTaintPass(node *api.Node, now time.Time) NodeTaintUpdate {
	if node == nil {
		return NodeTaintUpdate{}
	}
	ready := node.FindCondition(api.NodeReady)
	if ready == nil {
		return NodeTaintUpdate{Taints: node.Spec.Taints}
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
func noExecutePass(node *api.Node, ready api.ConditionStatus, queue bool, now time.Time) NodeTaintUpdate {
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
	return NodeTaintUpdate{Taints: taints}
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
func swapTaints(taints, add, del []api.Taint, now time.Time) NodeTaintUpdate {
	out := NodeTaintUpdate{Taints: taints}
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

// nodeHealth is what the controller remembers about one node
// (nodeHealthData plus the tainter's set membership).
type nodeHealth struct {
	probe           time.Time          // the controller's own time of the last sign of life
	readyTransition time.Time          // when it saw the Ready condition change
	ready           *api.NodeCondition // the Ready condition as last seen (nil: none)
	lease           time.Time          // the lease renewTime last seen (zero: none)
	tainted         bool               // in the NoExecute tainter's set
}

// NodeHealthReport is what one look of the node lifecycle controller at one
// node found and did.
type NodeHealthReport struct {
	// GracePeriod is the silence the node was allowed: the monitor grace
	// period when it has a Ready condition, the startup grace otherwise.
	GracePeriod time.Duration
	// ProbeTime is the controller's own time of the node's last sign of
	// life: when it first saw the node (or, for a node without a Ready
	// condition, its creationTimestamp), then whenever the Ready
	// condition's lastHeartbeatTime or the lease's renewTime moved.
	ProbeTime time.Time
	// ObservedReady is the Ready condition as the node posted it (a
	// stand-in with status Unknown and the creation time when it has
	// none); CurrentReady is the Ready condition after this look, nil when
	// the node still has none.
	ObservedReady api.NodeCondition
	CurrentReady  *api.NodeCondition
	// Status is the node status the controller wrote (Ready, MemoryPressure,
	// DiskPressure and PIDPressure forced to Unknown after the grace
	// period), nil when it wrote none. It writes only when the Ready
	// condition changed, so a node already Unknown is left as it is.
	Status *api.NodeStatus
	// Conditions are the node's status.conditions after this look.
	Conditions []api.NodeCondition
	// MarkPodsNotReady is true when the Ready condition left True at this
	// look: every pod bound to the node gets MarkPodNotReady.
	MarkPodsNotReady bool
	// NoSchedule and NoExecute are the two taint passes run on the node
	// after the status write; Taints is spec.taints after both. The
	// NoSchedule pass reads the conditions as written; the NoExecute pass
	// reads ObservedReady, the Ready condition the node carried when the
	// controller looked, so the look that flips Ready to Unknown adds
	// unreachable:NoSchedule but not unreachable:NoExecute, which the next
	// look adds.
	NoSchedule, NoExecute NodeTaintUpdate
	Taints                []api.Taint
}

// NodeMonitor is the node health part of kube-controller-manager's node
// lifecycle controller (pkg/controller/nodelifecycle monitorNodeHealth,
// tryUpdateNodeHealth and the taint passes) as a state machine: it holds the
// controller's memory of each node — its own probe time, the Ready
// condition and lease it last saw, whether it has NoExecute-tainted the
// node — and each Observe is one look at one node.
//
// What it models: the grace periods (monitor and startup), the probe time
// taken from the controller's own clock rather than the kubelet's
// lastHeartbeatTime (a fresh controller gives a node with an ancient
// heartbeat the full grace period), the Unknown flip of Ready and the
// pressure conditions strictly after the grace period, the status write
// only when Ready changed, the pods marked not ready, and both taint
// passes, the NoExecute one deciding from the Ready condition the node
// carried at the look (upstream's observedReadyCondition), so that a node
// the controller itself turns Unknown is NoExecute-tainted one monitor
// period later. NodeMonitor looks at one node at a time, so it writes a
// NoExecute taint at the look that queues the node, as the controller does
// for the first node of a healthy zone; NodeLifecycle runs the same health
// checks over the whole cluster with the per-zone tainting queues and
// their rates, the full-disruption mode and the restart behaviour. Neither
// models node label reconciliation, events or metrics.
//
// The zero value is ready to use with the default configuration. A
// NodeMonitor is not safe for concurrent use.
type NodeMonitor struct {
	cfg   NodeLifecycleConfig
	nodes map[string]*nodeHealth
}

// NewNodeMonitor returns a monitor that has seen no node yet, as after a
// controller-manager start.
func NewNodeMonitor(cfg NodeLifecycleConfig) *NodeMonitor {
	return &NodeMonitor{cfg: cfg, nodes: map[string]*nodeHealth{}}
}

// Observe is one look at node at now (the controller looks every
// DefaultNodeMonitorPeriod). leaseRenew is the renewTime of the node's Lease
// in kube-node-lease, zero when it has none. The node is not modified; the
// report holds what the controller writes. A nil node is an error.
func (m *NodeMonitor) Observe(node *api.Node, leaseRenew, now time.Time) (NodeHealthReport, error) {
	if m == nil {
		return NodeHealthReport{}, fmt.Errorf("%w: node monitor: nil", ErrInvalidInput)
	}
	if node == nil {
		return NodeHealthReport{}, fmt.Errorf("%w: node: nil", ErrInvalidInput)
	}
	rep, h, after := m.observeHealth(node, leaseRenew, now)
	rep.NoExecute = NodeTaintUpdate{Taints: after.Spec.Taints}
	if rep.CurrentReady != nil {
		// The NoExecute decision reads the Ready condition the node carried
		// when the controller looked (ObservedReady), not the one it has just
		// forced to Unknown: the look that flips a Ready node queues no taint,
		// the next look (one monitor period later) does.
		rep.NoExecute = m.noExecute(h, &after, rep.ObservedReady.Status, now)
	}
	rep.Taints = rep.NoExecute.Taints
	return rep, nil
}

// observeHealth is Observe up to the NoSchedule pass (tryUpdateNodeHealth,
// the pods marked not ready, doNoScheduleTaintingPass): the report so far,
// the node's health record and the node as it stands after the status
// write and the NoSchedule pass.
func (m *NodeMonitor) observeHealth(node *api.Node, leaseRenew, now time.Time) (NodeHealthReport, *nodeHealth, api.Node) {
	if m.nodes == nil {
		m.nodes = map[string]*nodeHealth{}
	}
	h := m.nodes[node.Name]
	conds := node.Status.Conditions
	current := node.FindCondition(api.NodeReady)
	var rep NodeHealthReport
	created := node.CreationTimestamp.Time
	if current == nil {
		rep.ObservedReady = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionUnknown, LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: node.CreationTimestamp}
		rep.GracePeriod = m.cfg.startupGrace()
		// Upstream stores the new status before comparing, so a Ready
		// condition that vanished does not reset the probe time.
		if h == nil {
			h = &nodeHealth{probe: created, readyTransition: created}
		}
		h.ready = nil
	} else {
		rep.ObservedReady = *current
		rep.GracePeriod = m.cfg.monitorGrace()
	}
	switch saved := savedReady(h); {
	case h == nil, saved == nil && current != nil:
		// First sight, or a Ready condition appearing (e.g. the controller
		// restarted while the node was registered): the clock starts now.
		h = &nodeHealth{probe: now, readyTransition: now, tainted: h != nil && h.tainted, lease: leaseOf(h)}
	case saved != nil && current != nil && !saved.LastHeartbeatTime.Equal(current.LastHeartbeatTime.Time):
		transition := h.readyTransition
		if !saved.LastTransitionTime.Equal(current.LastTransitionTime.Time) {
			transition = now
		}
		h = &nodeHealth{probe: now, readyTransition: transition, tainted: h.tainted, lease: h.lease}
	}
	h.ready = copyCondition(current)
	if !leaseRenew.IsZero() && (h.lease.IsZero() || h.lease.Before(leaseRenew)) {
		h.lease, h.probe = leaseRenew, now
	}
	rep.ProbeTime = h.probe
	rep.CurrentReady = current
	rep.Conditions = conds
	if now.After(h.probe.Add(rep.GracePeriod)) {
		forced := forceUnknown(conds, node.CreationTimestamp, now)
		newReady := findNodeCondition(forced, api.NodeReady)
		if !sameNodeCondition(newReady, &rep.ObservedReady) {
			st := node.Status
			st.Conditions = forced
			rep.Status, rep.Conditions, rep.CurrentReady = &st, forced, newReady
			h.ready, h.readyTransition = copyCondition(newReady), now
		}
	}
	m.nodes[node.Name] = h

	if rep.CurrentReady != nil && rep.CurrentReady.Status != api.ConditionTrue && rep.ObservedReady.Status == api.ConditionTrue {
		rep.MarkPodsNotReady = true
	}
	after := *node
	after.Status.Conditions = rep.Conditions
	rep.NoSchedule = NoScheduleTaintPass(&after, now)
	after.Spec.Taints = rep.NoSchedule.Taints
	return rep, h, after
}

// noExecute runs markNodeForTainting / markNodeAsReachable with the
// tainter's set: a node enters the set when queued and leaves it when it
// is Ready again or its taint went missing.
func (m *NodeMonitor) noExecute(h *nodeHealth, node *api.Node, ready api.ConditionStatus, now time.Time) NodeTaintUpdate {
	switch ready {
	case api.ConditionFalse, api.ConditionUnknown:
		own := notReadyNoExecute
		if ready == api.ConditionUnknown {
			own = unreachableNoExecute
		}
		if !hasTaint(node.Spec.Taints, own.Key, own.Effect) {
			h.tainted = false
		}
		queue := !h.tainted
		h.tainted = true
		return noExecutePass(node, ready, queue, now)
	case api.ConditionTrue:
		h.tainted = false
		return noExecutePass(node, ready, false, now)
	}
	return NodeTaintUpdate{Taints: node.Spec.Taints}
}

// NodeNotReady reports whether the controller last saw the node named name
// with a Ready condition other than True: a pod newly bound to it is marked
// not ready at once (processPod). False for a node it has not seen or that
// has no Ready condition.
func (m *NodeMonitor) NodeNotReady(name string) bool {
	if m == nil {
		return false
	}
	h := m.nodes[name]
	return h != nil && h.ready != nil && h.ready.Status != api.ConditionTrue
}

func savedReady(h *nodeHealth) *api.NodeCondition {
	if h == nil {
		return nil
	}
	return h.ready
}

func leaseOf(h *nodeHealth) time.Time {
	if h == nil {
		return time.Time{}
	}
	return h.lease
}

// forceUnknown returns conds with Ready, MemoryPressure, DiskPressure and
// PIDPressure forced to Unknown at now, as tryUpdateNodeHealth does once the
// grace period is over; NetworkUnavailable is left to the control plane.
func forceUnknown(conds []api.NodeCondition, created api.Time, now time.Time) []api.NodeCondition {
	out := append([]api.NodeCondition(nil), conds...)
	for _, t := range []api.NodeConditionType{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure} {
		c := findNodeCondition(out, t)
		if c == nil {
			out = append(out, api.NodeCondition{
				Type: t, Status: api.ConditionUnknown,
				Reason: ReasonNodeStatusNeverUpdated, Message: MessageNodeStatusNeverUpdated,
				LastHeartbeatTime: created, LastTransitionTime: api.NewTime(now),
			})
			continue
		}
		if c.Status != api.ConditionUnknown {
			c.Status = api.ConditionUnknown
			c.Reason, c.Message = ReasonNodeStatusUnknown, MessageNodeStatusUnknown
			c.LastTransitionTime = api.NewTime(now)
		}
	}
	return out
}

// findNodeCondition returns a pointer into conds (api.Node.FindCondition).
func findNodeCondition(conds []api.NodeCondition, t api.NodeConditionType) *api.NodeCondition {
	n := api.Node{Status: api.NodeStatus{Conditions: conds}}
	return n.FindCondition(t)
}

func copyCondition(c *api.NodeCondition) *api.NodeCondition {
	if c == nil {
		return nil
	}
	cp := *c
	return &cp
}

func sameNodeCondition(a, b *api.NodeCondition) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastHeartbeatTime.Equal(b.LastHeartbeatTime.Time) && a.LastTransitionTime.Equal(b.LastTransitionTime.Time)
}
