package workloads

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// CronJobControllerName is the cronjob controller's name in
// kube-controller-manager, the source of its Events.
const CronJobControllerName = "cronjob-controller"

// cronJobRequeuePadding is what the cronjob controller adds to each
// requeue for the next scheduled time (nextScheduleDelta, 100 ms), so
// that the sync comes after the time, not just before it.
const cronJobRequeuePadding = 100 * time.Millisecond

// cronJobTooManyMissed is the count of missed start times past which the
// controller warns (TooManyMissedTimes) instead of quietly starting the
// most recent one.
const cronJobTooManyMissed = 100

// ErrNotFound and ErrAlreadyExists are the API server's 404 and 409
// AlreadyExists as a CronJobClient reports them: its errors wrap them so
// that errors.Is tells them apart from other failures.
var (
	ErrNotFound      = errors.New("not found")
	ErrAlreadyExists = errors.New("already exists")
)

// CronJobClient is the API server as the cronjob controller's sync calls
// it, beyond its informers: live reads, and the Job creates and deletes.
// The controller calls it in upstream's order; an error is the API
// server's answer (wrapping ErrNotFound, ErrAlreadyExists or
// namespace.ErrTerminating where it is one of those).
type CronJobClient interface {
	// GetCronJob reads the CronJob from the API server (not the informer).
	GetCronJob(namespace, name string) (*api.CronJob, error)
	// GetJob reads a Job from the API server.
	GetJob(namespace, name string) (*api.Job, error)
	// CreateJob creates job in its namespace and returns it as stored.
	CreateJob(job *api.Job) (*api.Job, error)
	// DeleteJob deletes a Job with propagationPolicy Background (the
	// garbage collector deletes its pods).
	DeleteJob(namespace, name string) error
}

// CronJobTrigger is why the controller is stepped: what its informers
// saw, or its queue coming due.
type CronJobTrigger int

const (
	// CronJobDue: nothing new was seen; the key may be due in the queue
	// (NextDeadline).
	CronJobDue CronJobTrigger = iota
	// CronJobChanged: the CronJob was added or deleted, or one of its Jobs
	// (a Job whose controller reference names it) was added, updated or
	// deleted: the key is queued now.
	CronJobChanged
	// CronJobUpdated: the CronJob was updated (CronJobInput.Old is the
	// version before). A change of spec.schedule or spec.timeZone queues
	// the key for the next scheduled time instead of now (and an
	// unparseable new schedule queues nothing and records
	// UnParseableCronJobSchedule); any other change queues it now.
	CronJobUpdated
)

// CronJobInput is what one step of the cronjob controller observes.
type CronJobInput struct {
	Trigger CronJobTrigger
	// CronJob is the CronJob as the informer holds it; nil when it is
	// gone (the key is dropped).
	CronJob *api.CronJob
	// Old is the CronJob before an update (CronJobUpdated).
	Old *api.CronJob
	// Jobs are the Jobs of the CronJob's namespace as the informer holds
	// them; the controller takes those whose controller reference has
	// the CronJob's name.
	Jobs []*api.Job
	// Client carries out the sync's reads, creates and deletes.
	Client CronJobClient
	// LoadLocation is kube-controller-manager's time zone database
	// (time.LoadLocation); "" is its own zone, which reads a schedule
	// without a time zone. Nil is api.LoadLocationUTC: only UTC, the
	// controller running in UTC.
	LoadLocation func(name string) (*time.Location, error)
}

// CronJobSync is what one step did.
type CronJobSync struct {
	// Synced is set when the step ran a sync (the key was due).
	Synced bool
	// Status is the CronJob's status after the sync, and StatusChanged
	// whether the controller writes it (the status subresource).
	Status        api.CronJobStatus
	StatusChanged bool
	// Events are the Events the step recorded on the CronJob, in order.
	Events []api.Event
	// RequeueAfter is when the sync asked to look again (the next
	// scheduled time plus 100 ms); 0 for none.
	RequeueAfter time.Duration
	// Err is the sync's error: the key is retried with the work queue's
	// back-off.
	Err error
}

