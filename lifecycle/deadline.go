package lifecycle

import (
	"math"
	"time"

	"github.com/podsem/podsem/api"
)

// DeadlineExceededMessage is the pod status message the kubelet writes when
// it fails a pod for running past spec.activeDeadlineSeconds
// (pkg/kubelet/active_deadline.go); the status reason is DeadlineExceeded.
const DeadlineExceededMessage = "Pod was active on the node longer than the specified deadline"

// ActiveDeadline returns the instant at which the pod's
// spec.activeDeadlineSeconds runs out: status.startTime plus that many
// seconds. The clock starts when the kubelet first accepts the pod, so time
// spent pulling images and running init containers counts. ok is false when
// the pod sets no deadline or has no startTime yet (the kubelet's
// active-deadline handler then never fires). A deadline too large for a
// time.Duration is reported as not set. A nil pod has no deadline: the
// result is the zero time and false.
func ActiveDeadline(pod *api.Pod) (deadline time.Time, ok bool) {
	if pod == nil {
		return time.Time{}, false
	}
	ads := pod.Spec.ActiveDeadlineSeconds
	if ads == nil || pod.Status.StartTime.IsZero() {
		return time.Time{}, false
	}
	if *ads > math.MaxInt64/int64(time.Second) {
		return time.Time{}, false
	}
	return pod.Status.StartTime.Time.Add(time.Duration(*ads) * time.Second), true
}

// PastActiveDeadline reports whether the pod has been active on its node at
// least spec.activeDeadlineSeconds at now, as the kubelet's active-deadline
// handler decides before each sync (pkg/kubelet/active_deadline.go): the
// deadline is reached when now − status.startTime ≥ activeDeadlineSeconds,
// so a pod is past its deadline at the exact second it ends. remaining is the
// time left (zero or negative once past). A pod without a deadline or
// without a startTime is never past it, and remaining is then zero; so is a
// nil pod.
//
// Past the deadline the kubelet kills the pod's containers and reports phase
// Failed with reason DeadlineExceeded and DeadlineExceededMessage; the
// Machine does that.
func PastActiveDeadline(pod *api.Pod, now time.Time) (exceeded bool, remaining time.Duration) {
	d, ok := ActiveDeadline(pod)
	if !ok {
		return false, 0
	}
	remaining = d.Sub(now)
	return remaining <= 0, remaining
}
