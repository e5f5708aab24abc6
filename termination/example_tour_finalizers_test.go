package termination_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// A pod with a finalizer of its own is deleted: the API server marks it,
// and once the kubelet's final DELETE (grace 0) finds the finalizer, the
// pod stays until its controller removes it. No finalizer may be added in
// the meantime.
func ExampleUpdateFinalizers_deletion() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "default", UID: "u1", ResourceVersion: "7",
			Finalizers: []string{"example.com/backup"}},
		Spec:   api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "db", Image: "postgres:17"}}},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
	api.DefaultPod(pod)
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	zero := int64(0)
	for _, opts := range []*api.DeleteOptions{{}, {GracePeriodSeconds: &zero}} {
		d, err := termination.APIServerGrace(pod, opts, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("DELETE:", d.Outcome, d.Finalizers)
		pod, now = d.Apply(pod), now.Add(12*time.Second)
	}
	_, err := termination.UpdateFinalizers(pod, []string{"example.com/backup", "example.com/audit"})
	fmt.Println("adding one:", err)
	u, err := termination.UpdateFinalizers(pod, nil)
	fmt.Println("removing the last one: removed", u.Removed, err)
	// Output:
	// DELETE: Graceful [example.com/backup]
	// DELETE: AwaitingFinalizers [example.com/backup]
	// adding one: Pod "db-0" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/audit"}
	// removing the last one: removed true <nil>
}
