package cluster

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The cronjob controller of kube-controller-manager
// (pkg/controller/cronjob), a workloads.CronJobController per CronJob. Its
// informer handlers queue a CronJob at once when it is added or deleted,
// or one of its Jobs (a Job whose controller reference resolves to it:
// same name and uid) is added, updated or deleted; an update of the
// CronJob queues it for its next scheduled time when the schedule or time
// zone changed, at once otherwise. Its syncs call the API server live
// (cronClient), write the CronJob's status and record its Events.

// cronTrigger is what the informers saw of one CronJob since its last
// step: changed (queue now), or the version before an update.
type cronTrigger struct {
	changed bool
	old     *api.CronJob
}

// cronDeliver is the cronjob controller's informer event handlers.
func (m *Machine) cronDeliver(w watchEvent) {
	a := &m.apps
	switch o := w.Object.(type) {
	case *api.CronJob:
		t := a.cronDirty[w.Key]
		if w.Type == watchModified && !t.changed {
			if t.old == nil {
				t.old, _ = w.Old.(*api.CronJob)
			}
		} else {
			t.changed = true
		}
		a.cronDirty[w.Key] = t
	case *api.Job:
		refs := []*api.OwnerReference{o.ControllerRef()}
		if old, ok := w.Old.(*api.Job); ok {
			if r := old.ControllerRef(); r != nil && (refs[0] == nil || r.UID != refs[0].UID || r.Name != refs[0].Name) {
				refs = append(refs, r)
			}
		}
		for _, r := range refs {
			if r == nil || r.Kind != "CronJob" {
				continue
			}
			key := o.Namespace + "/" + r.Name
			if cj, _ := m.cache.get("CronJob", key).(*api.CronJob); cj != nil && cj.UID == r.UID {
				t := a.cronDirty[key]
				t.changed = true
				a.cronDirty[key] = t
			}
		}
	}
}

// runCronJobs steps the CronJobs the informers saw change and those whose
// queue time has come, in key order.
func (m *Machine) runCronJobs(now time.Time) error {
	a := &m.apps
	keys := make([]string, 0, len(a.cronDirty))
	for k := range a.cronDirty {
		keys = append(keys, k)
	}
	for k, c := range a.cron {
		if d := c.NextDeadline(); !d.IsZero() && !d.After(now) {
			if _, ok := a.cronDirty[k]; !ok {
				keys = append(keys, k)
			}
		}
	}
	dirty := a.cronDirty
	a.cronDirty = map[string]cronTrigger{}
	slices.Sort(keys)
	for _, key := range keys {
		obj := m.cache.get("CronJob", key)
		c, ok := machineFor(m, "CronJob", key, obj, a.cron, func() *workloads.CronJobController { return new(workloads.CronJobController) })
		if !ok {
			continue
		}
		cj := obj.(*api.CronJob)
		in := workloads.CronJobInput{CronJob: cj, Jobs: inNamespace[*api.Job](m.cache, "Job", cj.Namespace),
			Client: cronClient{m: m, now: now}, LoadLocation: m.cfg.LoadLocation}
		if t, ok := dirty[key]; ok {
			in.Trigger, in.Old = workloads.CronJobUpdated, t.old
			if t.changed {
				in.Trigger, in.Old = workloads.CronJobChanged, nil
			}
		}
		sync, err := stepMachine(m, workloads.CronJobControllerName, key, c, in, now)
		if err != nil {
			m.rec.scenario(now, "Warning", "SyncFailed", objRef("CronJob", cj.Namespace, cj.Name), err.Error())
			continue
		}
		if sync.StatusChanged {
			st := sync.Status
			if err := m.writeStatus("CronJob", key, cj.UID, func(o api.Object) { o.(*api.CronJob).Status = st }); err != nil {
				return err
			}
		}
		for i := range sync.Events {
			m.rec.event(now, &sync.Events[i])
		}
	}
	return nil
}

// cronClient is the API server as the cronjob controller's sync calls it:
// live reads of the store, and Job creates and deletes (background
// propagation) at now.
type cronClient struct {
	m   *Machine
	now time.Time
}

// apiError is an API server error as a workloads client reports it: its
// message, and the workloads sentinel it is (errors.Is).
type apiError struct {
	err  error
	kind error
}

func (e apiError) Error() string        { return e.err.Error() }
func (e apiError) Is(target error) bool { return target == e.kind }
func (e apiError) Unwrap() error        { return e.err }
func (c cronClient) GetCronJob(ns, name string) (*api.CronJob, error) {
	if cj, _ := c.m.store.get("CronJob", ns+"/"+name).(*api.CronJob); cj != nil {
		return cj, nil
	}
	return nil, notFound("CronJob", name)
}

func (c cronClient) GetJob(ns, name string) (*api.Job, error) {
	if j, _ := c.m.store.get("Job", ns+"/"+name).(*api.Job); j != nil {
		return j, nil
	}
	return nil, notFound("Job", name)
}

func (c cronClient) CreateJob(job *api.Job) (*api.Job, error) {
	o, err := c.m.store.create(job, c.now)
	switch {
	case errors.Is(err, errAlreadyExists):
		return nil, apiError{fmt.Errorf("jobs.batch %q already exists", job.Name), workloads.ErrAlreadyExists}
	case err != nil:
		return nil, err
	}
	return o.(*api.Job), nil
}

func (c cronClient) DeleteJob(ns, name string) error {
	bg := api.DeletePropagationBackground
	return c.m.deleteWithOptions("Job", ns+"/"+name, &api.DeleteOptions{PropagationPolicy: &bg}, c.now) // a 404 is notFound's
}
