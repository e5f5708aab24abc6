package workloads

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// errRollbackNotModelled is returned for a Deployment still carrying the
// deprecated rollbackTo annotation, whose handling (the template copied
// back from an old ReplicaSet) SyncDeployment does not model.
// It wraps errors.ErrUnsupported.
var errRollbackNotModelled = fmt.Errorf("workloads: deployment rollback through the %s annotation is not modelled: %w", AnnotationDeprecatedRollbackTo, errors.ErrUnsupported)

// deploymentSyncer is one run of upstream's syncDeployment: d is the
// controller's deep copy of the Deployment, changed in place as upstream
// changes it, and res collects the writes.
type deploymentSyncer struct {
	d    *api.Deployment
	hash PodTemplateHashFunc
	now  time.Time
	res  DeploymentSync
	// cache is every ReplicaSet of the namespace in the controller's
	// cache (claimed or not), for the name lookup of a create that finds
	// the name taken.
	cache []*api.ReplicaSet
	// cachedReplicas is spec.replicas of each claimed ReplicaSet as the
	// cache (the input) holds it, by name.
	cachedReplicas map[string]int32
	// templateKey is templateKey(&d.Spec.Template), computed once.
	templateKey string
	// surge and unavailable are MaxSurge and MaxUnavailable of d.
	surge, unavailable int32
}

func newDeploymentSyncer(in *api.Deployment, opts DeploymentOptions, now time.Time) *deploymentSyncer {
	d := *in
	d.Annotations = maps.Clone(in.Annotations)
	d.Status.Conditions = slices.Clone(in.Status.Conditions)
	s := &deploymentSyncer{d: &d, hash: opts.PodTemplateHash, now: now}
	if s.hash == nil {
		s.hash = DefaultPodTemplateHash
	}
	s.surge, s.unavailable = deploymentMaxSurge(&d), deploymentMaxUnavailable(&d)
	return s
}

func (s *deploymentSyncer) replicas() int32 { return *s.d.Spec.Replicas }

// writeStatus records an UpdateStatus of s.d as it now is.
func (s *deploymentSyncer) writeStatus() {
	s.res.StatusUpdated = true
	s.res.StatusWrites++
}

func (s *deploymentSyncer) syncDeployment(replicaSets []*api.ReplicaSet, pods []*api.Pod) error {
	d := s.d
	if sel := d.Spec.Selector; sel.MatchLabels == nil && sel.MatchExpressions == nil {
		// Upstream refuses to manage a Deployment selecting every pod
		// (event SelectingAll) and only records the generation it saw.
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			s.writeStatus()
		}
		return nil
	}
	selector, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return fmt.Errorf("deployment %s/%s: spec.selector: %w", d.Namespace, d.Name, err)
	}
	rsList := s.claimReplicaSets(replicaSets, selector)
	if d.DeletionTimestamp != nil {
		return s.syncStatusOnly(rsList)
	}
	s.checkPausedConditions()
	if d.Spec.Paused {
		return s.sync(rsList)
	}
	if s.rollbackRequested() {
		return errRollbackNotModelled
	}
	scaling, err := s.isScalingEvent(rsList)
	if err != nil {
		return err
	}
	if scaling {
		return s.sync(rsList)
	}
	switch d.Spec.Strategy.Type {
	case api.RecreateDeploymentStrategyType:
		return s.rolloutRecreate(rsList, selector, pods)
	case api.RollingUpdateDeploymentStrategyType:
		return s.rolloutRolling(rsList)
	}
	return fmt.Errorf("unexpected deployment strategy type: %s", d.Spec.Strategy.Type)
}

// rollbackRequested reports whether d carries a parsable
// deprecated.deployment.rollback.to annotation (upstream's getRollbackTo).
func (s *deploymentSyncer) rollbackRequested() bool {
	v := s.d.Annotations[AnnotationDeprecatedRollbackTo]
	if v == "" {
		return false
	}
	_, err := strconv.ParseInt(v, 10, 64)
	return err == nil
}

