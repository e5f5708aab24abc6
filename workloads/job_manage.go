package workloads

import (
	"errors"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// manageJob creates or deletes pods towards the wanted number of active
// ones (pkg/controller/job manageJob) and returns the active count the
// status reports. It either deletes or creates, never both in one sync.
func (c *jobSyncCtx) manageJob() int32 {
	spec := &c.spec
	active := int32(len(c.active))
	if spec.suspended {
		removed := c.deleteJobPods(c.podsForRemoval(int(active)))
		return active - removed
	}
	var want int32
	if spec.completions == nil {
		// Without completions, once a pod has succeeded the rest may
		// finish: nothing new is started.
		if c.succeeded > 0 {
			want = active
		} else {
			want = spec.parallelism
		}
	} else {
		want = max(min(*spec.completions-c.succeeded, spec.parallelism), 0)
	}
	rm := c.podsForRemoval(int(max(active-want, 0)))
	if len(rm) > MaxJobPodCreateDeletePerSync {
		rm = rm[:MaxJobPodCreateDeletePerSync]
	}
	if len(rm) > 0 {
		return active - c.deleteJobPods(rm)
	}
	var terminating int32
	if spec.onlyFailed {
		terminating = c.terminating
	}
	diff := want - terminating - active
	if diff <= 0 {
		return active
	}
	if spec.perIndex == nil {
		if wait := c.backoff.remaining(c.cfg, c.now); wait > 0 {
			c.requeueIn(max(wait, JobSyncBatchPeriod))
			return active
		}
	}
	diff = min(diff, MaxJobPodCreateDeletePerSync)
	var indexes []int
	if spec.indexed {
		indexes = c.firstPendingIndexes(int(diff))
		if spec.perIndex != nil {
			if wait := c.indexesReadyNow(&indexes); wait > 0 {
				c.requeueIn(max(wait, JobSyncBatchPeriod))
				return active
			}
		}
		diff = int32(len(indexes))
	}
	for i := int32(0); i < diff; i++ {
		ix := noIndex
		if spec.indexed {
			ix = indexes[i]
		}
		pod, err := buildJobPod(c.job, spec, ix, c.delayed[ix])
		if err != nil {
			// The template itself is refused (upstream's create fails):
			// the slow-start batching stops after the first failure, so
			// nothing is created this sync.
			c.out.Err = err
			return active
		}
		c.add(JobCreatePod, pod)
	}
	return active + diff - c.refuseCreates(int(diff))
}

// refuseCreates applies the API server's answers to the last n create
// actions: they go in slow-start batches (1, 2, 4, …) that stop at the
// first batch with a refusal (JobInput.AcceptCreates); its refused creates
// become FailedCreates, the rest are not sent, and the sync fails with the
// refusal. A refusal because the namespace is being deleted is taken for
// success, as upstream's create goroutine returns on it. It returns how
// many of the n pods are not active after all.
func (c *jobSyncCtx) refuseCreates(n int) int32 {
	if c.mem.accept == nil || *c.mem.accept >= n {
		return 0
	}
	accept := max(*c.mem.accept, 0)
	err := c.mem.createErr
	if err == nil {
		err = ErrPodCreateRefused
	}
	first := len(c.out.Actions) - n
	creates := slices.Clone(c.out.Actions[first:])
	c.out.Actions = c.out.Actions[:first+accept]
	if errors.Is(err, namespace.ErrTerminating) {
		c.mem.terminatingCreates = n - accept
		return 0
	}
	sent := 0
	for batch := min(n, 1); batch > 0; batch = min(2*batch, n-sent) {
		sent += batch
		if sent > accept {
			break
		}
	}
	for _, a := range creates[accept:sent] {
		c.out.FailedCreates = append(c.out.FailedCreates, a.Pod)
	}
	c.out.Err = err
	return int32(n - accept)
}

// JobSyncBatchPeriod is the Job controller's batching delay
// (syncJobBatchPeriod): the shortest delay it queues a Job with, and the
// delay after one of the Job's pods changed or its status was written; an
// added or deleted Job, or a new generation of one, is synced at once.
const JobSyncBatchPeriod = time.Second

// deleteJobPods removes each pod's tracking finalizer, then deletes it;
// it returns how many it deleted.
func (c *jobSyncCtx) deleteJobPods(pods []*api.Pod) int32 {
	c.mem.expectDeletes = append(c.mem.expectDeletes, pods...)
	for _, p := range pods {
		if hasTrackingFinalizer(p) {
			c.add(JobRemoveFinalizer, p)
		}
		c.add(JobDeletePod, p)
		if api.IsPodReady(p) {
			c.ready--
		}
	}
	n := int32(len(pods))
	c.terminating += n
	return n
}

// podsForRemoval picks the active pods to delete (activePodsForRemoval):
// for an Indexed Job first those without a valid index and the extra pods
// of a repeated index; then, to reach atLeast, the pods earliest in their
// life (unscheduled, pending, not ready, ready for less time, restarted
// more, newer).
func (c *jobSyncCtx) podsForRemoval(atLeast int) []*api.Pod {
	var rm, left []*api.Pod
	if c.spec.indexed {
		rm, left = duplicateIndexPods(c.active, int(*c.spec.completions))
	} else {
		left = slices.Clone(c.active)
	}
	if len(rm) < atLeast {
		slices.SortStableFunc(left, compareForRemoval)
		rm = append(rm, left[:atLeast-len(rm)]...)
	}
	return rm
}

func duplicateIndexPods(active []*api.Pod, completions int) (rm, left []*api.Pod) {
	pods := slices.Clone(active)
	slices.SortStableFunc(pods, func(a, b *api.Pod) int { return completionIndex(a) - completionIndex(b) })
	flush := func(group []*api.Pod, ix int) {
		switch {
		case len(group) == 0:
		case ix == noIndex:
			rm = append(rm, group...)
		case len(group) == 1:
			left = append(left, group[0])
		default:
			g := slices.Clone(group)
			slices.SortStableFunc(g, compareForRemoval)
			rm = append(rm, g[:len(g)-1]...)
			left = append(left, g[len(g)-1])
		}
	}
	start, last := 0, noIndex
	end := len(pods)
	for i, p := range pods {
		ix := completionIndex(p)
		if ix >= completions {
			rm = append(rm, pods[i:]...)
			end = i
			break
		}
		if ix != last {
			flush(pods[start:i], last)
			start, last = i, ix
		}
	}
	flush(pods[start:end], last)
	return rm, left
}

// compareForRemoval orders pods as pkg/controller's ActivePods does, the
// first to delete first: unassigned before assigned, Pending before
// Unknown before Running, not ready before ready, ready for less time
// before longer, more container restarts before fewer (regular
// containers, then sidecars), newer (or without a creation time) before
// older.
func compareForRemoval(a, b *api.Pod) int {
	less := func(x, y *api.Pod) bool {
		if x.Spec.NodeName != y.Spec.NodeName && (x.Spec.NodeName == "" || y.Spec.NodeName == "") {
			return x.Spec.NodeName == ""
		}
		if px, py := phaseOrdinal(x.Status.Phase), phaseOrdinal(y.Status.Phase); px != py {
			return px < py
		}
		rx, ry := api.IsPodReady(x), api.IsPodReady(y)
		if rx != ry {
			return !rx
		}
		if rx && ry {
			tx, ty := readySince(x), readySince(y)
			if !tx.Equal(ty) {
				return afterOrZero(tx, ty)
			}
		}
		cx, sx := maxRestarts(x)
		cy, sy := maxRestarts(y)
		if cx != cy {
			return cx > cy
		}
		if sx != sy {
			return sx > sy
		}
		if !x.CreationTimestamp.Time.Equal(y.CreationTimestamp.Time) {
			return afterOrZero(x.CreationTimestamp.Time, y.CreationTimestamp.Time)
		}
		return false
	}
	switch {
	case less(a, b):
		return -1
	case less(b, a):
		return 1
	}
	return 0
}

func afterOrZero(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero()
	}
	return a.After(b)
}

