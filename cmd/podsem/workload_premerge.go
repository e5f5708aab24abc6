package main

import (
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// Until the Deployment controller lands on main: the label and a stable
// template hash.
const labelPodTemplateHash = "pod-template-hash"

func podTemplateHash(t *api.PodTemplateSpec, collisions *int32) string {
	ds := &api.DaemonSet{}
	ds.Spec.Template = *t
	ds.Status.CollisionCount = collisions
	h, _ := workloads.DaemonSetRevisionHash(ds)
	return h
}

// Until the Job controller lands on main: its label keys.
const (
	jobNameLabel          = "batch.kubernetes.io/job-name"
	jobControllerUIDLabel = "batch.kubernetes.io/controller-uid"
)
