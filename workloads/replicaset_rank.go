package workloads

import (
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
)

// AnnotationPodDeletionCost is the pod annotation that tells the
// ReplicaSet controller how costly deleting the pod is (k8s.io/api core/v1
// PodDeletionCost, the PodDeletionCost feature, on by default): on scale
// down, pods with a lower cost go first. The value is a 32-bit integer
// written without a plus sign or leading zeros; any other value counts as
// 0.
const AnnotationPodDeletionCost = "controller.kubernetes.io/pod-deletion-cost"

// PodDeletionCost is the pod's deletion cost as the ReplicaSet controller
// reads it (pkg/apis/core/helper GetDeletionCostFromPodAnnotations): the
// AnnotationPodDeletionCost value, 0 when absent or not a canonical 32-bit
// integer ("+10", "08", "1.5", "3000000000" all count as 0). A nil pod
// costs 0.
func PodDeletionCost(pod *api.Pod) int32 {
	if pod == nil {
		return 0
	}
	v, ok := pod.Annotations[AnnotationPodDeletionCost]
	if !ok || v == "" {
		return 0
	}
	if c := v[0]; !(c == '-' || c >= '1' && c <= '9' || v == "0") {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// RankPodsForDeletion sorts pods in place into the order in which the
// ReplicaSet controller deletes them on scale down, the most preferred
// victim first (pkg/controller ActivePodsWithRanks with the default
// feature gates PodDeletionCost and LogarithmicScaleDown). ranks[i] is
// pods[i]'s co-location rank (see ReplicaSetInput.OtherReplicaSets); nil
// ranks, or a list of another length, count as all 0. Pod a goes before
// pod b when the first rule that tells them apart says so:
//
//  1. unassigned (no spec.nodeName) before assigned;
//  2. phase Pending (or empty, or any other) before Unknown before Running;
//  3. not ready before ready;
//  4. lower PodDeletionCost first;
//  5. higher co-location rank first (pods on crowded nodes go first);
//  6. both ready: the more recently ready first — compared on a
//     logarithmic scale, floor(log2(now − readyTime in ns)), and two pods
//     in the same bucket are ordered by metadata.uid (as strings), not by
//     time; a zero ready time goes first;
//  7. more restarts first: the maximum restartCount of the regular
//     containers, then of the sidecars (plain init containers ignored);
//  8. newer first by creationTimestamp, on the same logarithmic scale and
//     uid tie-break, a zero timestamp first.
//
// Because the logarithmic buckets and the uid tie-break do not make a
// strict order, the result depends on the input order for some inputs,
// exactly as upstream's does: the sort is sort.Sort, the algorithm
// upstream uses, on the order given. Nil pods are not allowed: the list
// is returned unsorted when it holds one.
func RankPodsForDeletion(pods []*api.Pod, ranks []int, now time.Time) {
	for _, p := range pods {
		if p == nil {
			return
		}
	}
	if len(ranks) != len(pods) {
		ranks = nil
	}
	sort.Sort(&deletionOrder{pods: pods, ranks: ranks, now: now})
}

type deletionOrder struct {
	pods  []*api.Pod
	ranks []int
	now   time.Time
}

func (s *deletionOrder) Len() int { return len(s.pods) }

func (s *deletionOrder) Swap(i, j int) {
	s.pods[i], s.pods[j] = s.pods[j], s.pods[i]
	if s.ranks != nil {
		s.ranks[i], s.ranks[j] = s.ranks[j], s.ranks[i]
	}
}

func (s *deletionOrder) rank(i int) int {
	if s.ranks == nil {
		return 0
	}
	return s.ranks[i]
}

func (s *deletionOrder) Less(i, j int) bool {
	a, b := s.pods[i], s.pods[j]
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := phaseOrdinal(a.Status.Phase), phaseOrdinal(b.Status.Phase); pa != pb {
		return pa < pb
	}
	readyA, readyB := api.IsPodReady(a), api.IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	if ca, cb := PodDeletionCost(a), PodDeletionCost(b); ca != cb {
		return ca < cb
	}
	if ra, rb := s.rank(i), s.rank(j); ra != rb {
		return ra > rb
	}
	if readyA && readyB {
		ta, tb := readySince(a), readySince(b)
		if !ta.Equal(tb) {
			return s.newerFirst(a, b, ta, tb)
		}
	}
	ra, sa := maxRestarts(a)
	rb, sb := maxRestarts(b)
	if ra != rb {
		return ra > rb
	}
	if sa != sb {
		return sa > sb
	}
	ta, tb := a.CreationTimestamp.Time, b.CreationTimestamp.Time
	if !ta.Equal(tb) {
		return s.newerFirst(a, b, ta, tb)
	}
	return false
}

// newerFirst orders two different times of a and b: a zero time first,
// else by logarithmic age bucket relative to now (younger bucket first),
// the uid deciding within a bucket.
func (s *deletionOrder) newerFirst(a, b *api.Pod, ta, tb time.Time) bool {
	if s.now.IsZero() || ta.IsZero() || tb.IsZero() {
		if ta.IsZero() || tb.IsZero() {
			return ta.IsZero()
		}
		return ta.After(tb)
	}
	d := logAgeBucket(s.now.Sub(ta)) - logAgeBucket(s.now.Sub(tb))
	if d == 0 {
		return a.UID < b.UID
	}
	return d < 0
}

// logAgeBucket is floor(log2(age in ns)), -1 for an age not above 0.
func logAgeBucket(age time.Duration) int64 {
	if age <= 0 {
		return -1
	}
	return int64(math.Log2(float64(age)))
}

func phaseOrdinal(p api.PodPhase) int {
	switch p {
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

// readySince is the lastTransitionTime of the pod's first True Ready
// condition (zero when there is none).
func readySince(p *api.Pod) time.Time {
	for i := range p.Status.Conditions {
		if c := &p.Status.Conditions[i]; c.Type == api.PodReady && c.Status == api.ConditionTrue {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// maxRestarts is the highest restartCount among the regular containers
// and among the sidecars (init containers with restartPolicy Always).
func maxRestarts(p *api.Pod) (regular, sidecar int32) {
	for i := range p.Status.ContainerStatuses {
		regular = max(regular, p.Status.ContainerStatuses[i].RestartCount)
	}
	for i := range p.Status.InitContainerStatuses {
		st := &p.Status.InitContainerStatuses[i]
		for j := range p.Spec.InitContainers {
			if c := &p.Spec.InitContainers[j]; c.Name == st.Name && c.IsSidecar() {
				sidecar = max(sidecar, st.RestartCount)
				break
			}
		}
	}
	return regular, sidecar
}

// coLocationRanks is getPodsRankedByRelatedPodsOnSameNode over the pods of
// every ReplicaSet sharing rs's controller (rs included): each claimed
// pod's rank is the number of active related pods on its node. A set
// without a controller has no related pods: every rank is 0.
func coLocationRanks(rs *api.ReplicaSet, others []*api.ReplicaSet, pods, claimed []*api.Pod) []int {
	ctrl := rs.ControllerRef()
	if ctrl == nil {
		return nil
	}
	related := []*api.ReplicaSet{rs}
	for _, o := range others {
		if o == nil || o.Namespace == rs.Namespace && o.Name == rs.Name {
			continue
		}
		if r := o.ControllerRef(); r != nil && r.UID == ctrl.UID {
			related = append(related, o)
		}
	}
	perNode := map[string]int{}
	seen := map[string]bool{}
	for _, r := range related {
		sel, err := api.LabelSelectorAsSelector(r.Spec.Selector)
		if err != nil {
			continue
		}
		for _, p := range pods {
			if p == nil || p.Namespace != r.Namespace || !sel.Matches(api.Set(p.Labels)) || seen[p.UID] {
				continue
			}
			seen[p.UID] = true
			if isPodActive(p) {
				perNode[p.Spec.NodeName]++
			}
		}
	}
	ranks := make([]int, len(claimed))
	for i, p := range claimed {
		ranks[i] = perNode[p.Spec.NodeName]
	}
	return ranks
}
