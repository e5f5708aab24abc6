package nodelifecycle

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// Reasons and messages of the node conditions the node lifecycle controller
// forces to Unknown when the kubelet stops posting status.
const (
	ReasonNodeStatusUnknown       = "NodeStatusUnknown"
	MessageNodeStatusUnknown      = "Kubelet stopped posting node status."
	ReasonNodeStatusNeverUpdated  = "NodeStatusNeverUpdated"
	MessageNodeStatusNeverUpdated = "Kubelet never posted node status."
)

// nodeHealth is what the controller remembers about one node
// (nodeHealthData plus the tainter's set membership).
type nodeHealth struct {
	probe           time.Time          // the controller's own time of the last sign of life
	readyTransition time.Time          // when it saw the Ready condition change
	ready           *api.NodeCondition // the Ready condition as last seen (nil: none)
	lease           time.Time          // the lease renewTime last seen (zero: none)
	tainted         bool               // in the NoExecute tainter's set

	// Kept by Monitor for its next deadline: whether it has looked at the
	// node, the time and grace period of that look, and whether the look
	// wrote a status.
	looked bool
	look   time.Time
	grace  time.Duration
	wrote  bool
}

// HealthReport is what one look of the node lifecycle controller at one
// node found and did.
type HealthReport struct {
	// Node is the name of the node looked at.
	Node string
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
	// look: every pod bound to the node gets MarkPodNotReady, with its
	// event (MarkPodsNotReady gives both).
	MarkPodsNotReady bool
	// Events are the Events the controller records about the node at this
	// look: the Normal NodeNotReady status change ("Node <name> status is
	// now: NodeNotReady", NodeStatusEvent) when the Ready condition left
	// True, none otherwise.
	Events []api.Event
	// NoSchedule and NoExecute are the two taint passes run on the node
	// after the status write; Taints is spec.taints after both. Both read
	// the conditions as this look left them (CurrentReady), so the look
	// that flips Ready to Unknown adds unreachable:NoSchedule and queues
	// unreachable:NoExecute at once, as v1.36.3's monitorNodeHealth hands
	// processTaintBaseEviction the condition it has just written.
	NoSchedule, NoExecute TaintUpdate
	Taints                []api.Taint
}

// Monitor is the node health part of kube-controller-manager's node
// lifecycle controller (pkg/controller/nodelifecycle monitorNodeHealth,
// tryUpdateNodeHealth and the taint passes) as a state machine, one node at
// a time: it holds the controller's memory of each node — its own probe
// time, the Ready condition and lease it last saw, whether it has
// NoExecute-tainted the node — and each Step is one look at one node.
//
// What it models: the grace periods (monitor and startup), the probe time
// taken from the controller's own clock rather than the kubelet's
// lastHeartbeatTime (a fresh controller gives a node with an ancient
// heartbeat the full grace period), the Unknown flip of Ready and the
// pressure conditions strictly after the grace period, the status write
// only when Ready changed, the pods marked not ready, and both taint
// passes, the NoExecute one deciding from the Ready condition as the look
// leaves it (upstream's currentReadyCondition), so that a node the
// controller itself turns Unknown is NoExecute-tainted at that same look.
// Monitor looks at one node at a time, so it writes a
// NoExecute taint at the look that queues the node, as the controller does
// for the first node of a healthy zone; Controller runs the same health
// checks over the whole cluster with the per-zone tainting queues and
// their rates, the full-disruption mode and the restart behaviour. Both
// return the Events the controller records (HealthReport.Events); neither
// models node label reconciliation or metrics.
//
// The zero value is ready to use with the default configuration. A
// Monitor is not safe for concurrent use.
type Monitor struct {
	cfg   Config
	nodes map[string]*nodeHealth
}

// NewMonitor returns a monitor that has seen no node yet, as after a
// controller-manager start. A configuration Config.Validate refuses is an
// error wrapping api.ErrInvalidInput, and no monitor.
func NewMonitor(cfg Config) (*Monitor, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Monitor{cfg: cfg, nodes: map[string]*nodeHealth{}}, nil
}

// MonitorInput is one look's view of a node: the node as the API server
// holds it (every write of earlier looks applied) and its Lease, or the
// news that it was deleted. The same input again is the tick: the
// controller looks, and nothing else happened.
type MonitorInput struct {
	// Node is the node looked at.
	Node *api.Node
	// LeaseRenew is the renewTime of the node's Lease in kube-node-lease,
	// zero when it has none.
	LeaseRenew time.Time
	// Deleted says the node is gone from the API server: the monitor
	// forgets it, as the controller drops a deleted node's health data.
	// Only Node's name is read.
	Deleted bool
}

