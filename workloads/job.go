package workloads

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// JobManagedByController is the spec.managedBy value (and the default) of
// Jobs the built-in Job controller syncs; a Job managed by anything else is
// left alone.
const JobManagedByController = "kubernetes.io/job-controller"

// MaxJobPodCreateDeletePerSync caps the pods one Job sync creates or
// deletes (pkg/controller/job MaxPodCreateDeletePerSync), and
// MaxJobUncountedPods the finished pods it records in
// status.uncountedTerminatedPods before it stops counting (MaxUncountedPods).
const (
	MaxJobPodCreateDeletePerSync = 500
	MaxJobUncountedPods          = 500
)

// JobConfig holds what the Job controller's behaviour depends on beyond
// the Job and its pods. The zero value is kube-controller-manager v1.36.3
// with its default feature gates (JobPodReplacementPolicy, JobManagedBy,
// JobBackoffLimitPerIndex, JobSuccessPolicy and PodIndexLabel on).
type JobConfig struct {
	// PodFailureBackOff is the first delay before a failed pod is replaced
	// (0: DefaultJobPodFailureBackOff); it doubles per consecutive failure
	// up to MaxPodFailureBackOff (0: MaxJobPodFailureBackOff).
	PodFailureBackOff    time.Duration
	MaxPodFailureBackOff time.Duration
}

func (c JobConfig) backoff() (time.Duration, time.Duration) {
	initial, maxDelay := c.PodFailureBackOff, c.MaxPodFailureBackOff
	if initial <= 0 {
		initial = DefaultJobPodFailureBackOff
	}
	if maxDelay <= 0 {
		maxDelay = MaxJobPodFailureBackOff
	}
	return initial, maxDelay
}

// JobActionKind is what one request of a Job sync does.
type JobActionKind uint8

// The requests a Job sync sends to the API server, in the order it sends
// them.
const (
	// JobCreatePod creates Pod (a new object with generateName).
	JobCreatePod JobActionKind = iota + 1
	// JobDeletePod deletes Pod (a graceful delete; the tracking finalizer
	// keeps the object until the controller has counted it).
	JobDeletePod
	// JobRemoveFinalizer removes JobTrackingFinalizer from Pod.
	JobRemoveFinalizer
	// JobWriteStatus writes Status as the Job's status.
	JobWriteStatus
	// JobAdoptPod patches the Job's controller reference and the tracking
	// finalizer onto Pod, an orphan its selector matches.
	JobAdoptPod
	// JobReleasePod patches the Job's owner reference away from Pod,
	// which its selector no longer matches; the same patch removes the
	// tracking finalizer (the Job controller's reference manager carries
	// it).
	JobReleasePod
)

// String names the kind.
func (k JobActionKind) String() string {
	switch k {
	case JobCreatePod:
		return "CreatePod"
	case JobDeletePod:
		return "DeletePod"
	case JobRemoveFinalizer:
		return "RemoveFinalizer"
	case JobWriteStatus:
		return "WriteStatus"
	case JobAdoptPod:
		return "AdoptPod"
	case JobReleasePod:
		return "ReleasePod"
	}
	return "JobActionKind(?)"
}

// JobAction is one request of a Job sync.
type JobAction struct {
	Kind JobActionKind
	// Pod is the pod to create (JobCreatePod: a new object, its name left
	// to generateName), or the observed pod deleted or stripped of its
	// finalizer.
	Pod *api.Pod
	// Status is the status written (JobWriteStatus).
	Status *api.JobStatus
}

// String renders the action, e.g. "DeletePod pi-1" or "CreatePod pi-2-".
func (a JobAction) String() string {
	switch {
	case a.Kind == JobWriteStatus:
		return a.Kind.String()
	case a.Pod == nil:
		return a.Kind.String()
	case a.Kind == JobCreatePod:
		return a.Kind.String() + " " + a.Pod.GenerateName
	}
	return a.Kind.String() + " " + a.Pod.Name
}

