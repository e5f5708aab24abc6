package workloads

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// rolloutRolling is one step of a RollingUpdate (rolloutRolling): scale
// the new ReplicaSet up if possible; only if it did not, scale old ones
// down; only if neither, and the input status shows a complete rollout,
// clean up the history.
func (s *deploymentSyncer) rolloutRolling(rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, true)
	if err != nil {
		return err
	}
	allRSs := append(slices.Clip(oldRSs), newRS)
	scaledUp, err := s.reconcileNewReplicaSet(allRSs, newRS)
	if err != nil {
		return err
	}
	if scaledUp {
		s.syncRolloutStatus(allRSs, newRS)
		return nil
	}
	if s.reconcileOldReplicaSets(allRSs, filterActive(oldRSs), newRS) {
		s.syncRolloutStatus(allRSs, newRS)
		return nil
	}
	if deploymentComplete(s.d, &s.d.Status) {
		s.cleanupDeployment(oldRSs)
	}
	s.syncRolloutStatus(allRSs, newRS)
	return nil
}

// reconcileNewReplicaSet scales the new ReplicaSet down to spec.replicas
// when above it, else up as far as maxSurge allows.
func (s *deploymentSyncer) reconcileNewReplicaSet(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (bool, error) {
	switch {
	case *newRS.Spec.Replicas == s.replicas():
		return false, nil
	case *newRS.Spec.Replicas > s.replicas():
		scaled, _ := s.scaleReplicaSetAndRecordEvent(newRS, s.replicas())
		return scaled, nil
	}
	n, err := s.newRSNewReplicas(allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _ := s.scaleReplicaSetAndRecordEvent(newRS, n)
	return scaled, nil
}

// reconcileOldReplicaSets scales old ReplicaSets down within
// maxUnavailable: at most all pods − (replicas − maxUnavailable) − the new
// ReplicaSet's unavailable pods, unhealthy replicas first
// (cleanupUnhealthyReplicas), then available ones oldest ReplicaSet first.
func (s *deploymentSyncer) reconcileOldReplicaSets(allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet) bool {
	if replicaCount(oldRSs) == 0 {
		return false
	}
	minAvailable := s.replicas() - s.unavailable
	newRSUnavailable := *newRS.Spec.Replicas - newRS.Status.AvailableReplicas
	maxScaledDown := replicaCount(allRSs) - minAvailable - newRSUnavailable
	if maxScaledDown <= 0 {
		return false
	}
	oldRSs, cleaned, ok := s.cleanupUnhealthyReplicas(oldRSs, maxScaledDown)
	if !ok {
		// Upstream swallows this error: the sync goes on as if nothing
		// was scaled down.
		return false
	}
	scaled := s.scaleDownOldReplicaSetsForRollingUpdate(append(slices.Clip(oldRSs), newRS), oldRSs)
	return cleaned+scaled > 0
}

// cleanupUnhealthyReplicas scales old ReplicaSets (oldest first) down by
// their replicas that are not available, up to maxCleanup in all. A
// ReplicaSet with more available pods than spec.replicas ends the cleanup
// with upstream's error (ok false).
func (s *deploymentSyncer) cleanupUnhealthyReplicas(oldRSs []*api.ReplicaSet, maxCleanup int32) ([]*api.ReplicaSet, int32, bool) {
	slices.SortFunc(oldRSs, compareByCreation)
	var total int32
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		if *rs.Spec.Replicas == 0 || *rs.Spec.Replicas == rs.Status.AvailableReplicas {
			continue
		}
		down := min(maxCleanup-total, *rs.Spec.Replicas-rs.Status.AvailableReplicas)
		n := *rs.Spec.Replicas - down
		if n > *rs.Spec.Replicas {
			return nil, 0, false
		}
		_, oldRSs[i] = s.scaleReplicaSetAndRecordEvent(rs, n)
		total += down
	}
	return oldRSs, total, true
}

// scaleDownOldReplicaSetsForRollingUpdate scales old ReplicaSets (oldest
// first) down by the available pods above replicas − maxUnavailable.
func (s *deploymentSyncer) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*api.ReplicaSet) int32 {
	minAvailable := s.replicas() - s.unavailable
	available := statusCount(allRSs, availableReplicas)
	if available <= minAvailable {
		return 0
	}
	slices.SortFunc(oldRSs, compareByCreation)
	want := available - minAvailable
	var total int32
	for _, rs := range oldRSs {
		if total >= want {
			break
		}
		if *rs.Spec.Replicas == 0 {
			continue
		}
		down := min(*rs.Spec.Replicas, want-total)
		s.scaleReplicaSetAndRecordEvent(rs, *rs.Spec.Replicas-down)
		total += down
	}
	return total
}

