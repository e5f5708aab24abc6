package workloads_test

import (
	"errors"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
	"pgregory.net/rapid"
)

var ttlT0 = time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)

// finishedJob is a Job finished (condition typ True) at finished, with
// ttl (nil: none).
func finishedJob(typ string, finished time.Time, ttl *int32) *api.Job {
	return &api.Job{ObjectMeta: api.ObjectMeta{Name: "batch", Namespace: "default", UID: "uid-batch"},
		Spec: api.JobSpec{TTLSecondsAfterFinished: ttl},
		Status: api.JobStatus{Conditions: []api.WorkloadCondition{
			{Type: typ, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(finished)}}}}
}

// TestTTLAfterFinishedController: a Job that finished with a TTL is
// deleted once the TTL has run out from its finish time, not before; the
// controller asks to look again at the expiry and keeps that time across
// looks in between; a Job without a TTL, not finished, or being deleted is
// left alone; a finished Job without a finish time is an error.
func TestTTLAfterFinishedController(t *testing.T) {
	ttl := int32(30)
	var c workloads.TTLAfterFinishedController
	job := finishedJob(workloads.JobConditionFailed, ttlT0, &ttl)
	for _, s := range []struct {
		at     time.Duration
		delete bool
		next   time.Duration
	}{
		{5 * time.Second, false, 30 * time.Second},
		{20 * time.Second, false, 30 * time.Second},
		{30 * time.Second, true, 0},
	} {
		r, err := c.Step(job, ttlT0.Add(s.at))
		if err != nil {
			t.Fatal(err)
		}
		var next time.Duration
		if d := c.NextDeadline(); !d.IsZero() {
			next = d.Sub(ttlT0)
		}
		if r.Delete != s.delete || next != s.next || !r.ExpireAt.Equal(ttlT0.Add(30*time.Second)) {
			t.Errorf("at %v: %+v, next %v; want delete %v, next %v", s.at, r, next, s.delete, s.next)
		}
	}
	zero := int32(0)
	if r, _ := new(workloads.TTLAfterFinishedController).Step(finishedJob(workloads.JobConditionComplete, ttlT0, &zero), ttlT0); !r.Delete {
		t.Errorf("ttl 0: %+v, want deleted at once", r)
	}
	running := finishedJob(workloads.JobConditionComplete, ttlT0, &ttl)
	running.Status.Conditions[0].Status = api.ConditionFalse
	deleting := finishedJob(workloads.JobConditionComplete, ttlT0, &ttl)
	deleting.DeletionTimestamp = api.NewTimePtr(ttlT0)
	for name, j := range map[string]*api.Job{"no ttl": finishedJob(workloads.JobConditionComplete, ttlT0, nil), "running": running, "deleting": deleting} {
		var c workloads.TTLAfterFinishedController
		if r, err := c.Step(j, ttlT0.Add(time.Hour)); err != nil || r != (workloads.TTLAfterFinishedSync{}) || !c.NextDeadline().IsZero() {
			t.Errorf("%s: %+v %v, next %v; want nothing", name, r, err, c.NextDeadline())
		}
	}
	if _, err := new(workloads.TTLAfterFinishedController).Step(finishedJob(workloads.JobConditionComplete, time.Time{}, &ttl), ttlT0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("no finish time: %v", err)
	}
}

// TestTTLAfterFinishedProperties: over random finish times, TTLs and
// look times, the controller deletes exactly when the look comes at or
// after finish + ttl, and otherwise asks to look again no later than then.
func TestTTLAfterFinishedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ttl := rapid.Int32Range(0, 3600).Draw(t, "ttl")
		finished := ttlT0.Add(time.Duration(rapid.Int64Range(0, 3600).Draw(t, "finished")) * time.Second)
		job := finishedJob(rapid.SampledFrom([]string{workloads.JobConditionComplete, workloads.JobConditionFailed}).Draw(t, "type"), finished, &ttl)
		expire := finished.Add(time.Duration(ttl) * time.Second)
		var c workloads.TTLAfterFinishedController
		looks := rapid.SliceOfN(rapid.Int64Range(0, 8000), 1, 6).Draw(t, "looks")
		last := ttlT0
		for _, l := range looks {
			now := last.Add(time.Duration(l) * time.Second)
			last = now
			r, err := c.Step(job, now)
			if err != nil {
				t.Fatal(err)
			}
			if r.Delete != !now.Before(expire) {
				t.Fatalf("look at %v, expiry %v: delete %v", now, expire, r.Delete)
			}
			if !r.Delete && (c.NextDeadline().IsZero() || c.NextDeadline().After(expire)) {
				t.Fatalf("look at %v, expiry %v: next look %v", now, expire, c.NextDeadline())
			}
		}
	})
}