// JobSync is the outcome of one sync of the Job controller for one Job.
type JobSync struct {
	// Actions are the requests in the order the controller sends them:
	// adoptions and releases of pods; then the deletion of every active
	// pod of a Job that failed or met its success criteria, or a
	// suspended or scaled-down Job's finalizer removals and deletions, or
	// the pod creations; then the status writes around the finalizer
	// removals (a finished pod is first recorded in
	// status.uncountedTerminatedPods, then its finalizer goes, then the
	// counts move). Upstream sends the requests of one step in parallel;
	// the list keeps its order within each pod.
	Actions []JobAction
	// Status is the Job's status as the sync leaves it: what the last
	// JobWriteStatus wrote, or the status as observed when none was
	// written.
	Status api.JobStatus
	// Requeue is when the controller queues the Job again by itself: a
	// pod failure back-off expiring, spec.activeDeadlineSeconds running
	// out. Zero when nothing but an event will.
	Requeue time.Time
	// Backoff is the controller's pod failure record after the sync.
	Backoff JobBackoff
	// Err is the error upstream's syncJob returns after its writes: the
	// pods could not be created (a template the API server refuses, a
	// create it refused: JobInput.AcceptCreates). The controller retries
	// with its rate limiter.
	Err error
	// FailedCreates are the pods whose create the API server refused, in
	// the order sent (each has a FailedCreate Event in Events); the creates
	// after a refused slow-start batch are not sent at all.
	FailedCreates []*api.Pod
	// Skipped says why the sync did nothing ("finished", "managed by
	// <controller>", "unknown completion mode"); "" when it ran.
	Skipped string // Events are the Events the controller records on the Job (source
	// JobControllerName), in order: Suspended "Job suspended" or Resumed
	// "Job resumed" when the Suspended condition changed; SuccessfulDelete
	// "Deleted pod: <name>" per pod deleted; once the status written
	// holds the finished condition, Completed "Job completed" (after
	// TooManySucceededPods when more pods succeeded than completions) or
	// a Warning with the Failed condition's reason and message. The
	// SuccessfulCreate of each created pod names the pod the API server
	// generated: the caller records PodCreatedEvent once it has it.
	Events []api.Event
}

// Created returns the pods the sync creates, in order.
func (s JobSync) Created() []*api.Pod { return s.pods(JobCreatePod) }

// Deleted returns the pods the sync deletes, in order.
func (s JobSync) Deleted() []*api.Pod { return s.pods(JobDeletePod) }

// FinalizersRemoved returns the pods whose tracking finalizer the sync
// removes, in order.
func (s JobSync) FinalizersRemoved() []*api.Pod { return s.pods(JobRemoveFinalizer) }

// StatusWrites counts the status writes of the sync.
func (s JobSync) StatusWrites() int {
	n := 0
	for _, a := range s.Actions {
		if a.Kind == JobWriteStatus {
			n++
		}
	}
	return n
}

func (s JobSync) pods(k JobActionKind) []*api.Pod {
	var out []*api.Pod
	for _, a := range s.Actions {
		if a.Kind == k {
			out = append(out, a.Pod)
		}
	}
	return out
}

// SyncJob runs one sync of the Job controller (pkg/controller/job
// syncJob) for job, given every pod of its namespace (or just its own),
// at now, as a freshly started kube-controller-manager would: no pod
// failure back-off remembered from earlier syncs and no creations,
// deletions or finalizer removals still expected. JobController keeps
// that memory across syncs.
//
// A sync claims the Job's pods (its controller ownerReference, and
// orphans its selector matches), counts the finished ones that still
// carry the tracking finalizer, decides whether the Job has failed
// (a FailJob rule of the pod failure policy, backoffLimit,
// activeDeadlineSeconds, backoffLimitPerIndex and maxFailedIndexes) or
// succeeded (completions, successPolicy), and then either deletes the
// remaining active pods or creates and deletes pods towards
// min(parallelism, remaining completions), respecting suspend,
// podReplacementPolicy and the pod failure back-off. Terminal conditions
// come in two steps: FailureTarget or SuccessCriteriaMet first, then
// Failed or Complete in the sync that finds no pod left terminating and
// every finished pod counted.
//
// The Job is read as stored (API defaults applied); fields the API server
// would have defaulted are defaulted here the same way. A nil Job, a
// negative parallelism or completions, or an Indexed Job without
// completions is an error; nil pods are skipped; nothing is modified.
func SyncJob(job *api.Job, pods []*api.Pod, cfg JobConfig, now time.Time) (JobSync, error) {
	return syncJob(job, pods, cfg, &jobMemory{}, now)
}

