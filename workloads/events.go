package workloads

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// The components the workload controllers record their Events as
// (kube-controller-manager's controller names, the events' source).
const (
	ReplicaSetControllerName  = "replicaset-controller"
	DeploymentControllerName  = "deployment-controller"
	StatefulSetControllerName = "statefulset-controller"
	DaemonSetControllerName   = "daemonset-controller"
	JobControllerName         = "job-controller"
)

// The reasons of the pod-control Events every workload controller but
// the StatefulSet's records (pkg/controller RealPodControl), beside
// ReasonFailedCreate and ReasonFailedDelete.
const (
	ReasonSuccessfulCreate = "SuccessfulCreate"
	ReasonSuccessfulDelete = "SuccessfulDelete"
	// ReasonScalingReplicaSet is the Deployment controller's Event for a
	// ReplicaSet it creates or scales.
	ReasonScalingReplicaSet = "ScalingReplicaSet"
)

// WorkloadReference is the object reference an Event about a workload
// names: kind, apiVersion, namespace, name and uid of the object whose
// metadata is meta.
func WorkloadReference(kind, apiVersion string, meta *api.ObjectMeta) api.ObjectReference {
	if meta == nil {
		return api.ObjectReference{Kind: kind, APIVersion: apiVersion}
	}
	return api.ObjectReference{Kind: kind, APIVersion: apiVersion, Namespace: meta.Namespace, Name: meta.Name, UID: meta.UID}
}

// PodCreatedEvent is the Event RealPodControl records on the controller's
// object once the API server has created a pod for it: Normal
// SuccessfulCreate "Created pod: <name>". The name is the one the API
// server generated, so the caller who performed the create builds it;
// source is the controller's name (ReplicaSetControllerName, ...).
func PodCreatedEvent(owner api.ObjectReference, source, pod string) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: ReasonSuccessfulCreate, Note: "Created pod: " + pod, Regarding: owner, Source: source}
}

// PodCreateFailedEvent is RealPodControl's Event for a create the API
// server refused: Warning FailedCreate "Error creating: <error>".
func PodCreateFailedEvent(owner api.ObjectReference, source string, err error) api.Event {
	msg := "<nil>"
	if err != nil {
		msg = err.Error()
	}
	return api.Event{Type: api.EventTypeWarning, Reason: ReasonFailedCreate, Note: "Error creating: " + msg, Regarding: owner, Source: source}
}

// PodDeletedEvent is RealPodControl's Event for a pod deleted: Normal
// SuccessfulDelete "Deleted pod: <name>".
func PodDeletedEvent(owner api.ObjectReference, source, pod string) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: ReasonSuccessfulDelete, Note: "Deleted pod: " + pod, Regarding: owner, Source: source}
}

// ScaledReplicaSetEvent is the Deployment controller's Event when it
// creates or scales one of its ReplicaSets (pkg/controller/deployment
// sync.go): Normal ScalingReplicaSet "Scaled up replica set <rs> from
// <from> to <to>" ("down" when to < from).
func ScaledReplicaSetEvent(d *api.Deployment, rs string, from, to int32) api.Event {
	dir := "up"
	if to < from {
		dir = "down"
	}
	var meta *api.ObjectMeta
	if d != nil {
		meta = &d.ObjectMeta
	}
	return api.Event{Type: api.EventTypeNormal, Reason: ReasonScalingReplicaSet,
		Note:      fmt.Sprintf("Scaled %s replica set %s from %d to %d", dir, rs, from, to),
		Regarding: WorkloadReference("Deployment", "apps/v1", meta), Source: DeploymentControllerName}
}

// statefulSetEvent is the StatefulSet controller's Event for a pod or
// claim write (pkg/controller/statefulset StatefulPodControl
// recordPodEvent, recordClaimEvent): verb is "create", "update" or
// "delete", title-cased in the reason and the message.
func statefulSetEvent(set *api.StatefulSet, verb, object string, err error) api.Event {
	title := verbTitle(verb)
	e := api.Event{Regarding: WorkloadReference("StatefulSet", "apps/v1", &set.ObjectMeta), Source: StatefulSetControllerName}
	if err == nil {
		e.Type, e.Reason = api.EventTypeNormal, "Successful"+title
		e.Note = fmt.Sprintf("%s %s in StatefulSet %s successful", title, object, set.Name)
	} else {
		e.Type, e.Reason = api.EventTypeWarning, "Failed"+title
		e.Note = fmt.Sprintf("%s %s in StatefulSet %s failed error: %s", title, object, set.Name, err)
	}
	return e
}

// StatefulSetPodEvent is the StatefulSet controller's Event for a write
// of one of its pods: Normal Successful<Verb> "<Verb> Pod <pod> in
// StatefulSet <set> successful", or Warning Failed<Verb> "... failed
// error: <err>" (verb "create", "update" or "delete"; e.g. "Create Pod
// web-0 in StatefulSet web successful").
func StatefulSetPodEvent(set *api.StatefulSet, verb, pod string, err error) api.Event {
	if set == nil {
		return api.Event{}
	}
	return statefulSetEvent(set, verb, "Pod "+pod, err)
}

// StatefulSetClaimEvent is the StatefulSet controller's Event for a claim
// it creates for a pod: Normal SuccessfulCreate "Create Claim <claim> Pod
// <pod> in StatefulSet <set> success", or Warning FailedCreate "Create
// Claim <claim> for Pod <pod> in StatefulSet <set> failed error: <err>".
func StatefulSetClaimEvent(set *api.StatefulSet, verb, claim, pod string, err error) api.Event {
	if set == nil {
		return api.Event{}
	}
	title := verbTitle(verb)
	e := api.Event{Regarding: WorkloadReference("StatefulSet", "apps/v1", &set.ObjectMeta), Source: StatefulSetControllerName}
	if err == nil {
		e.Type, e.Reason = api.EventTypeNormal, "Successful"+title
		e.Note = fmt.Sprintf("%s Claim %s Pod %s in StatefulSet %s success", title, claim, pod, set.Name)
	} else {
		e.Type, e.Reason = api.EventTypeWarning, "Failed"+title
		e.Note = fmt.Sprintf("%s Claim %s for Pod %s in StatefulSet %s failed error: %s", title, claim, pod, set.Name, err)
	}
	return e
}

func verbTitle(verb string) string {
	if verb == "" {
		return ""
	}
	b := []byte(verb)
	if b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
