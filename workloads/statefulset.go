package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// StatefulSetConfig holds the kube-controller-manager feature gates the
// StatefulSet controller's pod management depends on. The zero value is
// v1.36.3's default.
type StatefulSetConfig struct {
	// MaxUnavailable turns on the MaxUnavailableStatefulSet feature gate
	// (beta, off by default in v1.36.3): a rolling update then deletes up
	// to rollingUpdate.maxUnavailable pods at once instead of one.
	MaxUnavailable bool
}

// StatefulSetActionKind is what one StatefulSet sync does to one pod.
type StatefulSetActionKind uint8

// The StatefulSet controller's pod actions.
const (
	// StatefulSetCreate: create the pod of Ordinal (from the revision
	// Revision).
	StatefulSetCreate StatefulSetActionKind = iota + 1
	// StatefulSetDelete: delete the pod (a normal, graceful delete).
	StatefulSetDelete
	// StatefulSetUpdate: rewrite the pod's identity (name label, index
	// label) to match the set.
	StatefulSetUpdate
)

// String names the kind.
func (k StatefulSetActionKind) String() string {
	switch k {
	case StatefulSetCreate:
		return "Create"
	case StatefulSetDelete:
		return "Delete"
	case StatefulSetUpdate:
		return "Update"
	}
	return "StatefulSetActionKind(?)"
}

// StatefulSetAction is one pod action of a sync.
type StatefulSetAction struct {
	Kind    StatefulSetActionKind
	Ordinal int
	// Pod is the pod's name (<set>-<ordinal>).
	Pod string
	// Revision is the revision a created pod is stamped with
	// (controller-revision-hash), empty for other kinds.
	Revision string
	// Why says which rule asked for it: "missing", "failed",
	// "succeeded", "scale down", "update", "identity".
	Why string
}

// String renders the action, e.g. "Create web-1 (missing)".
func (a StatefulSetAction) String() string { return fmt.Sprintf("%s %s (%s)", a.Kind, a.Pod, a.Why) }

// StatefulSetWait is the pod a sync stopped at, and why.
type StatefulSetWait struct {
	Ordinal int
	Pod     string
	// Reason is one of "terminating" (the pod object must be gone before
	// the ordinal is reused or the next one touched), "created" (the pod
	// just created must become Running and Ready), "not running and
	// ready", "not available" (minReadySeconds), "terminal" (a Failed or
	// Succeeded pod being deleted: its replacement comes once the object
	// is gone), "unavailable" (a rolling update waits for the pod), "too
	// many unavailable" (maxUnavailable reached).
	Reason string
}

// StatefulSetSync is the outcome of one sync of a StatefulSet.
type StatefulSetSync struct {
	// Actions are the pod actions, in the order the controller issues
	// them. Under Parallel management upstream issues the per-pod actions
	// of a stage concurrently; they are listed by ordinal.
	Actions []StatefulSetAction
	// Wait is where the sync stopped short, nil when it ran to the end.
	Wait *StatefulSetWait
	// Status is the status the controller writes after the sync.
	Status api.StatefulSetStatus
}

// ssPod is one slot of the sync: an existing pod or one to be created.
type ssPod struct {
	pod      *api.Pod // nil: not created yet
	ordinal  int
	name     string
	revision string
}