// firstPendingIndexes returns up to count indexes below completions that
// no active pod holds and that have neither succeeded nor failed (nor,
// when only failed pods are replaced, have a terminating pod).
func (c *jobSyncCtx) firstPendingIndexes(count int) []int {
	if count == 0 {
		return nil
	}
	completions := int(*c.spec.completions)
	nonPending := c.succIx.withIndexes(sortedIndexes(c.active))
	if c.spec.onlyFailed {
		var term []*api.Pod
		for _, p := range c.pods {
			if isPodTerminating(p) {
				term = append(term, p)
			}
		}
		nonPending = nonPending.withIndexes(sortedIndexes(term))
	}
	if c.failedIx != nil {
		nonPending = nonPending.merge(*c.failedIx)
	}
	out := make([]int, 0, count)
	cand := 0
	for _, r := range nonPending {
		for ; cand < completions && len(out) < count && cand < r.first; cand++ {
			out = append(out, cand)
		}
		if cand < r.last+1 {
			cand = r.last + 1
		}
	}
	for ; cand < completions && len(out) < count; cand++ {
		out = append(out, cand)
	}
	return out
}

func sortedIndexes(pods []*api.Pod) []int {
	var ix []int
	for k := range indexSet(pods) {
		ix = append(ix, k)
	}
	return sortedUnique(ix)
}

// indexesReadyNow keeps the indexes whose per-index back-off has expired;
// when none has, it returns the shortest wait.
func (c *jobSyncCtx) indexesReadyNow(indexes *[]int) time.Duration {
	var now []int
	var minWait time.Duration = -1
	for _, ix := range *indexes {
		w := c.indexBackoff(c.delayed[ix])
		if w == 0 {
			now = append(now, ix)
		} else if minWait < 0 || w < minWait {
			minWait = w
		}
	}
	*indexes = now
	if len(now) > 0 || minWait < 0 {
		return 0
	}
	return minWait
}

// indexBackoff is the wait before replacing lastFailed within its index:
// its failures so far (counted and ignored) plus this one.
func (c *jobSyncCtx) indexBackoff(lastFailed *api.Pod) time.Duration {
	if lastFailed == nil {
		return 0
	}
	return backoffRemaining(c.cfg, absoluteFailures(lastFailed)+1, podFinishTime(lastFailed), c.now)
}
