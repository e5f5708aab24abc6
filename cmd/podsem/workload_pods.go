package main

// The pods a workload controller would create, built with package
// workloads' pod builders. This file is the one place the CLI calls them.

import (
	"encoding/json"
	"fmt"
	"strconv"

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

// deploymentPods are the pods of a new Deployment: its controller creates
// the ReplicaSet "<deployment>-<pod-template-hash>", whose pods are the
// template with the pod-template-hash label.
func deploymentPods(d *api.Deployment, n int) (rsName string, pods []*api.Pod, err error) {
	hash := podTemplateHash(&d.Spec.Template, d.Status.CollisionCount)
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace}}
	if err := copyJSON(&d.Spec.Template, &rs.Spec.Template); err != nil {
		return "", nil, err
	}
	if rs.Spec.Template.Labels == nil {
		rs.Spec.Template.Labels = map[string]string{}
	}
	rs.Spec.Template.Labels[labelPodTemplateHash] = hash
	dref := controllerRef(&d.ObjectMeta, "apps/v1", "Deployment")
	rs.OwnerReferences = []api.OwnerReference{dref}
	rs.UID = manifestUID("ReplicaSet", rs.Name)
	pods, err = replicaSetPods(rs, n)
	return rs.Name, pods, err
}

// statefulSetPods are a StatefulSet's pods: "<set>-<ordinal>" for each
// ordinal from spec.ordinals.start.
func statefulSetPods(set *api.StatefulSet, n int) ([]*api.Pod, error) {
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	ref := controllerRef(&set.ObjectMeta, "apps/v1", "StatefulSet")
	out := make([]*api.Pod, 0, n)
	for i := start; i < start+n; i++ {
		p, err := workloads.PodFromTemplate(&set.Spec.Template, set.Name, &ref)
		if err != nil {
			return nil, err
		}
		p.Name = set.Name + "-" + strconv.Itoa(i)
		p.Namespace = set.Namespace
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[api.LabelStatefulSetPodName] = p.Name
		p.Labels[api.LabelPodIndex] = strconv.Itoa(i)
		p.Spec.Hostname = p.Name
		p.Spec.Subdomain = set.Spec.ServiceName
		out = append(out, p)
	}
	return out, nil
}

// jobPods are the pods a Job's first sync creates: n pods from the
// template, each "<job>-<index>-" for an Indexed Job.
func jobPods(job *api.Job, n int) ([]*api.Pod, error) {
	ref := controllerRef(&job.ObjectMeta, "batch/v1", "Job")
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == "Indexed"
	out := make([]*api.Pod, 0, n)
	for i := 0; i < n; i++ {
		gen := ""
		if indexed {
			gen = fmt.Sprintf("%s-%d-", job.Name, i)
		}
		p, err := workloads.CreatePodFromTemplate(&job.Spec.Template, job.Name, gen, &ref)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		if !indexed {
			return repeat(p, n), nil
		}
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

// The label keys the API server's Job strategy puts on a Job's template
// besides batch.kubernetes.io/job-name and batch.kubernetes.io/controller-uid:
// their legacy, unprefixed forms (k8s.io/api/batch/v1 LegacyJobNameLabel,
// LegacyControllerUidLabel).
const (
	legacyJobNameLabel       = "job-name"
	legacyControllerUIDLabel = "controller-uid"
)

// jobAsCreated is a Job read from a manifest as the API server stores it
// on create (pkg/registry/batch/job strategy's generateSelector, unless
// spec.manualSelector is true): its template labelled with the Job's name
// and uid, old and new keys, where unset, and its selector matching the
// uid. A Job read from a cluster is returned as it is. The Job given is
// not modified.
func jobAsCreated(job *api.Job, readUID bool) (*api.Job, error) {
	if readUID || (job.Spec.ManualSelector != nil && *job.Spec.ManualSelector) {
		return job, nil
	}
	cp := *job
	if err := copyJSON(&job.Spec, &cp.Spec); err != nil {
		return nil, err
	}
	if cp.Spec.Template.Labels == nil {
		cp.Spec.Template.Labels = map[string]string{}
	}
	for key, value := range map[string]string{
		legacyJobNameLabel: cp.Name, jobNameLabel: cp.Name,
		legacyControllerUIDLabel: cp.UID, jobControllerUIDLabel: cp.UID,
	} {
		if _, ok := cp.Spec.Template.Labels[key]; !ok {
			cp.Spec.Template.Labels[key] = value
		}
	}
	if cp.Spec.Selector == nil {
		cp.Spec.Selector = &api.LabelSelector{}
	}
	if cp.Spec.Selector.MatchLabels == nil {
		cp.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := cp.Spec.Selector.MatchLabels[jobControllerUIDLabel]; !ok {
		cp.Spec.Selector.MatchLabels[jobControllerUIDLabel] = cp.UID
	}
	return &cp, nil
}
