package workloads_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// benchDeployment is a 10,000-replica Deployment (25 %/25 %) with a
// ReplicaSet per image given; each ReplicaSet has the replicas and
// available pods given.
func benchDeployment(replicas int32, image string, sets ...benchRS) (*api.Deployment, []*api.ReplicaSet) {
	d := newDeployment("web", replicas, image, api.FromString("25%"), api.FromString("25%"))
	d.Annotations = map[string]string{workloads.AnnotationDeploymentRevision: strconv.Itoa(len(sets))}
	t := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	var rss []*api.ReplicaSet
	for i, s := range sets {
		hash := "h" + strconv.Itoa(i)
		tmpl := d.Spec.Template
		tmpl.Labels = map[string]string{"app": "web", workloads.LabelPodTemplateHash: hash}
		tmpl.Spec.Containers = []api.Container{{Name: "web", Image: s.image}}
		n, zero := s.replicas, int32(0)
		rss = append(rss, &api.ReplicaSet{
			ObjectMeta: api.ObjectMeta{Name: "web-" + hash, Namespace: "default", UID: "uid-" + hash, Generation: 1,
				CreationTimestamp: api.NewTime(t.Add(time.Duration(i) * time.Minute)),
				Labels:            tmpl.Labels,
				Annotations: map[string]string{workloads.AnnotationDeploymentRevision: strconv.Itoa(i + 1),
					workloads.AnnotationDeploymentDesiredReplicas: strconv.Itoa(int(replicas)),
					workloads.AnnotationDeploymentMaxReplicas:     strconv.Itoa(int(replicas + replicas/4))},
				OwnerReferences: []api.OwnerReference{workloads.NewControllerRef(&d.ObjectMeta, "apps/v1", "Deployment")}},
			Spec: api.ReplicaSetSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: tmpl.Labels}, Template: tmpl},
			Status: api.ReplicaSetStatus{Replicas: n, ReadyReplicas: s.available, AvailableReplicas: s.available,
				TerminatingReplicas: &zero, ObservedGeneration: 1},
		})
	}
	return d, rss
}

type benchRS struct {
	image               string
	replicas, available int32
}

// BenchmarkSyncDeployment is one sync of a 10,000-replica Deployment: the
// sync that creates the new ReplicaSet of a rollout, one in the middle of
// it (scale the old ReplicaSet down), the steady state, and a Recreate
// rollout looking through 10,000 finished pods of the old ReplicaSet. The
// cost does not grow with the replicas (the sync reads ReplicaSets, not
// pods), except Recreate's single pass over the pods, which allocates
// nothing per pod.
func BenchmarkSyncDeployment(b *testing.B) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	run := func(b *testing.B, d *api.Deployment, rss []*api.ReplicaSet, pods []*api.Pod) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := workloads.SyncDeployment(d, rss, pods, workloads.DeploymentOptions{}, now); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("rollout-start-10000", func(b *testing.B) {
		d, rss := benchDeployment(10000, "web:2", benchRS{"web:1", 10000, 10000})
		run(b, d, rss, nil)
	})
	b.Run("rollout-middle-10000", func(b *testing.B) {
		d, rss := benchDeployment(10000, "web:2", benchRS{"web:1", 7500, 7500}, benchRS{"web:2", 5000, 5000})
		run(b, d, rss, nil)
	})
	b.Run("steady-10000", func(b *testing.B) {
		d, rss := benchDeployment(10000, "web:2", benchRS{"web:1", 0, 0}, benchRS{"web:2", 10000, 10000})
		run(b, d, rss, nil)
	})
	b.Run("recreate-10000-pods", func(b *testing.B) {
		d, rss := benchDeployment(10000, "web:2", benchRS{"web:1", 0, 0})
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
		ref := workloads.NewControllerRef(&rss[0].ObjectMeta, "apps/v1", "ReplicaSet")
		pods := make([]*api.Pod, 10000)
		for i := range pods {
			pods[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-h0-" + strconv.Itoa(i), Namespace: "default",
				Labels: rss[0].Spec.Template.Labels, OwnerReferences: []api.OwnerReference{ref}},
				Status: api.PodStatus{Phase: api.PodSucceeded}}
		}
		pods[len(pods)-1].Status.Phase = api.PodRunning // the last one still runs: the new ReplicaSet waits
		run(b, d, rss, pods)
	})
}