// rolloutRecreate is one step of a Recreate rollout: scale every old
// ReplicaSet to 0; then wait until no old pod runs (any pod of an old
// ReplicaSet not Succeeded or Failed, terminating ones included, or an old
// ReplicaSet reporting status.replicas); then create or scale up the new
// ReplicaSet to spec.replicas.
func (s *deploymentSyncer) rolloutRecreate(rsList []*api.ReplicaSet, selector api.Selector, pods []*api.Pod) error {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return err
	}
	allRSs := append(slices.Clip(oldRSs), newRS)
	scaledDown := false
	for _, rs := range filterActive(oldRSs) {
		if scaled, _ := s.scaleReplicaSetAndRecordEvent(rs, 0); scaled {
			scaledDown = true
		}
	}
	if scaledDown || oldPodsRunning(newRS, oldRSs, rsList, selector, pods) {
		s.syncRolloutStatus(allRSs, newRS)
		return nil
	}
	if newRS == nil {
		newRS, oldRSs, err = s.getAllReplicaSetsAndSyncRevision(rsList, true)
		if err != nil {
			return err
		}
		allRSs = append(slices.Clip(oldRSs), newRS)
	}
	s.scaleReplicaSetAndRecordEvent(newRS, s.replicas())
	if deploymentComplete(s.d, &s.d.Status) {
		s.cleanupDeployment(oldRSs)
	}
	s.syncRolloutStatus(allRSs, newRS)
	return nil
}

// oldPodsRunning reports whether an old ReplicaSet reports pods, or a pod
// the Deployment's selector matches, controlled by a claimed ReplicaSet
// other than the new one, is neither Succeeded nor Failed (upstream's
// getPodMapForDeployment and oldPodsRunning, without building the map).
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs, claimed []*api.ReplicaSet, selector api.Selector, pods []*api.Pod) bool {
	if statusCount(oldRSs, actualReplicas) > 0 {
		return true
	}
	for _, p := range pods {
		if p == nil || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		ref := p.ControllerRef()
		if ref == nil || newRS != nil && ref.UID == newRS.UID || !selector.Matches(api.Set(p.Labels)) {
			continue
		}
		for _, rs := range claimed {
			if rs.UID == ref.UID {
				return true
			}
		}
	}
	return false
}

// scale is upstream's scale: a single active (or else the newest)
// ReplicaSet takes spec.replicas; a saturated new ReplicaSet leaves the old
// ones at 0; otherwise, for RollingUpdate, the pods to add or remove
// (replicas + maxSurge − Σ spec.replicas) are spread over the active
// ReplicaSets in proportion to their size against their max-replicas
// annotation, the leftover going to the first in order (largest; newer
// first on scale-up, older first on scale-down).
func (s *deploymentSyncer) scale(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) {
	if rs := findActiveOrLatest(newRS, oldRSs); rs != nil {
		if *rs.Spec.Replicas != s.replicas() {
			s.scaleReplicaSetAndRecordEvent(rs, s.replicas())
		}
		return
	}
	if isSaturated(s.d, newRS) {
		for _, old := range filterActive(oldRSs) {
			s.scaleReplicaSetAndRecordEvent(old, 0)
		}
		return
	}
	if !isRollingUpdate(s.d) {
		return
	}
	allRSs := filterActive(append(slices.Clip(oldRSs), newRS))
	var allowed int32
	if s.replicas() > 0 {
		allowed = s.replicas() + s.surge
	}
	toAdd := allowed - replicaCount(allRSs)
	switch {
	case toAdd > 0:
		slices.SortFunc(allRSs, compareBySizeNewer)
	case toAdd < 0:
		slices.SortFunc(allRSs, compareBySizeOlder)
	}
	sizes := make([]int32, len(allRSs))
	var added int32
	for i, rs := range allRSs {
		sizes[i] = *rs.Spec.Replicas
		if toAdd != 0 {
			p := s.replicaSetProportion(rs, toAdd, added)
			sizes[i] += p
			added += p
		}
	}
	for i, rs := range allRSs {
		if i == 0 && toAdd != 0 {
			sizes[0] = max(sizes[0]+toAdd-added, 0)
		}
		s.scaleReplicaSet(rs, sizes[i])
	}
}

// findActiveOrLatest is the only active ReplicaSet, or the newest (the new
// one first) when none is active; nil when several are active. It sorts
// oldRSs newest first, as upstream does in place.
func findActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	slices.SortFunc(oldRSs, func(a, b *api.ReplicaSet) int { return compareByCreation(b, a) })
	active := filterActive(append(slices.Clip(oldRSs), newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return oldRSs[0]
	case 1:
		return active[0]
	}
	return nil
}

// isSaturated reports whether the new ReplicaSet runs the whole
// Deployment: spec.replicas, desired-replicas annotation and available
// pods all equal to the Deployment's spec.replicas.
func isSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.ParseInt(rs.Annotations[AnnotationDeploymentDesiredReplicas], 10, 32)
	return err == nil && *rs.Spec.Replicas == *d.Spec.Replicas && int32(desired) == *d.Spec.Replicas &&
		rs.Status.AvailableReplicas == *d.Spec.Replicas
}

