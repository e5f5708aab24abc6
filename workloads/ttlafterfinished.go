package workloads

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// TTLAfterFinishedControllerName is the ttl-after-finished controller's
// name in kube-controller-manager.
const TTLAfterFinishedControllerName = "ttl-after-finished-controller"

// JobExpiry is when a finished Job's spec.ttlSecondsAfterFinished runs
// out (pkg/controller/ttlafterfinished getFinishAndExpireTime): the
// lastTransitionTime of its True Complete or Failed condition plus the
// TTL. ok is false for a Job that needs no clean-up: no TTL, not finished,
// or already being deleted. A finished Job whose condition has no
// lastTransitionTime is an error wrapping api.ErrInvalidInput (upstream
// logs it and tries again later).
func JobExpiry(job *api.Job) (finishedAt, expireAt time.Time, ok bool, err error) {
	if job == nil {
		return time.Time{}, time.Time{}, false, fmt.Errorf("%w: job: nil", errInvalidInput)
	}
	if job.DeletionTimestamp != nil || job.Spec.TTLSecondsAfterFinished == nil || !jobFinished(job) {
		return time.Time{}, time.Time{}, false, nil
	}
	for _, c := range job.Status.Conditions {
		if (c.Type == JobConditionComplete || c.Type == JobConditionFailed) && c.Status == api.ConditionTrue {
			if c.LastTransitionTime.IsZero() {
				return time.Time{}, time.Time{}, false, fmt.Errorf("%w: job %s/%s: status.conditions[%s].lastTransitionTime: unset, the finish time is unknown",
					errInvalidInput, job.Namespace, job.Name, c.Type)
			}
			finishedAt = c.LastTransitionTime.Time
			break
		}
	}
	return finishedAt, finishedAt.Add(time.Duration(*job.Spec.TTLSecondsAfterFinished) * time.Second), true, nil
}

// TTLAfterFinishedSync is what one look of the ttl-after-finished
// controller at a Job does.
type TTLAfterFinishedSync struct {
	// Delete is set when the Job's TTL has run out: the controller
	// deletes it with propagationPolicy Foreground and a precondition on
	// its uid, so its pods go first (the garbage collector's foreground
	// deletion) and a new Job of the same name is left alone.
	Delete bool
	// ExpireAt is when the TTL runs out (zero when the Job needs no
	// clean-up).
	ExpireAt time.Time
}

// TTLAfterFinishedController is kube-controller-manager's
// ttl-after-finished controller (pkg/controller/ttlafterfinished) for one
// Job, as a machine: each Step looks at the Job as the controller's
// informer holds it — after every add or update of the Job, and at the
// controller's NextDeadline — and answers whether to delete it now. A
// finished Job with spec.ttlSecondsAfterFinished is deleted once the TTL
// has run out from its finish time (ttl 0: as soon as it is seen
// finished); until then the controller asks to look again at its
// expiry. A requeue still waiting is kept across looks (the work queue
// keeps a key's earliest time). The zero value is ready to use.
type TTLAfterFinishedController struct {
	next time.Time
}

// Step looks at job at now. A nil controller or job is an error wrapping
// api.ErrInvalidInput; so is a finished Job without a finish time, for
// which nothing is done.
func (c *TTLAfterFinishedController) Step(job *api.Job, now time.Time) (TTLAfterFinishedSync, error) {
	if c == nil {
		return TTLAfterFinishedSync{}, fmt.Errorf("%w: ttl-after-finished controller: nil", errInvalidInput)
	}
	if !c.next.After(now) {
		c.next = time.Time{} // this look is the one it waited for, or came after it
	}
	_, expireAt, ok, err := JobExpiry(job)
	if err != nil || !ok {
		return TTLAfterFinishedSync{}, err
	}
	if expireAt.After(now) {
		c.next = api.EarliestDeadline(c.next, expireAt)
		return TTLAfterFinishedSync{ExpireAt: expireAt}, nil
	}
	return TTLAfterFinishedSync{Delete: true, ExpireAt: expireAt}, nil
}

// NextDeadline is when the controller looks at the Job again with no new
// event: its expiry, once it is finished with a TTL still running. The
// zero time means not until the Job changes; a nil controller has none.
func (c *TTLAfterFinishedController) NextDeadline() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.next
}