// jobMemory is what the controller remembers about a Job between syncs.
type jobMemory struct {
	backoff JobBackoff
	// unsatisfied: pod creations or deletions are still expected, so the
	// sync only tracks status and does not manage pods.
	unsatisfied bool
	// rmFinalizers are the UIDs whose finalizer removal was sent but not
	// yet observed.
	rmFinalizers map[string]bool
	// Filled by the sync: the pods manageJob deleted and how many it
	// created, which the controller then expects to observe.
	expectDeletes []*api.Pod
	expectCreates int
	// accept and createErr are the step's JobInput.AcceptCreates (nil:
	// all) and CreateError; terminatingCreates the creates refused because
	// the namespace is being deleted, which stay expected.
	accept             *int
	createErr          error
	terminatingCreates int
}

// jobSpec is the Job's spec with the API server's defaults applied.
type jobSpec struct {
	parallelism      int32
	completions      *int32
	backoffLimit     int32
	perIndex         *int32
	maxFailedIx      *int32
	indexed          bool
	suspended        bool
	onlyFailed       bool // podReplacementPolicy Failed, or a pod failure policy
	policy           *api.PodFailurePolicy
	activeDeadline   *int64
	restartOnFailure bool
}

func jobDefaults(job *api.Job) (jobSpec, string, error) {
	s := job.Spec
	name := job.Namespace + "/" + job.Name
	var js jobSpec
	switch {
	case s.Parallelism == nil:
		js.parallelism = 1
	case *s.Parallelism < 0:
		return js, "", fmt.Errorf("%w: job %s: spec.parallelism: %d", errInvalidInput, name, *s.Parallelism)
	default:
		js.parallelism = *s.Parallelism
	}
	js.completions = s.Completions
	if s.Completions == nil && s.Parallelism == nil {
		one := int32(1)
		js.completions = &one
	}
	if js.completions != nil && *js.completions < 0 {
		return js, "", fmt.Errorf("%w: job %s: spec.completions: %d", errInvalidInput, name, *js.completions)
	}
	mode := JobNonIndexed
	if s.CompletionMode != nil {
		mode = *s.CompletionMode
	}
	switch mode {
	case JobNonIndexed:
	case JobIndexed:
		js.indexed = true
		if js.completions == nil {
			return js, "", fmt.Errorf("%w: job %s: spec.completions: required for completionMode Indexed", errInvalidInput, name)
		}
	default:
		return js, "unknown completion mode " + mode, nil
	}
	if js.indexed {
		js.perIndex = s.BackoffLimitPerIndex
		if js.perIndex != nil {
			js.maxFailedIx = s.MaxFailedIndexes
		}
	}
	switch {
	case s.BackoffLimit != nil:
		js.backoffLimit = *s.BackoffLimit
	case s.BackoffLimitPerIndex != nil:
		js.backoffLimit = math.MaxInt32
	default:
		js.backoffLimit = 6
	}
	js.suspended = s.Suspend != nil && *s.Suspend
	js.policy = s.PodFailurePolicy
	js.onlyFailed = s.PodFailurePolicy != nil || (s.PodReplacementPolicy != nil && *s.PodReplacementPolicy == JobReplaceFailed)
	js.activeDeadline = s.ActiveDeadlineSeconds
	js.restartOnFailure = s.Template.Spec.RestartPolicy == api.RestartPolicyOnFailure
	return js, "", nil
}

// podFailed: the pod counts as failed — phase Failed, or (unless only
// failed pods are replaced) being deleted before it succeeded.
func (js *jobSpec) podFailed(p *api.Pod) bool {
	if p.Status.Phase == api.PodFailed {
		return true
	}
	return !js.onlyFailed && p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded
}

// validIndex: the pod has a completion index below completions.
func (js *jobSpec) validIndex(p *api.Pod) (int, bool) {
	ix := completionIndex(p)
	return ix, ix != noIndex && js.completions != nil && ix < int(*js.completions)
}