// CronJobController is kube-controller-manager's cronjob controller
// (pkg/controller/cronjob, ControllerV2) for one CronJob, as a machine:
// its work queue entry (the time the key is due, the failures since the
// last success) and its sync. A sync:
//
//  1. takes the Jobs whose controller reference names the CronJob;
//  2. deletes the oldest finished Jobs beyond successfulJobsHistoryLimit
//     and failedJobsHistoryLimit (by start time, then name:
//     SuccessfulDelete "Deleted job <name>");
//  3. reconciles status.active: an unfinished Job missing from it is
//     reported (UnexpectedJob, after a live read of the CronJob); a
//     finished one in it is removed (SawCompletedJob); a listed Job that
//     no longer exists is removed (MissingJob); lastSuccessfulTime
//     follows the latest completion;
//  4. unless the CronJob is being deleted, its timeZone is unknown
//     (UnknownTimeZone), it is suspended or its schedule does not parse
//     (UnparseableSchedule), finds the most recent scheduled time not yet
//     run (at most startingDeadlineSeconds late: MissSchedule; more than
//     100 missed: TooManyMissedTimes), and unless that run exists or
//     concurrencyPolicy Forbid finds an active Job (JobAlreadyActive),
//     deletes the active Jobs under Replace and creates the Job
//     <name>-<minutes since the epoch> from the template, with the
//     scheduled-timestamp annotation and the CronJob as controller
//     (SuccessfulCreate "Created job <name>"), adding it to
//     status.active with lastScheduleTime;
//  5. requeues the key for the next scheduled time plus 100 ms.
//
// A schedule without a time zone is read in kube-controller-manager's
// zone (CronJobInput.LoadLocation("")). The zero value is ready to use.
type CronJobController struct {
	// waiting is the time the key waits for in the delaying queue (the
	// next scheduled time, a retry); zero when it waits for none. A key
	// added at once leaves it waiting: it comes up again then.
	waiting  time.Time
	failures int
}

// Step feeds the controller what its informers saw (in.Trigger) and, when
// the key is queued at now, runs a sync. A nil controller is an error
// wrapping api.ErrInvalidInput; so is a sync without a Client.
func (c *CronJobController) Step(in CronJobInput, now time.Time) (CronJobSync, error) {
	if c == nil {
		return CronJobSync{}, fmt.Errorf("%w: cronjob controller: nil", errInvalidInput)
	}
	var out CronJobSync
	if in.CronJob == nil {
		c.waiting, c.failures = time.Time{}, 0 // the CronJob is gone: nothing to sync
		return out, nil
	}
	load := in.LoadLocation
	if load == nil {
		load = api.LoadLocationUTC
	}
	queued := false
	switch in.Trigger {
	case CronJobChanged:
		queued = true
	case CronJobUpdated:
		if in.Old != nil && (in.Old.Spec.Schedule != in.CronJob.Spec.Schedule || !equalStringPtr(in.Old.Spec.TimeZone, in.CronJob.Spec.TimeZone)) {
			sched, loc, err := cronSchedule(in.CronJob, load, nil)
			if err != nil {
				out.Events = append(out.Events, cronJobEvent(in.CronJob, api.EventTypeWarning, "UnParseableCronJobSchedule", "unparseable schedule for cronjob: "+in.CronJob.Spec.Schedule))
				break
			}
			if d := nextScheduleDelay(in.CronJob, now, sched, loc); d > 0 {
				c.addAfter(now, d)
			} else {
				queued = true
			}
		} else {
			queued = true
		}
	}
	if !c.waiting.IsZero() && !c.waiting.After(now) {
		c.waiting, queued = time.Time{}, true
	}
	if !queued {
		return out, nil
	}
	if in.Client == nil {
		return out, fmt.Errorf("%w: cronjob controller: CronJob %s/%s: client: nil", errInvalidInput, in.CronJob.Namespace, in.CronJob.Name)
	}
	s := cronJobSync{cj: in.CronJob.DeepCopy(), client: in.Client, load: load, now: now}
	s.run(in.Jobs)
	out.Synced, out.Err = true, s.err
	out.Events = append(out.Events, s.events...)
	out.Status, out.StatusChanged = s.cj.Status, s.update
	switch {
	case s.requeue != nil:
		c.failures = 0
		c.addAfter(now, *s.requeue)
		out.RequeueAfter, out.Err = *s.requeue, nil
	case s.err != nil:
		c.failures++
		c.addAfter(now, retryDelay(c.failures))
	}
	return out, nil
}

