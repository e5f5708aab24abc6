package cluster

// This file holds the rules the composition needs that have no home in a
// semantic package yet. Each belongs elsewhere (NEXT.md lists where) and
// moves there; until then it is written once, here, and nowhere else in
// the cluster package.

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// defaultDeployment applies the API server's apps/v1 defaulting to a
// Deployment in place (pkg/apis/apps/v1 SetDefaults_Deployment): replicas
// 1, strategy RollingUpdate with maxUnavailable and maxSurge 25 %,
// revisionHistoryLimit 10, progressDeadlineSeconds 600, and the pod
// template's spec defaulted as a pod's is.
//
// Home: package api (api.DefaultDeployment, beside api.DefaultPod);
// cmd/podsem/workload_pods.go holds a partial copy to replace by it.
func defaultDeployment(d *api.Deployment) error {
	if d.Spec.Replicas == nil {
		one := int32(1)
		d.Spec.Replicas = &one
	}
	if d.Spec.Strategy.Type == "" {
		d.Spec.Strategy.Type = api.RollingUpdateDeploymentStrategyType
	}
	if d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType {
		if d.Spec.Strategy.RollingUpdate == nil {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		if d.Spec.Strategy.RollingUpdate.MaxUnavailable == nil {
			v := api.FromString("25%")
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = &v
		}
		if d.Spec.Strategy.RollingUpdate.MaxSurge == nil {
			v := api.FromString("25%")
			d.Spec.Strategy.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		v := int32(10)
		d.Spec.RevisionHistoryLimit = &v
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		v := int32(600)
		d.Spec.ProgressDeadlineSeconds = &v
	}
	if d.Spec.Selector == nil {
		return fmt.Errorf("Deployment %q is invalid: spec.selector: Required value", d.Name)
	}
	defaultTemplate(&d.Spec.Template)
	return nil
}

// defaultReplicaSet applies the apps/v1 ReplicaSet defaulting: replicas 1
// and the template's pod spec defaults. Home: package api.
func defaultReplicaSet(rs *api.ReplicaSet) {
	if rs.Spec.Replicas == nil {
		one := int32(1)
		rs.Spec.Replicas = &one
	}
	defaultTemplate(&rs.Spec.Template)
}

// defaultTemplate defaults a pod template's spec as the API server does
// (the template's pod spec gets the pod defaults).
func defaultTemplate(t *api.PodTemplateSpec) {
	p := &api.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
	api.DefaultPod(p)
	t.Spec = p.Spec
}

// The Events the ReplicaSet and Deployment controllers record
// (pkg/controller/controller_utils.go's RealPodControl and
// pkg/controller/deployment/sync.go). workloads' syncs return what they
// write but not these Events. Home: package workloads (an Events field on
// ReplicaSetSync and DeploymentSync).
const (
	componentReplicaSet = "replicaset-controller"
	componentDeployment = "deployment-controller"
)

func replicaSetRef(rs *api.ReplicaSet) api.ObjectReference {
	return api.ObjectReference{Kind: "ReplicaSet", APIVersion: "apps/v1", Namespace: rs.Namespace, Name: rs.Name, UID: rs.UID}
}

func deploymentRef(d *api.Deployment) api.ObjectReference {
	return api.ObjectReference{Kind: "Deployment", APIVersion: "apps/v1", Namespace: d.Namespace, Name: d.Name, UID: d.UID}
}

// podCreatedEvent is SuccessfulCreate, "Created pod: <name>".
func podCreatedEvent(rs *api.ReplicaSet, pod string) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: "SuccessfulCreate", Note: "Created pod: " + pod,
		Regarding: replicaSetRef(rs), Source: componentReplicaSet}
}

// podCreateFailedEvent is FailedCreate, "Error creating: <error>".
func podCreateFailedEvent(rs *api.ReplicaSet, err error) api.Event {
	return api.Event{Type: api.EventTypeWarning, Reason: "FailedCreate", Note: "Error creating: " + err.Error(),
		Regarding: replicaSetRef(rs), Source: componentReplicaSet}
}

// podDeletedEvent is SuccessfulDelete, "Deleted pod: <name>".
func podDeletedEvent(rs *api.ReplicaSet, pod string) api.Event {
	return api.Event{Type: api.EventTypeNormal, Reason: "SuccessfulDelete", Note: "Deleted pod: " + pod,
		Regarding: replicaSetRef(rs), Source: componentReplicaSet}
}

// scaledEvent is ScalingReplicaSet, "Scaled up replica set <rs> from <a>
// to <b>" (or down).
func scaledEvent(d *api.Deployment, rs string, from, to int32) api.Event {
	dir := "up"
	if to < from {
		dir = "down"
	}
	return api.Event{Type: api.EventTypeNormal, Reason: "ScalingReplicaSet",
		Note:      fmt.Sprintf("Scaled %s replica set %s from %d to %d", dir, rs, from, to),
		Regarding: deploymentRef(d), Source: componentDeployment}
}
