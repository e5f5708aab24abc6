package nodepressure

import (
	"errors"
	"fmt"
	"sort"

	"github.com/podsem/podsem/api"
)

// Signal is a kubelet eviction signal (pkg/kubelet/eviction/api): the
// resource whose shortage the eviction manager is reclaiming.
type Signal string

// The eviction signals whose pressure makes the kubelet evict pods.
const (
	SignalMemoryAvailable            Signal = "memory.available"
	SignalAllocatableMemoryAvailable Signal = "allocatableMemory.available"
	SignalPIDAvailable               Signal = "pid.available"
	SignalNodeFsAvailable            Signal = "nodefs.available"
	SignalNodeFsInodesFree           Signal = "nodefs.inodesFree"
	SignalImageFsAvailable           Signal = "imagefs.available"
	SignalImageFsInodesFree          Signal = "imagefs.inodesFree"
	SignalContainerFsAvailable       Signal = "containerfs.available"
	SignalContainerFsInodesFree      Signal = "containerfs.inodesFree"
)

// FilesystemLayout is how the node's filesystems are arranged, which
// decides what pod usage each disk signal counts.
type FilesystemLayout string

const (
	// LayoutShared: one node filesystem holds images, writable layers,
	// logs and volumes (no dedicated image filesystem). "" means the same.
	LayoutShared FilesystemLayout = "shared"
	// LayoutDedicatedImageFs: images and container writable layers live on
	// an image filesystem apart from the node filesystem.
	LayoutDedicatedImageFs FilesystemLayout = "dedicated-imagefs"
	// LayoutSplitImageFs: the image filesystem holds only images; writable
	// layers are on the node (container) filesystem
	// (KubeletSeparateDiskGC's split layout).
	LayoutSplitImageFs FilesystemLayout = "separate-imagefs-containerfs"
)

// ErrUnknownSignal and ErrUnknownLayout are wrapped by the errors
// RankForEviction returns for a signal or layout it does not know.
var (
	ErrUnknownSignal = errors.New("unknown eviction signal")
	ErrUnknownLayout = errors.New("unknown filesystem layout")
)

// Measure is what of a pod's usage a signal counts.
type Measure int

const (
	// MeasureMemory: the pod's memory working set (bytes).
	MeasureMemory Measure = iota
	// MeasureProcesses: the pod's process count.
	MeasureProcesses
	// MeasureDiskBytes: bytes of the filesystem usage the layout assigns
	// to the signal.
	MeasureDiskBytes
	// MeasureDiskInodes: inodes of that usage.
	MeasureDiskInodes
)

// fsParts says which of a pod's filesystem usage a disk signal counts.
type fsParts struct{ rootfs, logs, volumes bool }

// rankRule is the ranking the eviction manager's buildSignalToRankFunc
// picks for one signal and layout.
type rankRule struct {
	measure Measure
	parts   fsParts
}

func ruleFor(signal Signal, layout FilesystemLayout) (rankRule, error) {
	switch signal {
	case SignalMemoryAvailable, SignalAllocatableMemoryAvailable:
		return rankRule{measure: MeasureMemory}, nil
	case SignalPIDAvailable:
		return rankRule{measure: MeasureProcesses}, nil
	}
	var parts fsParts
	var inodes bool
	all := fsParts{rootfs: true, logs: true, volumes: true}
	switch layout {
	case "", LayoutShared:
		switch signal {
		case SignalNodeFsAvailable, SignalImageFsAvailable, SignalContainerFsAvailable:
		case SignalNodeFsInodesFree, SignalImageFsInodesFree, SignalContainerFsInodesFree:
			inodes = true
		default:
			return rankRule{}, fmt.Errorf("%w: %q", ErrUnknownSignal, signal)
		}
		parts = all
	case LayoutDedicatedImageFs:
		switch signal {
		case SignalNodeFsAvailable:
			parts = fsParts{logs: true, volumes: true}
		case SignalNodeFsInodesFree:
			parts, inodes = fsParts{logs: true, volumes: true}, true
		case SignalImageFsAvailable, SignalContainerFsAvailable:
			parts = fsParts{rootfs: true}
		case SignalImageFsInodesFree, SignalContainerFsInodesFree:
			parts, inodes = fsParts{rootfs: true}, true
		default:
			return rankRule{}, fmt.Errorf("%w: %q", ErrUnknownSignal, signal)
		}
	case LayoutSplitImageFs:
		switch signal {
		case SignalNodeFsAvailable, SignalContainerFsAvailable:
			parts = all
		case SignalNodeFsInodesFree, SignalContainerFsInodesFree:
			parts, inodes = all, true
		case SignalImageFsAvailable:
			// Only images, which no pod's stats account: nothing counts.
		case SignalImageFsInodesFree:
			inodes = true
		default:
			return rankRule{}, fmt.Errorf("%w: %q", ErrUnknownSignal, signal)
		}
	default:
		return rankRule{}, fmt.Errorf("%w: %q", ErrUnknownLayout, layout)
	}
	if inodes {
		return rankRule{measure: MeasureDiskInodes, parts: parts}, nil
	}
	return rankRule{measure: MeasureDiskBytes, parts: parts}, nil
}

