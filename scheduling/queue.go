package scheduling

import (
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// QueuedPod is a pending pod as the scheduling queue holds it: the pod and
// the time it was added to the queue (kube-scheduler's QueuedPodInfo
// Timestamp, refreshed each time the pod is moved back to the active
// queue).
type QueuedPod struct {
	Pod       *api.Pod
	Timestamp time.Time
}

// QueueCompare is the order in which the scheduling queue hands out
// pending pods, by kube-scheduler's default QueueSort plugin
// (PrioritySort's Less), as a three-way comparison for slices.SortFunc:
// negative when a leaves the queue before b, positive when b does, 0 for
// pods the queue cannot tell apart. The higher spec.priority goes first
// (unset counts as 0), and between equal priorities the earlier queue
// timestamp.
func QueueCompare(a, b QueuedPod) int {
	if pa, pb := api.PodPriority(a.Pod), api.PodPriority(b.Pod); pa != pb {
		if pa > pb {
			return -1
		}
		return 1
	}
	return a.Timestamp.Compare(b.Timestamp)
}

// SortQueue orders pods the way the scheduling queue hands them out, first
// out first (see QueueCompare). Pods the queue cannot tell apart keep their
// relative order. A QueuedPod with a nil Pod has priority 0.
func SortQueue(pods []QueuedPod) {
	slices.SortStableFunc(pods, QueueCompare)
}
