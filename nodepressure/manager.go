package nodepressure

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// NodeGC is a node-level garbage collection the eviction manager tries
// before it evicts pods for a disk signal (buildSignalToNodeReclaimFuncs).
type NodeGC string

// The node-level reclaims, in the order the kubelet runs them.
const (
	// GCUnusedContainers: delete every dead container (the container GC's
	// DeleteAllUnusedContainers).
	GCUnusedContainers NodeGC = "DeleteAllUnusedContainers"
	// GCUnusedImages: delete the images no container uses (the image GC's
	// DeleteUnusedImages).
	GCUnusedImages NodeGC = "DeleteUnusedImages"
)

// nodeGCFor is the garbage collection the kubelet tries for signal under
// layout: none for memory and pid; with one shared filesystem both for
// every disk signal; with a dedicated image filesystem both for imagefs
// and containerfs, none for nodefs; with split image and container
// filesystems images for imagefs and containers for nodefs and
// containerfs.
func nodeGCFor(s Signal, layout FilesystemLayout) []NodeGC {
	both := []NodeGC{GCUnusedContainers, GCUnusedImages}
	disk := s.Resource() == api.ResourceEphemeralStorage || s.Resource() == ResourceInodes
	if !disk {
		return nil
	}
	image := s == SignalImageFsAvailable || s == SignalImageFsInodesFree
	container := s == SignalContainerFsAvailable || s == SignalContainerFsInodesFree
	switch layout {
	case LayoutDedicatedImageFs:
		if image || container {
			return both
		}
		return nil
	case LayoutSplitImageFs:
		if image {
			return both[1:]
		}
		return both[:1]
	}
	return both
}

// Observation is the eviction manager's input: what it reads at one
// housekeeping pass, or a tick.
type Observation struct {
	// Tick marks the input that says only that time has passed: no new
	// reading arrived. The manager then runs its pass on the readings it
	// was last given, as the kubelet's periodic pass reads a node whose
	// usage has not changed: the same numbers, read again at now (so they
	// count as fresh statistics), the same active pods less those it has
	// evicted since, and, after a node-level garbage collection, the
	// Summary that followed it. The other fields are ignored.
	Tick bool
	// Summary is the kubelet Summary API at this pass.
	Summary Summary
	// Pods are the node's active pods in the kubelet's order
	// (GetActivePods): a pod evicted at an earlier pass is terminal and
	// left out by the caller. Nil entries are ignored.
	Pods []*api.Pod
	// AfterNodeGC is the Summary after the node-level garbage collection
	// (Reclaim.NodeGC) the manager asks for at this pass; nil means the
	// collection freed nothing and Summary still holds.
	AfterNodeGC *Summary
}

// Tick is the input that tells the manager time has passed and nothing
// else happened (Observation{Tick: true}).
func Tick() Observation { return Observation{Tick: true} }

// MonitoringPeriod is the interval between the eviction manager's
// housekeeping passes when a pass evicted nothing (the kubelet's
// evictionMonitoringPeriod in pkg/kubelet/kubelet.go, a constant of
// 10 s): a tick sooner after the last pass is not a pass.
const MonitoringPeriod = 10 * time.Second

// PodCleanupTimeout is how long the kubelet's eviction manager waits,
// after evicting a pod, for the pod's resources to be reclaimed before it
// runs its next pass (podCleanupTimeout in pkg/kubelet/eviction); it polls
// every second and goes on as soon as the pod is cleaned up.
const PodCleanupTimeout = 30 * time.Second