// EvictionRank is one pod's place in the eviction order and the numbers
// that put it there.
type EvictionRank struct {
	Pod *api.Pod
	// HasStats is false when the Summary API had no entry with the pod's
	// UID; such pods go first among those the comparison reaches.
	HasStats bool
	// Measure is what Usage counts.
	Measure Measure
	// Usage is the pod's usage for the signal (bytes, inodes or
	// processes); 0 without stats.
	Usage api.Quantity
	// Request is what Usage is compared with for ExceedsRequests: the
	// pod's memory request, its ephemeral-storage request, or for inode
	// signals an inode request, which pods never have (always 0). Unused
	// for pid.available.
	Request api.Quantity
	// ExceedsRequests reports Usage > Request (memory and disk signals).
	ExceedsRequests bool
	// Priority is spec.priority (0 when unset).
	Priority int32
	// Overage is the amount the final rule ranks by, larger first: Usage
	// minus the memory request (memory signals) or minus the
	// ephemeral-storage request (disk signals, inode ones included); the
	// process count for pid.available.
	Overage api.Quantity
}

// Reason renders the rank's numbers for people.
func (r EvictionRank) Reason() string {
	if !r.HasStats {
		return fmt.Sprintf("no usage statistics; priority %d", r.Priority)
	}
	if r.Measure == MeasureProcesses {
		return fmt.Sprintf("priority %d; %s processes", r.Priority, r.Usage.String())
	}
	word := "within"
	if r.ExceedsRequests {
		word = "exceeds"
	}
	return fmt.Sprintf("usage %s %s request %s; priority %d; %s above request", r.Usage.String(), word, r.Request.String(), r.Priority, r.Overage.String())
}

// RankForEviction orders a node's active pods the way the kubelet's
// eviction manager ranks them when reclaiming signal (the rank function
// buildSignalToRankFunc picks for it), first evicted first:
//
//   - memory.available and allocatableMemory.available: pods whose
//     working set exceeds their memory request first, then lower priority
//     first, then the larger working set above the request;
//   - pid.available: lower priority first, then more processes;
//   - disk signals: usage above the request first, then lower priority,
//     then the larger usage minus the ephemeral-storage request; what
//     usage counts (writable layers, logs, local volumes) depends on
//     the layout, and inode signals count inodes, compared with an inode
//     request that is always zero.
//
// At each step a pod without stats (no entry with its UID) goes before
// one with stats. Requests are the kubelet's: pod-level requests replace
// container ones when spec.resources is set, and spec.overhead is added
// only to a non-zero total. Local volumes are hostPath, emptyDir on the
// default medium, configMap and gitRepo. Pods equal on every rule keep
// their input order when there are at most 12 pods; with more, they come
// out as Go's sort (the kubelet's) leaves them, which depends only on the
// input order. A nil pod in pods is an error wrapping api.ErrInvalidInput that
// names its position; a nil stats map is one without entries (every pod
// lacks stats).
func RankForEviction(pods []*api.Pod, stats map[string]PodStats, signal Signal, layout FilesystemLayout) ([]EvictionRank, error) {
	rule, err := ruleFor(signal, layout)
	if err != nil {
		return nil, err
	}
	ranks := make([]EvictionRank, 0, len(pods))
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: pods[%d]: nil", errInvalidInput, i)
		}
		var st *PodStats
		if v, ok := stats[p.UID]; ok {
			st = &v
		}
		ranks = append(ranks, measure(p, st, rule, requestsFor(p, rule.measure)))
	}
	var s rankSorter
	s.sort(ranks, rule.measure)
	out := make([]EvictionRank, len(ranks))
	for i, k := range s.order {
		out[i] = ranks[k]
	}
	return out, nil
}

