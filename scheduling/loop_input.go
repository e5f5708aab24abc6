package scheduling

import (
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
)

// InputKind says what an Input tells the Loop.
type InputKind uint8

// The inputs of Loop.Step: the informer events kube-scheduler's event
// handlers receive, and the passing of time.
const (
	// InputTick: time passed; the loop runs one scheduling attempt if the
	// queue has a pod to hand out.
	InputTick InputKind = iota + 1
	// InputPodAdded: a pod was created (Input.Pod). A pod without
	// spec.nodeName joins the scheduling queue; a bound one counts on its
	// node.
	InputPodAdded
	// InputPodUpdated: a pod changed (Input.Pod, its new object).
	InputPodUpdated
	// InputPodDeleted: the pod Input.Namespace/Input.Name is gone from the
	// API server.
	InputPodDeleted
	// InputNodeAdded: a node was registered (Input.Node).
	InputNodeAdded
	// InputNodeUpdated: a node changed (Input.Node, its new object).
	InputNodeUpdated
	// InputNodeDeleted: the node Input.Name is gone.
	InputNodeDeleted
	// InputObjectSet: one of the other objects the scheduler watches was
	// created or changed (Input.Object): a Namespace, a
	// PersistentVolumeClaim, PersistentVolume, StorageClass, CSINode or
	// CSIDriver, a PodDisruptionBudget, or a Service, ReplicaSet,
	// StatefulSet or ReplicationController (the workloads
	// PodTopologySpread's default constraints select by).
	InputObjectSet
	// InputObjectDeleted: such an object is gone (Input.Object names it
	// by its kind, namespace and name).
	InputObjectDeleted
	// InputBindFailed: the binding of a pod whose ActionBind waited in
	// PreBind (its Volumes had Claims) failed with Input.Message, such as
	// VolumeBinding's timeout (Input.Pod: the pod as the caller's informer
	// holds it, unbound).
	InputBindFailed
)

var inputNames = [...]string{"", "Tick", "PodAdded", "PodUpdated", "PodDeleted", "NodeAdded", "NodeUpdated",
	"NodeDeleted", "ObjectSet", "ObjectDeleted", "BindFailed"}

// String names the kind: "Tick", "PodAdded", ...
func (k InputKind) String() string {
	if int(k) < len(inputNames) && k != 0 {
		return inputNames[k]
	}
	return "InputKind(" + strconv.Itoa(int(k)) + ")"
}

// Input is one input of Loop.Step. Build it with the constructors (Tick,
// PodAdded, NodeDeleted, ...); only the fields of its kind are read.
type Input struct {
	Kind InputKind
	// Pod is the pod's object (InputPodAdded, InputPodUpdated).
	Pod *api.Pod
	// Node is the node's object (InputNodeAdded, InputNodeUpdated).
	Node *api.Node
	// Object is the object set or deleted (InputObjectSet,
	// InputObjectDeleted).
	Object api.Object
	// Namespace and Name name the pod deleted (InputPodDeleted); Name
	// names the node deleted (InputNodeDeleted).
	Namespace, Name string
	// Message is why a binding failed (InputBindFailed).
	Message string
}

// String renders the input, e.g. "PodAdded(default/web-1)".
func (in Input) String() string {
	s := in.Kind.String()
	switch in.Kind {
	case InputPodAdded, InputPodUpdated, InputBindFailed:
		if in.Pod != nil {
			return s + "(" + in.Pod.Key() + ")"
		}
	case InputPodDeleted:
		return s + "(" + in.Namespace + "/" + in.Name + ")"
	case InputNodeAdded, InputNodeUpdated:
		if in.Node != nil {
			return s + "(" + in.Node.Name + ")"
		}
	case InputNodeDeleted:
		return s + "(" + in.Name + ")"
	case InputObjectSet, InputObjectDeleted:
		if !isNilObject(in.Object) {
			return fmt.Sprintf("%s(%T %s)", s, in.Object, objectKey(in.Object))
		}
	}
	return s
}

// Tick is the input of time passing: the loop runs one scheduling attempt
// when the queue has a pod to hand out (see Loop.NextDeadline).
func Tick() Input { return Input{Kind: InputTick} }

// PodAdded is the input of pod p being created (the pod informer's add).
func PodAdded(p *api.Pod) Input { return Input{Kind: InputPodAdded, Pod: p} }

// PodUpdated is the input of pod p's object changing (the pod informer's
// update, p being the new object): bound, nominated, relabelled, gates
// removed, terminating, finished.
func PodUpdated(p *api.Pod) Input { return Input{Kind: InputPodUpdated, Pod: p} }

// PodDeleted is the input of the pod namespace/name leaving the API server
// (the pod informer's delete).
func PodDeleted(namespace, name string) Input {
	return Input{Kind: InputPodDeleted, Namespace: namespace, Name: name}
}

// NodeAdded is the input of node n being registered.
func NodeAdded(n *api.Node) Input { return Input{Kind: InputNodeAdded, Node: n} }

// NodeUpdated is the input of node n's object changing (n the new object).
func NodeUpdated(n *api.Node) Input { return Input{Kind: InputNodeUpdated, Node: n} }

// NodeDeleted is the input of the node named name being deleted.
func NodeDeleted(name string) Input { return Input{Kind: InputNodeDeleted, Name: name} }

// ObjectSet is the input of another object the scheduler watches being
// created or changed (see InputObjectSet for the kinds).
func ObjectSet(o api.Object) Input { return Input{Kind: InputObjectSet, Object: o} }

// ObjectDeleted is the input of such an object being deleted; only its
// kind, namespace and name are read.
func ObjectDeleted(o api.Object) Input { return Input{Kind: InputObjectDeleted, Object: o} }

// BindFailed is the input of the binding of pod p failing with message, as
// kube-scheduler's binding cycle fails when a PreBind plugin gives up
// (VolumeBinding after bindTimeoutSeconds: "running PreBind plugin
// \"VolumeBinding\": binding volumes: context deadline exceeded"). p is
// the pod as the informer holds it (unbound).
func BindFailed(p *api.Pod, message string) Input {
	return Input{Kind: InputBindFailed, Pod: p, Message: message}
}