// Pass is what one housekeeping pass of the eviction manager decided
// (Manager.Step's output). It describes; the caller acts: it evicts the
// pod with the grace override and final status given, runs the garbage
// collection asked for, and reports the node conditions (from which the
// node lifecycle controller derives the node.kubernetes.io/*-pressure
// taints).
type Pass struct {
	At time.Time
	// Observations are the signals observed at this pass.
	Observations []SignalObservation
	// InForce are the thresholds whose condition holds now, regardless of
	// grace periods, with those met at the previous pass that have not yet
	// recovered past their minimum reclaim. Node conditions follow them.
	InForce []Threshold
	// ThresholdsMet are the thresholds in force whose grace period has
	// elapsed since they were first continuously observed; only these
	// make the kubelet reclaim.
	ThresholdsMet []Threshold
	// Conditions are the node pressure conditions reported after this
	// pass, in the order MemoryPressure, DiskPressure, PIDPressure: each
	// while a threshold of its signals was in force less than the pressure
	// transition period ago.
	Conditions []api.NodeConditionType
	// Reclaim is set when the kubelet tries to reclaim a resource at this
	// pass; nil when no threshold met is backed by fresh statistics.
	Reclaim *NodeReclaim
	// Eviction is the pod evicted at this pass (at most one), nil if none.
	Eviction *PodEviction
}

// NodeReclaim is the kubelet's attempt to reclaim one resource.
type NodeReclaim struct {
	// Threshold is the threshold whose signal is reclaimed: among those
	// met with fresh statistics, memory ones first.
	Threshold Threshold
	// Resource is what is reclaimed: memory, ephemeral-storage,
	// ResourceInodes or ResourcePIDs.
	Resource api.ResourceName
	// NodeGC is the garbage collection tried first, in order.
	NodeGC []NodeGC
	// RelievedByGC reports that after the garbage collection (the
	// Observation's AfterNodeGC) no threshold is in force any more, so no
	// pod is evicted.
	RelievedByGC bool
	// SkippedCritical are the critical pods ranked before the evicted one
	// (or all pods, when every pod is critical), which the kubelet never
	// evicts.
	SkippedCritical []*api.Pod
}

// PodEviction is one pod the eviction manager evicts.
type PodEviction struct {
	Pod *api.Pod
	// Rank is the pod's place in the eviction order and the numbers
	// behind it.
	Rank EvictionRank
	// Grace is the grace-period override passed to the pod killer: 1 s
	// for a hard threshold; for a soft one evictionMaxPodGracePeriod,
	// capped by the pod's terminationGracePeriodSeconds.
	Grace termination.EvictionOverride
	// Message is the text of the pod's status and of its DisruptionTarget
	// condition: the resource, the threshold and what was available, and
	// for memory and ephemeral-storage the containers using more than they
	// request.
	Message string
	// Status is the pod's final status: phase Failed, reason Evicted, the
	// message, and the DisruptionTarget condition (TerminationByKubelet).
	Status api.PodStatus
}

// Manager is the kubelet's eviction manager (pkg/kubelet/eviction
// managerImpl.synchronize) as a state machine: feed it an Observation per
// housekeeping pass, or a tick when only time has passed, with the time,
// and it returns what the kubelet decides (a Pass). It performs nothing:
// no garbage collection, no kill. NextDeadline says when it must be
// stepped with a tick even if no reading arrives.
//
// The zero value is a manager with the kubelet's default settings on a
// node with one shared filesystem. A manager is not safe for concurrent
// use; Step reuses internal buffers and allocates nothing per pod once the
// pods have been seen (their requests are cached per pod object, and
// recomputed when metadata.generation or resourceVersion changes). It
// keeps the last Observation's Summary, AfterNodeGC and pods (not copies)
// for the ticks that follow: the caller must not change them until it
// feeds the next Observation.
type Manager struct {
	ready  bool
	policy Policy
	layout FilesystemLayout
	// all are the thresholds the manager evaluates: the policy's, with the
	// containerfs thresholds the kubelet derives for the layout.
	all []Threshold
	// key maps a threshold to the first one identical to it as a Go map
	// key upstream (thresholdsFirstObservedAt), so that identical
	// thresholds share one first-observed time and one entry among those
	// met.
	key []int

	prevMet           []int
	seen, nextSeen    []time.Time
	seenOK, nextOK    []bool
	condAt            [3]time.Time
	condOK, condShown [3]bool
	lastFound         [numSignals]bool
	lastTime          [numSignals]time.Time

	// What ticks and NextDeadline work from: the readings a tick reuses
	// (observed says there are any), the time of the last full pass and
	// the earliest time a tick runs the next one, the conditions in force
	// at the last pass, whether it evicted a pod, and whether it left work
	// for the next periodic pass (statistics too old to act on, or a
	// garbage collection whose result the next pass reads).
	observed         bool
	last             Summary
	lastFull         time.Time
	nextPass         time.Time
	condInForce      [3]bool
	evicted, recheck bool

	cur, met, upd []int
	stats         map[string]int32
	statsUIDs     []string
	statsGen      uint64
	slots         []reqSlot
	critical      []bool
	// pods are the active pods of the last Observation, less those
	// evicted since.
	pods   []*api.Pod
	ranks  []EvictionRank
	reqs   map[*api.Pod]cachedRequests
	sorter rankSorter
}

