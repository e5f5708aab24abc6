package workloads

import (
	"slices"

	"github.com/podsem/podsem/api"
)

// trackStatus is upstream's trackJobStatusAndRemoveFinalizers with
// flushUncountedAndRemoveFinalizers and enactJobFinished: finished pods
// still carrying the tracking finalizer are recorded in
// status.uncountedTerminatedPods (first write), their finalizers removed,
// the counts moved from uncounted to succeeded/failed, and the terminal
// condition added once nothing is left running or uncounted (second
// write). The back-off record is kept only when the first write happens.
func (c *jobSyncCtx) trackStatus(needsFlush bool, mem *jobMemory) {
	st := c.status
	unc := st.UncountedTerminatedPods
	pods := c.pods
	if c.spec.indexed {
		pods = slices.Clone(pods)
		slices.SortStableFunc(pods, func(a, b *api.Pod) int { return completionIndex(a) - completionIndex(b) })
	}
	withFinalizer := map[string]bool{}
	for _, p := range pods {
		if hasTrackingFinalizer(p) && !c.rmExpected[p.UID] {
			withFinalizer[p.UID] = true
		}
	}
	if countUncountedWithoutFinalizer(st, withFinalizer) {
		needsFlush = true
	}
	var remove []*api.Pod
	var newSuccIx []int
	reachedMax := false
	for _, p := range pods {
		if !hasTrackingFinalizer(p) || c.rmExpected[p.UID] {
			continue // counted in an earlier sync
		}
		failed := c.spec.podFailed(p)
		if !c.canRemoveFinalizer(p, failed) {
			continue
		}
		remove = append(remove, p)
		switch {
		case p.Status.Phase == api.PodSucceeded && !c.uncFailed[p.UID]:
			if c.spec.indexed {
				if ix, ok := c.spec.validIndex(p); ok && !c.prevSucc.has(ix) {
					newSuccIx = append(newSuccIx, ix)
					needsFlush = true
				}
			} else if !c.uncSucc[p.UID] {
				needsFlush = true
				unc.Succeeded = append(unc.Succeeded, p.UID)
			}
		case failed || (c.finished != nil && c.finished.Type != JobConditionSuccessCriteriaMet):
			// Once the Job is finishing, every pod not succeeded counts
			// as failed.
			_, okIx := c.spec.validIndex(p)
			if !c.uncFailed[p.UID] && (!c.spec.indexed || okIx) {
				if matchPodFailurePolicy(c.spec.policy, p).CountFailed {
					needsFlush = true
					unc.Failed = append(unc.Failed, p.UID)
				}
			}
		}
		if len(newSuccIx)+len(unc.Succeeded)+len(unc.Failed) >= MaxJobUncountedPods {
			reachedMax = true
			break
		}
	}
	if c.spec.indexed {
		c.succIx = c.succIx.withIndexes(sortedUnique(newSuccIx))
		s := c.succIx.String()
		if s != st.CompletedIndexes {
			needsFlush = true
		}
		st.Succeeded = int32(c.succIx.total())
		st.CompletedIndexes = s
		var failedIx *string
		if c.failedIx != nil {
			v := c.failedIx.String()
			failedIx = &v
		}
		if !equalStringPtr(st.FailedIndexes, failedIx) {
			st.FailedIndexes = failedIx
			needsFlush = true
		}
	}
	if c.finished != nil && c.finished.Type == JobConditionFailureTarget {
		st.Conditions = append(st.Conditions, *c.finished)
		needsFlush = true
		c.finished = jobCondition(JobConditionFailed, c.finished.Reason, c.finished.Message, c.now)
	}
	if c.finished != nil && c.finished.Type == JobConditionSuccessCriteriaMet && c.finished.Status == api.ConditionTrue {
		if sc := findWorkloadCondition(st.Conditions, JobConditionSuccessCriteriaMet); sc == nil || sc.Status != api.ConditionTrue {
			st.Conditions = append(st.Conditions, *c.finished)
			needsFlush = true
		}
		c.finished = jobCondition(JobConditionComplete, c.finished.Reason, c.finished.Message, c.now)
	}

	c.out.Backoff = mem.backoff
	if needsFlush {
		c.write()
		c.out.Backoff = c.backoff
		needsFlush = false
	}
	for _, p := range remove {
		c.add(JobRemoveFinalizer, p)
		delete(withFinalizer, p.UID)
	}
	if countUncountedWithoutFinalizer(st, withFinalizer) {
		needsFlush = true
	}
	if !reachedMax && c.enactFinished() {
		needsFlush = true
	}
	if needsFlush {
		c.write()
	}
}

func (c *jobSyncCtx) write() {
	s := cloneJobStatus(*c.status)
	c.out.Actions = append(c.out.Actions, JobAction{Kind: JobWriteStatus, Status: &s})
}

// canRemoveFinalizer: a pod's finalizer goes when the Job is being deleted
// or finishing, when it succeeded, or when it failed — unless, with
// backoffLimitPerIndex, it is the failed pod its index's replacement will
// take its failure count from.
func (c *jobSyncCtx) canRemoveFinalizer(p *api.Pod, failed bool) bool {
	if c.job.DeletionTimestamp != nil || c.finished != nil || p.Status.Phase == api.PodSucceeded {
		return true
	}
	if !failed {
		return false
	}
	if c.spec.perIndex != nil {
		if ix := completionIndex(p); ix != noIndex {
			if d, ok := c.delayed[ix]; ok && d.UID == p.UID {
				return false
			}
		}
	}
	return true
}

// enactFinished adds the Failed or Complete condition once no finished
// pod is left uncounted and none is terminating.
func (c *jobSyncCtx) enactFinished() bool {
	if c.finished == nil {
		return false
	}
	st := c.status
	if u := st.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		return false
	}
	if c.terminating > 0 {
		return false
	}
	f := c.finished
	ensureJobCondition(st, f.Type, f.Status, f.Reason, f.Message, c.now)
	if f.Type == JobConditionComplete {
		t := f.LastTransitionTime
		st.CompletionTime = &t
	}
	return true
}

// countUncountedWithoutFinalizer moves the uncounted pods whose finalizer
// is gone into status.succeeded and status.failed.
func countUncountedWithoutFinalizer(st *api.JobStatus, withFinalizer map[string]bool) bool {
	u := st.UncountedTerminatedPods
	changed := false
	keep := func(uids []string) []string {
		var out []string
		for _, uid := range uids {
			if withFinalizer[uid] {
				out = append(out, uid)
			}
		}
		return out
	}
	if k := keep(u.Succeeded); len(k) != len(u.Succeeded) {
		st.Succeeded += int32(len(u.Succeeded) - len(k))
		u.Succeeded = k
		changed = true
	}
	if k := keep(u.Failed); len(k) != len(u.Failed) {
		st.Failed += int32(len(u.Failed) - len(k))
		u.Failed = k
		changed = true
	}
	return changed
}

func equalStringPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