// SyncStatefulSet computes one sync of the StatefulSet controller's pod
// management (pkg/controller/statefulset defaultStatefulSetControl
// updateStatefulSet) for set and the pods it owns, at now: which ordinals
// it creates, which pods it deletes, which it waits for.
//
// The rule this is about: a StatefulSet never creates the pod of ordinal N
// while an object named <set>-N exists. A Failed or Succeeded pod is
// deleted and replaced only at a later sync, once the object is gone; a
// terminating pod — one with a deletionTimestamp, for instance on a lost
// node whose kubelet will never confirm the kill — blocks its own
// replacement until the object disappears (pod GC of an orphan or of a
// terminating pod on an out-of-service node, or a force deletion). Under
// OrderedReady management it also blocks every higher ordinal and every
// scale-down. Contrast ReplicaSetSync, which counts a terminating pod as
// gone and replaces it at once.
//
// Modelled, as upstream: the ordinal range (spec.ordinals.start, replicas),
// condemned pods beyond it deleted from the highest ordinal down,
// OrderedReady (stop at the first pod not Running and Ready, or not
// available after minReadySeconds, or terminating; one create per sync)
// versus Parallel, Failed/Succeeded pods deleted, identity repair, the
// RollingUpdate strategy with partition (counted as an index into the
// ordinal range, as upstream does) and, behind the feature gate,
// maxUnavailable; OnDelete; a set being deleted does nothing but report
// status. The revisions are inputs: status.updateRevision is taken as the
// revision of the set's current template and status.currentRevision as
// the one being replaced (empty: the update revision) — podsem does not
// hash templates or keep ControllerRevision history. Pods are matched to
// the set by name (<set>-<ordinal>) and namespace; adoption and release
// by owner references, PersistentVolumeClaims (volumeClaimTemplates, the
// retention policy and its stale-claim wait), expectations, events and
// API errors are not modelled.
//
// A nil set, or one without replicas, is an error.
func SyncStatefulSet(set *api.StatefulSet, pods []*api.Pod, cfg StatefulSetConfig, now time.Time) (StatefulSetSync, error) {
	if set == nil {
		return StatefulSetSync{}, fmt.Errorf("%w: statefulset: nil", errInvalidInput)
	}
	if set.Spec.Replicas == nil || *set.Spec.Replicas < 0 {
		return StatefulSetSync{}, fmt.Errorf("%w: statefulset %s/%s: spec.replicas: %v", errInvalidInput, set.Namespace, set.Name, ptrString(set.Spec.Replicas))
	}
	updateRev := set.Status.UpdateRevision
	currentRev := set.Status.CurrentRevision
	if currentRev == "" {
		currentRev = updateRev
	}
	minReady := set.Spec.MinReadySeconds
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	replicaCount := int(*set.Spec.Replicas)
	end := start + replicaCount - 1

	var members []*api.Pod
	for _, p := range pods {
		if p == nil || p.Namespace != set.Namespace {
			continue
		}
		if parent, _ := statefulParentAndOrdinal(p.Name); parent == set.Name {
			members = append(members, p)
		}
	}

	res := StatefulSetSync{}
	res.Status = api.StatefulSetStatus{CurrentRevision: currentRev, UpdateRevision: updateRev}
	res.Status.ObservedGeneration = set.Generation
	res.Status.CollisionCount = set.Status.CollisionCount

	replicas := make([]ssPod, replicaCount)
	var condemned []ssPod
	for _, p := range members {
		_, ord := statefulParentAndOrdinal(p.Name)
		slot := ssPod{pod: p, ordinal: ord, name: p.Name, revision: p.Labels[api.LabelControllerRevisionHash]}
		switch {
		case ord >= start && ord <= end:
			replicas[ord-start] = slot
		case ord >= 0:
			condemned = append(condemned, slot)
		}
	}
	for i := range replicas {
		if replicas[i].pod == nil {
			ord := start + i
			replicas[i] = ssPod{ordinal: ord, name: set.Name + "-" + strconv.Itoa(ord), revision: newPodRevision(set, ord, start, currentRev, updateRev)}
		}
	}
	slices.SortStableFunc(condemned, func(a, b ssPod) int { return b.ordinal - a.ordinal })

	var firstUnavailable *ssPod
	for i := range replicas {
		if ssUnavailable(replicas[i].pod, minReady, now) && firstUnavailable == nil {
			firstUnavailable = &replicas[i]
		}
	}
	for i := len(condemned) - 1; i >= 0; i-- {
		if ssUnavailable(condemned[i].pod, minReady, now) && firstUnavailable == nil {
			firstUnavailable = &condemned[i]
		}
	}

	if set.DeletionTimestamp != nil {
		setCounts(&res.Status, members, minReady, currentRev, updateRev, now)
		completeRollingUpdate(set, &res.Status)
		return res, nil
	}
	monotonic := set.Spec.PodManagementPolicy != api.ParallelPodManagement
	finish := func() (StatefulSetSync, error) {
		setCounts(&res.Status, slotPods(replicas, condemned), minReady, currentRev, updateRev, now)
		completeRollingUpdate(set, &res.Status)
		return res, nil
	}
	act := func(kind StatefulSetActionKind, s *ssPod, why string) {
		a := StatefulSetAction{Kind: kind, Ordinal: s.ordinal, Pod: s.name, Why: why}
		if kind == StatefulSetCreate {
			a.Revision = s.revision
		}
		res.Actions = append(res.Actions, a)
	}
	wait := func(s *ssPod, reason string) {
		if res.Wait == nil {
			res.Wait = &StatefulSetWait{Ordinal: s.ordinal, Pod: s.name, Reason: reason}
		}
	}

	// The replicas, in ordinal order: under OrderedReady the first one that
	// blocks ends the sync.
	for i := range replicas {
		s := &replicas[i]
		p := s.pod
		if p != nil && (p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded) {
			if p.DeletionTimestamp == nil {
				act(StatefulSetDelete, s, strings.ToLower(string(p.Status.Phase)))
			}
			wait(s, "terminal")
			if monotonic {
				return finish()
			}
			continue
		}
		if p == nil || p.Status.Phase == "" {
			act(StatefulSetCreate, s, "missing")
			if monotonic {
				wait(s, "created")
				return finish()
			}
		}
		if monotonic {
			switch {
			case p.DeletionTimestamp != nil:
				wait(s, "terminating")
				return finish()
			case !ssRunningAndReady(p):
				wait(s, "not running and ready")
				return finish()
			case !podAvailable(p, minReady, now):
				wait(s, "not available")
				return finish()
			}
		}
		if p != nil && !identityMatches(set, p) {
			act(StatefulSetUpdate, s, "identity")
		}
	}

	// Scale down: condemned pods from the highest ordinal.
	for i := range condemned {
		s := &condemned[i]
		p := s.pod
		if p.DeletionTimestamp != nil {
			if monotonic {
				wait(s, "terminating")
				return finish()
			}
			continue
		}
		if monotonic && s != firstUnavailable {
			// Upstream names the first unavailable pod as the one waited
			// for; a Ready pod that is not Running is not unavailable, so
			// there may be none, and then this pod is.
			blocker := firstUnavailable
			if blocker == nil {
				blocker = s
			}
			if !ssRunningAndReady(p) {
				wait(blocker, "not running and ready")
				return finish()
			}
			if !podAvailable(p, minReady, now) {
				wait(blocker, "not available")
				return finish()
			}
		}
		act(StatefulSetDelete, s, "scale down")
		if monotonic {
			return finish()
		}
	}

	setCounts(&res.Status, slotPods(replicas, condemned), minReady, currentRev, updateRev, now)
	if set.Spec.UpdateStrategy.Type == api.OnDeleteStatefulSetStrategyType {
		completeRollingUpdate(set, &res.Status)
		return res, nil
	}
	updateMin := 0
	ru := set.Spec.UpdateStrategy.RollingUpdate
	if ru != nil && ru.Partition != nil {
		updateMin = int(*ru.Partition)
	}
	if cfg.MaxUnavailable {
		maxUnavailable := 1
		if ru != nil && ru.MaxUnavailable != nil {
			n, err := api.ScaledValueFromIntOrPercent(ru.MaxUnavailable, replicaCount, false)
			if err != nil {
				return res, fmt.Errorf("%w: statefulset %s/%s: spec.updateStrategy.rollingUpdate.maxUnavailable: %v", errInvalidInput, set.Namespace, set.Name, err)
			}
			maxUnavailable = max(n, 1)
		}
		unavailable := 0
		for i := range replicas {
			if ssUnavailable(replicas[i].pod, minReady, now) {
				unavailable++
			}
		}
		if unavailable >= maxUnavailable {
			for i := range replicas {
				if ssUnavailable(replicas[i].pod, minReady, now) {
					wait(&replicas[i], "too many unavailable")
					break
				}
			}
			completeRollingUpdate(set, &res.Status)
			return res, nil
		}
		deleted := 0
		for target := len(replicas) - 1; target >= updateMin && deleted < maxUnavailable-unavailable; target-- {
			s := &replicas[target]
			if s.revision != updateRev && !ssTerminating(s.pod) {
				act(StatefulSetDelete, s, "update")
				deleted++
				res.Status.CurrentReplicas--
			}
		}
		completeRollingUpdate(set, &res.Status)
		return res, nil
	}
	for target := len(replicas) - 1; target >= updateMin; target-- {
		s := &replicas[target]
		if s.revision != updateRev && !ssTerminating(s.pod) {
			act(StatefulSetDelete, s, "update")
			res.Status.CurrentReplicas--
			break
		}
		if ssUnavailable(s.pod, minReady, now) {
			wait(s, "unavailable")
			break
		}
	}
	completeRollingUpdate(set, &res.Status)
	return res, nil
}