// rankSorter orders ranks with the eviction manager's comparison. It is
// the same sort as the kubelet's (sort.Sort over the same comparison), so
// that pods the rules cannot tell apart end up where upstream puts them:
// in input order for up to 12 pods. It sorts a permutation rather than
// the ranks themselves, which gives the same order without moving the
// ranks. Both RankForEviction and Manager sort through it.
type rankSorter struct {
	ranks   []EvictionRank
	keys    []rankKey
	measure Measure
	// order is the permutation: order[i] indexes ranks.
	order []int32
	// lead is leading's buffer.
	lead []int32
}

// sort orders ranks; afterwards s.order lists them first evicted first.
func (s *rankSorter) sort(ranks []EvictionRank, m Measure) {
	s.prepare(ranks, m)
	sort.Sort(s)
}

// prepare sets the sorter up over ranks without sorting them.
func (s *rankSorter) prepare(ranks []EvictionRank, m Measure) {
	s.ranks, s.measure = ranks, m
	s.order, s.keys = s.order[:0], s.keys[:0]
	for i := range ranks {
		s.order = append(s.order, int32(i))
		s.keys = append(s.keys, keyOf(&ranks[i]))
	}
}

func (s *rankSorter) cmp(i, j int32) int {
	return compareRanks(&s.keys[i], &s.keys[j], &s.ranks[i], &s.ranks[j], s.measure)
}

// leading returns, after prepare, the beginning of the sorted order up to
// and including the first rank that skip does not exclude — all the
// eviction manager needs — without sorting, when strict comparisons alone
// decide it: that rank is strictly before every other rank not skipped,
// no rank ties with it, and the skipped ranks before it are strictly
// ordered among themselves. Any correct sort then puts exactly these ranks
// first in this order, so the answer equals the full sort's. ok is false
// when ties could let the sort's own order matter (or for the process
// measure, whose comparison is not a strict order at the extremes); the
// caller then sorts.
func (s *rankSorter) leading(skip []bool) (prefix []int32, ok bool) {
	if s.measure == MeasureProcesses {
		return nil, false
	}
	best := int32(-1)
	for i := range s.ranks {
		if !skip[i] && (best < 0 || s.cmp(int32(i), best) < 0) {
			best = int32(i)
		}
	}
	if best < 0 {
		return nil, false
	}
	lead := s.lead[:0]
	for i := range s.ranks {
		if i := int32(i); i != best {
			switch c := s.cmp(i, best); {
			case c == 0:
				return nil, false
			case c < 0:
				lead = append(lead, i)
			}
		}
	}
	for i := 1; i < len(lead); i++ {
		for j := i; j > 0; j-- {
			c := s.cmp(lead[j], lead[j-1])
			if c == 0 {
				return nil, false
			}
			if c > 0 {
				break
			}
			lead[j], lead[j-1] = lead[j-1], lead[j]
		}
	}
	s.lead = append(lead, best)
	return s.lead, true
}

func (s *rankSorter) Len() int { return len(s.order) }
func (s *rankSorter) Less(i, j int) bool {
	a, b := s.order[i], s.order[j]
	return compareRanks(&s.keys[a], &s.keys[b], &s.ranks[a], &s.ranks[b], s.measure) < 0
}
func (s *rankSorter) Swap(i, j int) { s.order[i], s.order[j] = s.order[j], s.order[i] }

// podRequests are the kubelet's requests of one pod that ranking reads:
// memory for the memory signals, ephemeral-storage for the disk ones, each
// also as an int64 (exact64) when it is a whole number that fits one.
type podRequests struct {
	memory, ephemeral     api.Quantity
	memory64, ephemeral64 int64
	memoryOK, ephemeralOK bool
}

// requestsFor computes the requests measure m reads (none for processes).
func requestsFor(p *api.Pod, m Measure) podRequests {
	var r podRequests
	switch m {
	case MeasureProcesses:
	case MeasureMemory:
		r.memory = ResourceRequest(p, api.ResourceMemory)
	default:
		r.ephemeral = ResourceRequest(p, api.ResourceEphemeralStorage)
	}
	r.exact()
	return r
}

// exact fills the int64 forms.
func (r *podRequests) exact() {
	r.memory64, r.memoryOK = r.memory.AsInt64()
	r.ephemeral64, r.ephemeralOK = r.ephemeral.AsInt64()
}

