package workloads_test

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// TestCronJobControllerProperties drives a CronJob through random syncs,
// finishes of its Jobs, suspensions and schedule changes, and checks what
// the cronjob controller promises:
//   - each run is created once: no Job name twice;
//   - a Job is created only for a time its schedule names, not after the
//     sync's now and not before the CronJob existed;
//   - Forbid and Replace never leave two unfinished Jobs;
//   - the key is never requeued for a time already past (no busy loop);
//   - status.active lists only Jobs that exist.
func TestCronJobControllerProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		schedules := []string{"* * * * *", "*/5 * * * *", "0 * * * *", "15,45 * * * *", "@every 90s", "30 9-17 * * 1-5"}
		created := time.Date(2026, 2, 27, 23, 58, rapid.IntRange(0, 59).Draw(t, "sec"), 0, time.UTC)
		cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", UID: "u", CreationTimestamp: api.NewTime(created)},
			Spec: api.CronJobSpec{Schedule: rapid.SampledFrom(schedules).Draw(t, "schedule"),
				ConcurrencyPolicy: rapid.SampledFrom([]string{api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent}).Draw(t, "policy")}}
		if rapid.Bool().Draw(t, "deadline") {
			d := int64(rapid.IntRange(0, 300).Draw(t, "deadlineSeconds"))
			cj.Spec.StartingDeadlineSeconds = &d
		}
		api.DefaultCronJob(cj)
		srv := &memJobs{cj: cj}
		var c workloads.CronJobController
		seen := map[string]bool{}
		now := created
		in := workloads.CronJobInput{Trigger: workloads.CronJobChanged}
		for step := 0; step < 40; step++ {
			switch rapid.IntRange(0, 5).Draw(t, "event") {
			case 0: // a Job finishes
				var running []*api.Job
				for _, j := range srv.jobs {
					if !finished(j) {
						running = append(running, j)
					}
				}
				if len(running) > 0 {
					j := rapid.SampledFrom(running).Draw(t, "finish")
					typ := rapid.SampledFrom([]string{workloads.JobConditionComplete, workloads.JobConditionFailed}).Draw(t, "outcome")
					j.Status.Conditions = append(j.Status.Conditions, api.WorkloadCondition{Type: typ, Status: api.ConditionTrue})
					if typ == workloads.JobConditionComplete {
						j.Status.CompletionTime = api.NewTimePtr(now)
					}
					in.Trigger = workloads.CronJobChanged
				}
			case 1: // suspend or resume, or a new schedule
				n := srv.cj.DeepCopy()
				if rapid.Bool().Draw(t, "toggle") {
					s := !*n.Spec.Suspend
					n.Spec.Suspend = &s
				} else {
					n.Spec.Schedule = rapid.SampledFrom(schedules).Draw(t, "newSchedule")
				}
				in.Trigger, in.Old = workloads.CronJobUpdated, srv.cj
				srv.cj = n
			default: // time passes to the next deadline, or a while
				if d := c.NextDeadline(); !d.IsZero() && rapid.Bool().Draw(t, "toDeadline") {
					now = d
				} else {
					now = now.Add(time.Duration(rapid.IntRange(1, 600).Draw(t, "wait")) * time.Second)
				}
			}
			before := len(srv.jobs)
			in.CronJob, in.Jobs, in.Client = srv.cj, slices.Clone(srv.jobs), srv
			out, err := c.Step(in, now)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range out.Events {
				t.Logf("%v %s %s", now, e.Reason, e.Note)
			}
			t.Logf("%v status %v next %v", now, out.Status.Active, c.NextDeadline())
			in = workloads.CronJobInput{}
			if out.StatusChanged {
				n := *srv.cj
				n.Status = out.Status
				srv.cj = &n
			}
			if d := c.NextDeadline(); !d.IsZero() && !d.After(now) {
				t.Fatalf("requeued for %v at %v", d, now)
			}
			sched, err := api.ParseCronSchedule(srv.cj.Spec.Schedule)
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range srv.jobs[min(before, len(srv.jobs)):] {
				if seen[j.Name] {
					t.Fatalf("job %s created twice", j.Name)
				}
				seen[j.Name] = true
				at, err := time.Parse(time.RFC3339, j.Annotations[api.AnnotationCronJobScheduledTimestamp])
				if err != nil {
					t.Fatal(err)
				}
				every := srv.cj.Spec.Schedule[0] == '@' // @every counts from the last run, not the clock
				if at.After(now) || at.Before(created) || !every && !sched.Next(at.Add(-time.Second), time.UTC).Equal(at) {
					t.Fatalf("job %s for %v at %v (schedule %q, created %v)", j.Name, at, now, srv.cj.Spec.Schedule, created)
				}
			}
			if p := srv.cj.Spec.ConcurrencyPolicy; p != api.AllowConcurrent {
				running := 0
				for _, j := range srv.jobs {
					if !finished(j) {
						running++
					}
				}
				if running > 1 {
					t.Fatalf("%s: %d unfinished jobs", p, running)
				}
			}
			for _, r := range srv.cj.Status.Active {
				if _, err := srv.GetJob(r.Namespace, r.Name); err != nil {
					t.Fatalf("active %s: %v", r.Name, err)
				}
			}
		}
	})
}

func finished(j *api.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == workloads.JobConditionComplete || c.Type == workloads.JobConditionFailed) && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}