type cachedRequests struct {
	generation      int64
	resourceVersion string
	req             podRequests
}

// NewManager builds a manager from the kubelet's eviction settings
// for a node whose filesystems are arranged as layout ("" is
// LayoutShared). Errors are ParseSettings' and ErrUnknownLayout.
func NewManager(settings Settings, layout FilesystemLayout) (*Manager, error) {
	if _, err := ruleFor(SignalNodeFsAvailable, layout); err != nil {
		return nil, err
	}
	p, err := ParseSettings(settings)
	if err != nil {
		return nil, err
	}
	m := &Manager{}
	m.setup(p, layout)
	return m, nil
}

func (m *Manager) setup(p Policy, layout FilesystemLayout) {
	if layout == "" {
		layout = LayoutShared
	}
	m.ready, m.policy, m.layout = true, p, layout
	m.all = withContainerFsThresholds(p.Thresholds, layout)
	n := len(m.all)
	m.key = make([]int, n)
	for i := range m.all {
		m.key[i] = i
		for j := 0; j < i; j++ {
			if sameMapKey(&m.all[i], &m.all[j]) {
				m.key[i] = j
				break
			}
		}
	}
	m.seen, m.nextSeen = make([]time.Time, n), make([]time.Time, n)
	m.seenOK, m.nextOK = make([]bool, n), make([]bool, n)
	m.stats = map[string]int32{}
	m.reqs = map[*api.Pod]cachedRequests{}
}

func (m *Manager) ensure() {
	if !m.ready {
		p, _ := ParseSettings(Settings{})
		m.setup(p, LayoutShared)
	}
}

// sameMapKey reports whether two thresholds are equal as Go values in
// upstream, where quantities and minimum reclaims are pointers: only two
// percentage thresholds of one signal, grace period and percentage,
// neither with a minimum reclaim, can be.
func sameMapKey(a, b *Threshold) bool {
	return a.Signal == b.Signal && a.Operator == b.Operator && a.GracePeriod == b.GracePeriod &&
		a.Value.Quantity == nil && b.Value.Quantity == nil && a.Value.Percentage == b.Value.Percentage &&
		a.MinReclaim == nil && b.MinReclaim == nil
}

// withContainerFsThresholds adds the containerfs thresholds the kubelet
// derives when it learns the layout (UpdateContainerFsThresholds): copies
// of the hard and soft nodefs thresholds (one shared filesystem, or split
// image and container filesystems) or imagefs ones (a dedicated image
// filesystem), replacing any configured containerfs threshold. A copy of
// a threshold that is not configured never holds (its operator is empty).
func withContainerFsThresholds(ts []Threshold, layout FilesystemLayout) []Threshold {
	out := append([]Threshold(nil), ts...)
	var nodefs, imagefs [2][2]Threshold // [bytes, inodes][hard, soft]
	containerAt := [2][2]int{{-1, -1}, {-1, -1}}
	for i, t := range out {
		h := 0
		if !t.Hard() {
			h = 1
		}
		switch t.Signal {
		case SignalNodeFsAvailable:
			nodefs[0][h] = t
		case SignalNodeFsInodesFree:
			nodefs[1][h] = t
		case SignalImageFsAvailable:
			imagefs[0][h] = t
		case SignalImageFsInodesFree:
			imagefs[1][h] = t
		case SignalContainerFsAvailable:
			containerAt[0][h] = i
		case SignalContainerFsInodesFree:
			containerAt[1][h] = i
		}
	}
	src := nodefs
	if layout == LayoutDedicatedImageFs {
		src = imagefs
	}
	for a, sig := range [2]Signal{SignalContainerFsAvailable, SignalContainerFsInodesFree} {
		for h := 0; h < 2; h++ {
			s := src[a][h]
			c := Threshold{Signal: sig, Operator: s.Operator, Value: s.Value, MinReclaim: s.MinReclaim}
			if h == 1 {
				c.GracePeriod = s.GracePeriod
			}
			if at := containerAt[a][h]; at >= 0 {
				out[at] = c
			} else {
				out = append(out, c)
			}
		}
	}
	return out
}

