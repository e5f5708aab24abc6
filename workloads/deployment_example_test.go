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
