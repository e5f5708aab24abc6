package workloads_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// memJobs is an API server holding Jobs in memory, enough for the
// cronjob controller's calls.
type memJobs struct {
	cj   *api.CronJob
	jobs []*api.Job
	uids int
}

func (m *memJobs) GetCronJob(ns, name string) (*api.CronJob, error) { return m.cj, nil }
func (m *memJobs) GetJob(ns, name string) (*api.Job, error) {
	for _, j := range m.jobs {
		if j.Name == name {
			return j, nil
		}
	}
	return nil, fmt.Errorf("jobs.batch %q %w", name, workloads.ErrNotFound)
}
func (m *memJobs) CreateJob(job *api.Job) (*api.Job, error) {
	j := job.DeepCopy()
	m.uids++
	j.UID = fmt.Sprint("uid-", m.uids)
	m.jobs = append(m.jobs, j)
	return j, nil
}
func (m *memJobs) DeleteJob(ns, name string) error {
	for i, j := range m.jobs {
		if j.Name == name {
			m.jobs = append(m.jobs[:i], m.jobs[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("jobs.batch %q %w", name, workloads.ErrNotFound)
}

// A CronJob created at 10:00:30 to run every minute with
// concurrencyPolicy Replace: the controller's first sync waits for
// 10:01:00 (plus its 100 ms); then each minute it deletes the running Job
// and creates the next, named after the minute.
func ExampleCronJobController() {
	created := time.Date(2026, 1, 1, 10, 0, 30, 0, time.UTC)
	cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "tick", Namespace: "default", UID: "u1", CreationTimestamp: api.NewTime(created)},
		Spec: api.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: api.ReplaceConcurrent}}
	api.DefaultCronJob(cj)
	apiServer := &memJobs{cj: cj}
	var c workloads.CronJobController
	in := workloads.CronJobInput{Trigger: workloads.CronJobChanged}
	for now := created; now.Before(created.Add(3 * time.Minute)); now = c.NextDeadline() {
		in.CronJob, in.Jobs, in.Client = apiServer.cj, apiServer.jobs, apiServer
		out, err := c.Step(in, now)
		if err != nil {
			fmt.Println(err)
			return
		}
		in.Trigger = workloads.CronJobDue
		for _, e := range out.Events {
			fmt.Printf("%s %s: %s\n", now.Format("15:04:05.0"), e.Reason, e.Note)
		}
		if out.StatusChanged {
			n := *apiServer.cj
			n.Status = out.Status
			apiServer.cj = &n
		}
		fmt.Printf("%s next sync %s\n", now.Format("15:04:05.0"), c.NextDeadline().Format("15:04:05.0"))
	}
	// Output:
	// 10:00:30.0 next sync 10:01:00.1
	// 10:01:00.1 SuccessfulCreate: Created job tick-29454361
	// 10:01:00.1 next sync 10:02:00.1
	// 10:02:00.1 SuccessfulDelete: Deleted job tick-29454361
	// 10:02:00.1 SuccessfulCreate: Created job tick-29454362
	// 10:02:00.1 next sync 10:03:00.1
	// 10:03:00.1 SuccessfulDelete: Deleted job tick-29454362
	// 10:03:00.1 SuccessfulCreate: Created job tick-29454363
	// 10:03:00.1 next sync 10:04:00.1
}
