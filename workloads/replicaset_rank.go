package workloads

import (
	"math"
	"math/bits"
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
// upstream uses, on the order given, every comparison answered as
// upstream's; each pod is read once, into integer keys (one allocation
// for all of them) that the comparisons compare. Nil pods are not
// allowed: the list is returned unsorted when it holds one.
func RankPodsForDeletion(pods []*api.Pod, ranks []int, now time.Time) {
	for _, p := range pods {
		if p == nil {
			return
		}
	}
	if len(pods) < 2 {
		return
	}
	s := newDeletionOrder(pods, now)
	if len(ranks) == len(pods) {
		for _, r := range ranks {
			if r != int(int32(r)) {
				s.ranks = ranks
				break
			}
		}
	}
	for i, p := range pods {
		r := 0
		if len(ranks) == len(pods) {
			r = ranks[i]
		}
		s.read(i, p, int32(r))
	}
	s.sort()
}

// rankClaimedForDeletion is RankPodsForDeletion of the claimed pods with
// the co-location ranks of getPodsRankedByRelatedPodsOnSameNode: each
// claimed pod's rank is the number of active pods on its node that the
// set or another ReplicaSet of its controller selects (each pod counted
// once). A set without a controller has no related pods: every rank is
// 0. claimed holds no nil pod and is in the order of pods, of which it is
// part (the claimed replicas of rs, all related).
func rankClaimedForDeletion(rs *api.ReplicaSet, others []*api.ReplicaSet, pods, claimed []*api.Pod, now time.Time) {
	s := newDeletionOrder(claimed, now)
	ctrl := rs.ControllerRef()
	if ctrl == nil {
		for i, p := range claimed {
			s.read(i, p, 0)
		}
		s.sort()
		return
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
	// One pass over pods counts the related active pods per node (a
	// slot in counts for each node) and reads the claimed pods' keys,
	// their rank the slot of their node until the counting is done.
	// Every claimed pod is related (active, in the namespace, selected by
	// rs): no selector is evaluated for them again.
	slots := make(map[string]int32, 64)
	var counts []int
	ci := 0
	for _, p := range pods {
		if p == nil {
			continue
		}
		mine := ci < len(claimed) && p == claimed[ci]
		if !mine && !isRelated(p, related, sels) {
			continue
		}
		slot, ok := slots[p.Spec.NodeName]
		if !ok {
			slot = int32(len(counts))
			slots[p.Spec.NodeName] = slot
			counts = append(counts, 0)
		}
		counts[slot]++
		if mine {
			s.read(ci, p, slot)
			ci++
		}
	}
	for i := range s.keys[:ci] {
		k := &s.keys[i]
		k.rank = int32(counts[k.rank])
	}
	for ; ci < len(claimed); ci++ {
		// Not met in pods' order: claimed was not built from pods.
		r := 0
		if slot, ok := slots[claimed[ci].Spec.NodeName]; ok {
			r = counts[slot]
		}
		s.read(ci, claimed[ci], int32(r))
	}
	s.sort()
}

// isRelated reports whether p is an active pod one of the related sets
// selects (sels[i] compiled from related[i]'s selector, nil when it does
// not compile).
func isRelated(p *api.Pod, related []*api.ReplicaSet, sels []api.Selector) bool {
	if !isPodActive(p) {
		return false
	}
	for i, r := range related {
		if sels[i] != nil && p.Namespace == r.Namespace && sels[i].Matches(api.Set(p.Labels)) {
			return true
		}
	}
	return false
}

// deletionOrder sorts the keys of pods (which it leaves in place until
// the end) in the deletion ranking's order, answering every comparison
// as upstream's ActivePodsWithRanks.Less does for the pods the keys were
// read from. Every fact a comparison reads is read off the pods once,
// into one slice of keys of one cache line each; the sort moves only the
// keys, and the pods are put in the keys' final order at the end.
type deletionOrder struct {
	pods []*api.Pod
	keys []deletionKey
	now  time.Time
	// ranks, when not nil, are the ranks as given, some too large for
	// deletionKey.rank: the comparisons read them there.
	ranks []int
	// logScale: now is set (LogarithmicScaleDown compares ages on a log
	// scale); slowTimes: some time carries a monotonic reading or lies
	// outside the years 1678 to 2262 that nanoseconds since 1970 cover,
	// so the comparisons compare the pods' time.Time values.
	logScale, slowTimes bool
}

func newDeletionOrder(pods []*api.Pod, now time.Time) *deletionOrder {
	return &deletionOrder{pods: pods, keys: make([]deletionKey, len(pods)), now: now, logScale: !now.IsZero()}
}

// deletionKey is what the deletion ranking reads of one pod, as integers
// (64 bytes).
type deletionKey struct {
	// class orders rules 1 to 4 at once, lower first: assigned (bit 35),
	// the phase ordinal (bits 34-33: Pending and any other phase 0,
	// Unknown 1, Running 2), ready (bit 32, keyReady), then the deletion
	// cost in the low 32 bits, its sign bit flipped so that the unsigned
	// order is the signed one.
	class uint64
	// The ready time (of a ready pod) and the creation time in
	// nanoseconds since 1970, zeroTime for the zero time.
	readyNs, createdNs int64
	// uid holds the uid's first 16 bytes, big-endian and zero-padded:
	// comparing them compares the uids unless both are equal, when the
	// whole uids decide.
	uid                      [2]uint64
	rank, restarts, sidecars int32
	// idx is the pod's place in the list as given.
	idx int32
	// The logarithmic ages of the ready time and the creation time,
	// floor(log2(now − t in ns)), -1 for an age not above 0.
	readyBucket, createdBucket int8
}

// keyReady is the ready bit of deletionKey.class.
const keyReady = 1 << 32

// zeroTime stands for the zero time.Time in deletionKey; no other time
// has this number of nanoseconds.
const zeroTime = math.MinInt64

// read fills the key of pods[i], p, with the given rank.
func (s *deletionOrder) read(i int, p *api.Pod, rank int32) {
	k := &s.keys[i]
	var class uint64
	if p.Spec.NodeName != "" {
		class |= 1 << 35
	}
	class |= uint64(phaseOrdinal(p.Status.Phase)) << 33
	cond := api.FindCondition(p.Status.Conditions, api.PodReady)
	ready := cond != nil && cond.Status == api.ConditionTrue
	if ready {
		class |= keyReady
	}
	k.class = class | uint64(uint32(PodDeletionCost(p))^1<<31)
	k.rank, k.idx = rank, int32(i)
	k.uid = uidPrefix(p.UID)
	if ready {
		// The first Ready condition is True: its time is the ready time.
		t := cond.LastTransitionTime.Time
		k.readyNs = s.nanos(t)
		k.readyBucket = logAgeBucket(s.now.Sub(t))
	}
	t := p.CreationTimestamp.Time
	k.createdNs = s.nanos(t)
	k.createdBucket = logAgeBucket(s.now.Sub(t))
	k.restarts, k.sidecars = maxRestarts(p)
}

// nanos is t in nanoseconds since 1970, zeroTime for the zero time; a
// time that has no such number, or carries a monotonic clock reading
// (as time.Now's do, which time.Time's comparisons prefer to the wall
// clock when both times have one), sets slowTimes.
func (s *deletionOrder) nanos(t time.Time) int64 {
	if t.IsZero() {
		return zeroTime
	}
	sec := t.Unix()
	if t != t.Round(0) || sec < math.MinInt64/1_000_000_000+1 || sec > math.MaxInt64/1_000_000_000-1 {
		s.slowTimes = true
		return 0
	}
	return sec*1e9 + int64(t.Nanosecond())
}

func uidPrefix(uid string) (p [2]uint64) {
	if len(uid) >= 16 {
		return [2]uint64{bigEndian(uid[:8]), bigEndian(uid[8:16])}
	}
	for i := range len(uid) {
		p[i/8] |= uint64(uid[i]) << (56 - 8*(i%8))
	}
	return p
}

// bigEndian is the 8 bytes of s as a big-endian number.
func bigEndian(s string) uint64 {
	_ = s[7]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
}

// sort sorts the keys with sort.Sort, upstream's algorithm, from the
// pods' order, then puts the pods in the keys' order.
func (s *deletionOrder) sort() {
	sort.Sort(s)
	permute(s.pods, s.keys)
}

func (s *deletionOrder) Len() int { return len(s.keys) }

func (s *deletionOrder) Swap(i, j int) { s.keys[i], s.keys[j] = s.keys[j], s.keys[i] }

func (s *deletionOrder) Less(i, j int) bool {
	a, b := &s.keys[i], &s.keys[j]
	if a.class != b.class {
		return a.class < b.class
	}
	if s.ranks != nil {
		if ra, rb := s.ranks[a.idx], s.ranks[b.idx]; ra != rb {
			return ra > rb
		}
	} else if a.rank != b.rank {
		return a.rank > b.rank
	}
	// Same class: both ready or both not.
	if a.class&keyReady != 0 {
		if s.slowTimes {
			if ta, tb := readySince(s.pods[a.idx]), readySince(s.pods[b.idx]); !ta.Equal(tb) {
				return s.newerFirstTime(a, b, ta, tb, a.readyBucket, b.readyBucket)
			}
		} else if a.readyNs != b.readyNs {
			return s.newerFirst(a, b, a.readyNs, b.readyNs, a.readyBucket, b.readyBucket)
		}
	}
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if a.sidecars != b.sidecars {
		return a.sidecars > b.sidecars
	}
	if s.slowTimes {
		if ta, tb := s.pods[a.idx].CreationTimestamp.Time, s.pods[b.idx].CreationTimestamp.Time; !ta.Equal(tb) {
			return s.newerFirstTime(a, b, ta, tb, a.createdBucket, b.createdBucket)
		}
		return false
	}
	if a.createdNs != b.createdNs {
		return s.newerFirst(a, b, a.createdNs, b.createdNs, a.createdBucket, b.createdBucket)
	}
	return false
}

// newerFirst orders two different times of a and b, in nanoseconds
// (zeroTime for the zero time), with their logarithmic ages: a zero time
// first; without now, the later time first; else the younger bucket
// first, the uid deciding within a bucket.
func (s *deletionOrder) newerFirst(a, b *deletionKey, ta, tb int64, ba, bb int8) bool {
	if ta == zeroTime || tb == zeroTime {
		return ta == zeroTime
	}
	if !s.logScale {
		return ta > tb
	}
	if ba == bb {
		return s.uidLess(a, b)
	}
	return ba < bb
}

// newerFirstTime is newerFirst for the times as time.Time values.
func (s *deletionOrder) newerFirstTime(a, b *deletionKey, ta, tb time.Time, ba, bb int8) bool {
	if ta.IsZero() || tb.IsZero() {
		return ta.IsZero()
	}
	if !s.logScale {
		return ta.After(tb)
	}
	if ba == bb {
		return s.uidLess(a, b)
	}
	return ba < bb
}

func (s *deletionOrder) uidLess(a, b *deletionKey) bool {
	if a.uid != b.uid {
		return a.uid[0] < b.uid[0] || a.uid[0] == b.uid[0] && a.uid[1] < b.uid[1]
	}
	return s.pods[a.idx].UID < s.pods[b.idx].UID
}

// permute puts pods in the order of the sorted keys (pods[i] becomes the
// pod keys[i] was read from) in place, following each cycle of the
// permutation; it overwrites the keys' idx.
func permute(pods []*api.Pod, keys []deletionKey) {
	for i := range keys {
		if int(keys[i].idx) == i {
			continue
		}
		first := pods[i]
		j := i
		for {
			k := int(keys[j].idx)
			keys[j].idx = int32(j)
			if k == i {
				pods[j] = first
				break
			}
			pods[j] = pods[k]
			j = k
		}
	}
}

// logAgeBucket is floor(log2(age in ns)), -1 for an age not above 0, as
// upstream computes it: in floating point, so an age just under a power
// of two may count as that power. Away from the powers of two (farther
// than 2^-30 of one, relatively) the float result's floor is the integer
// one, the bit length less one; near them the float one is computed.
func logAgeBucket(age time.Duration) int8 {
	if age <= 0 {
		return -1
	}
	k := bits.Len64(uint64(age)) - 1
	lo := uint64(1) << k
	off, margin := uint64(age)-lo, lo>>30
	if off < margin || lo-off <= margin {
		return int8(int64(math.Log2(float64(age))))
	}
	return int8(k)
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
// and among the sidecars: the init container statuses named like an init
// container with restartPolicy Always (any of them, should two share the
// name).
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
