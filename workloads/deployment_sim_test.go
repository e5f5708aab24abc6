package workloads_test

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// depCluster is the little world the Deployment examples, properties,
// stories and benchmarks drive SyncDeployment in: the API server applies
// the sync's writes, and settle plays the ReplicaSet controller and the
// kubelets (each ReplicaSet runs spec.replicas pods, of which the ready
// ones count as available).
type depCluster struct {
	d   *api.Deployment
	rss []*api.ReplicaSet
	now time.Time
}

// newDeployment is a RollingUpdate Deployment as the API server stores it
// (defaults applied).
func newDeployment(name string, replicas int32, image string, surge, unavailable api.IntOrString) *api.Deployment {
	limit, deadline := int32(10), int32(600)
	labels := map[string]string{"app": name}
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Generation: 1},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: name, Image: image}}},
			},
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			RevisionHistoryLimit:    &limit,
			ProgressDeadlineSeconds: &deadline,
		},
	}
}

// sync runs one sync and applies its writes.
func (c *depCluster) sync(opts workloads.DeploymentOptions) (workloads.DeploymentSync, error) {
	res, err := workloads.SyncDeployment(c.d, c.rss, nil, opts, c.now)
	c.apply(res)
	return res, err
}

// apply writes a sync's result as the API server would.
func (c *depCluster) apply(res workloads.DeploymentSync) {
	for _, name := range res.Adopted {
		if rs := c.get(name); rs != nil {
			ref := workloads.NewControllerRef(&c.d.ObjectMeta, "apps/v1", "Deployment")
			rs.OwnerReferences = workloads.AdoptOwnerReferences(rs.OwnerReferences, ref)
		}
	}
	if rs := res.NewReplicaSet; rs != nil {
		created := *rs
		created.UID = "uid-" + rs.Name
		created.CreationTimestamp = api.NewTime(c.now)
		created.Generation = 1
		c.rss = append(c.rss, &created)
	}
	for _, u := range res.Updates {
		for i, rs := range c.rss {
			if rs.Name == u.Name {
				w := *u.ReplicaSet
				w.Status = rs.Status
				if *w.Spec.Replicas != *rs.Spec.Replicas || w.Spec.MinReadySeconds != rs.Spec.MinReadySeconds {
					w.Generation = rs.Generation + 1
				}
				c.rss[i] = &w
			}
		}
	}
	c.rss = slices.DeleteFunc(c.rss, func(rs *api.ReplicaSet) bool { return slices.Contains(res.Deleted, rs.Name) })
	if res.StatusUpdated {
		c.d.Status = res.Status
		if c.d.Annotations == nil {
			c.d.Annotations = map[string]string{}
		}
		c.d.Annotations[workloads.AnnotationDeploymentRevision] = res.Revision
	}
}

func (c *depCluster) get(name string) *api.ReplicaSet {
	for _, rs := range c.rss {
		if rs.Name == name {
			return rs
		}
	}
	return nil
}

// settle lets every ReplicaSet reach spec.replicas pods; ready(rs) says
// whether its new pods have become ready (and available) yet. Pods
// removed by a scale-down are gone at once.
func (c *depCluster) settle(ready func(*api.ReplicaSet) bool) {
	zero := int32(0)
	for i, rs := range c.rss {
		w := *rs
		spec := *rs.Spec.Replicas
		avail := min(rs.Status.AvailableReplicas, spec)
		if ready == nil || ready(rs) {
			avail = spec
		}
		w.Status = api.ReplicaSetStatus{Replicas: spec, FullyLabeledReplicas: spec, ReadyReplicas: avail, AvailableReplicas: avail,
			TerminatingReplicas: &zero, ObservedGeneration: rs.Generation}
		c.rss[i] = &w
	}
}

// newRS is the ReplicaSet whose template is the Deployment's.
func (c *depCluster) isNew(rs *api.ReplicaSet) bool {
	return rs.Spec.Template.Spec.Containers[0].Image == c.d.Spec.Template.Spec.Containers[0].Image
}

// pods sums spec.replicas (the pods that exist once the ReplicaSet
// controller acted) and the available pods, which a scale-down takes
// away at once.
func (c *depCluster) pods() (total, available int32) {
	for _, rs := range c.rss {
		total += *rs.Spec.Replicas
		available += min(rs.Status.AvailableReplicas, *rs.Spec.Replicas)
	}
	return total, available
}

// describe renders the ReplicaSets as "new 1/1, old 3/3" (spec/available),
// the new one first, old ones newest first.
func (c *depCluster) describe() string {
	rss := slices.Clone(c.rss)
	slices.SortFunc(rss, func(a, b *api.ReplicaSet) int {
		if c.isNew(a) != c.isNew(b) {
			if c.isNew(a) {
				return -1
			}
			return 1
		}
		return b.CreationTimestamp.Compare(a.CreationTimestamp.Time)
	})
	parts := make([]string, 0, len(rss))
	for _, rs := range rss {
		kind := "old"
		if c.isNew(rs) {
			kind = "new"
		}
		parts = append(parts, fmt.Sprintf("%s %s %d/%d", kind, rs.Spec.Template.Spec.Containers[0].Image, *rs.Spec.Replicas, min(rs.Status.AvailableReplicas, *rs.Spec.Replicas)))
	}
	return strings.Join(parts, ", ")
}

// progressing is the Progressing condition as "True/ReplicaSetUpdated".
func progressing(st api.DeploymentStatus) string {
	for _, c := range st.Conditions {
		if c.Type == workloads.DeploymentProgressing {
			return string(c.Status) + "/" + c.Reason
		}
	}
	return "-"
}