// claimReplicaSets claims the namespace's cached ReplicaSets for the
// Deployment (ClaimReplicaSets: owned and matching kept, owned and no
// longer matching released, matching orphans adopted) and returns the
// claimed ones in cache order. ReplicaSets of other namespaces are not in
// the controller's namespaced lister and are skipped.
func (s *deploymentSyncer) claimReplicaSets(all []*api.ReplicaSet, selector api.Selector) []*api.ReplicaSet {
	d := s.d
	for i, rs := range all {
		if rs != nil && rs.Namespace != d.Namespace {
			same := make([]*api.ReplicaSet, i, len(all))
			copy(same, all[:i])
			for _, rs := range all[i:] {
				if rs != nil && rs.Namespace == d.Namespace {
					same = append(same, rs)
				}
			}
			all = same
			break
		}
	}
	s.cache = all
	c := ClaimReplicaSets(&d.ObjectMeta, selector, all)
	s.cachedReplicas = make(map[string]int32, len(c.Claimed))
	for _, rs := range c.Claimed {
		s.cachedReplicas[rs.Name] = *rs.Spec.Replicas
	}
	for _, rs := range c.Adopted {
		s.res.Adopted = append(s.res.Adopted, rs.Name)
	}
	for _, rs := range c.Released {
		s.res.Released = append(s.res.Released, rs.Name)
	}
	return c.Claimed
}

// checkPausedConditions records pausing and resuming in the Progressing
// condition (Unknown DeploymentPaused / DeploymentResumed), so a resumed
// Deployment does not time out for the time it was paused. Not over a
// timed-out condition, and only with a progress deadline.
func (s *deploymentSyncer) checkPausedConditions() {
	d := s.d
	if !hasProgressDeadline(d) {
		return
	}
	cond := deploymentCondition(&d.Status, DeploymentProgressing)
	if cond != nil && cond.Reason == DeploymentReasonProgressDeadlineExceeded {
		return
	}
	pausedCondExists := cond != nil && cond.Reason == DeploymentReasonDeploymentPaused
	switch {
	case d.Spec.Paused && !pausedCondExists:
		setDeploymentCondition(&d.Status, s.newCondition(DeploymentProgressing, api.ConditionUnknown, DeploymentReasonDeploymentPaused, "Deployment is paused"))
	case !d.Spec.Paused && pausedCondExists:
		setDeploymentCondition(&d.Status, s.newCondition(DeploymentProgressing, api.ConditionUnknown, DeploymentReasonDeploymentResumed, "Deployment is resumed"))
	default:
		return
	}
	s.writeStatus()
}

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation differs from spec.replicas. Like upstream it looks the new
// ReplicaSet up, syncing its annotations and the Deployment's revision.
func (s *deploymentSyncer) isScalingEvent(rsList []*api.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range filterActive(append(oldRSs, newRS)) {
		desired, ok := intAnnotation(rs, AnnotationDeploymentDesiredReplicas)
		if ok && desired != s.replicas() {
			return true, nil
		}
	}
	return false, nil
}

// syncStatusOnly is the sync of a Deployment being deleted: its status
// only.
func (s *deploymentSyncer) syncStatusOnly(rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return err
	}
	s.syncDeploymentStatus(append(oldRSs, newRS), newRS)
	return nil
}

// sync is the sync of a paused Deployment or of a scaling event: scale
// (proportionally when several ReplicaSets are active), clean up the
// history when paused (and no rollback is pending), write the status
// without progress estimation.
func (s *deploymentSyncer) sync(rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if err != nil {
		return err
	}
	s.scale(newRS, oldRSs)
	if s.d.Spec.Paused && !s.rollbackRequested() {
		s.cleanupDeployment(oldRSs)
	}
	s.syncDeploymentStatus(append(oldRSs, newRS), newRS)
	return nil
}

// getAllReplicaSetsAndSyncRevision splits rsList into the new ReplicaSet
// and the old ones (oldest first) and syncs the new one's revision,
// creating it when asked and there is none.
func (s *deploymentSyncer) getAllReplicaSetsAndSyncRevision(rsList []*api.ReplicaSet, create bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	existing, oldRSs := s.findNewAndOld(rsList)
	newRS, err := s.getNewReplicaSet(existing, oldRSs, create)
	if err != nil {
		return nil, nil, err
	}
	return newRS, oldRSs, nil
}

