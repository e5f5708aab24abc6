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

// QueueLess reports whether a leaves the scheduling queue before b, by
// kube-scheduler's default QueueSort plugin (PrioritySort): the higher
// spec.priority first (unset counts as 0), and between equal priorities
// the earlier queue timestamp first. Pods equal on both are unordered: the
// queue may hand them out either way.
func QueueLess(a, b QueuedPod) bool {
	pa, pb := PodPriority(a.Pod), PodPriority(b.Pod)
	if pa != pb {
		return pa > pb
	}
	return a.Timestamp.Before(b.Timestamp)
}

// QueueCompare is QueueLess as a three-way comparison for slices.SortFunc:
// negative when a goes first, positive when b does, 0 for pods the queue
// cannot tell apart.
func QueueCompare(a, b QueuedPod) int {
	switch {
	case QueueLess(a, b):
		return -1
	case QueueLess(b, a):
		return 1
	}
	return 0
}

// SortQueue orders pods the way the scheduling queue hands them out, first
// out first (see QueueLess). Pods the queue cannot tell apart keep their
// relative order.
func SortQueue(pods []QueuedPod) {
	slices.SortStableFunc(pods, QueueCompare)
}
