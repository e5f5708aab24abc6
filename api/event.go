package api

// Event is a Kubernetes Event a component records about an object
// (events.k8s.io/v1 Event, or core/v1 through the legacy recorder): what
// `kubectl describe` and `kubectl events` show. podsem's decisions return
// the events their upstream counterparts record, as values, with
// upstream's reason and message text; the caller records them or not.
type Event struct {
	// Type is EventTypeNormal or EventTypeWarning.
	Type string
	// Reason is the short, machine-readable reason: Scheduled,
	// FailedScheduling, Preempted, Killing, BackOff, Unhealthy, Evicted,
	// TaintManagerEviction, ...
	Reason string
	// Action is what the component was doing when it recorded the event
	// (events.k8s.io/v1 action: Binding, Scheduling, Preempting); empty
	// for components that record through the core/v1 recorder, which has
	// none.
	Action string
	// Note is the human-readable message.
	Note string
	// Regarding is the object the event is about: a pod, or a container
	// of it (FieldPath "spec.containers{name}"), or a node.
	Regarding ObjectReference
	// Related is a second object the event involves (the preemptor of a
	// Preempted victim), nil when none.
	Related *ObjectReference
	// Source is the component that records it: "default-scheduler",
	// "kubelet", "taint-eviction-controller", "node-controller".
	Source string
}

// String renders the event as `kubectl events` lists it: type, reason and
// note ("Warning BackOff: Back-off restarting failed container app ...").
func (e Event) String() string {
	return e.Type + " " + e.Reason + ": " + e.Note
}

// The event types (core/v1 EventTypeNormal and EventTypeWarning).
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// PodReference is the object reference of pod, as an event's Regarding
// names it: kind Pod, its namespace, name, UID and resourceVersion. A nil
// pod gives the zero reference.
func PodReference(pod *Pod) ObjectReference {
	if pod == nil {
		return ObjectReference{}
	}
	return ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, ResourceVersion: pod.ResourceVersion}
}

// ContainerReference is the object reference of a container of pod, as
// the kubelet's container events name it (kubecontainer.GenerateContainerRef):
// the pod's reference with FieldPath "spec.containers{name}",
// "spec.initContainers{name}" or "spec.ephemeralContainers{name}" after
// where PodSpec.FindContainer finds it, and "implicitly required container
// <name>" for a name the spec does not declare. A nil pod gives the zero
// reference.
func ContainerReference(pod *Pod, container string) ObjectReference {
	if pod == nil {
		return ObjectReference{}
	}
	ref := PodReference(pod)
	c, ok := pod.Spec.FindContainer(container)
	if !ok {
		ref.FieldPath = "implicitly required container " + container
		return ref
	}
	list := "spec.containers"
	switch c.Kind {
	case ContainerKindInit, ContainerKindSidecar:
		list = "spec.initContainers"
	case ContainerKindEphemeral:
		list = "spec.ephemeralContainers"
	}
	ref.FieldPath = list + "{" + container + "}"
	return ref
}
