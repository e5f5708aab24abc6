package workloads

import (
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// The Job controller's pod failure back-off (pkg/controller/job
// DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff): after n
// consecutive failures a replacement waits 10 s·2^(n-1), at most 10 min,
// from the last failure. (The Job documentation still speaks of a six
// minute cap; the v1.36.3 controller's constant is ten minutes. JobConfig
// sets either.)
const (
	DefaultJobPodFailureBackOff = 10 * time.Second
	MaxJobPodFailureBackOff     = 10 * time.Minute
)

// JobBackoff is the Job controller's memory of a Job's pod failures
// (backoff_utils.go backoffRecord): the failures since the last success
// and when the last of them happened. The zero value is a Job without
// failures (or a freshly started controller).
type JobBackoff struct {
	FailuresAfterLastSuccess int32
	// LastFailure is the finish time of the latest failure counted.
	LastFailure time.Time
}

// next folds the pods that finished since the last sync into b, as
// newBackoffRecord does: successes reset the count, failures after the
// last success add to it.
func (b JobBackoff) next(succeeded, failed []*api.Pod) JobBackoff {
	if len(succeeded) == 0 && len(failed) == 0 {
		return b
	}
	fs := sortedFinishTimes(failed)
	if len(succeeded) == 0 {
		return JobBackoff{FailuresAfterLastSuccess: b.FailuresAfterLastSuccess + int32(len(fs)), LastFailure: fs[len(fs)-1]}
	}
	ss := sortedFinishTimes(succeeded)
	lastSuccess := ss[len(ss)-1]
	var out JobBackoff
	for i := len(fs) - 1; i >= 0 && fs[i].After(lastSuccess); i-- {
		if out.FailuresAfterLastSuccess == 0 {
			out.LastFailure = fs[i]
		}
		out.FailuresAfterLastSuccess++
	}
	return out
}

func sortedFinishTimes(pods []*api.Pod) []time.Time {
	ts := make([]time.Time, len(pods))
	for i, p := range pods {
		ts[i] = podFinishTime(p)
	}
	slices.SortStableFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	return ts
}

// remaining is how long a replacement still waits at now (0: none).
func (b JobBackoff) remaining(cfg JobConfig, now time.Time) time.Duration {
	return backoffRemaining(cfg, b.FailuresAfterLastSuccess, b.LastFailure, now)
}

func backoffRemaining(cfg JobConfig, failures int32, last time.Time, now time.Time) time.Duration {
	if failures <= 0 {
		return 0
	}
	initial, maxDelay := cfg.backoff()
	d := initial
	for i := int32(1); i < failures; i++ {
		d *= 2
		if d >= maxDelay {
			d = maxDelay
			break
		}
	}
	if elapsed := now.Sub(last); d > elapsed {
		return d - elapsed
	}
	return 0
}

// podFinishTime is when a finished pod finished, as the Job controller
// estimates it (getFinishedTime): the latest finishedAt when every regular
// container has terminated with one, else the Ready=False transition, else
// the deletion timestamp less its grace period, else the creation time.
func podFinishTime(p *api.Pod) time.Time {
	if t, ok := containersFinishTime(p); ok {
		return t
	}
	if c := api.FindCondition(p.Status.Conditions, api.PodReady); c != nil && c.Status == api.ConditionFalse && !c.LastTransitionTime.IsZero() {
		return c.LastTransitionTime.Time
	}
	if p.DeletionTimestamp != nil {
		var grace int64
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp.Time
}

func containersFinishTime(p *api.Pod) (time.Time, bool) {
	var t time.Time
	found := false
	for i := range p.Status.ContainerStatuses {
		term := p.Status.ContainerStatuses[i].State.Terminated
		if term == nil || term.FinishedAt.IsZero() {
			return time.Time{}, false
		}
		if !found || t.Before(term.FinishedAt.Time) {
			t, found = term.FinishedAt.Time, true
		}
	}
	return t, found
}