// findNewAndOld sorts rsList by creation (as upstream's FindNewReplicaSet
// sorts the cache's list in place) and returns the oldest ReplicaSet whose
// template equals the Deployment's ignoring pod-template-hash, and the
// others in that order.
func (s *deploymentSyncer) findNewAndOld(rsList []*api.ReplicaSet) (*api.ReplicaSet, []*api.ReplicaSet) {
	slices.SortFunc(rsList, compareByCreation)
	if s.templateKey == "" {
		s.templateKey = templateKey(&s.d.Spec.Template)
	}
	want := s.templateKey
	var newRS *api.ReplicaSet
	for _, rs := range rsList {
		if templateKey(&rs.Spec.Template) == want {
			newRS = rs
			break
		}
	}
	old := make([]*api.ReplicaSet, 0, len(rsList))
	for _, rs := range rsList {
		if rs != newRS {
			old = append(old, rs)
		}
	}
	return newRS, old
}

// getNewReplicaSet is upstream's getNewReplicaSet: an existing new
// ReplicaSet gets the Deployment's annotations, revision max(old)+1 when
// its own is lower (its old one appended to the revision history) and the
// Deployment's minReadySeconds; otherwise the Deployment takes its
// revision (and, with a deadline and no Progressing condition yet,
// FoundNewReplicaSet). Without one, and when asked, the new ReplicaSet is
// created.
func (s *deploymentSyncer) getNewReplicaSet(existing *api.ReplicaSet, oldRSs []*api.ReplicaSet, create bool) (*api.ReplicaSet, error) {
	d := s.d
	newRevision := strconv.FormatInt(maxRevision(oldRSs)+1, 10)
	if existing != nil {
		rsCopy := *existing
		rsCopy.Annotations = maps.Clone(existing.Annotations)
		changed := s.setNewReplicaSetAnnotations(&rsCopy, newRevision, true)
		if changed || rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			return s.updateReplicaSet(&rsCopy), nil
		}
		needsUpdate := setDeploymentRevision(d, rsCopy.Annotations[AnnotationDeploymentRevision])
		if hasProgressDeadline(d) && deploymentCondition(&d.Status, DeploymentProgressing) == nil {
			setDeploymentCondition(&d.Status, s.newCondition(DeploymentProgressing, api.ConditionTrue, DeploymentReasonFoundNewReplicaSet,
				fmt.Sprintf("Found new replica set %q", rsCopy.Name)))
			needsUpdate = true
		}
		if needsUpdate {
			s.writeStatus()
		}
		return &rsCopy, nil
	}
	if !create {
		return nil, nil
	}

	hash := s.hash(&d.Spec.Template, d.Status.CollisionCount)
	// The new ReplicaSet shares nothing with the Deployment.
	template := d.Spec.Template
	template.Spec = copyPodSpec(&d.Spec.Template.Spec)
	template.Labels = withLabel(d.Spec.Template.Labels, LabelPodTemplateHash, hash)
	template.Annotations = maps.Clone(d.Spec.Template.Annotations)
	template.OwnerReferences = slices.Clone(d.Spec.Template.OwnerReferences)
	template.Finalizers = slices.Clone(d.Spec.Template.Finalizers)
	selector := *d.Spec.Selector
	selector.MatchLabels = withLabel(d.Spec.Selector.MatchLabels, LabelPodTemplateHash, hash)
	selector.MatchExpressions = slices.Clone(d.Spec.Selector.MatchExpressions)
	newRS := &api.ReplicaSet{
		TypeMeta: api.TypeMeta{Kind: "ReplicaSet", APIVersion: "apps/v1"},
		ObjectMeta: api.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			Labels:          template.Labels,
			OwnerReferences: []api.OwnerReference{NewControllerRef(&d.ObjectMeta, "apps/v1", "Deployment")},
		},
		Spec: api.ReplicaSetSpec{
			Replicas:        new(int32),
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        &selector,
			Template:        template,
		},
	}
	n, err := s.newRSNewReplicas(append(oldRSs, newRS), newRS)
	if err != nil {
		return nil, err
	}
	*newRS.Spec.Replicas = n
	s.setNewReplicaSetAnnotations(newRS, newRevision, false)

	// The name is taken: the API server answers AlreadyExists. A
	// ReplicaSet of this Deployment with this template (a stale cache) is
	// the new one; any other is a hash collision, which raises
	// status.collisionCount so the next sync hashes differently, and
	// fails the sync.
	alreadyExists := false
	if taken := s.cached(newRS.Name); taken != nil {
		ref := taken.ControllerRef()
		if ref == nil || ref.UID != d.UID || templateKey(&taken.Spec.Template) != s.templateKey {
			n := int32(1)
			if d.Status.CollisionCount != nil {
				n = *d.Status.CollisionCount + 1
			}
			d.Status.CollisionCount = &n
			s.writeStatus()
			return nil, fmt.Errorf("replicasets.apps %q already exists", newRS.Name)
		}
		alreadyExists = true
		newRS = taken
	} else {
		s.res.NewReplicaSet = newRS
		if n := *newRS.Spec.Replicas; n > 0 {
			s.res.Events = append(s.res.Events, ScaledReplicaSetEvent(d, newRS.Name, 0, n))
		}
	}

	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && hasProgressDeadline(d) {
		setDeploymentCondition(&d.Status, s.newCondition(DeploymentProgressing, api.ConditionTrue, DeploymentReasonNewReplicaSetCreated,
			fmt.Sprintf("Created new replica set %q", newRS.Name)))
		needsUpdate = true
	}
	if needsUpdate {
		s.writeStatus()
	}
	return newRS, nil
}