// jobSyncCtx is one sync's working state (upstream's syncJobCtx).
type jobSyncCtx struct {
	job         *api.Job
	spec        jobSpec
	status      *api.JobStatus
	pods        []*api.Pod
	active      []*api.Pod
	finished    *api.WorkloadCondition
	succeeded   int32
	failed      int32
	prevSucc    indexRanges
	succIx      indexRanges
	failedIx    *indexRanges
	backoff     JobBackoff
	rmExpected  map[string]bool
	uncSucc     map[string]bool
	uncFailed   map[string]bool
	delayed     map[int]*api.Pod
	terminating int32
	ready       int32
	now         time.Time
	cfg         JobConfig
	mem         *jobMemory
	out         *JobSync
}

func (c *jobSyncCtx) add(k JobActionKind, p *api.Pod) {
	c.out.Actions = append(c.out.Actions, JobAction{Kind: k, Pod: p})
}

func (c *jobSyncCtx) requeueIn(d time.Duration) {
	at := c.now.Add(d)
	if c.out.Requeue.IsZero() || at.Before(c.out.Requeue) {
		c.out.Requeue = at
	}
}

func hasTrackingFinalizer(p *api.Pod) bool {
	return slices.Contains(p.Finalizers, JobTrackingFinalizer)
}

func jobCondition(t string, reason, msg string, now time.Time) *api.WorkloadCondition {
	return &api.WorkloadCondition{Type: t, Status: api.ConditionTrue, Reason: reason, Message: msg,
		LastProbeTime: api.NewTime(now), LastTransitionTime: api.NewTime(now)}
}

