package proptest

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// CheckGraceNeverLengthens checks the graceful-deletion guarantee of the
// API server: once a pod's deletion has begun it is never undone and never
// given more time. history holds successive versions of one pod as a
// component stored or observed them, oldest first. From the first version
// with metadata.deletionTimestamp on, every later version keeps a
// deletionTimestamp and a deletionGracePeriodSeconds no longer than the
// one before — a repeated DELETE may only shorten (the generic registry's
// BeforeDelete with the pod strategy). One step may move the timestamp
// later, as v1.36.3 does: a shortening DELETE that arrives after the
// deadline has already passed stamps the moment of the request with 1
// second (0 for a force deletion); such a step must be exactly what
// termination.APIServerGrace gives for that request. Stored grace periods
// are read as the API server reads them, through termination.APIServerGrace
// (a negative one counts as 1, none as 0).
//
// The error wraps ErrViolation and names the versions and values;
// versions of different pods (another uid) or a nil version wrap
// api.ErrInvalidInput.
func CheckGraceNeverLengthens(history []*api.Pod) error {
	for i, p := range history {
		if p == nil {
			return fmt.Errorf("%w: history[%d]: nil", errInvalidInput, i)
		}
		if i > 0 && p.UID != history[0].UID {
			return fmt.Errorf("%w: history[%d] is pod uid %q, history[0] uid %q", errInvalidInput, i, p.UID, history[0].UID)
		}
	}
	for i := 1; i < len(history); i++ {
		prev, next := history[i-1], history[i]
		if prev.DeletionTimestamp == nil {
			continue
		}
		if next.DeletionTimestamp == nil {
			return fmt.Errorf("%w: pod %s: version %d clears the deletionTimestamp %s of version %d", ErrViolation, next.Key(), i, prev.DeletionTimestamp.UTC(), i-1)
		}
		if next.DeletionTimestamp.After(prev.DeletionTimestamp.Time) && !restamped(prev, next) {
			return fmt.Errorf("%w: pod %s: deletionTimestamp moves later, from %s (version %d) to %s (version %d)",
				ErrViolation, next.Key(), prev.DeletionTimestamp.UTC(), i-1, next.DeletionTimestamp.UTC(), i)
		}
		if a, b := storedGrace(prev), storedGrace(next); b > a {
			return fmt.Errorf("%w: pod %s: deletionGracePeriodSeconds lengthens from %d (version %d) to %d (version %d)", ErrViolation, next.Key(), a, i-1, b, i)
		}
	}
	return nil
}

// restamped reports whether next is what the API server stores when a
// DELETE with next's grace period arrives, at next's deletionTimestamp, for
// the deletion in progress in prev: the one way the timestamp moves later.
func restamped(prev, next *api.Pod) bool {
	d, err := termination.APIServerGrace(prev, &api.DeleteOptions{GracePeriodSeconds: next.DeletionGracePeriodSeconds}, next.DeletionTimestamp.Time)
	return err == nil && d.DeletionTimestamp != nil && d.DeletionTimestamp.Equal(next.DeletionTimestamp.Time) &&
		d.DeletionGracePeriodSeconds != nil && next.DeletionGracePeriodSeconds != nil && *d.DeletionGracePeriodSeconds == *next.DeletionGracePeriodSeconds
}

// storedGrace is the grace period of a deletion in progress as the API
// server reads the stored pod: what a DELETE naming no grace period
// leaves in place.
func storedGrace(p *api.Pod) int64 {
	d, err := termination.APIServerGrace(p, &api.DeleteOptions{}, p.DeletionTimestamp.Time)
	if err != nil || d.DeletionGracePeriodSeconds == nil {
		return 0
	}
	return *d.DeletionGracePeriodSeconds
}
