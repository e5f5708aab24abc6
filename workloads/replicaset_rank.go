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
	// Each pod's facts are read once; the comparisons only compare them.
	keys := make([]deletionKey, len(pods))
	for i, p := range pods {
		k := &keys[i]
		k.pod, k.uid = p, p.UID
		k.unassigned = p.Spec.NodeName == ""
		k.phase = phaseOrdinal(p.Status.Phase)
		k.ready = api.IsPodReady(p)
		k.cost = PodDeletionCost(p)
		if len(ranks) == len(pods) {
			k.rank = ranks[i]
		}
		if k.ready {
			k.readySince = readySince(p)
			k.readyBucket = logAgeBucket(now.Sub(k.readySince))
		}
		k.createdBucket = logAgeBucket(now.Sub(p.CreationTimestamp.Time))
		k.restarts, k.sidecarRestarts = maxRestarts(p)
	}
	sort.Sort(&deletionOrder{pods: pods, keys: keys, now: now})
}

// deletionKey is what the deletion ranking reads of one pod.
type deletionKey struct {
	pod               *api.Pod
	uid               string
	unassigned, ready bool
	phase             int
	cost              int32
	rank              int
	readySince        time.Time
	// The logarithmic ages of readySince and creationTimestamp, read
	// only when now and both times compared are set.
	readyBucket, createdBucket int64
	restarts, sidecarRestarts  int32
}

type deletionOrder struct {
	pods []*api.Pod
	keys []deletionKey
	now  time.Time
}

func (s *deletionOrder) Len() int { return len(s.pods) }

func (s *deletionOrder) Swap(i, j int) {
	s.pods[i], s.pods[j] = s.pods[j], s.pods[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}

func (s *deletionOrder) Less(i, j int) bool {
	a, b := &s.keys[i], &s.keys[j]
	if a.unassigned != b.unassigned {
		return a.unassigned
	}
	if a.phase != b.phase {
		return a.phase < b.phase
	}
	if a.ready != b.ready {
		return !a.ready
	}
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	if a.ready && b.ready && !a.readySince.Equal(b.readySince) {
		return s.newerFirst(a, b, a.readySince, b.readySince, a.readyBucket, b.readyBucket)
	}
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if a.sidecarRestarts != b.sidecarRestarts {
		return a.sidecarRestarts > b.sidecarRestarts
	}
	ta, tb := a.pod.CreationTimestamp.Time, b.pod.CreationTimestamp.Time
	if !ta.Equal(tb) {
		return s.newerFirst(a, b, ta, tb, a.createdBucket, b.createdBucket)
	}
	return false
}

// newerFirst orders two different times ta of a and tb of b: a zero time
// first, else by logarithmic age bucket relative to now (ba, bb; younger
// first), the uid deciding within a bucket.
func (s *deletionOrder) newerFirst(a, b *deletionKey, ta, tb time.Time, ba, bb int64) bool {
	if s.now.IsZero() || ta.IsZero() || tb.IsZero() {
		if ta.IsZero() || tb.IsZero() {
			return ta.IsZero()
		}
		return ta.After(tb)
	}
	if ba == bb {
		return a.uid < b.uid
	}
	return ba < bb
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
	// Each pod counts once, however many of the related sets select it
	// (upstream de-duplicates by uid, which the API server makes unique).
	sels := make([]api.Selector, len(related))
	for i, r := range related {
		if sel, err := api.LabelSelectorAsSelector(r.Spec.Selector); err == nil {
			sels[i] = sel
		}
	}
	perNode := map[string]int{}
	for _, p := range pods {
		if p == nil || !isPodActive(p) {
			continue
		}
		for i, r := range related {
			if sels[i] != nil && p.Namespace == r.Namespace && sels[i].Matches(api.Set(p.Labels)) {
				perNode[p.Spec.NodeName]++
				break
			}
		}
	}
	ranks := make([]int, len(claimed))
	for i, p := range claimed {
		ranks[i] = perNode[p.Spec.NodeName]
	}
	return ranks
}