// NextDeadline is when the CronJob's key next comes up in the work queue:
// its next scheduled time plus 100 ms, or a retry. The zero time means it
// waits for none; a nil controller has none.
func (c *CronJobController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.waiting
}

// addAfter makes the key wait until d after now, keeping an earlier time
// it already waits for (the delaying queue's rule). A delay of 0 or less
// would add it at once; the callers sync then instead.
func (c *CronJobController) addAfter(now time.Time, d time.Duration) {
	t := now.Add(max(d, 0))
	if c.waiting.IsZero() || t.Before(c.waiting) {
		c.waiting = t
	}
}

// cronJobSync is one sync of a CronJob: the copy it works on (whose
// status it writes), its client and the outcome.
type cronJobSync struct {
	cj      *api.CronJob
	client  CronJobClient
	load    func(string) (*time.Location, error)
	now     time.Time
	events  []api.Event
	update  bool
	requeue *time.Duration
	err     error
}

func (s *cronJobSync) event(typ, reason, msg string) {
	s.events = append(s.events, cronJobEvent(s.cj, typ, reason, msg))
}

// run is upstream's sync: the history clean-up, then syncCronJob.
func (s *cronJobSync) run(all []*api.Job) {
	var jobs []*api.Job
	for _, j := range all {
		if j == nil || j.Namespace != s.cj.Namespace {
			continue
		}
		if r := j.ControllerRef(); r != nil && r.Name == s.cj.Name {
			jobs = append(jobs, j)
		}
	}
	if s.cleanup(jobs) {
		s.update = true
	}
	s.syncCronJob(jobs)
}

// cleanup deletes the oldest finished Jobs beyond the history limits
// (cleanupFinishedJobs) and reports whether the status changed.
func (s *cronJobSync) cleanup(jobs []*api.Job) bool {
	spec := &s.cj.Spec
	if spec.SuccessfulJobsHistoryLimit == nil && spec.FailedJobsHistoryLimit == nil {
		return false
	}
	var succeeded, failed []*api.Job
	for _, j := range jobs {
		switch jobFinishedType(j) {
		case JobConditionComplete:
			succeeded = append(succeeded, j)
		case JobConditionFailed:
			failed = append(failed, j)
		}
	}
	changed := false
	if spec.SuccessfulJobsHistoryLimit != nil && s.removeOldest(succeeded, *spec.SuccessfulJobsHistoryLimit) {
		changed = true
	}
	if spec.FailedJobsHistoryLimit != nil && s.removeOldest(failed, *spec.FailedJobsHistoryLimit) {
		changed = true
	}
	return changed
}

// removeOldest deletes the oldest of jobs beyond keep (by start time, a
// Job without one last, then by name).
func (s *cronJobSync) removeOldest(jobs []*api.Job, keep int32) bool {
	n := len(jobs) - int(keep)
	if n <= 0 {
		return false
	}
	jobs = slices.Clone(jobs)
	slices.SortStableFunc(jobs, compareJobStart)
	changed := false
	for _, j := range jobs[:n] {
		if s.deleteJob(j) {
			changed = true
		}
	}
	return changed
}

