package lifecycle

import (
	"time"

	"github.com/podsem/podsem/api"
)

// The kubelet's node conditions. Besides its pods, a kubelet reports its
// node: at every node status update (nodeStatusUpdateFrequency, 10 s) its
// status setters (pkg/kubelet/nodestatus setters.go) compute the
// MemoryPressure, DiskPressure and PIDPressure conditions from the
// eviction manager and the Ready condition from the runtime, the network
// and the node shutdown manager; the kubelet posts the status when it
// changed (or every nodeStatusReportFrequency otherwise).

// NodeShuttingDownMessage is the message of the Ready condition (status
// False, reason KubeletNotReady) while the node shutdown manager reports
// the node shutting down (pkg/kubelet/nodeshutdown ShutdownStatus).
const NodeShuttingDownMessage = "node is shutting down"

// NodeStatusInput is what the kubelet's node condition setters read.
type NodeStatusInput struct {
	// Node is the node's name, which the events' messages carry.
	Node string
	// Pressure are the pressure conditions the eviction manager reports
	// (nodepressure.Manager.Conditions): each is True, the others False.
	Pressure []api.NodeConditionType
	// ShuttingDown reports the node shutdown manager's shutdown under way:
	// Ready is False (KubeletNotReady, NodeShuttingDownMessage).
	ShuttingDown bool
}

// nodeConditionText is one setter's status, reason and message, and the
// event it records on a transition.
type nodeConditionText struct {
	status          api.ConditionStatus
	reason, message string
	event           string
}

func nodeConditionFor(t api.NodeConditionType, bad bool) nodeConditionText {
	switch t {
	case api.NodeMemoryPressure:
		if bad {
			return nodeConditionText{api.ConditionTrue, "KubeletHasInsufficientMemory", "kubelet has insufficient memory available", "NodeHasInsufficientMemory"}
		}
		return nodeConditionText{api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available", "NodeHasSufficientMemory"}
	case api.NodeDiskPressure:
		if bad {
			return nodeConditionText{api.ConditionTrue, "KubeletHasDiskPressure", "kubelet has disk pressure", "NodeHasDiskPressure"}
		}
		return nodeConditionText{api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure", "NodeHasNoDiskPressure"}
	case api.NodePIDPressure:
		if bad {
			return nodeConditionText{api.ConditionTrue, "KubeletHasInsufficientPID", "kubelet has insufficient PID available", "NodeHasInsufficientPID"}
		}
		return nodeConditionText{api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available", "NodeHasSufficientPID"}
	}
	if bad {
		return nodeConditionText{api.ConditionFalse, "KubeletNotReady", NodeShuttingDownMessage, "NodeNotReady"}
	}
	return nodeConditionText{api.ConditionTrue, "KubeletReady", "kubelet is posting ready status", "NodeReady"}
}

// KubeletNodeCondition reports whether the kubelet owns the node condition
// type t: MemoryPressure, DiskPressure, PIDPressure and Ready, the
// conditions it posts, each with a new lastHeartbeatTime at every post
// (pkg/kubelet/nodestatus; NodeConditions writes them).
func KubeletNodeCondition(t api.NodeConditionType) bool {
	switch t {
	case api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeReady:
		return true
	}
	return false
}

// NodeConditions returns the node conditions a kubelet posts at now, from
// the node's current ones (old, not modified), as its status setters
// write them (pkg/kubelet/nodestatus MemoryPressureCondition,
// DiskPressureCondition, PIDPressureCondition, ReadyCondition):
// MemoryPressure, DiskPressure and PIDPressure True while in.Pressure
// names them (KubeletHasInsufficientMemory, KubeletHasDiskPressure,
// KubeletHasInsufficientPID) and False otherwise (KubeletHasSufficientMemory,
// KubeletHasNoDiskPressure, KubeletHasSufficientPID); Ready True
// (KubeletReady) or, while the node shuts down, False (KubeletNotReady,
// NodeShuttingDownMessage). Every one has lastHeartbeatTime now and keeps
// its lastTransitionTime when its status did not change; conditions the
// kubelet does not set (other components') come first, unchanged, then
// the four in that order, Ready last.
//
// The events are those the kubelet records (recordNodeStatusEvent:
// Normal, reason e.g. NodeHasInsufficientMemory or NodeNotReady, message
// "Node <name> status is now: <reason>", source kubelet, regarding the
// node) for each condition that turns from True to False or back. Upstream
// records them also when a condition is first created or leaves Unknown
// (registration, a node coming back after the node lifecycle controller
// marked it Unknown); those are not returned (the e2e harness's kubelet
// records none either).
func NodeConditions(old []api.NodeCondition, in NodeStatusInput, now time.Time) ([]api.NodeCondition, []api.Event) {
	types := [...]api.NodeConditionType{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeReady}
	others := 0
	for _, c := range old {
		if !KubeletNodeCondition(c.Type) {
			others++
		}
	}
	out := make([]api.NodeCondition, 0, others+len(types))
	for _, c := range old {
		if !KubeletNodeCondition(c.Type) {
			out = append(out, c)
		}
	}
	var events []api.Event
	for _, t := range types {
		bad := in.ShuttingDown
		if t != api.NodeReady {
			bad = false
			for _, p := range in.Pressure {
				if p == t {
					bad = true
				}
			}
		}
		w := nodeConditionFor(t, bad)
		c := api.NodeCondition{Type: t, Status: w.status, Reason: w.reason, Message: w.message,
			LastHeartbeatTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}
		for _, o := range old {
			if o.Type != t {
				continue
			}
			if o.Status == c.Status && !o.LastTransitionTime.IsZero() {
				c.LastTransitionTime = o.LastTransitionTime
			}
			if o.Status != c.Status && (o.Status == api.ConditionTrue || o.Status == api.ConditionFalse) {
				events = append(events, api.Event{Type: api.EventTypeNormal, Reason: w.event,
					Note:      "Node " + in.Node + " status is now: " + w.event,
					Regarding: api.NodeReference(in.Node, ""), Source: api.EventSourceKubelet})
			}
			break
		}
		out = append(out, c)
	}
	return out, events
}
