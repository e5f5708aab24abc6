package workloads

import (
	"testing"

	"github.com/podsem/podsem/api"
)

func eventReasons(events []api.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Reason+": "+e.Note)
	}
	return out
}

// The Job controller records Suspended when a Job's suspend takes effect
// and Resumed when it is lifted (pkg/controller/job syncJob).
func TestJobSuspendEvents(t *testing.T) {
	yes, no := true, false
	suspended := testJob(func(j *api.Job) { j.Spec.Suspend = &yes })
	res, err := SyncJob(suspended, nil, JobConfig{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventReasons(res.Events); len(got) != 1 || got[0] != "Suspended: Job suspended" {
		t.Fatalf("suspend: %v", got)
	}
	resumed := testJob(func(j *api.Job) {
		j.Spec.Suspend = &no
		j.Status.Conditions = res.Status.Conditions
	})
	res, err = SyncJob(resumed, nil, JobConfig{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventReasons(res.Events); len(got) != 1 || got[0] != "Resumed: Job resumed" {
		t.Fatalf("resume: %v", got)
	}
	if e := res.Events[0]; e.Source != JobControllerName || e.Regarding.Kind != "Job" || e.Regarding.Name != "j" {
		t.Errorf("event %+v", e)
	}
}

// A StatefulSet's first sync creates web-0 and records it on the set.
func TestSyncEvents(t *testing.T) {
	one := int32(1)
	set := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"},
		Spec: api.StatefulSetSpec{Replicas: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}}}}}
	res, err := ReconcileStatefulSet(StatefulSetInput{Set: set}, StatefulSetConfig{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventReasons(res.Events); len(got) != 1 || got[0] != "SuccessfulCreate: Create Pod web-0 in StatefulSet web successful" {
		t.Fatalf("statefulset: %v", got)
	}
}