// cached is the namespace's ReplicaSet named name in the cache, or nil.
func (s *deploymentSyncer) cached(name string) *api.ReplicaSet {
	for _, rs := range s.cache {
		if rs != nil && rs.Name == name {
			return rs
		}
	}
	return nil
}

// withLabel returns a copy of labels with key set to value.
func withLabel(labels map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	maps.Copy(out, labels)
	out[key] = value
	return out
}

// updateReplicaSet records the update of a ReplicaSet to written and
// returns written, as the API server would.
func (s *deploymentSyncer) updateReplicaSet(written *api.ReplicaSet) *api.ReplicaSet {
	s.res.Updates = append(s.res.Updates, ReplicaSetUpdate{Name: written.Name, PreviousReplicas: s.cachedReplicas[written.Name], ReplicaSet: written})
	return written
}

// scaleReplicaSetAndRecordEvent scales rs to newScale unless it already
// has that size.
func (s *deploymentSyncer) scaleReplicaSetAndRecordEvent(rs *api.ReplicaSet, newScale int32) (bool, *api.ReplicaSet) {
	if *rs.Spec.Replicas == newScale {
		return false, rs
	}
	return s.scaleReplicaSet(rs, newScale)
}

// scaleReplicaSet writes rs with spec.replicas newScale and the
// desired/max-replicas annotations of today's Deployment when either
// differs; it reports whether the size changed.
func (s *deploymentSyncer) scaleReplicaSet(rs *api.ReplicaSet, newScale int32) (bool, *api.ReplicaSet) {
	desired, maxReplicas := s.replicas(), s.replicas()+s.surge
	sizeNeedsUpdate := *rs.Spec.Replicas != newScale
	if !sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, maxReplicas) {
		return false, rs
	}
	rsCopy := *rs
	rsCopy.Annotations = maps.Clone(rs.Annotations)
	rsCopy.Spec.Replicas = &newScale
	setReplicasAnnotations(&rsCopy, desired, maxReplicas)
	if sizeNeedsUpdate {
		s.res.Events = append(s.res.Events, ScaledReplicaSetEvent(s.d, rs.Name, *rs.Spec.Replicas, newScale))
	}
	return sizeNeedsUpdate, s.updateReplicaSet(&rsCopy)
}