// usageMinusRequest is u − q as Quantity.Sub computes it (the result in
// u's format, q's when u is zero), by int64 arithmetic when u (the whole
// number ui) and q (qi when qok) allow it: the ranking does it for every
// pod, and the general path costs far more.
func usageMinusRequest(u api.Quantity, ui int64, q api.Quantity, qi int64, qok bool) api.Quantity {
	d := ui - qi
	if !qok || (qi > 0 && d > ui) || (qi < 0 && d < ui) {
		return u.Sub(q)
	}
	f := u.Format()
	if ui == 0 {
		f = q.Format()
	}
	return api.NewQuantity(d, f)
}

// usageAbove reports u > q, by int64 comparison when q is one.
func usageAbove(u api.Quantity, ui int64, q api.Quantity, qi int64, qok bool) bool {
	if qok {
		return ui > qi
	}
	return u.Cmp(q) > 0
}

// EvictionOrder is RankForEviction's order as a list of pods, first
// evicted first; a nil pod in pods is RankForEviction's error.
func EvictionOrder(pods []*api.Pod, stats map[string]PodStats, signal Signal, layout FilesystemLayout) ([]*api.Pod, error) {
	ranks, err := RankForEviction(pods, stats, signal, layout)
	if err != nil {
		return nil, err
	}
	out := make([]*api.Pod, len(ranks))
	for i := range ranks {
		out[i] = ranks[i].Pod
	}
	return out, nil
}

// measure ranks one pod from its stats entry (nil when it has none) and
// its requests.
func measure(p *api.Pod, st *PodStats, rule rankRule, req podRequests) EvictionRank {
	r := EvictionRank{Pod: p, Measure: rule.measure, Priority: api.PodPriority(p)}
	ok := st != nil
	r.HasStats = ok
	switch rule.measure {
	case MeasureProcesses:
		if ok && st.ProcessStats != nil {
			r.Usage = api.NewQuantity(int64(u64(st.ProcessStats.ProcessCount)), api.DecimalSI)
		} else {
			r.Usage = api.NewQuantity(0, api.DecimalSI)
		}
		r.Overage = r.Usage
		return r
	case MeasureMemory:
		var used uint64
		if ok && st.Memory != nil {
			used = u64(st.Memory.WorkingSetBytes)
		}
		r.Usage = api.NewQuantity(int64(used), api.BinarySI)
		r.Request = req.memory
		r.Overage = usageMinusRequest(r.Usage, int64(used), req.memory, req.memory64, req.memoryOK)
		r.ExceedsRequests = ok && usageAbove(r.Usage, int64(used), req.memory, req.memory64, req.memoryOK)
		return r
	}
	r.Usage = diskUsage(p, st, rule)
	ui, uok := r.Usage.AsInt64()
	if uok {
		r.Overage = usageMinusRequest(r.Usage, ui, req.ephemeral, req.ephemeral64, req.ephemeralOK)
	} else {
		r.Overage = r.Usage.Sub(req.ephemeral)
	}
	if rule.measure == MeasureDiskInodes {
		r.Request = api.NewQuantity(0, api.DecimalSI)
		r.ExceedsRequests = ok && r.Usage.Sign() > 0
		return r
	}
	r.Request = req.ephemeral
	if uok {
		r.ExceedsRequests = ok && usageAbove(r.Usage, ui, req.ephemeral, req.ephemeral64, req.ephemeralOK)
	} else {
		r.ExceedsRequests = ok && r.Usage.Cmp(r.Request) > 0
	}
	return r
}

// diskUsage adds up the filesystem usage the rule counts for the pod.
func diskUsage(p *api.Pod, st *PodStats, rule rankRule) api.Quantity {
	inodes := rule.measure == MeasureDiskInodes
	pick := func(fs *FsStats) int64 {
		if fs == nil {
			return 0
		}
		if inodes {
			return int64(u64(fs.InodesUsed))
		}
		return int64(u64(fs.UsedBytes))
	}
	// Each reading is taken as a signed 64-bit count, as the kubelet
	// converts it, but the total is an exact quantity sum: it does not wrap
	// when the readings together exceed the int64 range.
	format := api.BinarySI
	if inodes {
		format = api.DecimalSI
	}
	total := api.NewQuantity(0, format)
	if st == nil {
		return total
	}
	// each visits the readings the rule counts.
	each := func(f func(int64)) {
		for i := range st.Containers {
			c := &st.Containers[i]
			if rule.parts.rootfs {
				f(pick(c.Rootfs))
			}
			if rule.parts.logs {
				f(pick(c.Logs))
			}
		}
		if rule.parts.volumes {
			for _, v := range p.Spec.Volumes {
				if !isLocalVolume(&v) {
					continue
				}
				for j := range st.VolumeStats {
					if st.VolumeStats[j].Name == v.Name {
						f(pick(&st.VolumeStats[j].FsStats))
						break
					}
				}
			}
		}
	}
	// The common case sums in int64; only a total past its range takes
	// the exact quantity sum.
	var sum int64
	fits := true
	each(func(v int64) {
		s := sum + v
		if (v > 0 && s < sum) || (v < 0 && s > sum) {
			fits = false
		}
		sum = s
	})
	if fits {
		return api.NewQuantity(sum, format)
	}
	each(func(v int64) { total = total.Add(api.NewQuantity(v, format)) })
	return total
}