// statefulParentAndOrdinal splits a StatefulSet pod name "<parent>-<n>";
// the ordinal is -1 when the name has no such suffix or n is not a 32-bit
// integer (getParentNameAndOrdinal).
func statefulParentAndOrdinal(name string) (string, int) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i == 0 || name[i-1] != '-' {
		return "", -1
	}
	n, err := strconv.ParseInt(name[i:], 10, 32)
	if err != nil {
		return name[:i-1], -1
	}
	return name[:i-1], int(n)
}

// newPodRevision is the revision newVersionedStatefulSetPod stamps a new
// pod of ordinal ord with, keeping upstream's operator precedence.
func newPodRevision(set *api.StatefulSet, ord, start int, currentRev, updateRev string) string {
	ru := set.Spec.UpdateStrategy.RollingUpdate
	rolling := set.Spec.UpdateStrategy.Type == api.RollingUpdateStatefulSetStrategyType
	partition := 0
	if ru != nil && ru.Partition != nil {
		partition = int(*ru.Partition)
	}
	if rolling && ru == nil && ord < start+int(set.Status.CurrentReplicas) || ru != nil && ord < start+partition {
		return currentRev
	}
	return updateRev
}

// identityMatches reports whether pod carries the identity of a member of
// set: its name, namespace and pod-name label.
func identityMatches(set *api.StatefulSet, pod *api.Pod) bool {
	parent, ord := statefulParentAndOrdinal(pod.Name)
	return ord >= 0 && parent == set.Name && pod.Name == set.Name+"-"+strconv.Itoa(ord) &&
		pod.Namespace == set.Namespace && pod.Labels[api.LabelStatefulSetPodName] == pod.Name
}