// Policy is the parsed settings the manager runs with (a copy). A nil
// manager has none.
func (m *Manager) Policy() Policy {
	if m == nil {
		return Policy{}
	}
	m.ensure()
	p := m.policy
	p.Thresholds = slices.Clone(p.Thresholds)
	return p
}

// Conditions are the node pressure conditions reported after the last
// Step, in the order MemoryPressure, DiskPressure, PIDPressure; none
// before the first, and none for a nil manager.
func (m *Manager) Conditions() []api.NodeConditionType {
	if m == nil {
		return nil
	}
	return m.conditions()
}

func (m *Manager) conditions() []api.NodeConditionType {
	var out []api.NodeConditionType
	for c, shown := range m.condShown {
		if shown {
			out = append(out, conditionAt(c))
		}
	}
	return out
}

// Admit is Admit with the conditions the manager reported
// after its last Step. A nil manager reports none.
func (m *Manager) Admit(pod *api.Pod) Admission {
	return Admit(pod, m.Conditions())
}

func conditionIndex(c api.NodeConditionType) int {
	switch c {
	case api.NodeMemoryPressure:
		return 0
	case api.NodeDiskPressure:
		return 1
	case api.NodePIDPressure:
		return 2
	}
	return -1
}

func conditionAt(i int) api.NodeConditionType {
	switch i {
	case 0:
		return api.NodeMemoryPressure
	case 1:
		return api.NodeDiskPressure
	}
	return api.NodePIDPressure
}

// holds reports whether threshold i is met against o.
func (m *Manager) holds(i int, o *observations, enforceMinReclaim bool) bool {
	si := signalIndex(m.all[i].Signal)
	return si >= 0 && o.found[si] && m.all[i].Met(o.obs[si], enforceMinReclaim)
}

// Step runs one housekeeping pass (synchronize) at now, on the readings of
// in, or for a tick on the last readings given (see Observation.Tick):
//
//  1. The signals are observed in the Summary (ObserveSignals).
//  2. The thresholds in force are those whose condition holds, plus those
//     met at the previous pass whose signal has not yet recovered past
//     threshold + minimum reclaim.
//  3. A pressure condition is reported while a threshold of its signals
//     has been in force less than the pressure transition period ago
//     (grace periods do not delay it; with a period of 0 nothing is
//     reported).
//  4. A threshold is met once it has been continuously in force for its
//     grace period (at once for a hard threshold).
//  5. Only thresholds met whose statistics are newer than at the previous
//     pass are acted on; memory ones first, the first one's resource is
//     reclaimed. For a disk signal the node-level garbage collection comes
//     first; if afterwards (in.AfterNodeGC) no threshold is in force, no
//     pod is evicted.
//  6. The active pods are ranked for the signal (RankForEviction), and the
//     first that is not critical (api.IsCriticalPod) is evicted, with the grace
//     override of termination.EvictionGraceOverride and the kubelet's
//     message and final status.
//
// An Observation is a pass whenever it comes. A tick is one only once the
// kubelet would run its next pass: MonitoringPeriod after the last, or
// PodCleanupTimeout after a pass that evicted a pod (the kubelet waits for
// the pod's cleanup; the caller who sees the cleanup earlier feeds an
// Observation). An earlier tick changes nothing and returns the standing
// decision: the last readings, the thresholds in force and met, and the
// conditions, without a reclaim. A tick before the first Observation does
// nothing.
//
// Where upstream's order is Go map order (the thresholds, and those met
// after their grace period), the manager keeps the thresholds in
// Policy order: hard before soft, signals in Signal constant
// order, allocatable copies after them, derived containerfs thresholds
// last. So with a hard and a soft memory.available threshold both acted
// on, the hard one is reclaimed. Pod-level local-storage limits
// (ephemeral-storage limits, emptyDir sizeLimit), which the kubelet checks
// before the thresholds, are not modelled. A nil manager does nothing: the
// pass holds only At.
func (m *Manager) Step(in Observation, now time.Time) Pass {
	if m == nil {
		return Pass{At: now}
	}
	m.ensure()
	if in.Tick {
		if !m.observed {
			return Pass{At: now}
		}
		if now.Before(m.nextPass) {
			return m.standing(now)
		}
	} else {
		m.observed, m.last = true, in.Summary
		m.pods = m.pods[:0]
		for _, p := range in.Pods {
			if p != nil {
				m.pods = append(m.pods, p)
			}
		}
	}
	m.evicted, m.recheck = false, false
	step := m.pass(in, now)
	m.lastFull, m.nextPass = now, now.Add(MonitoringPeriod)
	if m.evicted {
		m.nextPass = now.Add(PodCleanupTimeout)
	}
	return step
}

