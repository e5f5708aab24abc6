package nodelifecycle

import (
	"time"

	"github.com/podsem/podsem/api"
)

// NodeLifecycleSource is the component name the node lifecycle controller
// records its events under.
const NodeLifecycleSource = "node-controller"

// The reasons of the events the node lifecycle controller records.
const (
	// EventRegisteredNode: a monitor pass lists a node for the first time.
	EventRegisteredNode = "RegisteredNode"
	// EventRemovingNode: a node listed before is gone.
	EventRemovingNode = "RemovingNode"
	// EventNodeNotReady: the node's Ready condition left True (a node
	// event), and each of its pods marked not ready (a pod event).
	EventNodeNotReady = "NodeNotReady"
)

// NodeEvent returns the Normal event the node lifecycle controller records
// when its monitor pass registers (EventRegisteredNode) or drops
// (EventRemovingNode) the node named name, with upstream's doubled text
// (pkg/controller/util/node RecordNodeEvent): "Node <name> event:
// Registered Node <name> in Controller", "Node <name> event: Removing Node
// <name> from Controller". It regards the node by name and uid. Any other
// reason gives an event whose note is "Node <name> event: <reason>".
func NodeEvent(name, uid, reason string) api.Event {
	what := reason
	switch reason {
	case EventRegisteredNode:
		what = "Registered Node " + name + " in Controller"
	case EventRemovingNode:
		what = "Removing Node " + name + " from Controller"
	}
	return nodeEvent(name, uid, reason, "Node "+name+" event: "+what)
}

// NodeStatusEvent returns the Normal event the node lifecycle controller
// records about a change of node's status (pkg/controller/util/node
// RecordNodeStatusChange): reason status, note "Node <name> status is
// now: <status>". The monitor records it with EventNodeNotReady once, at
// the look where the Ready condition leaves True. A nil node gives an
// event regarding no object.
func NodeStatusEvent(node *api.Node, status string) api.Event {
	var name, uid string
	if node != nil {
		name, uid = node.Name, node.UID
	}
	return nodeEvent(name, uid, status, "Node "+name+" status is now: "+status)
}

// nodeEvent is a Normal event of the node lifecycle controller about a
// node.
func nodeEvent(name, uid, reason, note string) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: reason, Note: note,
		Regarding: api.NodeReference(name, uid), Source: NodeLifecycleSource}
}

// PodNotReady is what the node lifecycle controller writes and records for
// one pod of a node whose Ready condition left True.
type PodNotReady struct {
	Pod *api.Pod
	// Condition is the pod's Ready condition as written (MarkPodNotReady).
	Condition api.PodCondition
	// Event is the Warning NodeNotReady event "Node is not ready" about
	// the pod, recorded after the status update.
	Event api.Event
}

// MarkPodsNotReady is the node lifecycle controller's MarkPodsNotReady
// (pkg/controller/util/node) over the pods of the node named node: for
// each pod bound to it (others, and nil entries, are skipped) whose Ready
// condition MarkPodNotReady changes, the condition to write and the Warning
// NodeNotReady event "Node is not ready" regarding the pod (as it was
// before the update). The controller calls it when HealthReport says
// MarkPodsNotReady, and for a pod newly bound to a node it sees not Ready
// (Monitor.NodeNotReady). The result is in pod order, nil when nothing is
// written.
func MarkPodsNotReady(node string, pods []*api.Pod, now time.Time) []PodNotReady {
	var out []PodNotReady
	for _, p := range pods {
		if p == nil || p.Spec.NodeName != node {
			continue
		}
		c := MarkPodNotReady(p, now)
		if c == nil {
			continue
		}
		out = append(out, PodNotReady{Pod: p, Condition: *c, Event: api.Event{
			Type:      api.EventTypeWarning,
			Reason:    EventNodeNotReady,
			Note:      "Node is not ready",
			Regarding: api.PodReference(p),
			Source:    NodeLifecycleSource,
		}})
	}
	return out
}
