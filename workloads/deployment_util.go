package workloads

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// LabelPodTemplateHash is the label the Deployment controller adds to a
// new ReplicaSet's labels, selector and pod template
// (apps/v1 DefaultDeploymentUniqueLabelKey), so the ReplicaSets of one
// Deployment never select each other's pods.
const LabelPodTemplateHash = "pod-template-hash"

// resolveFenceposts turns maxSurge (rounded up) and maxUnavailable
// (rounded down) into numbers of pods for desired replicas; when both come
// to 0, maxUnavailable is 1 so the rollout can move (upstream's
// ResolveFenceposts). A nil value counts as 0; values were checked by
// validateDeploymentInput.
func resolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32) {
	zero := api.FromInt32(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	surge, err1 := api.ScaledValueFromIntOrPercent(maxSurge, int(desired), true)
	unavailable, err2 := api.ScaledValueFromIntOrPercent(maxUnavailable, int(desired), false)
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable)
}

func isRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType
}

// deploymentMaxSurge is MaxSurge: 0 unless RollingUpdate.
func deploymentMaxSurge(d *api.Deployment) int32 {
	if !isRollingUpdate(d) {
		return 0
	}
	ru := d.Spec.Strategy.RollingUpdate
	if ru == nil {
		ru = &api.RollingUpdateDeployment{}
	}
	surge, _ := resolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, *d.Spec.Replicas)
	return surge
}

// deploymentMaxUnavailable is MaxUnavailable: 0 unless RollingUpdate with
// replicas, and never more than spec.replicas.
func deploymentMaxUnavailable(d *api.Deployment) int32 {
	if !isRollingUpdate(d) || *d.Spec.Replicas == 0 {
		return 0
	}
	ru := d.Spec.Strategy.RollingUpdate
	if ru == nil {
		ru = &api.RollingUpdateDeployment{}
	}
	_, unavailable := resolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, *d.Spec.Replicas)
	return min(unavailable, *d.Spec.Replicas)
}

