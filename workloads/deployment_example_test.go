package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The rolling update of the Kubernetes docs' Deployment walkthrough
// (concepts/workloads/controllers/deployment): nginx-deployment runs 3
// nginx:1.14.2 replicas with the default strategy, maxSurge and
// maxUnavailable 25 %. For 3 replicas maxSurge rounds up to 1 pod and
// maxUnavailable down to 0: at most 4 pods exist and at least 3 are
// available at any time. After `kubectl set image ... nginx=nginx:1.16.1`
// each sync moves one pod: the new ReplicaSet grows by one, and once its
// pod is available the old one shrinks by one. Here the ReplicaSet
// controller and the kubelets make every pod available between syncs.
func ExampleSyncDeployment_rollingUpdate() {
	replicas := int32(3)
	surge, unavailable := api.FromString("25%"), api.FromString("25%")
	limit, deadline := int32(10), int32(600)
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "dep-1", Generation: 1},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}},
			},
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			RevisionHistoryLimit:    &limit,
			ProgressDeadlineSeconds: &deadline,
		},
	}
	var rss []*api.ReplicaSet
	now := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

	// sync runs the Deployment controller once and does what it says, as
	// the API server would; then every ReplicaSet's pods come up.
	sync := func() workloads.DeploymentSync {
		res, err := workloads.SyncDeployment(d, rss, nil, workloads.DeploymentOptions{}, now)
		if err != nil {
			panic(err)
		}
		if rs := res.NewReplicaSet; rs != nil {
			rs.UID, rs.CreationTimestamp = "uid-"+rs.Name, api.NewTime(now)
			rss = append(rss, rs)
		}
		for _, u := range res.Updates {
			for i := range rss {
				if rss[i].Name == u.Name {
					u.ReplicaSet.Status = rss[i].Status
					rss[i] = u.ReplicaSet
				}
			}
		}
		d.Status = res.Status
		now = now.Add(10 * time.Second)
		return res
	}
	pods := func() string {
		s, total, available := "", int32(0), int32(0)
		for _, rs := range rss {
			n := *rs.Spec.Replicas
			s += fmt.Sprintf("%s=%d ", rs.Spec.Template.Spec.Containers[0].Image, n)
			total += n
			available += min(rs.Status.AvailableReplicas, n)
		}
		return fmt.Sprintf("%s(%d pods, %d available)", s, total, available)
	}
	podsComeUp := func() {
		for _, rs := range rss {
			n := *rs.Spec.Replicas
			rs.Status = api.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n}
		}
	}

	sync() // kubectl apply: the first ReplicaSet, with 3 replicas
	podsComeUp()
	sync()

	// kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.16.1"
	d.Generation++
	for range 8 {
		res := sync()
		fmt.Println(pods())
		podsComeUp()
		if res.Status.UpdatedReplicas == replicas && res.Status.Replicas == replicas {
			fmt.Println(d.Status.Conditions[len(d.Status.Conditions)-1].Reason)
			break
		}
	}
	// Output:
	// nginx:1.14.2=3 nginx:1.16.1=1 (4 pods, 3 available)
	// nginx:1.14.2=2 nginx:1.16.1=1 (3 pods, 3 available)
	// nginx:1.14.2=2 nginx:1.16.1=2 (4 pods, 3 available)
	// nginx:1.14.2=1 nginx:1.16.1=2 (3 pods, 3 available)
	// nginx:1.14.2=1 nginx:1.16.1=3 (4 pods, 3 available)
	// nginx:1.14.2=0 nginx:1.16.1=3 (3 pods, 3 available)
	// nginx:1.14.2=0 nginx:1.16.1=3 (3 pods, 3 available)
	// NewReplicaSetAvailable
}

