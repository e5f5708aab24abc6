package main

// The pods a workload controller would create, built with package
// workloads' pod builders. This file is the one place the CLI calls them.

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// controllerRef is the owner reference a workload controller puts on the
// pods it creates. A workload read from a manifest has no uid yet (the API
// server assigns it on create); the reference then carries a stand-in,
// since the API server refuses an owner reference without one.
func controllerRef(m *api.ObjectMeta, apiVersion, kind string) api.OwnerReference {
	ref := workloads.NewControllerRef(m, apiVersion, kind)
	if ref.UID == "" {
		ref.UID = manifestUID(kind, m.Name)
	}
	return ref
}

// manifestUID stands for the uid of a workload read from a manifest.
func manifestUID(kind, name string) string {
	return "uid-of-" + lower(kind) + "-" + name
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// replicaSetPods are the pods a ReplicaSet's sync creates for n missing
// replicas: one pod from the template, generateName "<rs>-".
func replicaSetPods(rs *api.ReplicaSet, n int) ([]*api.Pod, error) {
	ref := controllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")
	p, err := workloads.CreatePodFromTemplate(&rs.Spec.Template, rs.Name, "", &ref)
	if err != nil {
		return nil, err
	}
	return repeat(p, n), nil
}

// deploymentAsStored is a Deployment with the defaults the API server
// gives it on create (api.DefaultDeployment). The Deployment given is not
// modified.
func deploymentAsStored(d *api.Deployment) (*api.Deployment, error) {
	cp := *d
	if err := copyJSON(&d.Spec, &cp.Spec); err != nil {
		return nil, err
	}
	api.DefaultDeployment(&cp)
	return &cp, nil
}

// deploymentPods are the pods of a Deployment none of whose pods was read:
// one sync of the Deployment controller (workloads.SyncDeployment) over the
// ReplicaSets read creates its new ReplicaSet, "<deployment>-<pod-template-hash>",
// whose controller creates the pods: the template with the
// pod-template-hash label. When the ReplicaSet exists already, the sync
// creates none and its pods are built from it.
func deploymentPods(d *api.Deployment, replicaSets []*api.ReplicaSet, now time.Time) (*api.ReplicaSet, []*api.Pod, error) {
	stored, err := deploymentAsStored(d)
	if err != nil {
		return nil, nil, err
	}
	var mine []*api.ReplicaSet
	for _, rs := range replicaSets {
		if rs.Namespace == d.Namespace {
			mine = append(mine, rs)
		}
	}
	sync, err := workloads.SyncDeployment(stored, mine, nil, workloads.DeploymentOptions{}, now)
	if err != nil {
		return nil, nil, err
	}
	rs := sync.NewReplicaSet
	if rs == nil {
		// The ReplicaSet of the current template was read: the one whose
		// pod-template-hash the template would get.
		hash := workloads.DefaultPodTemplateHash(&stored.Spec.Template, stored.Status.CollisionCount)
		for _, r := range mine {
			if r.Labels[workloads.LabelPodTemplateHash] == hash || r.Name == d.Name+"-"+hash {
				rs = r
			}
		}
		if rs == nil {
			return nil, nil, fmt.Errorf("the Deployment controller's sync creates no ReplicaSet and none of the current template was read")
		}
	}
	rs = withUID(rs).(*api.ReplicaSet)
	pods, err := replicaSetPods(rs, int(ptrOr(rs.Spec.Replicas, 0)))
	return rs, pods, err
}

// statefulSetPods are a StatefulSet's pods, "<set>-<ordinal>" for each
// ordinal from spec.ordinals.start (workloads.StatefulSetPod, labelled
// with the set's first ControllerRevision), and the claims of their
// volumeClaimTemplates (workloads.StatefulSetClaims), which the
// controller creates before each pod.
func statefulSetPods(set *api.StatefulSet, n int) ([]*api.Pod, []*api.PersistentVolumeClaim, error) {
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	rev, err := workloads.NewStatefulSetRevision(set, 1, ptrOr(set.Status.CollisionCount, 0))
	if err != nil {
		return nil, nil, err
	}
	var pods []*api.Pod
	var claims []*api.PersistentVolumeClaim
	for i := start; i < start+n; i++ {
		p, err := workloads.StatefulSetPod(set, i, rev.Name)
		if err != nil {
			return nil, nil, err
		}
		c, err := workloads.StatefulSetClaims(set, i)
		if err != nil {
			return nil, nil, err
		}
		pods = append(pods, p)
		claims = append(claims, c...)
	}
	return pods, claims, nil
}

// jobPods are the pods a Job's first sync creates (workloads.JobPod): n
// pods from the template, each "<job>-<index>-" for an Indexed Job.
func jobPods(job *api.Job, n int) ([]*api.Pod, error) {
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == workloads.JobIndexed
	if !indexed {
		p, err := workloads.JobPod(job, -1, nil)
		if err != nil {
			return nil, err
		}
		return repeat(p, n), nil
	}
	out := make([]*api.Pod, 0, n)
	for i := 0; i < n; i++ {
		p, err := workloads.JobPod(job, i, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// daemonPod is a DaemonSet's pod for one node.
func daemonPod(ds *api.DaemonSet, node, hash string) (*api.Pod, error) {
	return workloads.NewDaemonPod(ds, node, hash)
}

// repeat is n pods equal to p (the same pointer: the pods of one
// template differ only in the name the API server generates).
func repeat(p *api.Pod, n int) []*api.Pod {
	out := make([]*api.Pod, n)
	for i := range out {
		out[i] = p
	}
	return out
}

// copyJSON deep-copies from into to through their JSON form.
func copyJSON(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// jobAsCreated is a Job read from a manifest as the API server stores it
// on create (workloads.GenerateJobSelector, unless spec.manualSelector is
// true). A Job read from a cluster is returned as it is. The Job given is
// not modified.
func jobAsCreated(job *api.Job, readUID bool) (*api.Job, error) {
	if readUID || (job.Spec.ManualSelector != nil && *job.Spec.ManualSelector) {
		return job, nil
	}
	cp := *job
	if err := copyJSON(&job.Spec, &cp.Spec); err != nil {
		return nil, err
	}
	workloads.GenerateJobSelector(&cp)
	return &cp, nil
}