// replicaSetProportion is rs's share of toAdd (GetReplicaSetProportion):
// capped by what is left to add (or remove), 0 for an empty ReplicaSet.
func (s *deploymentSyncer) replicaSetProportion(rs *api.ReplicaSet, toAdd, added int32) int32 {
	if *rs.Spec.Replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := s.replicaSetFraction(rs)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction is round(spec.replicas × (replicas + maxSurge) /
// max-replicas annotation) − spec.replicas, the annotation falling back
// to the Deployment's status.replicas; −spec.replicas when scaling to 0.
// The product is formed in int32 as upstream forms it.
func (s *deploymentSyncer) replicaSetFraction(rs *api.ReplicaSet) int32 {
	if s.replicas() == 0 {
		return -*rs.Spec.Replicas
	}
	maxReplicas := s.replicas() + s.surge
	before, ok := intAnnotation(rs, AnnotationDeploymentMaxReplicas)
	if !ok || before == 0 {
		before = s.d.Status.Replicas
		if before == 0 {
			return 0
		}
	}
	size := float64(*rs.Spec.Replicas*maxReplicas) / float64(before)
	return roundToInt32(size) - *rs.Spec.Replicas
}

// roundToInt32 rounds half away from zero (k8s.io/utils/integer).
func roundToInt32(a float64) int32 {
	if a < 0 {
		return int32(a - 0.5)
	}
	return int32(a + 0.5)
}

// cleanupDeployment deletes the oldest old ReplicaSets beyond
// revisionHistoryLimit (lowest revision first), counting those without a
// deletionTimestamp, but skipping any with replicas (spec or status) or an
// unobserved generation; skipped ones still use up the excess.
func (s *deploymentSyncer) cleanupDeployment(oldRSs []*api.ReplicaSet) {
	d := s.d
	if !hasRevisionHistoryLimit(d) {
		return
	}
	cleanable := make([]*api.ReplicaSet, 0, len(oldRSs))
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.Spec.RevisionHistoryLimit
	if diff <= 0 {
		return
	}
	slices.SortStableFunc(cleanable, compareByRevision)
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || *rs.Spec.Replicas != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		s.res.Deleted = append(s.res.Deleted, rs.Name)
	}
}

// calculateStatus is the status the ReplicaSets give (calculateStatus):
// counts summed over them, unavailableReplicas from spec.replicas, the
// previous conditions with Available set.
func (s *deploymentSyncer) calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) api.DeploymentStatus {
	d := s.d
	available := statusCount(allRSs, availableReplicas)
	st := api.DeploymentStatus{
		WorkloadStatus: api.WorkloadStatus{
			ObservedGeneration: d.Generation,
			Replicas:           statusCount(allRSs, actualReplicas),
			UpdatedReplicas:    statusCount([]*api.ReplicaSet{newRS}, actualReplicas),
			ReadyReplicas:      statusCount(allRSs, readyReplicas),
			AvailableReplicas:  available,
		},
		UnavailableReplicas: max(replicaCount(allRSs)-available, 0),
		CollisionCount:      d.Status.CollisionCount,
		TerminatingReplicas: terminatingReplicaCount(allRSs),
	}
	if len(d.Status.Conditions) > 0 {
		st.Conditions = slices.Clone(d.Status.Conditions)
	}
	if available >= s.replicas()-s.unavailable {
		setDeploymentCondition(&st, s.newCondition(DeploymentAvailable, api.ConditionTrue, DeploymentReasonMinimumReplicasAvailable, "Deployment has minimum availability."))
	} else {
		setDeploymentCondition(&st, s.newCondition(DeploymentAvailable, api.ConditionFalse, DeploymentReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability."))
	}
	return st
}

// syncDeploymentStatus writes the calculated status when it differs.
func (s *deploymentSyncer) syncDeploymentStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) {
	st := s.calculateStatus(allRSs, newRS)
	if deploymentStatusEqual(&s.d.Status, &st) {
		return
	}
	s.d.Status = st
	s.writeStatus()
}

// syncRolloutStatus writes the status of a rollout step with the
// Progressing condition estimated (syncRolloutStatus): NewReplicaSetAvailable
// once complete, ReplicaSetUpdated on progress (lastUpdateTime now), and
// ProgressDeadlineExceeded when the last progress is older than the
// deadline; the ReplicaSetFailure of the new ReplicaSet (else of any)
// copied.
func (s *deploymentSyncer) syncRolloutStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) {
	d := s.d
	st := s.calculateStatus(allRSs, newRS)
	if !hasProgressDeadline(d) {
		removeDeploymentCondition(&st, DeploymentProgressing)
	}
	cur := deploymentCondition(&d.Status, DeploymentProgressing)
	complete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == DeploymentReasonNewReplicaSetAvailable
	if hasProgressDeadline(d) && !complete {
		subject := fmt.Sprintf("Deployment %q", d.Name)
		if newRS != nil {
			subject = fmt.Sprintf("ReplicaSet %q", newRS.Name)
		}
		switch {
		case deploymentComplete(d, &st):
			setDeploymentCondition(&st, s.newCondition(DeploymentProgressing, api.ConditionTrue, DeploymentReasonNewReplicaSetAvailable, subject+" has successfully progressed."))
		case deploymentProgressing(d, &st):
			c := s.newCondition(DeploymentProgressing, api.ConditionTrue, DeploymentReasonReplicaSetUpdated, subject+" is progressing.")
			if cur != nil {
				if cur.Status == api.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeDeploymentCondition(&st, DeploymentProgressing)
			}
			setDeploymentCondition(&st, c)
		case deploymentTimedOut(d, &st, s.now):
			setDeploymentCondition(&st, s.newCondition(DeploymentProgressing, api.ConditionFalse, DeploymentReasonProgressDeadlineExceeded, subject+" has timed out progressing."))
		}
	}
	if f, ok := replicaFailure(allRSs, newRS); ok {
		setDeploymentCondition(&st, f)
	} else {
		removeDeploymentCondition(&st, DeploymentReplicaFailure)
	}
	if !deploymentStatusEqual(&d.Status, &st) {
		d.Status = st
		s.writeStatus()
	}
	s.res.NextCheck = s.nextCheck()
}

