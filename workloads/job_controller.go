package workloads

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// JobExpectationsTimeout is how long the Job controller waits for the pod
// creations and deletions it sent to show up before it manages the Job's
// pods again regardless (pkg/controller ExpectationsTimeout).
const JobExpectationsTimeout = 5 * time.Minute

// The Job controller's queue retries a sync that returned an error after
// 1 s, doubling per consecutive error up to 1 min (pkg/controller/job
// DefaultJobApiBackOff, MaxJobApiBackOff).
const (
	DefaultJobAPIBackOff = time.Second
	MaxJobAPIBackOff     = time.Minute
)

// JobInput is what the Job controller observes when it syncs a Job: the
// Job as stored and the pods of its namespace (or just the Job's). Feeding
// the same objects again is the tick: time passed, nothing else changed.
type JobInput struct {
	Job  *api.Job
	Pods []*api.Pod
	// AcceptCreates, when not nil, is how many pod creations the API
	// server accepts during this sync (an admission plugin refusing the
	// Job's pods: 0); the later ones fail with CreateError. Nil accepts
	// all.
	AcceptCreates *int
	// CreateError is the API error a refused creation returns; nil gives
	// ErrPodCreateRefused.
	CreateError error
}

// JobController is the Job controller of kube-controller-manager
// (pkg/controller/job) for one Job, as a state machine: each Step is one
// syncJob over the Job and pods it observes, returning the requests as
// values (JobSync's actions); the caller performs them and feeds the
// resulting objects back. Beyond SyncJob it remembers what upstream keeps
// between syncs:
//
//   - the pod failure back-off record: consecutive failures since the last
//     success and the last failure's time, which delay replacement pods
//     (10 s doubling, at most 10 min, by default);
//   - expectations: after creating or deleting pods it manages pods again
//     only once it has observed them all (new pod UIDs, deletion
//     timestamps), or JobExpectationsTimeout after sending them; in
//     between a sync only tracks status;
//   - the finalizer removals it sent, whose pods it does not count again
//     until it sees the finalizer gone.
//
// NextDeadline is the earliest of the back-off expiry, the
// activeDeadlineSeconds expiry and, after a sync that failed (JobSync.Err),
// the queue's retry — the times upstream requeues the Job by itself (expectations expire without requeueing anything: the next event
// finds them expired). The zero value is ready to use
// with the default JobConfig; NewJobController sets another.
type JobController struct {
	cfg  JobConfig
	mem  jobMemory
	seen map[string]bool
	// creations and deletions still expected, and since when.
	creates     int
	deletes     map[string]bool
	expectSince time.Time
	next        time.Time
	// consecutive syncs that ended in an error (JobSync.Err).
	errors int
}

// NewJobController returns a Job controller with cfg and no memory (as
// kube-controller-manager starts).
func NewJobController(cfg JobConfig) *JobController { return &JobController{cfg: cfg} }

// Step syncs the Job at now over what the controller observes. A nil
// machine or Job is an error; so is a Job SyncJob refuses.
func (m *JobController) Step(in JobInput, now time.Time) (JobSync, error) {
	if m == nil {
		return JobSync{}, fmt.Errorf("%w: job controller: nil", errInvalidInput)
	}
	if in.Job == nil {
		return JobSync{}, fmt.Errorf("%w: job: nil", errInvalidInput)
	}
	m.observe(in.Pods)
	m.mem.unsatisfied = (m.creates > 0 || len(m.deletes) > 0) && now.Before(m.expectSince.Add(JobExpectationsTimeout))
	m.mem.expectCreates, m.mem.expectDeletes = 0, nil
	m.mem.accept, m.mem.createErr, m.mem.terminatingCreates = in.AcceptCreates, in.CreateError, 0
	out, err := syncJob(in.Job, in.Pods, m.cfg, &m.mem, now)
	if err != nil {
		return JobSync{}, err
	}
	m.mem.backoff = out.Backoff
	if out.Skipped == "finished" {
		m.creates, m.deletes, m.mem.rmFinalizers = 0, nil, nil
	}
	if m.mem.expectCreates > 0 || len(m.mem.expectDeletes) > 0 {
		if !m.mem.unsatisfied {
			m.creates, m.deletes = 0, nil
		}
		m.creates += m.mem.expectCreates
		for _, p := range m.mem.expectDeletes {
			if m.deletes == nil {
				m.deletes = map[string]bool{}
			}
			m.deletes[p.UID] = true
		}
		m.expectSince = now
	}
	for _, a := range out.Actions {
		if a.Kind == JobRemoveFinalizer && !m.deletes[a.Pod.UID] {
			if m.mem.rmFinalizers == nil {
				m.mem.rmFinalizers = map[string]bool{}
			}
			m.mem.rmFinalizers[a.Pod.UID] = true
		}
	}
	m.next = out.Requeue
	if out.Err != nil {
		d := DefaultJobAPIBackOff << min(m.errors, 6)
		m.errors++
		if t := now.Add(min(d, MaxJobAPIBackOff)); m.next.IsZero() || t.Before(m.next) {
			m.next = t
		}
	} else {
		m.errors = 0
	}
	if out.Skipped != "" {
		m.next = time.Time{}
	}
	return out, nil
}

// observe notes the pods now visible: new UIDs fulfil expected
// creations, deleted or vanished pods expected deletions, pods without
// the tracking finalizer expected finalizer removals.
func (m *JobController) observe(pods []*api.Pod) {
	now := make(map[string]*api.Pod, len(pods))
	for _, p := range pods {
		if p != nil {
			now[p.UID] = p
		}
	}
	for uid := range now {
		if !m.seen[uid] && m.creates > 0 {
			m.creates--
		}
	}
	m.seen = make(map[string]bool, len(now))
	for uid := range now {
		m.seen[uid] = true
	}
	for uid := range m.deletes {
		if p, ok := now[uid]; !ok || p.DeletionTimestamp != nil {
			delete(m.deletes, uid)
		}
	}
	for uid := range m.mem.rmFinalizers {
		if p, ok := now[uid]; !ok || !hasTrackingFinalizer(p) {
			delete(m.mem.rmFinalizers, uid)
		}
	}
}

// NextDeadline is when the controller must sync the Job again even if
// nothing changes: a pod failure back-off or activeDeadlineSeconds
// expiring, or the retry of a sync that failed. Zero when only an input
// will (and for a nil machine).
func (m *JobController) NextDeadline() time.Time {
	if m == nil {
		return time.Time{}
	}
	return m.next
}

// Backoff is the pod failure back-off record the controller keeps for the
// Job. A nil machine has none.
func (m *JobController) Backoff() JobBackoff {
	if m == nil {
		return JobBackoff{}
	}
	return m.mem.backoff
}