// Step is one look at in.Node at now, or, for a deleted node, forgetting
// it (an empty report). Each Step is a look: the caller decides when the
// controller looks — every Config.MonitorPeriod upstream, and
// NextDeadline says which of those looks would change something. The node
// is not modified; the report holds what the controller writes. A nil
// machine or node is an error naming it, and nothing changes.
func (m *Monitor) Step(in MonitorInput, now time.Time) (HealthReport, error) {
	if m == nil {
		return HealthReport{}, fmt.Errorf("%w: monitor: nil", errInvalidInput)
	}
	node := in.Node
	if node == nil {
		return HealthReport{}, fmt.Errorf("%w: node: nil", errInvalidInput)
	}
	if in.Deleted {
		delete(m.nodes, node.Name)
		return HealthReport{}, nil
	}
	var rep HealthReport
	h := m.observeHealth(node, in.LeaseRenew, now, &rep)
	after := *node
	after.Status.Conditions = rep.Conditions
	after.Spec.Taints = rep.NoSchedule.Taints
	rep.NoExecute = TaintUpdate{Taints: after.Spec.Taints}
	if rep.CurrentReady != nil {
		// The NoExecute decision reads the Ready condition as this look
		// leaves it: the look that forces a silent node's Ready to Unknown
		// also queues its unreachable:NoExecute taint.
		rep.NoExecute = m.noExecute(h, &after, rep.CurrentReady.Status, now)
	}
	rep.Taints = rep.NoExecute.Taints
	h.looked, h.look, h.grace, h.wrote = true, now, rep.GracePeriod, rep.Status != nil
	return rep, nil
}

// NextDeadline returns the time of the earliest look that would change
// something without a new input, over every node the monitor has looked
// at and not forgotten, counting looks every Config.MonitorPeriod from a
// node's last look. A node whose Ready condition is not yet
// Unknown asks for the first look strictly after its probe time plus its
// grace period, when it turns Unknown. A node already Unknown and looked
// at since asks for nothing: only a heartbeat, a lease renewal or another
// change of the node, fed to Step, moves it. The zero time means no look
// is needed until an input arrives, and is what a nil Monitor returns.
//
// A caller that looks at all its nodes together, as the controller does,
// looks at all of them at the deadline: a look on a node's period that
// is not its deadline changes nothing. A look at another time is a look
// all the same, and may find a grace period over sooner than the
// periodic look would have.
func (m *Monitor) NextDeadline() time.Time {
	if m == nil {
		return time.Time{}
	}
	period := m.cfg.monitorPeriod()
	var next time.Time
	for _, h := range m.nodes {
		if !h.looked {
			continue
		}
		var t time.Time
		switch {
		case h.ready == nil || h.ready.Status != api.ConditionUnknown:
			expiry := h.probe.Add(h.grace)
			if expiry.Before(h.look) {
				expiry = h.look
			}
			t = nextTick(h.look, period, expiry)
		default:
			continue
		}
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next
}

// observeHealth is Step up to the NoSchedule pass (tryUpdateNodeHealth,
// the pods marked not ready, doNoScheduleTaintingPass): the report so far,
// the node's health record and the node as it stands after the status
// write and the NoSchedule pass.
func (m *Monitor) observeHealth(node *api.Node, leaseRenew, now time.Time, rep *HealthReport) *nodeHealth {
	if m.nodes == nil {
		m.nodes = map[string]*nodeHealth{}
	}
	h := m.nodes[node.Name]
	rep.Node = node.Name
	conds := node.Status.Conditions
	current := node.FindCondition(api.NodeReady)
	created := node.CreationTimestamp.Time
	if current == nil {
		rep.ObservedReady = unknownReadyStandIn(node)
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
		// A new heartbeat: the record is updated in place (no one else
		// holds it), as upstream replaces it.
		h.probe, h.readyTransition = now, transition
	}
	switch {
	case current == nil:
		h.ready = nil
	case h.ready == nil:
		h.ready = copyCondition(current)
	case *h.ready != *current:
		*h.ready = *current // the record's own copy, held by no one else
	}
	if !leaseRenew.IsZero() && (h.lease.IsZero() || h.lease.Before(leaseRenew)) {
		h.lease, h.probe = leaseRenew, now
	}
	rep.ProbeTime = h.probe
	rep.CurrentReady = current
	rep.Conditions = conds
	// Past the grace period the look forces Ready (and the pressure
	// conditions) to Unknown and writes the status when Ready changed: a
	// Ready already Unknown stays as it is, so nothing is written.
	if now.After(h.probe.Add(rep.GracePeriod)) && (current == nil || current.Status != api.ConditionUnknown) {
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
		rep.Events = []api.Event{NodeStatusEvent(node, EventNodeNotReady)}
	}
	// The NoSchedule pass reads the conditions as this look left them.
	if rep.Status == nil {
		rep.NoSchedule = NoScheduleTaintPass(node, now)
	} else {
		after := *node
		after.Status.Conditions = rep.Conditions
		rep.NoSchedule = NoScheduleTaintPass(&after, now)
	}
	return h
}

// noExecute runs markNodeForTainting / markNodeAsReachable with the
// tainter's set: a node enters the set when queued and leaves it when it
// is Ready again or its taint went missing.
func (m *Monitor) noExecute(h *nodeHealth, node *api.Node, ready api.ConditionStatus, now time.Time) TaintUpdate {
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
	return TaintUpdate{Taints: node.Spec.Taints}
}

// NodeNotReady reports whether the controller last saw the node named name
// with a Ready condition other than True: a pod newly bound to it is marked
// not ready at once (processPod). False for a node it has not seen or that
// has no Ready condition.
func (m *Monitor) NodeNotReady(name string) bool {
	if m == nil {
		return false
	}
	h := m.nodes[name]
	return h != nil && h.ready != nil && h.ready.Status != api.ConditionTrue
}

// unknownReadyStandIn is the Ready condition the controller assumes for a
// node that posted none: Unknown since the node's creation.
func unknownReadyStandIn(node *api.Node) api.NodeCondition {
	return api.NodeCondition{Type: api.NodeReady, Status: api.ConditionUnknown, LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: node.CreationTimestamp}
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