// newRSNewReplicas is how far the new ReplicaSet may grow now
// (NewRSNewReplicas): under RollingUpdate up to replicas + maxSurge pods in
// all (maxSurge taken as written, rounded up) and never past replicas;
// under Recreate straight to replicas.
func (s *deploymentSyncer) newRSNewReplicas(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (int32, error) {
	d := s.d
	switch d.Spec.Strategy.Type {
	case api.RollingUpdateDeploymentStrategyType:
		var ms *api.IntOrString
		if d.Spec.Strategy.RollingUpdate != nil {
			ms = d.Spec.Strategy.RollingUpdate.MaxSurge
		}
		surge, err := api.ScaledValueFromIntOrPercent(ms, int(s.replicas()), true)
		if err != nil {
			return 0, err
		}
		current := replicaCount(allRSs)
		maxTotal := s.replicas() + int32(surge)
		if current >= maxTotal {
			return *newRS.Spec.Replicas, nil
		}
		up := min(maxTotal-current, s.replicas()-*newRS.Spec.Replicas)
		return *newRS.Spec.Replicas + up, nil
	case api.RecreateDeploymentStrategyType:
		return s.replicas(), nil
	}
	return 0, errUnsupportedStrategy(d.Spec.Strategy.Type)
}

type errUnsupportedStrategy api.DeploymentStrategyType

func (e errUnsupportedStrategy) Error() string {
	return "deployment type " + string(e) + " isn't supported"
}

func hasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

func hasRevisionHistoryLimit(d *api.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// revision is a ReplicaSet's revision annotation: 0 when absent, an error
// when unparsable.
func revision(rs *api.ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[AnnotationDeploymentRevision]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// maxRevision is the highest parsable revision among rss (0 if none).
func maxRevision(rss []*api.ReplicaSet) int64 {
	var m int64
	for _, rs := range rss {
		if v, err := revision(rs); err == nil && v > m {
			m = v
		}
	}
	return m
}

// intAnnotation reads a desired- or max-replicas annotation of rs: an
// unsigned decimal within int32 (no sign, so "-1" and "+1" count as
// absent, as does anything unparsable).
func intAnnotation(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}

// skipCopyAnnotation lists the Deployment annotations that are not copied
// to its ReplicaSets.
func skipCopyAnnotation(key string) bool {
	switch key {
	case AnnotationLastAppliedConfig, AnnotationDeploymentRevision, AnnotationDeploymentRevisionHistory,
		AnnotationDeploymentDesiredReplicas, AnnotationDeploymentMaxReplicas, AnnotationDeprecatedRollbackTo:
		return true
	}
	return false
}

// setNewReplicaSetAnnotations is upstream's SetNewReplicaSetAnnotations on
// rs (whose Annotations the caller owns): the Deployment's annotations
// copied, the revision raised to newRevision when lower (the old one kept
// in the revision history), and for a ReplicaSet about to be created the
// desired/max-replicas annotations. It reports whether anything changed;
// an unparsable revision stops it after the copy, reporting false.
func (s *deploymentSyncer) setNewReplicaSetAnnotations(rs *api.ReplicaSet, newRevision string, exists bool) bool {
	if rs.Annotations == nil {
		rs.Annotations = make(map[string]string, len(s.d.Annotations)+3)
	}
	changed := false
	for k, v := range s.d.Annotations {
		if skipCopyAnnotation(k) {
			continue
		}
		if old, ok := rs.Annotations[k]; ok && old == v {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	oldRevision, ok := rs.Annotations[AnnotationDeploymentRevision]
	oldRev, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldRev = 0
	}
	newRev, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldRev < newRev {
		rs.Annotations[AnnotationDeploymentRevision] = newRevision
		changed = true
		if ok {
			appendRevisionHistory(rs, oldRevision)
		}
	}
	if !exists && setReplicasAnnotations(rs, s.replicas(), s.replicas()+s.surge) {
		changed = true
	}
	return changed
}

// appendRevisionHistory adds old to rs's revision-history annotation,
// dropping the oldest entries to stay within maxRevisionHistoryChars.
func appendRevisionHistory(rs *api.ReplicaSet, old string) {
	hist := rs.Annotations[AnnotationDeploymentRevisionHistory]
	if hist == "" {
		rs.Annotations[AnnotationDeploymentRevisionHistory] = old
		return
	}
	olds := strings.Split(hist, ",")
	total := len(hist) + len(old) + 1
	start := 0
	for total > maxRevisionHistoryChars && start < len(olds) {
		total -= len(olds[start]) + 1
		start++
	}
	if total <= maxRevisionHistoryChars {
		rs.Annotations[AnnotationDeploymentRevisionHistory] = strings.Join(append(olds[start:], old), ",")
	}
}

// setDeploymentRevision sets d's revision annotation, reporting a change.
func setDeploymentRevision(d *api.Deployment, rev string) bool {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	if d.Annotations[AnnotationDeploymentRevision] == rev {
		return false
	}
	d.Annotations[AnnotationDeploymentRevision] = rev
	return true
}

func replicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if rs.Annotations == nil {
		return true
	}
	return rs.Annotations[AnnotationDeploymentDesiredReplicas] != strconv.Itoa(int(desired)) ||
		rs.Annotations[AnnotationDeploymentMaxReplicas] != strconv.Itoa(int(maxReplicas))
}

// setReplicasAnnotations sets the desired/max-replicas annotations of rs
// (whose Annotations the caller owns), reporting a change.
func setReplicasAnnotations(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = make(map[string]string, 2)
	}
	changed := false
	for _, kv := range [2]struct {
		k string
		v int32
	}{{AnnotationDeploymentDesiredReplicas, desired}, {AnnotationDeploymentMaxReplicas, maxReplicas}} {
		s := strconv.Itoa(int(kv.v))
		if rs.Annotations[kv.k] != s {
			rs.Annotations[kv.k] = s
			changed = true
		}
	}
	return changed
}

// templateKey is the identity of a pod template for finding the new
// ReplicaSet: its JSON without the pod-template-hash label. JSON omits
// empty and nil maps and lists alike, as the API's semantic equality
// treats them alike.
func templateKey(t *api.PodTemplateSpec) string {
	c := *t
	if _, ok := t.Labels[LabelPodTemplateHash]; ok {
		c.Labels = make(map[string]string, len(t.Labels))
		for k, v := range t.Labels {
			if k != LabelPodTemplateHash {
				c.Labels[k] = v
			}
		}
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "\x00" + err.Error()
	}
	return string(b)
}

func filterActive(rss []*api.ReplicaSet) []*api.ReplicaSet {
	out := make([]*api.ReplicaSet, 0, len(rss))
	for _, rs := range rss {
		if rs != nil && *rs.Spec.Replicas > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// replicaCount sums spec.replicas; the other counts sum status fields.
func replicaCount(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += *rs.Spec.Replicas
		}
	}
	return n
}

func statusCount(rss []*api.ReplicaSet, field func(*api.ReplicaSetStatus) int32) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += field(&rs.Status)
		}
	}
	return n
}

func actualReplicas(st *api.ReplicaSetStatus) int32    { return st.Replicas }
func readyReplicas(st *api.ReplicaSetStatus) int32     { return st.ReadyReplicas }
func availableReplicas(st *api.ReplicaSetStatus) int32 { return st.AvailableReplicas }

