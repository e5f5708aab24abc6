package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// `kubectl scale rs frontend --replicas=1`: the ReplicaSet controller
// deletes first the pods that cost least to lose, the one not ready, then
// the one ready most recently, and keeps the pod ready longest.
func ExampleSyncReplicaSet_scaleDown() {
	now, yes, one := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), true, int32(1)
	labels := map[string]string{"tier": "frontend"}
	rs := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "frontend", Namespace: "default", UID: "uid-frontend"},
		Spec: api.ReplicaSetSpec{Replicas: &one, Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}}},
	}
	pod := func(name string, ready api.ConditionStatus, since time.Duration) *api.Pod {
		return &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: labels,
				OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "frontend", UID: "uid-frontend", Controller: &yes}}},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
				{Type: api.PodReady, Status: ready, LastTransitionTime: api.NewTime(now.Add(-since))}}},
		}
	}
	pods := []*api.Pod{pod("frontend-b2zdv", api.ConditionTrue, 2*time.Hour),
		pod("frontend-vcmts", api.ConditionTrue, 10*time.Minute), pod("frontend-wtsmm", api.ConditionFalse, time.Minute)}
	res, err := workloads.SyncReplicaSet(workloads.ReplicaSetInput{ReplicaSet: rs, Pods: pods}, workloads.ReplicaSetExpectations{}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range res.Delete {
		fmt.Println("delete", p.Name)
	}
	// Output:
	// delete frontend-wtsmm
	// delete frontend-vcmts
}