// jobFinished: the Job has a Complete or Failed condition that is True.
func jobFinished(job *api.Job) bool {
	for _, c := range job.Status.Conditions {
		if (c.Type == JobConditionComplete || c.Type == JobConditionFailed) && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}

func syncJob(job *api.Job, pods []*api.Pod, cfg JobConfig, mem *jobMemory, now time.Time) (JobSync, error) {
	if job == nil {
		return JobSync{}, fmt.Errorf("%w: job: nil", errInvalidInput)
	}
	out := JobSync{Status: cloneJobStatus(job.Status), Backoff: mem.backoff}
	if job.Spec.ManagedBy != nil && *job.Spec.ManagedBy != JobManagedByController {
		out.Skipped = "managed by " + *job.Spec.ManagedBy
		return out, nil
	}
	if jobFinished(job) {
		out.Skipped = "finished"
		out.Backoff = JobBackoff{}
		return out, nil
	}
	spec, skip, err := jobDefaults(job)
	if err != nil {
		return JobSync{}, err
	}
	if skip != "" {
		out.Skipped = skip
		return out, nil
	}
	c := &jobSyncCtx{job: job, spec: spec, status: &out.Status, now: now, cfg: cfg, out: &out, mem: mem, rmExpected: mem.rmFinalizers}
	if c.status.UncountedTerminatedPods == nil {
		c.status.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	c.uncSucc = uidSet(c.status.UncountedTerminatedPods.Succeeded)
	c.uncFailed = uidSet(c.status.UncountedTerminatedPods.Failed)
	if err := c.claimJobPods(pods); err != nil {
		return JobSync{}, err
	}
	for _, p := range c.pods {
		switch {
		case isPodActive(p):
			c.active = append(c.active, p)
			if api.IsPodReady(p) {
				c.ready++
			}
		case isPodTerminating(p):
			c.terminating++
		}
	}
	active := int32(len(c.active))
	newSucc, newFailed := c.newFinishedPods()
	c.succeeded = c.status.Succeeded + int32(len(newSucc)) + int32(len(c.uncSucc))
	c.failed = c.status.Failed + int32(c.countedFailures(newFailed)) + int32(len(c.uncFailed))
	if c.status.StartTime == nil && !spec.suspended {
		c.status.StartTime = api.NewTimePtr(now)
	}
	c.backoff = mem.backoff.next(newSucc, newFailed)

	if sc := findWorkloadCondition(c.status.Conditions, JobConditionSuccessCriteriaMet); sc != nil && sc.Status == api.ConditionTrue {
		cp := *sc
		c.finished = &cp
	}
	if c.finished == nil {
		if ft := findWorkloadCondition(c.status.Conditions, JobConditionFailureTarget); ft != nil && ft.Status == api.ConditionTrue {
			c.finished = jobCondition(JobConditionFailed, ft.Reason, ft.Message, now)
		} else if msg, ok := c.failJobMessage(); ok {
			c.finished = jobCondition(JobConditionFailureTarget, JobReasonPodFailurePolicy, msg, now)
		}
	}
	if c.finished == nil {
		switch {
		case c.failed > spec.backoffLimit || c.pastBackoffLimitOnFailure():
			c.finished = jobCondition(JobConditionFailureTarget, JobReasonBackoffLimitExceeded, JobMessageBackoffLimitExceeded, now)
		case c.pastActiveDeadline():
			c.finished = jobCondition(JobConditionFailureTarget, JobReasonDeadlineExceeded, JobMessageDeadlineExceeded, now)
		case spec.activeDeadline != nil && !spec.suspended:
			c.requeueIn(time.Duration(*spec.activeDeadline)*time.Second - now.Sub(c.status.StartTime.Time))
		}
	}
	if spec.indexed {
		c.prevSucc, c.succIx = c.succeededIndexes()
		c.succeeded = int32(c.succIx.total())
		if spec.perIndex != nil {
			c.failedIx = c.failedIndexes()
			if c.finished == nil {
				total := c.failedIx.total()
				switch {
				case spec.maxFailedIx != nil && total > int(*spec.maxFailedIx):
					c.finished = jobCondition(JobConditionFailureTarget, JobReasonMaxFailedIndexesExceeded, JobMessageMaxFailedIndexesExceeded, now)
				case total > 0 && total+c.succIx.total() >= int(*spec.completions):
					c.finished = jobCondition(JobConditionFailureTarget, JobReasonFailedIndexes, JobMessageFailedIndexes, now)
				}
			}
			c.delayed = c.podsWithDelayedDeletion()
		}
		if c.finished == nil {
			if msg, met := matchSuccessPolicy(job.Spec.SuccessPolicy, int(*spec.completions), c.succIx); met {
				c.finished = jobCondition(JobConditionSuccessCriteriaMet, JobReasonSuccessPolicy, msg, now)
			}
		}
	}

	suspendChanged := false
	if c.finished != nil {
		// The Job has failed or met its success criteria: every active pod
		// is deleted (its finalizer stays until it is counted below).
		for _, p := range c.active {
			c.add(JobDeletePod, p)
			if api.IsPodReady(p) {
				c.ready--
			}
		}
		deleted := int32(len(c.active))
		if mem.unsatisfied {
			c.finished = nil
		}
		active -= deleted
		c.terminating += deleted
	} else {
		managed := false
		if !mem.unsatisfied && job.DeletionTimestamp == nil {
			active = c.manageJob()
			managed = true
		}
		var complete bool
		if spec.completions == nil {
			complete = c.succeeded > 0 && active == 0
		} else {
			complete = c.succeeded >= *spec.completions && active == 0
		}
		switch {
		case complete:
			c.finished = jobCondition(JobConditionSuccessCriteriaMet, JobReasonCompletionsReached, JobMessageCompletionsReached, now)
		case managed && spec.suspended:
			if ensureJobCondition(c.status, JobConditionSuspended, api.ConditionTrue, JobReasonSuspended, JobMessageSuspended, now) {
				suspendChanged = true
				// Suspending clears startTime (KEP-5440): the Job starts
				// again, and activeDeadlineSeconds counts again, from its
				// resumption.
				c.status.StartTime = nil
			}
		case managed:
			if ensureJobCondition(c.status, JobConditionSuspended, api.ConditionFalse, JobReasonResumed, JobMessageResumed, now) {
				suspendChanged = true
				c.status.StartTime = api.NewTimePtr(now)
			}
		}
	}

	needsFlush := suspendChanged || active != job.Status.Active ||
		job.Status.Ready == nil || *job.Status.Ready != c.ready ||
		job.Status.Terminating == nil || *job.Status.Terminating != c.terminating
	c.status.Active = active
	ready, terminating := c.ready, c.terminating
	c.status.Ready = &ready
	c.status.Terminating = &terminating
	c.trackStatus(needsFlush, mem)
	if out.StatusWrites() == 0 {
		// Nothing was written: what the sync computed stays in memory.
		out.Status = cloneJobStatus(job.Status)
	}
	for _, a := range out.Actions {
		if a.Kind == JobCreatePod {
			mem.expectCreates++
		}
	}
	mem.expectCreates += mem.terminatingCreates
	out.Events = jobEvents(job, &out, suspendChanged)
	if len(out.FailedCreates) > 0 {
		// The pod control's FailedCreate of each refused create, recorded
		// as manageJob sends them: after a Suspended or Resumed Event,
		// before the rest.
		owner := WorkloadReference("Job", "batch/v1", &job.ObjectMeta)
		at := 0
		if len(out.Events) > 0 && (out.Events[0].Reason == "Suspended" || out.Events[0].Reason == "Resumed") {
			at = 1
		}
		failed := make([]api.Event, len(out.FailedCreates))
		for i := range failed {
			failed[i] = PodCreateFailedEvent(owner, JobControllerName, out.Err)
		}
		out.Events = slices.Insert(out.Events, at, failed...)
	}
	return out, nil
}

// jobEvents are the Events the Job controller records for a sync
// (pkg/controller/job): Suspended "Job suspended" or Resumed "Job
// resumed" when the Suspended condition changed, SuccessfulDelete
// "Deleted pod: <name>" per pod deleted (RealPodControl), and, once the
// status written holds the finished condition, Completed "Job completed"
// (with TooManySucceededPods first when more pods succeeded than
// completions) or a Warning with the Failed condition's reason and
// message.
func jobEvents(job *api.Job, out *JobSync, suspendChanged bool) []api.Event {
	ref := WorkloadReference("Job", "batch/v1", &job.ObjectMeta)
	ev := func(typ, reason, note string) api.Event {
		return api.Event{Type: typ, Reason: reason, Note: note, Regarding: ref, Source: JobControllerName}
	}
	var events []api.Event
	if suspendChanged {
		if c := findWorkloadCondition(out.Status.Conditions, JobConditionSuspended); c != nil && c.Status == api.ConditionTrue {
			events = append(events, ev(api.EventTypeNormal, "Suspended", "Job suspended"))
		} else {
			events = append(events, ev(api.EventTypeNormal, "Resumed", "Job resumed"))
		}
	}
	for _, a := range out.Actions {
		if a.Kind == JobDeletePod && a.Pod != nil {
			events = append(events, PodDeletedEvent(ref, JobControllerName, a.Pod.Name))
		}
	}
	finishedNow := func(t string) *api.WorkloadCondition {
		c := findWorkloadCondition(out.Status.Conditions, t)
		if c == nil || c.Status != api.ConditionTrue {
			return nil
		}
		if was := findWorkloadCondition(job.Status.Conditions, t); was != nil && was.Status == api.ConditionTrue {
			return nil
		}
		return c
	}
	if c := finishedNow(JobConditionComplete); c != nil {
		if job.Spec.Completions != nil && out.Status.Succeeded > *job.Spec.Completions {
			events = append(events, ev(api.EventTypeWarning, "TooManySucceededPods", "Too many succeeded pods running after completion count reached"))
		}
		events = append(events, ev(api.EventTypeNormal, "Completed", "Job completed"))
	} else if c := finishedNow(JobConditionFailed); c != nil {
		events = append(events, ev(api.EventTypeWarning, c.Reason, c.Message))
	}
	return events
}

// isPodTerminating is pkg/controller IsPodTerminating: being deleted and
// not yet Succeeded or Failed.
func isPodTerminating(p *api.Pod) bool {
	return p.DeletionTimestamp != nil && !p.Status.Phase.IsTerminal()
}

func uidSet(uids []string) map[string]bool {
	m := make(map[string]bool, len(uids))
	for _, u := range uids {
		m[u] = true
	}
	return m
}

// countablePods are the pods not yet counted: they carry the finalizer,
// are not in uncounted (nor awaiting a finalizer removal) and, for an
// Indexed Job, have a valid index.
func (c *jobSyncCtx) countablePods(uncounted map[string]bool, keep func(*api.Pod) bool) []*api.Pod {
	var out []*api.Pod
	for _, p := range c.pods {
		if !hasTrackingFinalizer(p) || uncounted[p.UID] || c.rmExpected[p.UID] {
			continue
		}
		if c.spec.indexed {
			if _, ok := c.spec.validIndex(p); !ok {
				continue
			}
		}
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

func (c *jobSyncCtx) newFinishedPods() (succeeded, failed []*api.Pod) {
	succeeded = c.countablePods(c.uncSucc, func(p *api.Pod) bool { return p.Status.Phase == api.PodSucceeded })
	failed = c.countablePods(c.uncFailed, c.spec.podFailed)
	return succeeded, failed
}

// countedFailures counts the failed pods the pod failure policy does not
// ignore.
func (c *jobSyncCtx) countedFailures(failed []*api.Pod) int {
	n := len(failed)
	if c.spec.policy != nil {
		for _, p := range failed {
			if !matchPodFailurePolicy(c.spec.policy, p).CountFailed {
				n--
			}
		}
	}
	return n
}

// failJobMessage is the message of the first failed pod matching a
// FailJob rule.
func (c *jobSyncCtx) failJobMessage() (string, bool) {
	if c.spec.policy == nil {
		return "", false
	}
	for _, p := range c.pods {
		if c.spec.podFailed(p) {
			if v := matchPodFailurePolicy(c.spec.policy, p); v.Action == JobActionFailJob {
				return v.JobFailureMessage, true
			}
		}
	}
	return "", false
}

// pastBackoffLimitOnFailure: with restartPolicy OnFailure the container
// restarts of running and pending pods count against backoffLimit.
func (c *jobSyncCtx) pastBackoffLimitOnFailure() bool {
	if !c.spec.restartOnFailure {
		return false
	}
	var restarts int64
	for _, p := range c.pods {
		if p.Status.Phase != api.PodRunning && p.Status.Phase != api.PodPending {
			continue
		}
		for _, s := range p.Status.InitContainerStatuses {
			restarts += int64(s.RestartCount)
		}
		for _, s := range p.Status.ContainerStatuses {
			restarts += int64(s.RestartCount)
		}
	}
	if c.spec.backoffLimit == 0 {
		return restarts > 0
	}
	return restarts >= int64(c.spec.backoffLimit)
}

func (c *jobSyncCtx) pastActiveDeadline() bool {
	if c.spec.activeDeadline == nil || c.status.StartTime == nil || c.spec.suspended {
		return false
	}
	return c.now.Sub(c.status.StartTime.Time) >= time.Duration(*c.spec.activeDeadline)*time.Second
}

func (c *jobSyncCtx) succeededIndexes() (prev, now indexRanges) {
	completions := int(*c.spec.completions)
	prev = parseIndexRanges(c.status.CompletedIndexes, completions)
	var add []int
	for _, p := range c.pods {
		if ix, ok := c.spec.validIndex(p); ok && p.Status.Phase == api.PodSucceeded && hasTrackingFinalizer(p) {
			add = append(add, ix)
		}
	}
	return prev, prev.withIndexes(sortedUnique(add))
}

func sortedUnique(ix []int) []int {
	slices.Sort(ix)
	return slices.Compact(ix)
}

func (c *jobSyncCtx) failedIndexes() *indexRanges {
	var prev indexRanges
	if c.status.FailedIndexes != nil {
		prev = parseIndexRanges(*c.status.FailedIndexes, int(*c.spec.completions))
	}
	var add []int
	for _, p := range c.pods {
		if ix, ok := c.spec.validIndex(p); ok && hasTrackingFinalizer(p) && c.indexFailed(p) {
			add = append(add, ix)
		}
	}
	r := prev.withIndexes(sortedUnique(add))
	return &r
}

// indexFailed: the pod's failure fails its index — a FailIndex rule, or a
// counted failure that reaches backoffLimitPerIndex.
func (c *jobSyncCtx) indexFailed(p *api.Pod) bool {
	if !c.spec.podFailed(p) {
		return false
	}
	counted := true
	if c.spec.policy != nil {
		v := matchPodFailurePolicy(c.spec.policy, p)
		if v.Action == JobActionFailIndex {
			return true
		}
		counted = v.CountFailed
	}
	return counted && annotationCount(p, JobIndexFailureCountAnnotation) >= *c.spec.perIndex
}

// podsWithDelayedDeletion picks, per index still to be retried, the failed
// pod whose finalizer stays until its replacement (which inherits its
// failure count) exists: the one with the most failures, latest finished.
func (c *jobSyncCtx) podsWithDelayedDeletion() map[int]*api.Pod {
	activeIx := indexSet(c.active)
	out := map[int]*api.Pod{}
	c.countablePods(nil, func(p *api.Pod) bool {
		if !c.spec.podFailed(p) {
			return false
		}
		ix, ok := c.spec.validIndex(p)
		if !ok || c.succIx.has(ix) || c.failedIx.has(ix) || activeIx[ix] {
			return false
		}
		if last, ok := out[ix]; ok {
			if absoluteFailures(last) <= absoluteFailures(p) && !podFinishTime(p).Before(podFinishTime(last)) {
				out[ix] = p
			}
		} else {
			out[ix] = p
		}
		return false
	})
	return out
}

func absoluteFailures(p *api.Pod) int32 {
	return annotationCount(p, JobIndexFailureCountAnnotation) + annotationCount(p, JobIndexIgnoredFailureCountAnnotation)
}

func indexSet(pods []*api.Pod) map[int]bool {
	m := map[int]bool{}
	for _, p := range pods {
		if ix := completionIndex(p); ix != noIndex {
			m[ix] = true
		}
	}
	return m
}

// ensureJobCondition sets a condition of type t as the Job controller does
// (ensureJobConditionStatus): replaced whole when its status, reason or
// message differ, appended when missing unless status is False. It reports
// whether the list changed.
func ensureJobCondition(st *api.JobStatus, t string, status api.ConditionStatus, reason, msg string, now time.Time) bool {
	if c := findWorkloadCondition(st.Conditions, t); c != nil {
		if c.Status != status || c.Reason != reason || c.Message != msg {
			*c = *jobCondition(t, reason, msg, now)
			c.Status = status
			return true
		}
		return false
	}
	if status == api.ConditionFalse {
		return false
	}
	nc := jobCondition(t, reason, msg, now)
	nc.Status = status
	st.Conditions = append(st.Conditions, *nc)
	return true
}

// cloneJobStatus copies a status deeply enough that the sync's writes
// never reach the caller's Job.
func cloneJobStatus(s api.JobStatus) api.JobStatus {
	s.Conditions = slices.Clone(s.Conditions)
	if s.UncountedTerminatedPods != nil {
		u := api.UncountedTerminatedPods{
			Succeeded: slices.Clone(s.UncountedTerminatedPods.Succeeded),
			Failed:    slices.Clone(s.UncountedTerminatedPods.Failed),
		}
		s.UncountedTerminatedPods = &u
	}
	if s.FailedIndexes != nil {
		v := *s.FailedIndexes
		s.FailedIndexes = &v
	}
	if s.Ready != nil {
		v := *s.Ready
		s.Ready = &v
	}
	if s.Terminating != nil {
		v := *s.Terminating
		s.Terminating = &v
	}
	return s
}

// claimJobPods returns the pods the Job controls (getPodsForJob):
// its own by controller reference while its selector matches them, and
// orphans the selector matches, adopted — the adoption adds the
// controller reference and the tracking finalizer, and the sync sees the
// pod with both. Pods it owns that no longer match are released. The
// adoption and release requests come first among the sync's actions.
func (c *jobSyncCtx) claimJobPods(pods []*api.Pod) error {
	sel, err := api.LabelSelectorAsSelector(c.job.Spec.Selector)
	if err != nil {
		return fmt.Errorf("%w: job %s/%s: spec.selector: %v", errInvalidInput, c.job.Namespace, c.job.Name, err)
	}
	// Upstream lists the pods of the Job's namespace only.
	inNamespace := pods
	if ns := c.job.Namespace; ns != "" {
		inNamespace = nil
		for _, p := range pods {
			if p != nil && (p.Namespace == "" || p.Namespace == ns) {
				inNamespace = append(inNamespace, p)
			}
		}
	}
	claims := ClaimPods(&c.job.ObjectMeta, sel, inNamespace)
	adopted := map[*api.Pod]bool{}
	for _, p := range claims.Adopted {
		adopted[p] = true
		c.add(JobAdoptPod, p)
	}
	for _, p := range claims.Released {
		c.add(JobReleasePod, p)
	}
	ref := NewControllerRef(&c.job.ObjectMeta, "batch/v1", "Job")
	for _, p := range claims.Claimed {
		if adopted[p] {
			cp := *p
			cp.OwnerReferences = AdoptOwnerReferences(p.OwnerReferences, ref)
			if !hasTrackingFinalizer(p) {
				cp.Finalizers = append(slices.Clone(p.Finalizers), JobTrackingFinalizer)
			}
			p = &cp
		}
		c.pods = append(c.pods, p)
	}
	return nil
}