// terminatingReplicaCount sums status.terminatingReplicas; nil (unknown)
// when a ReplicaSet its controller has synced does not report it.
// ReplicaSets never synced (observedGeneration 0, no count) are skipped.
func terminatingReplicaCount(rss []*api.ReplicaSet) *int32 {
	var n int32
	for _, rs := range rss {
		switch {
		case rs == nil:
		case rs.Status.ObservedGeneration == 0 && rs.Status.TerminatingReplicas == nil:
		case rs.Status.TerminatingReplicas == nil:
			return nil
		default:
			n += *rs.Status.TerminatingReplicas
		}
	}
	return &n
}

// compareByCreation orders ReplicaSets oldest first, by name among equals
// (controller.ReplicaSetsByCreationTimestamp).
func compareByCreation(a, b *api.ReplicaSet) int {
	if a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
		return strings.Compare(a.Name, b.Name)
	}
	if a.CreationTimestamp.Before(b.CreationTimestamp.Time) {
		return -1
	}
	return 1
}

// compareByRevision orders ReplicaSets by revision, by creation where
// revisions are equal or unparsable (ReplicaSetsByRevision).
func compareByRevision(a, b *api.ReplicaSet) int {
	ra, err1 := revision(a)
	rb, err2 := revision(b)
	if err1 != nil || err2 != nil || ra == rb {
		return compareByCreation(a, b)
	}
	if ra < rb {
		return -1
	}
	return 1
}

// compareBySizeNewer orders larger first, newer first among equal sizes
// (ReplicaSetsBySizeNewer: the order of a proportional scale-up).
func compareBySizeNewer(a, b *api.ReplicaSet) int {
	if *a.Spec.Replicas == *b.Spec.Replicas {
		return compareByCreation(b, a)
	}
	if *a.Spec.Replicas > *b.Spec.Replicas {
		return -1
	}
	return 1
}

// compareBySizeOlder orders larger first, older first among equal sizes
// (ReplicaSetsBySizeOlder: the order of a proportional scale-down).
func compareBySizeOlder(a, b *api.ReplicaSet) int {
	if *a.Spec.Replicas == *b.Spec.Replicas {
		return compareByCreation(a, b)
	}
	if *a.Spec.Replicas > *b.Spec.Replicas {
		return -1
	}
	return 1
}

// newCondition is a Deployment condition set now.
func (s *deploymentSyncer) newCondition(typ string, status api.ConditionStatus, reason, msg string) api.WorkloadCondition {
	t := api.NewTime(s.now)
	return api.WorkloadCondition{Type: typ, Status: status, Reason: reason, Message: msg, LastUpdateTime: t, LastTransitionTime: t}
}

// deploymentCondition returns a copy of the condition of type typ, or nil.
func deploymentCondition(st *api.DeploymentStatus, typ string) *api.WorkloadCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == typ {
			c := st.Conditions[i]
			return &c
		}
	}
	return nil
}

// setDeploymentCondition is upstream's SetDeploymentCondition: nothing
// changes when a condition of that type already has this status and
// reason; otherwise the old one goes and c is appended, keeping the old
// lastTransitionTime when the status is unchanged.
func setDeploymentCondition(st *api.DeploymentStatus, c api.WorkloadCondition) {
	cur := deploymentCondition(st, c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	removeDeploymentCondition(st, c.Type)
	st.Conditions = append(st.Conditions, c)
}

// removeDeploymentCondition drops the conditions of type typ; the slice is
// rebuilt, never edited in place, so copies sharing it stay intact.
func removeDeploymentCondition(st *api.DeploymentStatus, typ string) {
	var out []api.WorkloadCondition
	for _, c := range st.Conditions {
		if c.Type != typ {
			out = append(out, c)
		}
	}
	st.Conditions = out
}

// deploymentStatusEqual is the reflect.DeepEqual upstream compares the old
// and new status with, times compared as instants.
func deploymentStatusEqual(a, b *api.DeploymentStatus) bool {
	if a.WorkloadStatus != b.WorkloadStatus || a.UnavailableReplicas != b.UnavailableReplicas ||
		!int32PtrEqual(a.TerminatingReplicas, b.TerminatingReplicas) || !int32PtrEqual(a.CollisionCount, b.CollisionCount) ||
		(a.Conditions == nil) != (b.Conditions == nil) || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		x, y := &a.Conditions[i], &b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastUpdateTime.Equal(y.LastUpdateTime.Time) || !x.LastTransitionTime.Equal(y.LastTransitionTime.Time) ||
			!x.LastProbeTime.Equal(y.LastProbeTime.Time) {
			return false
		}
	}
	return true
}

func int32PtrEqual(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// timeAfter is t + seconds.
func timeAfter(t time.Time, seconds int32) time.Time {
	return t.Add(time.Duration(seconds) * time.Second)
}