// replicaFailure is the first ReplicaFailure condition of the new
// ReplicaSet, else of any ReplicaSet, as a Deployment condition
// (lastUpdateTime = its lastTransitionTime).
func replicaFailure(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (api.WorkloadCondition, bool) {
	find := func(rs *api.ReplicaSet) (api.WorkloadCondition, bool) {
		for _, c := range rs.Status.Conditions {
			if c.Type == DeploymentReplicaFailure {
				return api.WorkloadCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
					LastUpdateTime: c.LastTransitionTime, LastTransitionTime: c.LastTransitionTime}, true
			}
		}
		return api.WorkloadCondition{}, false
	}
	if newRS != nil {
		if c, ok := find(newRS); ok {
			return c, true
		}
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		if c, ok := find(rs); ok {
			return c, true
		}
	}
	return api.WorkloadCondition{}, false
}

// deploymentComplete: every replica updated and available, and the
// generation observed.
func deploymentComplete(d *api.Deployment, st *api.DeploymentStatus) bool {
	r := *d.Spec.Replicas
	return st.UpdatedReplicas == r && st.Replicas == r && st.AvailableReplicas == r && st.ObservedGeneration >= d.Generation
}

// deploymentProgressing: more updated, fewer old, more ready or more
// available pods than the previous status shows.
func deploymentProgressing(d *api.Deployment, st *api.DeploymentStatus) bool {
	old := &d.Status
	return st.UpdatedReplicas > old.UpdatedReplicas ||
		st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas ||
		st.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut: the Progressing condition (not NewReplicaSetAvailable)
// was last updated more than progressDeadlineSeconds before now, or
// already says so.
func deploymentTimedOut(d *api.Deployment, st *api.DeploymentStatus, now time.Time) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	c := deploymentCondition(st, DeploymentProgressing)
	switch {
	case c == nil || c.Reason == DeploymentReasonNewReplicaSetAvailable:
		return false
	case c.Reason == DeploymentReasonProgressDeadlineExceeded:
		return true
	}
	return timeAfter(c.LastUpdateTime.Time, *d.Spec.ProgressDeadlineSeconds).Before(now)
}

// nextCheck is when upstream's requeueStuckDeployment would look at the
// Deployment again for its progress deadline after a rollout step (a
// paused or scaling sync schedules none): one second after
// lastUpdateTime + progressDeadlineSeconds, while a rollout is neither
// complete nor timed out; a time already past becomes now + 1 s.
func (s *deploymentSyncer) nextCheck() time.Time {
	d := s.d
	if !hasProgressDeadline(d) || d.DeletionTimestamp != nil {
		return time.Time{}
	}
	c := deploymentCondition(&d.Status, DeploymentProgressing)
	if c == nil || c.Reason == DeploymentReasonProgressDeadlineExceeded || deploymentComplete(d, &d.Status) {
		return time.Time{}
	}
	if *d.Spec.ProgressDeadlineSeconds > math.MaxInt32-1 {
		return time.Time{}
	}
	t := timeAfter(c.LastUpdateTime.Time, *d.Spec.ProgressDeadlineSeconds+1)
	if !t.After(s.now) {
		t = s.now.Add(time.Second)
	}
	return t
}