// A rollout that makes no progress: the docs' "Failed Deployment". The
// new pod of nginx:1.161 (a typo) never becomes ready. The controller
// needs no ticking clock: NextDeadline says when the Progressing
// condition's progressDeadlineSeconds (here 600) runs out, and the step
// at that time reports ProgressDeadlineExceeded.
func ExampleDeploymentController() {
	replicas, deadline := int32(3), int32(600)
	surge, unavailable := api.FromString("25%"), api.FromString("25%")
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "dep-1", Generation: 2,
			Annotations: map[string]string{workloads.AnnotationDeploymentRevision: "2"}},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.161"}}},
			},
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			ProgressDeadlineSeconds: &deadline,
		},
	}
	// The old ReplicaSet runs 3 available pods; the controller created the
	// new one at 10:00 and has seen its pod, which never gets ready.
	t0 := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	d.Status = api.DeploymentStatus{
		WorkloadStatus:      api.WorkloadStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 1, ReadyReplicas: 3, AvailableReplicas: 3},
		UnavailableReplicas: 1,
		TerminatingReplicas: new(int32),
		Conditions: []api.WorkloadCondition{
			{Type: "Available", Status: api.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability.",
				LastUpdateTime: api.NewTime(t0), LastTransitionTime: api.NewTime(t0)},
			{Type: "Progressing", Status: api.ConditionTrue, Reason: "ReplicaSetUpdated", Message: `ReplicaSet "nginx-deployment-66b6c48dd5" is progressing.`,
				LastUpdateTime: api.NewTime(t0), LastTransitionTime: api.NewTime(t0)},
		},
	}
	rs := func(name, image string, n, available int32, rev string) *api.ReplicaSet {
		labels := map[string]string{"app": "nginx", workloads.LabelPodTemplateHash: name}
		return &api.ReplicaSet{
			ObjectMeta: api.ObjectMeta{Name: "nginx-deployment-" + name, Namespace: "default", UID: name,
				Labels: labels, Annotations: map[string]string{workloads.AnnotationDeploymentRevision: rev},
				OwnerReferences: []api.OwnerReference{workloads.NewControllerRef(&d.ObjectMeta, "apps/v1", "Deployment")}},
			Spec: api.ReplicaSetSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: image}}}}},
			Status: api.ReplicaSetStatus{Replicas: n, ReadyReplicas: available, AvailableReplicas: available},
		}
	}
	in := workloads.DeploymentInput{Deployment: d, ReplicaSets: []*api.ReplicaSet{
		rs("75675f5897", "nginx:1.14.2", 3, 3, "1"), rs("66b6c48dd5", "nginx:1.161", 1, 0, "2")}}

	var c workloads.DeploymentController
	res, _ := c.Step(in, t0.Add(30*time.Second))
	fmt.Println("status written:", res.StatusUpdated, "next check:", c.NextDeadline().Format(time.TimeOnly))
	res, _ = c.Step(in, c.NextDeadline())
	for _, cond := range res.Status.Conditions {
		fmt.Printf("%s=%s %s: %s\n", cond.Type, cond.Status, cond.Reason, cond.Message)
	}
	// Output:
	// status written: false next check: 10:10:01
	// Available=True MinimumReplicasAvailable: Deployment has minimum availability.
	// Progressing=False ProgressDeadlineExceeded: ReplicaSet "nginx-deployment-66b6c48dd5" has timed out progressing.
}

// A controller's informer hands the Deployment controller the pods of a
// Deployment's ReplicaSets, but only a Recreate rollout reads them (it
// waits until no old pod runs before it creates the new ReplicaSet): the
// default RollingUpdate strategy decides from the ReplicaSets' counts, so
// a caller can skip listing the pods.
func ExampleDeploymentReadsPods() {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "nginx-deployment", Namespace: "default"}}
	for _, strategy := range []api.DeploymentStrategyType{api.RollingUpdateDeploymentStrategyType, api.RecreateDeploymentStrategyType} {
		d.Spec.Strategy.Type = strategy
		fmt.Printf("%s reads pods: %v\n", strategy, workloads.DeploymentReadsPods(d))
	}
	// Output:
	// RollingUpdate reads pods: false
	// Recreate reads pods: true
}
