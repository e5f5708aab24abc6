package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

var lostAt = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// db-1 was deleted on a lost node and is stuck Terminating: the
// StatefulSet creates no second db-1, and under OrderedReady it waits.
func ExampleSyncStatefulSet() {
	replicas := int32(3)
	set := &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"},
		Spec:       api.StatefulSetSpec{Replicas: &replicas},
		Status:     api.StatefulSetStatus{CurrentRevision: "db-1a", UpdateRevision: "db-1a"},
	}
	pod := func(name string, terminating bool) *api.Pod {
		p := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{
				api.LabelStatefulSetPodName: name, api.LabelControllerRevisionHash: "db-1a"}},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
		}
		if terminating {
			p.DeletionTimestamp = api.NewTimePtr(lostAt)
		}
		return p
	}
	res, _ := workloads.SyncStatefulSet(set, []*api.Pod{pod("db-0", false), pod("db-1", true), pod("db-2", false)}, workloads.StatefulSetConfig{}, lostAt)
	fmt.Println(len(res.Actions), "actions; waits for", res.Wait.Pod, res.Wait.Reason)
	res, _ = workloads.SyncStatefulSet(set, []*api.Pod{pod("db-0", false), pod("db-2", false)}, workloads.StatefulSetConfig{}, lostAt)
	fmt.Println(res.Actions[0])
	// Output:
	// 0 actions; waits for db-1 terminating
	// Create db-1 (missing)
}
