package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

var rsNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// frontend is the Kubernetes docs' ReplicaSet (tier: frontend), stored
// with its uid.
func frontend(replicas int32) *api.ReplicaSet {
	labels := map[string]string{"tier": "frontend"}
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "frontend", Namespace: "default", UID: "uid-frontend", Generation: 2},
		Spec: api.ReplicaSetSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}}},
	}
}

// frontendPod is a running pod of frontend on node, Ready since readyFor
// ago (not ready when 0).
func frontendPod(name, node string, readyFor time.Duration) *api.Pod {
	yes := true
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
			Labels:            map[string]string{"tier": "frontend"},
			CreationTimestamp: api.NewTime(rsNow.Add(-4 * time.Hour)),
			OwnerReferences:   []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "frontend", UID: "uid-frontend", Controller: &yes}}},
		Spec:   api.PodSpec{NodeName: node},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}},
	}
	if readyFor > 0 {
		p.Status.Conditions[0] = api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(rsNow.Add(-readyFor))}
	}
	return p
}

// Scaling the frontend ReplicaSet down from 5 to 3 (kubectl scale rs
// frontend --replicas=3): which two pods go, and why. The controller
// deletes first what costs least to lose: a pod that is not ready, then
// the pod that became ready most recently (ready times are compared on a
// logarithmic scale, so 10 minutes beats 2 hours, while 2 and 3 hours
// would be a tie broken by uid). A pod-deletion-cost annotation keeps a
// pod to the end, whatever its age.
func ExampleSyncReplicaSet() {
	pods := []*api.Pod{
		frontendPod("frontend-b2zdv", "node-1", 2*time.Hour),
		frontendPod("frontend-vcmts", "node-2", 10*time.Minute),
		frontendPod("frontend-wtsmm", "node-3", 0),
		frontendPod("frontend-k8x4p", "node-1", 2*time.Hour),
		frontendPod("frontend-q9r7d", "node-2", 3*time.Hour),
	}
	pods[3].Annotations = map[string]string{workloads.AnnotationPodDeletionCost: "100"}

	res, err := workloads.SyncReplicaSet(workloads.ReplicaSetInput{ReplicaSet: frontend(3), Pods: pods}, workloads.ReplicaSetExpectations{}, rsNow)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range res.Delete {
		fmt.Println("delete", p.Name)
	}
	st := res.Status
	fmt.Printf("status: replicas %d, ready %d, available %d (counted before the deletes)\n", st.Replicas, st.ReadyReplicas, st.AvailableReplicas)
	fmt.Printf("waiting to observe %d deletions\n", res.Expectations.Del)

	// The whole ranking, first victim first.
	workloads.RankPodsForDeletion(pods, nil, rsNow)
	for _, p := range pods {
		fmt.Print(p.Name, " ")
	}
	fmt.Println()
	// Output:
	// delete frontend-wtsmm
	// delete frontend-vcmts
	// status: replicas 5, ready 4, available 4 (counted before the deletes)
	// waiting to observe 2 deletions
	// frontend-wtsmm frontend-vcmts frontend-b2zdv frontend-q9r7d frontend-k8x4p
}

// A pod that happens to match the selector but belongs to another
// controller is not a replica; an orphan with the right labels is adopted
// (the controller patches its ownerReference on) and counts at once.
func ExampleSyncReplicaSet_ownership() {
	stray := frontendPod("frontend-job-x1", "node-1", time.Hour)
	yes := true
	stray.OwnerReferences = []api.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "batch", UID: "uid-batch", Controller: &yes}}
	orphan := frontendPod("frontend-manual", "node-2", time.Hour)
	orphan.OwnerReferences = nil

	in := workloads.ReplicaSetInput{ReplicaSet: frontend(3), Pods: []*api.Pod{frontendPod("frontend-b2zdv", "node-1", time.Hour), stray}}
	res, _ := workloads.SyncReplicaSet(in, workloads.ReplicaSetExpectations{}, rsNow)
	fmt.Printf("replicas %d: create %d pods named %q\n", res.Status.Replicas, res.Created, res.NewPod.GenerateName)

	in.Pods = append(in.Pods, orphan)
	res, _ = workloads.SyncReplicaSet(in, workloads.ReplicaSetExpectations{}, rsNow)
	fmt.Printf("adopt %s; replicas %d: create %d\n", res.Adopted[0].Name, res.Status.Replicas, res.Created)
	refs := workloads.AdoptOwnerReferences(orphan.OwnerReferences, workloads.NewControllerRef(&in.ReplicaSet.ObjectMeta, "apps/v1", "ReplicaSet"))
	fmt.Printf("%s now controlled by %s %s\n", orphan.Name, refs[0].Kind, refs[0].Name)
	// Output:
	// replicas 1: create 2 pods named "frontend-"
	// adopt frontend-manual; replicas 2: create 1
	// frontend-manual now controlled by ReplicaSet frontend
}

// The controller as a state machine: it creates 3 pods, then waits to see
// them (expectations) before it acts again; with minReadySeconds it asks
// to be stepped again when the pods become available.
func ExampleReplicaSetController() {
	rs := frontend(3)
	rs.Spec.MinReadySeconds = 10
	var c workloads.ReplicaSetController
	res, _ := c.Step(workloads.ReplicaSetInput{ReplicaSet: rs}, rsNow)
	fmt.Println("t=0s created", res.Created)
	res, _ = c.Step(workloads.ReplicaSetInput{ReplicaSet: rs}, rsNow.Add(time.Second))
	fmt.Println("t=1s managed:", res.Managed, "waiting for", res.Expectations.Add, "creations")

	// The three pods appear and are Ready at t=2s.
	var pods []*api.Pod
	for _, n := range []string{"frontend-a", "frontend-b", "frontend-c"} {
		p := frontendPod(n, "node-1", 0)
		p.CreationTimestamp = api.NewTime(rsNow)
		p.Status.Conditions[0] = api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(rsNow.Add(2 * time.Second))}
		pods = append(pods, p)
	}
	res, _ = c.Step(workloads.ReplicaSetInput{ReplicaSet: rs, Pods: pods}, rsNow.Add(2*time.Second))
	fmt.Printf("t=2s ready %d, available %d, step again at t=%s\n", res.Status.ReadyReplicas, res.Status.AvailableReplicas, c.NextDeadline().Sub(rsNow))
	rs.Status = res.Status
	res, _ = c.Step(workloads.ReplicaSetInput{ReplicaSet: rs, Pods: pods}, c.NextDeadline())
	fmt.Printf("t=12s available %d\n", res.Status.AvailableReplicas)
	// Output:
	// t=0s created 3
	// t=1s managed: false waiting for 3 creations
	// t=2s ready 3, available 0, step again at t=12s
	// t=12s available 3
}