// compareJobStart orders Jobs by status.startTime (none last), then name.
func compareJobStart(a, b *api.Job) int {
	as, bs := a.Status.StartTime, b.Status.StartTime
	switch {
	case as == nil && bs != nil:
		return 1
	case as != nil && bs == nil:
		return -1
	case as == nil || as.Equal(bs.Time):
		return cmp.Compare(a.Name, b.Name)
	}
	return as.Compare(bs.Time)
}

// deleteJob deletes a Job and its entry in status.active, recording the
// outcome (upstream's deleteJob).
func (s *cronJobSync) deleteJob(j *api.Job) bool {
	if err := s.client.DeleteJob(j.Namespace, j.Name); err != nil {
		s.event(api.EventTypeWarning, ReasonFailedDelete, fmt.Sprintf("Deleted job: %v", err))
		return false
	}
	removeActive(s.cj, j.UID)
	s.event(api.EventTypeNormal, ReasonSuccessfulDelete, "Deleted job "+j.Name)
	return true
}

// syncCronJob is upstream's syncCronJob over the CronJob's Jobs.
func (s *cronJobSync) syncCronJob(jobs []*api.Job) {
	// cur is the CronJob the sync goes on with: upstream swaps in the
	// live read when an unlisted Job turns out listed there, while the
	// status it writes stays its own copy (s.cj): what the sync does to
	// the live copy after the swap is not written.
	cur := s.cj
	children := map[string]bool{}
	for _, j := range jobs {
		children[j.UID] = true
		found := inActive(cur, j.UID)
		finished := jobFinishedType(j) != ""
		switch {
		case !found && !finished:
			live, err := s.client.GetCronJob(cur.Namespace, cur.Name)
			if err != nil {
				s.err = err
				return
			}
			if live != nil && inActive(live, j.UID) {
				cur = live.DeepCopy()
				continue
			}
			s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "UnexpectedJob", "Saw a job that the controller did not create or forgot: "+j.Name))
		case finished:
			if found {
				typ := jobFinishedType(j)
				removeActive(cur, j.UID)
				s.events = append(s.events, cronJobEvent(cur, api.EventTypeNormal, "SawCompletedJob", fmt.Sprintf("Saw completed job: %s, condition: %s", j.Name, typ)))
				s.update = true
			}
			if jobFinishedType(j) == JobConditionComplete {
				if cur.Status.LastSuccessfulTime == nil {
					cur.Status.LastSuccessfulTime = j.Status.CompletionTime
					s.update = true
				}
				if c := j.Status.CompletionTime; c != nil && cur.Status.LastSuccessfulTime != nil && c.After(cur.Status.LastSuccessfulTime.Time) {
					cur.Status.LastSuccessfulTime = c
					s.update = true
				}
			}
		}
	}
	for _, ref := range slices.Clone(cur.Status.Active) {
		if children[ref.UID] {
			continue
		}
		_, err := s.client.GetJob(ref.Namespace, ref.Name)
		switch {
		case errors.Is(err, ErrNotFound):
			s.events = append(s.events, cronJobEvent(cur, api.EventTypeNormal, "MissingJob", "Active job went missing: "+ref.Name))
			removeActive(cur, ref.UID)
			s.update = true
		case err != nil:
			s.err = err
			return
		}
	}
	if cur.DeletionTimestamp != nil {
		return
	}
	if tz := cur.Spec.TimeZone; tz != nil {
		if _, err := s.load(*tz); err != nil {
			s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "UnknownTimeZone", fmt.Sprintf("invalid timeZone: %q: %s", *tz, err)))
			return
		}
	}
	if cur.Spec.Suspend != nil && *cur.Spec.Suspend {
		return
	}
	sched, loc, err := cronSchedule(cur, s.load, func(e api.Event) { s.events = append(s.events, e) })
	if err != nil {
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "UnparseableSchedule", fmt.Sprintf("unparseable schedule: %q : %s", cur.Spec.Schedule, err)))
		return
	}
	scheduled, many, err := mostRecentScheduleTime(cur, s.now, sched, loc, true)
	if err != nil {
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "InvalidSchedule", fmt.Sprintf("invalid schedule: %s : %s", cur.Spec.Schedule, err)))
		return
	}
	if scheduled != nil && scheduled.After(s.now) {
		scheduled = nil
	}
	if scheduled != nil && many {
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "TooManyMissedTimes", "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew"))
	}
	requeue := func() {
		d := nextScheduleDelay(cur, s.now, sched, loc)
		s.requeue = &d
	}
	if scheduled == nil {
		requeue()
		return
	}
	if d := cur.Spec.StartingDeadlineSeconds; d != nil && scheduled.Add(time.Duration(*d)*time.Second).Before(s.now) {
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "MissSchedule", "Missed scheduled time to start a job: "+scheduled.UTC().Format(time.RFC1123Z)))
		requeue()
		return
	}
	name := CronJobJobName(cur.Name, *scheduled)
	if activeByName(cur, name) || (cur.Status.LastScheduleTime != nil && cur.Status.LastScheduleTime.Equal(*scheduled)) {
		requeue()
		return
	}
	if cur.Spec.ConcurrencyPolicy == api.ForbidConcurrent && len(cur.Status.Active) > 0 {
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeNormal, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid"))
		requeue()
		return
	}
	if cur.Spec.ConcurrencyPolicy == api.ReplaceConcurrent {
		for _, ref := range slices.Clone(cur.Status.Active) {
			j, err := s.client.GetJob(ref.Namespace, ref.Name)
			if err != nil {
				s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, "FailedGet", fmt.Sprintf("Get job: %v", err)))
				s.err = err
				return
			}
			if err := s.client.DeleteJob(j.Namespace, j.Name); err != nil {
				s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, ReasonFailedDelete, fmt.Sprintf("Deleted job: %v", err)))
				s.err = fmt.Errorf("could not replace job %s/%s", j.Namespace, j.Name)
				return
			}
			removeActive(cur, j.UID)
			s.events = append(s.events, cronJobEvent(cur, api.EventTypeNormal, ReasonSuccessfulDelete, "Deleted job "+j.Name))
			s.update = true
		}
	}
	req, err := CronJobJob(cur, *scheduled, s.load)
	if err != nil {
		s.err = err
		return
	}
	created, err := s.client.CreateJob(req)
	exists := false
	switch {
	case errors.Is(err, namespace.ErrTerminating):
		s.err = err
		return
	case errors.Is(err, ErrAlreadyExists):
		exists = true
		j, gerr := s.client.GetJob(req.Namespace, req.Name)
		if gerr != nil {
			s.err = gerr
			return
		}
		if r := j.ControllerRef(); r == nil || r.UID != cur.UID || inActive(cur, j.UID) {
			return // another controller's Job, or already listed
		}
		created = j
	case err != nil:
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeWarning, ReasonFailedCreate, fmt.Sprintf("Error creating job: %v", err)))
		s.err = err
		return
	}
	if !exists {
		s.events = append(s.events, cronJobEvent(cur, api.EventTypeNormal, ReasonSuccessfulCreate, "Created job "+created.Name))
	}
	cur.Status.Active = append(cur.Status.Active, api.ObjectReference{Kind: "Job", Namespace: created.Namespace, Name: created.Name,
		UID: created.UID, APIVersion: "batch/v1", ResourceVersion: created.ResourceVersion})
	t := api.NewTime(*scheduled)
	cur.Status.LastScheduleTime = &t
	s.update = true
	requeue()
}