// isLocalVolume reports whether the kubelet counts the volume's usage
// against the pod's local storage: hostPath, and the local ephemeral
// volumes (emptyDir on the node's disk, configMap, gitRepo). emptyDir in
// memory, secrets, downward API, projected and persistent volumes are not.
func isLocalVolume(v *api.Volume) bool {
	return v.HostPath != nil || v.GitRepo != nil || v.ConfigMap != nil ||
		(v.EmptyDir != nil && v.EmptyDir.Medium == api.StorageMediumDefault)
}

// ResourceRequest is the pod's request of one resource as the kubelet
// computes it for eviction ranking and for the critical-pod preemption of
// its admission (pkg/api/v1/resource GetResourceRequestQuantity): the
// sidecar-aware container aggregate, or only the pod-level requests when
// spec.resources sets any supported resource, plus spec.overhead when the
// total is not zero. A resource the pod does not request is a zero
// quantity, and so is every resource of a nil pod.
func ResourceRequest(p *api.Pod, name api.ResourceName) api.Quantity {
	format := api.DecimalSI
	if name == api.ResourceMemory || name == api.ResourceEphemeralStorage {
		format = api.BinarySI
	}
	q := api.NewQuantity(0, format)
	if p == nil {
		return q
	}
	reqs := api.PodRequests(p, api.PodResourcesOptions{
		SkipContainerLevelResources: api.IsPodLevelResourcesSet(p),
		ExcludeOverhead:             true,
	})
	if v, ok := reqs[name]; ok {
		q = q.Add(v)
	}
	if oh, ok := p.Spec.Overhead[name]; ok && !q.IsZero() {
		q = q.Add(oh)
	}
	return q
}

// rankKey is what the comparison reads of an EvictionRank, kept compact
// so that sorting a full node's ranks stays in cache: the overage (or the
// process count) as an int64 when it is a whole number that fits one.
type rankKey struct {
	priority          int32
	hasStats, exceeds bool
	exact             bool
	overage           int64
}

func keyOf(r *EvictionRank) rankKey {
	k := rankKey{priority: r.Priority, hasStats: r.HasStats, exceeds: r.ExceedsRequests}
	k.overage, k.exact = r.Overage.AsInt64()
	return k
}

// compareRanks is the eviction manager's multi-key comparison of two
// ranks through their keys: negative when a is evicted before b.
func compareRanks(a, b *rankKey, ra, rb *EvictionRank, m Measure) int {
	if m == MeasureProcesses {
		if c := comparePriority(a, b); c != 0 {
			return c
		}
		if c := compareStats(a, b); c != 0 || !a.hasStats {
			return c
		}
		// Upstream subtracts the unsigned counts and converts to int.
		d := int64(uint64(b.overage) - uint64(a.overage))
		switch {
		case d < 0:
			return -1
		case d > 0:
			return 1
		}
		return 0
	}
	if c := compareStats(a, b); c != 0 {
		return c
	}
	if a.hasStats && a.exceeds != b.exceeds {
		if a.exceeds {
			return -1
		}
		return 1
	}
	if c := comparePriority(a, b); c != 0 {
		return c
	}
	if !a.hasStats {
		return 0
	}
	if a.exact && b.exact {
		switch {
		case a.overage > b.overage:
			return -1
		case a.overage < b.overage:
			return 1
		}
		return 0
	}
	return rb.Overage.Cmp(ra.Overage)
}

// compareStats puts the pod without stats first; 0 when both have stats
// or both lack them.
func compareStats(a, b *rankKey) int {
	switch {
	case a.hasStats == b.hasStats:
		return 0
	case !a.hasStats:
		return -1
	}
	return 1
}

func comparePriority(a, b *rankKey) int {
	switch {
	case a.priority < b.priority:
		return -1
	case a.priority > b.priority:
		return 1
	}
	return 0
}