// standing is the decision as it stands since the last full pass, at now.
func (m *Manager) standing(now time.Time) Pass {
	step := Pass{At: now, Observations: ObserveSignals(&m.last), Conditions: m.conditions()}
	for _, i := range m.cur {
		step.InForce = append(step.InForce, m.all[i])
	}
	for _, i := range m.met {
		step.ThresholdsMet = append(step.ThresholdsMet, m.all[i])
	}
	return step
}

// pass is one full housekeeping pass at now on m.last and m.pods.
func (m *Manager) pass(in Observation, now time.Time) Pass {
	step := Pass{At: now}
	tick := in.Tick
	// sum is this pass's Summary; m.last may be replaced below by what
	// the node reads after a garbage collection.
	sum := m.last
	var o observations
	o.observe(&sum)
	n := 0
	for i := range o.found {
		if o.found[i] {
			n++
		}
	}
	if n > 0 {
		step.Observations = make([]SignalObservation, 0, n)
		for i := range o.obs {
			if o.found[i] {
				step.Observations = append(step.Observations, o.obs[i])
			}
		}
	}

	// In force, ignoring grace periods; then those not yet reclaimed.
	cur := m.cur[:0]
	for i := range m.all {
		if m.holds(i, &o, false) {
			cur = append(cur, i)
		}
	}
	for _, i := range m.prevMet {
		if !m.holds(i, &o, true) {
			continue
		}
		dup := false
		for _, j := range cur {
			if sameThreshold(&m.all[i], &m.all[j]) {
				dup = true
				break
			}
		}
		if !dup {
			cur = append(cur, i)
		}
	}
	m.cur = cur

	// When each threshold in force was first observed.
	clear(m.nextOK)
	var condNow [3]bool
	if len(cur) > 0 {
		step.InForce = make([]Threshold, 0, len(cur))
	}
	for _, i := range cur {
		k := m.key[i]
		if !m.nextOK[k] {
			m.nextOK[k] = true
			if m.seenOK[k] {
				m.nextSeen[k] = m.seen[k]
			} else {
				m.nextSeen[k] = now
			}
		}
		if c := conditionIndex(m.all[i].Signal.NodeCondition()); c >= 0 {
			condNow[c] = true
		}
		step.InForce = append(step.InForce, m.all[i])
	}
	m.seen, m.nextSeen = m.nextSeen, m.seen
	m.seenOK, m.nextOK = m.nextOK, m.seenOK

	// Pressure conditions, held for the transition period.
	for c := range condNow {
		if condNow[c] {
			m.condAt[c], m.condOK[c] = now, true
		}
		m.condShown[c] = m.condOK[c] && now.Sub(m.condAt[c]) < m.policy.PressureTransitionPeriod
	}
	m.condInForce = condNow
	step.Conditions = m.conditions()

	// Met: in force for the grace period.
	met := m.met[:0]
	for k := range m.all {
		if m.key[k] == k && m.seenOK[k] && now.Sub(m.seen[k]) >= m.all[k].GracePeriod {
			met = append(met, k)
			step.ThresholdsMet = append(step.ThresholdsMet, m.all[k])
		}
	}
	m.met = met
	m.prevMet = append(m.prevMet[:0], met...)

	// Acted on only with statistics newer than at the previous pass (a
	// tick reads its numbers again at now).
	upd := m.upd[:0]
	for _, i := range met {
		si := signalIndex(m.all[i].Signal)
		if !o.found[si] {
			continue
		}
		if t := o.obs[si].Time; tick || !m.lastFound[si] || t.IsZero() || t.After(m.lastTime[si]) {
			upd = append(upd, i)
		}
	}
	for si := range o.obs {
		m.lastFound[si], m.lastTime[si] = o.found[si], o.obs[si].Time
		if tick && o.found[si] {
			m.lastTime[si] = now
		}
	}
	// Memory thresholds first, each group in order.
	for i := 1; i < len(upd); i++ {
		for j := i; j > 0 && m.all[upd[j]].Signal.isMemory() && !m.all[upd[j-1]].Signal.isMemory(); j-- {
			upd[j], upd[j-1] = upd[j-1], upd[j]
		}
	}
	m.upd = upd
	if len(upd) == 0 {
		// Thresholds met on statistics already acted on: the next
		// periodic pass reads them afresh.
		m.recheck = len(met) > 0
		return step
	}
	th := m.all[upd[0]]
	rc := &NodeReclaim{Threshold: th, Resource: th.Signal.Resource(), NodeGC: nodeGCFor(th.Signal, m.layout)}
	step.Reclaim = rc
	if len(rc.NodeGC) > 0 {
		after := &sum
		if !tick && in.AfterNodeGC != nil {
			after = in.AfterNodeGC
			// Later ticks read the node as the collection left it.
			m.last = *after
			if m.last.Pods == nil {
				m.last.Pods = sum.Pods
			}
		}
		var o2 observations
		o2.observe(after)
		relieved := true
		for i := range m.all {
			if m.holds(i, &o2, true) {
				relieved = false
				break
			}
		}
		// The next periodic pass reads the node as the collection left it.
		m.recheck = after != &sum
		if relieved {
			rc.RelievedByGC = true
			return step
		}
	}

	pods := m.pods
	if len(pods) == 0 {
		return step
	}
	// The Summary's entries by pod UID (a later entry wins, as in the
	// kubelet's cachedStatsFunc), rebuilt only when the entries' UIDs
	// differ from the previous pass's; each pod's slot remembers its entry
	// for as long as the index holds.
	same := m.statsGen != 0 && len(m.statsUIDs) == len(sum.Pods)
	for i := 0; same && i < len(m.statsUIDs); i++ {
		same = m.statsUIDs[i] == sum.Pods[i].PodRef.UID
	}
	if !same {
		clear(m.stats)
		m.statsUIDs = m.statsUIDs[:0]
		for i := range sum.Pods {
			uid := sum.Pods[i].PodRef.UID
			m.stats[uid] = int32(i)
			m.statsUIDs = append(m.statsUIDs, uid)
		}
		m.statsGen++
	}
	if len(m.reqs) > 2*len(pods)+16 {
		clear(m.reqs)
	}
	if len(m.slots) < len(pods) {
		m.slots = append(m.slots, make([]reqSlot, len(pods)-len(m.slots))...)
	}
	statsOf := func(i int) *PodStats {
		if k := m.slots[i].statsIndex; k >= 0 {
			return &sum.Pods[k]
		}
		return nil
	}
	rule, _ := ruleFor(th.Signal, m.layout)
	ranks := m.ranks[:0]
	for i, p := range pods {
		slot := &m.slots[i]
		req := m.requests(slot, p)
		if slot.statsGen != m.statsGen {
			slot.statsIndex = -1
			if k, ok := m.stats[p.UID]; ok {
				slot.statsIndex = k
			}
			slot.statsGen = m.statsGen
		}
		ranks = append(ranks, measure(p, statsOf(i), rule, req))
	}
	m.ranks = ranks
	// Only the ranks up to the first pod that is not critical matter; a
	// full sort is needed only when ties leave that to the sort's order.
	m.critical = m.critical[:0]
	for i := range ranks {
		m.critical = append(m.critical, api.IsCriticalPod(ranks[i].Pod))
	}
	m.sorter.prepare(ranks, rule.measure)
	lead, ok := m.sorter.leading(m.critical)
	if !ok {
		sort.Sort(&m.sorter)
		lead = m.sorter.order
	}
	for _, k := range lead {
		p := ranks[k].Pod
		if m.critical[k] {
			rc.SkippedCritical = append(rc.SkippedCritical, p)
			continue
		}
		msg := m.evictionMessage(rc.Resource, p, statsOf(int(k)), upd, &o)
		step.Eviction = &PodEviction{
			Pod:     p,
			Rank:    ranks[k],
			Grace:   termination.EvictionGraceOverride(p, th.Hard(), termination.EvictionConfig{MaxPodGracePeriodSeconds: m.policy.MaxPodGracePeriodSeconds}),
			Message: msg,
			Status:  termination.KubeletKillStatus(p, api.PodFailed, api.PodStatusReasonEvicted, msg, now),
		}
		// The pod is no longer active; the kubelet waits for its cleanup.
		m.pods = append(m.pods[:k], m.pods[k+1:]...)
		m.evicted = true
		break
	}
	return step
}