// CronJobJobName is the name of the Job a CronJob named name creates for
// the run scheduled at t: "<name>-<minutes since the epoch>", so that one
// run is created once (getJobName).
func CronJobJobName(name string, t time.Time) string {
	return name + "-" + strconv.FormatInt(t.Unix()/60, 10)
}

// CronJobJob is the Job the cronjob controller asks the API server to
// create for cj's run scheduled at t (getJobFromTemplate2): named by
// CronJobJobName, in cj's namespace, with the template's labels and
// annotations plus api.AnnotationCronJobScheduledTimestamp (t in RFC 3339
// in cj's time zone, UTC without one), cj as its controller, and the
// template's spec. load resolves spec.timeZone (nil: api.LoadLocationUTC);
// an unknown zone is its error.
func CronJobJob(cj *api.CronJob, t time.Time, load func(string) (*time.Location, error)) (*api.Job, error) {
	if cj == nil {
		return nil, fmt.Errorf("%w: cronjob: nil", errInvalidInput)
	}
	if load == nil {
		load = api.LoadLocationUTC
	}
	tz := ""
	if cj.Spec.TimeZone != nil {
		tz = *cj.Spec.TimeZone
	}
	var loc *time.Location
	if tz == "" {
		loc = time.UTC // upstream loads "": UTC, whatever the controller's own zone
	} else {
		var err error
		if loc, err = load(tz); err != nil {
			return nil, err
		}
	}
	tmpl := cj.DeepCopy().Spec.JobTemplate
	labels := map[string]string{}
	for k, v := range tmpl.Labels {
		labels[k] = v
	}
	annotations := map[string]string{}
	for k, v := range tmpl.Annotations {
		annotations[k] = v
	}
	annotations[api.AnnotationCronJobScheduledTimestamp] = t.In(loc).Format(time.RFC3339)
	ref := NewControllerRef(&cj.ObjectMeta, "batch/v1", "CronJob")
	job := &api.Job{
		TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: api.ObjectMeta{Name: CronJobJobName(cj.Name, t), Namespace: cj.Namespace, Labels: labels, Annotations: annotations,
			OwnerReferences: []api.OwnerReference{ref}},
		Spec: tmpl.Spec,
	}
	return job, nil
}

