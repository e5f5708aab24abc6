package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// A Job that failed at 10:00:00 with ttlSecondsAfterFinished 100: the
// ttl-after-finished controller waits out the TTL, then deletes it
// (foreground, so its pods go first).
func ExampleTTLAfterFinishedController() {
	failed := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	ttl := int32(100)
	job := &api.Job{ObjectMeta: api.ObjectMeta{Name: "report", Namespace: "default", UID: "u1"},
		Spec: api.JobSpec{TTLSecondsAfterFinished: &ttl},
		Status: api.JobStatus{Conditions: []api.WorkloadCondition{
			{Type: workloads.JobConditionFailed, Status: api.ConditionTrue, Reason: "DeadlineExceeded", LastTransitionTime: api.NewTime(failed)}}}}
	var c workloads.TTLAfterFinishedController
	for _, now := range []time.Time{failed, failed.Add(100 * time.Second)} {
		r, err := c.Step(job, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s delete=%v expires %s next look %s\n", now.Format(time.TimeOnly), r.Delete, r.ExpireAt.Format(time.TimeOnly), c.NextDeadline().Format(time.TimeOnly))
	}
	// Output:
	// 10:00:00 delete=false expires 10:01:40 next look 10:01:40
	// 10:01:40 delete=true expires 10:01:40 next look 00:00:00
}