func ssTerminating(p *api.Pod) bool { return p != nil && p.DeletionTimestamp != nil }

func ssRunningAndReady(p *api.Pod) bool {
	return p != nil && p.Status.Phase == api.PodRunning && api.IsPodReady(p)
}

// ssUnavailable is isUnavailable: not available (a pod not created yet
// included) or terminating.
func ssUnavailable(p *api.Pod, minReady int32, now time.Time) bool {
	return p == nil || !podAvailable(p, minReady, now) || p.DeletionTimestamp != nil
}

// podAvailable is pkg/api/v1/pod IsPodAvailable: Ready, and Ready for at
// least minReadySeconds by its lastTransitionTime (reached exactly counts).
func podAvailable(p *api.Pod, minReadySeconds int32, now time.Time) bool {
	if p == nil || !api.IsPodReady(p) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := api.FindCondition(p.Status.Conditions, api.PodReady)
	return !c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(time.Duration(minReadySeconds)*time.Second).Compare(now) <= 0
}

func slotPods(lists ...[]ssPod) []*api.Pod {
	var out []*api.Pod
	for _, l := range lists {
		for _, s := range l {
			if s.pod != nil {
				out = append(out, s.pod)
			}
		}
	}
	return out
}

// setCounts is updateStatus/computeReplicaStatus over the given pods:
// created pods (any phase), Running and Ready ones, available ones, and
// the non-terminating ones at the current and at the update revision.
func setCounts(st *api.StatefulSetStatus, pods []*api.Pod, minReady int32, currentRev, updateRev string, now time.Time) {
	st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, p := range pods {
		created := p.Status.Phase != ""
		if created {
			st.Replicas++
		}
		if ssRunningAndReady(p) {
			st.ReadyReplicas++
			if podAvailable(p, minReady, now) {
				st.AvailableReplicas++
			}
		}
		if created && p.DeletionTimestamp == nil {
			rev := p.Labels[api.LabelControllerRevisionHash]
			if rev == currentRev {
				st.CurrentReplicas++
			}
			if rev == updateRev {
				st.UpdatedReplicas++
			}
		}
	}
}

// completeRollingUpdate marks a rolling update done when every replica is
// created, Ready and at the update revision: the current revision becomes
// the update revision.
func completeRollingUpdate(set *api.StatefulSet, st *api.StatefulSetStatus) {
	n := *set.Spec.Replicas
	if set.Spec.UpdateStrategy.Type == api.RollingUpdateStatefulSetStrategyType &&
		st.UpdatedReplicas == n && st.ReadyReplicas == n && st.Replicas == n {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
}

func ptrString(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}