// cronSchedule parses cj's schedule as the controller does
// (formatSchedule then cron.ParseStandard): a TZ= or CRON_TZ= prefix in
// the schedule is used as is (and warned about through warn, when not
// nil: UnsupportedSchedule), else spec.timeZone when it loads; the
// location is the schedule's zone, or the controller's own.
func cronSchedule(cj *api.CronJob, load func(string) (*time.Location, error), warn func(api.Event)) (*api.CronSchedule, *time.Location, error) {
	spec := cj.Spec.Schedule
	zone := ""
	if strings.Contains(spec, "TZ") {
		if warn != nil {
			warn(cronJobEvent(cj, api.EventTypeWarning, "UnsupportedSchedule", fmt.Sprintf("CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", spec)))
		}
	} else if tz := cj.Spec.TimeZone; tz != nil {
		if _, err := load(*tz); err == nil {
			zone = *tz
		}
	}
	sched, err := api.ParseCronSchedule(spec)
	// The parser loads a TZ= prefix's zone before it reads the rest: a
	// zone that does not load is the error, whatever follows it.
	z := ""
	var perr *api.CronScheduleError
	switch {
	case errors.As(err, &perr):
		z = perr.TimeZone
	case err == nil:
		z = sched.TimeZone()
	}
	if z != "" {
		if _, lerr := load(z); lerr != nil {
			return nil, nil, api.CronLocationError(z, lerr)
		}
		zone = z
	}
	if err != nil {
		return nil, nil, err
	}
	loc, err := load(zone)
	if err != nil {
		return nil, nil, err
	}
	return sched, loc, nil
}