// NextDeadline is the earliest time the manager must be stepped with a
// tick even if no new reading arrives: the first time at which a pass on
// unchanged readings would decide something new. It is the earliest of
//
//   - the end of the wait for an evicted pod's cleanup, PodCleanupTimeout
//     (30 s) after the eviction: the kubelet then runs its next pass even
//     if the pod is not cleaned up, and evicts again if the readings have
//     not changed (the caller who sees the cleanup earlier feeds an
//     Observation instead);
//   - the next periodic pass, MonitoringPeriod (10 s) after the last, when
//     the last pass met thresholds on statistics it had already acted on,
//     or ran a garbage collection (that pass reads what it freed);
//   - the time a soft threshold in force will have held for its grace
//     period (evictionSoftGracePeriod), and so becomes met;
//   - the time a pressure condition whose thresholds are no longer in
//     force will have outlived evictionPressureTransitionPeriod (5 m by
//     default), and so clears;
//
// never earlier than the next pass is due (10 s after the last, 30 s
// after an eviction). The kubelet runs a pass every 10 s whatever
// happens, so it notices a grace period's end or a condition's expiry up
// to 10 s after the time given here; the manager decides at the time
// itself, which is the same decision as a kubelet whose passes happen to
// fall on it. When no such time exists, NextDeadline is the zero time:
// passes on unchanged readings would decide nothing new, and the manager
// waits for an Observation. So it is before the first Observation, and
// for a nil manager.
func (m *Manager) NextDeadline() time.Time {
	if m == nil || !m.observed {
		return time.Time{}
	}
	var next time.Time
	consider := func(t time.Time) {
		if t.Before(m.nextPass) {
			t = m.nextPass
		}
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if m.evicted || m.recheck {
		consider(m.nextPass)
	}
	for k := range m.all {
		if m.key[k] != k || !m.seenOK[k] || m.all[k].GracePeriod <= 0 {
			continue
		}
		if due := m.seen[k].Add(m.all[k].GracePeriod); due.After(m.lastFull) {
			consider(due)
		}
	}
	for c := range m.condShown {
		if m.condShown[c] && !m.condInForce[c] {
			consider(m.condAt[c].Add(m.policy.PressureTransitionPeriod))
		}
	}
	return next
}

// requests returns the pod's ranking requests, cached per pod object:
// first in the slot of its position in the pod list (a node's pod list
// rarely changes between passes), then in a map.
func (m *Manager) requests(slot *reqSlot, p *api.Pod) podRequests {
	if slot.pod == p && slot.fresh(p) {
		return slot.req
	}
	c, ok := m.reqs[p]
	if !ok || !c.fresh(p) {
		r := podRequests{
			memory:    ResourceRequest(p, api.ResourceMemory),
			ephemeral: ResourceRequest(p, api.ResourceEphemeralStorage),
		}
		r.exact()
		c = cachedRequests{generation: p.Generation, resourceVersion: p.ResourceVersion, req: r}
		m.reqs[p] = c
	}
	*slot = reqSlot{pod: p, cachedRequests: c}
	return c.req
}

// reqSlot caches what belongs to the pod at one position of the list: its
// requests, and its entry in the Summary (statsIndex, -1 for none) as of
// the stats index generation statsGen.
type reqSlot struct {
	pod *api.Pod
	cachedRequests
	statsGen   uint64
	statsIndex int32
}

func (c *cachedRequests) fresh(p *api.Pod) bool {
	return c.generation == p.Generation && c.resourceVersion == p.ResourceVersion
}

// evictionMessage writes the kubelet's eviction message (evictionMessage
// in pkg/kubelet/eviction): the resource, the first threshold acted on
// for it with what was available, then — memory and ephemeral-storage
// only, for a pod with statistics — the pod's own usage when it sets a
// pod-level memory request, and each container (regular, then init,
// matched by name in the order of the pod's container statistics) using
// more than it requests.
func (m *Manager) evictionMessage(res api.ResourceName, pod *api.Pod, st *PodStats, acted []int, o *observations) string {
	var b strings.Builder
	b.Grow(256)
	fmt.Fprintf(&b, nodeLowMessageFmt, res)
	for _, i := range acted {
		t := &m.all[i]
		if t.Signal.Resource() != res {
			continue
		}
		si := signalIndex(t.Signal)
		if !o.found[si] {
			continue
		}
		q := t.Value.Of(o.obs[si].Capacity)
		fmt.Fprintf(&b, thresholdMetMessageFmt, q.String(), o.obs[si].Available.String())
		break
	}
	if st == nil {
		return b.String()
	}
	if res == api.ResourceMemory && api.IsPodLevelResourcesSet(pod) && st.Memory != nil {
		if req, ok := pod.Spec.Resources.Requests[res]; ok {
			use := api.NewQuantity(int64(u64(st.Memory.WorkingSetBytes)), api.BinarySI)
			fmt.Fprintf(&b, podMessageFmt, pod.Name, use.String(), req.String(), res)
		}
	}
	for i := range st.Containers {
		cs := &st.Containers[i]
		c := specContainer(pod, cs.Name)
		if c == nil {
			continue
		}
		req := c.Resources.Requests[res]
		var use api.Quantity
		switch res {
		case api.ResourceEphemeralStorage:
			if cs.Rootfs == nil || cs.Rootfs.UsedBytes == nil || cs.Logs == nil || cs.Logs.UsedBytes == nil {
				continue
			}
			use = api.NewQuantity(int64(*cs.Rootfs.UsedBytes+*cs.Logs.UsedBytes), api.BinarySI)
		case api.ResourceMemory:
			if cs.Memory == nil || cs.Memory.WorkingSetBytes == nil {
				continue
			}
			use = api.NewQuantity(int64(*cs.Memory.WorkingSetBytes), api.BinarySI)
		default:
			continue
		}
		if use.Cmp(req) > 0 {
			fmt.Fprintf(&b, containerMessageFmt, c.Name, use.String(), req.String(), res)
		}
	}
	return b.String()
}

// specContainer finds the regular or init container the eviction message
// blames for a statistics entry: regular containers first, then init
// containers (sidecars included). Unlike api.PodSpec.FindContainer it
// never returns an ephemeral container: those cannot request resources,
// and the kubelet leaves them out rather than always blame them.
func specContainer(pod *api.Pod, name string) *api.Container {
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i]
		}
	}
	return nil
}