// mostRecentScheduleTime is upstream's mostRecentScheduleTime: the most
// recent scheduled time at or before now since the last one run (or the
// CronJob's creation; with deadline, no earlier than
// startingDeadlineSeconds ago), nil when none; many reports more than 100
// missed; err a schedule whose runs come less than 1 s apart (a date
// that never comes).
func mostRecentScheduleTime(cj *api.CronJob, now time.Time, sched *api.CronSchedule, loc *time.Location, deadline bool) (recent *time.Time, many bool, err error) {
	earliest := cronEarliest(cj, now, deadline)
	t1 := sched.Next(earliest, loc)
	t2 := sched.Next(t1, loc)
	if now.Before(t1) {
		return nil, false, nil
	}
	if now.Before(t2) {
		return &t1, false, nil
	}
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return nil, false, errors.New("time difference between two schedules is less than 1 second")
	}
	elapsed := int64(now.Sub(t1).Seconds())
	missed := elapsed/between + 1
	var last time.Time
	from := t1.Add(time.Duration((missed-2)*between) * time.Second)
	for t := sched.Next(from, loc); !t.IsZero() && !t.After(now); t = sched.Next(t, loc) {
		last = t
	}
	many = missed > cronJobTooManyMissed
	if last.IsZero() {
		return nil, many, nil
	}
	return &last, many, nil
}

// cronEarliest is the time from which missed runs are counted: the last
// scheduled time, or the creation; with deadline, no earlier than
// startingDeadlineSeconds before now.
func cronEarliest(cj *api.CronJob, now time.Time, deadline bool) time.Time {
	earliest := cj.CreationTimestamp.Time
	if cj.Status.LastScheduleTime != nil {
		earliest = cj.Status.LastScheduleTime.Time
	}
	if d := cj.Spec.StartingDeadlineSeconds; deadline && d != nil {
		if floor := now.Add(-time.Duration(*d) * time.Second); floor.After(earliest) {
			earliest = floor
		}
	}
	return earliest
}

// nextScheduleDelay is upstream's nextScheduleTimeDuration: how long
// until the scheduled time after the most recent one (or after the
// earliest time when none is missed; after now when the schedule is
// broken or runs were missed beyond the earliest), plus 100 ms.
func nextScheduleDelay(cj *api.CronJob, now time.Time, sched *api.CronSchedule, loc *time.Location) time.Duration {
	recent, _, err := mostRecentScheduleTime(cj, now, sched, loc, false)
	from := now
	if err == nil {
		switch {
		case recent != nil:
			from = *recent
		case !sched.Next(cronEarliest(cj, now, false), loc).After(now):
			// runs were missed since the earliest time: from now
		default:
			from = cronEarliest(cj, now, false)
		}
	}
	return sched.Next(from, loc).Add(cronJobRequeuePadding).Sub(now)
}

// jobFinishedType is the type of a Job's True Complete or Failed
// condition ("" while it runs).
func jobFinishedType(j *api.Job) string {
	for _, c := range j.Status.Conditions {
		if (c.Type == JobConditionComplete || c.Type == JobConditionFailed) && c.Status == api.ConditionTrue {
			return c.Type
		}
	}
	return ""
}

func inActive(cj *api.CronJob, uid string) bool {
	return slices.ContainsFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.UID == uid })
}

func activeByName(cj *api.CronJob, name string) bool {
	return slices.ContainsFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.Name == name && r.Namespace == cj.Namespace })
}

// removeActive drops the Job of uid from status.active (an empty list, not
// nil, once something was removed, as upstream rebuilds it).
func removeActive(cj *api.CronJob, uid string) {
	out := []api.ObjectReference{}
	for _, r := range cj.Status.Active {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	cj.Status.Active = out
}

// cronJobEvent is an Event of the cronjob controller on cj.
func cronJobEvent(cj *api.CronJob, typ, reason, msg string) api.Event {
	return api.Event{Type: typ, Reason: reason, Note: msg, Regarding: WorkloadReference("CronJob", "batch/v1", &cj.ObjectMeta), Source: CronJobControllerName}
}
