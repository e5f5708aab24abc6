package scheduling

import (
	"math"
	"slices"

	"github.com/podsem/podsem/api"
)

// spreadPlugin is PodTopologySpread for one scheduling cycle
// (pkg/scheduler/framework/plugins/podtopologyspread):
//
// Filter (DoNotSchedule constraints). A node is an eligible domain member
// for a constraint when it carries every DoNotSchedule topology key of the
// pod and passes the constraint's node inclusion policies
// (nodeAffinityPolicy Honor: the pod's nodeSelector and required node
// affinity; nodeTaintsPolicy Honor: no untolerated NoSchedule/NoExecute
// taint). Each domain counts the non-terminating pods of the pod's
// namespace matching the constraint's selector on its eligible nodes (an
// empty selector counts none). The pod fits a node when, for every
// constraint in order, the node has the key (else
// UnschedulableAndUnresolvable, "missing required label") and
// count(node's domain) + (1 if the pod matches its own selector) -
// global minimum <= maxSkew (else Unschedulable); the global minimum is 0
// while fewer than minDomains domains are eligible.
//
// Score (ScheduleAnyway constraints). Over the nodes that passed the
// filters, a node lacking a soft topology key is ignored (scores 0) unless
// the constraints are the System defaults; every other node scores the sum
// over constraints of count(domain)*log(domains+2) + maxSkew-1, rounded,
// where counts come from all nodes passing the inclusion policies (the
// hostname key counts the node's own pods, with the number of scored nodes
// as its domain count); scores are then normalized to
// 100*(max+min-score)/max, all 100 when max is 0.
type spreadPlugin struct {
	c     *Cluster
	pod   *PodInfo
	cache *spreadCache

	affinity     *requiredNodeAffinity // nil when the pod has no required node affinity or selector
	affinityDone bool

	hard   []spreadConstraint
	hs     []hardSpread
	hardOK bool // preFilter ran and succeeded with constraints
	// hardBuf, softBuf, hsBuf and ssBuf hold hard, soft, hs and ss when
	// there are few.
	hardBuf, softBuf [2]spreadConstraint
	hsBuf            [2]hardSpread
	ssBuf            [2]softSpread

	soft []spreadConstraint
	ss   []softSpread
	// feasible are the indexes of the nodes preScore was given.
	feasible []int
	// requireAll: a scored node lacking a soft topology key is ignored
	// (scores 0); false only under the System default constraints.
	// ignores: requireAll, and some node lacks a soft topology key.
	requireAll, ignores bool
}

// hardSpread is the PreFilter state of one DoNotSchedule constraint.
type hardSpread struct {
	ids []int32 // node index -> domain id (-1: key missing)
	// missing counts the nodes lacking the key.
	missing int
	counts  []int32 // domain id -> matching pods on eligible nodes
	// perNode, when set, holds each node's count, equal to its domain's
	// (every domain holds one node); it belongs to the spread cache and
	// is read by the walk only (a what-if changes counts alone).
	perNode []int32
	// shared: counts must not change in place (they belong to the
	// snapshot's spread cache, or to the cycle's plugin, which what-ifs
	// clone); a what-if's change to one domain is kept beside them in
	// overDomain and overDelta (overSet), and only a change to a second
	// domain copies them. A what-if concerns one node, so its domain is
	// usually the only one.
	shared     bool
	overSet    bool
	overDomain int32
	overDelta  int32
	domains    int // number of domains holding an eligible node
	paths      criticalPaths
	// limit is the highest domain count a node's domain may have for the
	// pod to fit: maxSkew + global minimum - (1 if the pod matches its own
	// selector). Kept current with paths (setLimit).
	limit int
}

// count is domain d's count, the what-if's change included.
func (h *hardSpread) count(d int32) int32 {
	if h.overSet && d == h.overDomain {
		return h.counts[d] + h.overDelta
	}
	return h.counts[d]
}

// move changes domain d's count by delta, without touching counts that
// are not the plugin's own (see shared).
func (h *hardSpread) move(d, delta int32) {
	switch {
	case !h.shared:
		h.counts[d] += delta
	case !h.overSet:
		h.overSet, h.overDomain, h.overDelta = true, d, delta
	case h.overDomain == d:
		h.overDelta += delta
	default:
		own := slices.Clone(h.counts)
		own[h.overDomain] += h.overDelta
		own[d] += delta
		h.counts, h.shared, h.overSet = own, false, false
	}
}

// setLimit recomputes h.limit from the critical paths for constraint c.
func (h *hardSpread) setLimit(c *spreadConstraint) {
	minNum := h.paths[0].num
	if h.domains < int(c.minDomains) {
		minNum = 0
	}
	self := 0
	if c.selfMatch {
		self = 1
	}
	h.limit = int(c.maxSkew) + minNum - self
}

// criticalPaths tracks the two smallest domain counts of a constraint the
// way the plugin does (its minimum is exact after PreFilter; what-if
// updates keep upstream's approximation).
type criticalPaths [2]struct {
	domain int32
	num    int
}

func newCriticalPaths() criticalPaths {
	return criticalPaths{{domain: -1, num: math.MaxInt32}, {domain: -1, num: math.MaxInt32}}
}

// insert records domain d with count num while the paths are first taken
// over the domains in id order: a count displaces only a larger one.
func (p *criticalPaths) insert(d int32, num int) {
	if num < p[0].num {
		p[1] = p[0]
		p[0].domain, p[0].num = d, num
	} else if num < p[1].num {
		p[1].domain, p[1].num = d, num
	}
}

// before reports whether count n of domain d comes before path k in the
// order the paths are taken in: by count, then by domain id.
func (p *criticalPaths) before(n int, d int32, k int) bool {
	return n < p[k].num || (n == p[k].num && d < p[k].domain)
}

// moved keeps p the two smallest (count, domain id) pairs over the domains
// holding a node, as PreFilter takes them, after the count of domain d (one
// of them) changed to num, lower than before when down. It reports false
// when that cannot be told without a recount: a path's count went up, and
// a domain not among the paths may now come before it.
func (p *criticalPaths) moved(d int32, num int, down bool) bool {
	switch {
	case d == p[0].domain:
		if !down && !p.before(num, d, 1) {
			return false
		}
		p[0].num = num
	case d == p[1].domain:
		if !down {
			return false
		}
		p[1].num = num
		if p.before(num, d, 0) {
			p[0], p[1] = p[1], p[0]
		}
	case !down:
		// Larger than before: still behind both paths.
	case p.before(num, d, 0):
		p[1] = p[0]
		p[0].domain, p[0].num = d, num
	case p.before(num, d, 1):
		p[1].domain, p[1].num = d, num
	}
	return true
}

func (p *criticalPaths) update(d int32, num int) {
	switch d {
	case p[0].domain:
		p[0].num = num
	case p[1].domain:
		p[1].num = num
	default:
		if num < p[0].num {
			p[1] = p[0]
			p[0].domain, p[0].num = d, num
		} else if num < p[1].num {
			p[1].domain, p[1].num = d, num
		}
		return
	}
	if p[0].num > p[1].num {
		p[0], p[1] = p[1], p[0]
	}
}

// softSpread is the PreScore state of one ScheduleAnyway constraint.
type softSpread struct {
	ids      []int32
	perNode  []int32 // matching pods per node (nil: counts nothing)
	counts   []int32 // domain id -> matching pods (non-hostname keys)
	marked   []bool  // domain id -> some scored node is in it
	weight   float64
	offset   float64 // maxSkew - 1
	hostname bool
}

// newSpreadPlugin instantiates PodTopologySpread for one cycle; the work
// happens in preFilter and preScore.
func newSpreadPlugin(c *Cluster, p *PodInfo) spreadPlugin {
	return spreadPlugin{c: c, pod: p}
}

func (pl *spreadPlugin) name() string { return PluginPodTopologySpread }

func (pl *spreadPlugin) spreadCache() *spreadCache {
	if pl.cache == nil {
		pl.cache = spreadCacheOf(pl.c)
	}
	return pl.cache
}

// constraints appends the pod's constraints with the given action to dst:
// its own, compiled once per distinct constraints by the spread cache, or
// the configured defaults.
func (pl *spreadPlugin) constraints(dst []spreadConstraint, action api.UnsatisfiableConstraintAction) ([]spreadConstraint, error) {
	pod := pl.pod.pod
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return pl.spreadCache().ownSpreadConstraints(dst, pod, action)
	}
	return spreadConstraintsFor(pod, pl.c.cfg.Spread, pl.spreadCache().workloads, action)
}

func (pl *spreadPlugin) requiredAffinity() *requiredNodeAffinity {
	if !pl.affinityDone {
		pl.affinityDone = true
		pod := pl.pod.pod
		if len(pod.Spec.NodeSelector) > 0 || requiredNodeSelector(pod) != nil {
			pl.affinity, _ = newRequiredNodeAffinity(pod)
		}
	}
	return pl.affinity
}

// needsInclusion reports whether some constraint's node inclusion
// policies can exclude a node (otherwise every node with the keys counts).
func (pl *spreadPlugin) needsInclusion(cs []spreadConstraint) bool {
	for i := range cs {
		if cs[i].honorTaints || (cs[i].honorAffinity && pl.affinity != nil) {
			return true
		}
	}
	return false
}

// included reports whether node n counts for constraint c under its node
// inclusion policies.
func (pl *spreadPlugin) included(c *spreadConstraint, n *NodeInfo) bool {
	if c.honorAffinity && pl.affinity != nil && !pl.affinity.match(n.node) {
		return false
	}
	if c.honorTaints && len(n.node.Spec.Taints) > 0 {
		if _, bad := findUntoleratedTaint(n.node.Spec.Taints, pl.pod.pod.Spec.Tolerations); bad {
			return false
		}
	}
	return true
}

func (pl *spreadPlugin) preFilter() Status {
	pod := pl.pod.pod
	hard, err := pl.constraints(pl.hardBuf[:0], api.DoNotSchedule)
	if err != nil {
		return Status{Code: Error, Err: err}
	}
	if len(hard) == 0 {
		return Status{Code: Skip}
	}
	pl.hard = hard
	pl.requiredAffinity()
	sc := pl.spreadCache()
	pl.hs = pl.hsBuf[:0]
	for range hard {
		pl.hs = append(pl.hs, hardSpread{})
	}
	// When every node carries every DoNotSchedule key and no inclusion
	// policy can exclude a node, every node is eligible: the counts per
	// domain and their critical paths are the cache's.
	fast := !pl.needsInclusion(hard)
	keys := make([]*topoKeyIndex, len(hard))
	for i := range hard {
		keys[i] = sc.keyIndex(pl.c, hard[i].key)
		pl.hs[i].ids, pl.hs[i].missing = keys[i].ids, keys[i].missing
		if keys[i].missing > 0 || hard[i].countsNothing {
			fast = false
		}
	}
	if fast {
		for i := range hard {
			h := &pl.hs[i]
			h.counts, h.paths = sc.hardDomainCountsOf(pl.c, pod.Namespace, hard[i].selStr, hard[i].selector, keys[i])
			h.shared = true
			h.domains = keys[i].live
			if h.domains == len(h.ids) {
				// One node per domain (kubernetes.io/hostname): a
				// domain's count is its node's.
				h.perNode, _ = sc.selectorCountsOf(pl.c, pod.Namespace, hard[i].selStr, hard[i].selector)
			}
			h.setLimit(&hard[i])
		}
		pl.hardOK = true
		return Status{}
	}
	per := make([][]int32, len(hard))
	present := make([][]bool, len(hard))
	for i := range hard {
		nd := sc.domains(keys[i])
		h := &pl.hs[i]
		h.counts = make([]int32, nd)
		present[i] = make([]bool, nd)
		if !hard[i].countsNothing {
			per[i], _ = sc.selectorCountsOf(pl.c, pod.Namespace, hard[i].selStr, hard[i].selector)
		}
	}
	nodes := pl.c.nodes
	filtered := pl.needsInclusion(hard)
	for n := range nodes {
		if !pl.hasAllHard(n) {
			continue
		}
		for i := range pl.hs {
			if filtered && !pl.included(&hard[i], nodes[n]) {
				continue
			}
			h := &pl.hs[i]
			d := h.ids[n]
			present[i][d] = true
			if per[i] != nil {
				h.counts[d] += per[i][n]
			}
		}
	}
	for i := range pl.hs {
		h := &pl.hs[i]
		// The two smallest counts over the present domains, taken in
		// domain order as criticalPaths.update would record them.
		h.paths = newCriticalPaths()
		for d, ok := range present[i] {
			if ok {
				h.domains++
				h.paths.insert(int32(d), int(h.counts[d]))
			}
		}
		h.setLimit(&hard[i])
		// The cycle never changes its own counts again: its what-ifs share
		// them.
		h.shared = true
	}
	pl.hardOK = true
	return Status{}
}

func (pl *spreadPlugin) filter(v *nodeView) Status {
	if !pl.hardOK {
		return Status{}
	}
	return pl.verdictStatus(pl.verdictAt(v.info.index))
}

// The outcomes of the plugin's Filter on a node.
const (
	spreadFits    = iota
	spreadMissing // lacks a DoNotSchedule topology key
	spreadSkew    // some DoNotSchedule constraint's skew would be exceeded
)

// verdictAt is Filter's outcome on node index n (PreFilter succeeded with
// constraints): spreadFits, spreadMissing or spreadSkew, checked
// constraint by constraint in order.
func (pl *spreadPlugin) verdictAt(n int) int {
	for i := range pl.hs {
		h := &pl.hs[i]
		d := h.ids[n]
		if d < 0 {
			return spreadMissing
		}
		if int(h.count(d)) > h.limit {
			return spreadSkew
		}
	}
	return spreadFits
}

// verdictStatus is the status Filter gives for an outcome of verdictAt;
// the rejections share their reasons slice within the cycle.
func (pl *spreadPlugin) verdictStatus(v int) Status {
	switch v {
	case spreadMissing:
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsSpreadMissing}
	case spreadSkew:
		return Status{Code: Unschedulable, Reasons: reasonsSpreadSkew}
	}
	return Status{}
}

// hasAllHard reports whether node index n carries every DoNotSchedule
// topology key.
func (pl *spreadPlugin) hasAllHard(n int) bool {
	for i := range pl.hs {
		if pl.hs[i].ids[n] < 0 {
			return false
		}
	}
	return true
}

// fitsIndex is filter's verdict for node index n without the status.
func (pl *spreadPlugin) fitsIndex(n int) bool { return pl.verdictAt(n) == spreadFits }

// fits is the quick check (quickFilter): what-ifs reach the plugin through
// addPod/removePod, so the view's node index is all it needs.
func (pl *spreadPlugin) fits(v *nodeView) bool {
	return !pl.hardOK || pl.fitsIndex(v.info.index)
}

func (pl *spreadPlugin) clone() cyclePlugin {
	cp := *pl
	cp.hs = pl.cloneHard(make([]hardSpread, 0, len(pl.hs)))
	return &cp
}

func (pl *spreadPlugin) reclone(prev cyclePlugin) cyclePlugin {
	cp, ok := prev.(*spreadPlugin)
	if !ok || cp == pl || cp == nil {
		return pl.clone()
	}
	hs := cp.hs[:0]
	*cp = *pl
	cp.hs = pl.cloneHard(hs)
	return cp
}

// cloneHard appends to dst a what-if's copy of each DoNotSchedule
// constraint's state: sharing the counts, with any change pl made to them
// folded into a copy.
func (pl *spreadPlugin) cloneHard(dst []hardSpread) []hardSpread {
	for _, h := range pl.hs {
		if h.overSet || !h.shared {
			// pl is a what-if with changes of its own, which it may go on
			// changing: the clone starts from a copy of what pl sees.
			own := slices.Clone(h.counts)
			if h.overSet {
				own[h.overDomain] += h.overDelta
			}
			h.counts, h.overSet = own, false
		}
		h.shared = true
		dst = append(dst, h)
	}
	return dst
}

func (pl *spreadPlugin) addPod(p *PodInfo, n *NodeInfo)    { pl.updateWithPod(p, n, 1) }
func (pl *spreadPlugin) removePod(p *PodInfo, n *NodeInfo) { pl.updateWithPod(p, n, -1) }

// updateWithPod is the plugin's AddPod/RemovePod: a pod of the incoming
// pod's namespace, matching a constraint's selector, on an eligible node,
// moves that domain's count (terminating or not; upstream does not ask).
// The node's domain already holds an eligible node (that node), so the
// number of domains does not change.
func (pl *spreadPlugin) updateWithPod(p *PodInfo, n *NodeInfo, delta int32) {
	if !pl.hardOK || n == nil || p.pod.Namespace != pl.pod.pod.Namespace {
		return
	}
	for i := range pl.hs {
		if pl.hs[i].ids[n.index] < 0 {
			return
		}
	}
	for i := range pl.hard {
		c := &pl.hard[i]
		if !c.selector.Matches(api.Set(p.pod.Labels)) || !pl.included(c, n) {
			continue
		}
		h := &pl.hs[i]
		d := h.ids[n.index]
		h.move(d, delta)
		h.paths.update(d, int(h.count(d)))
		h.setLimit(c)
	}
}

func (pl *spreadPlugin) preScore(feasible []*NodeInfo) Status {
	idx := make([]int, len(feasible))
	for k, n := range feasible {
		idx[k] = n.index
	}
	return pl.preScoreIndexes(idx)
}

// preScoreIndexes is preScore over the feasible nodes given by index (the
// slice is kept until normalizeScore), so that scoring never touches the
// NodeInfo structs.
func (pl *spreadPlugin) preScoreIndexes(feasible []int) Status {
	pod := pl.pod.pod
	if len(pl.c.nodes) == 0 {
		return Status{Code: Skip}
	}
	args := pl.c.cfg.Spread
	soft, err := pl.constraints(pl.softBuf[:0], api.ScheduleAnyway)
	if err != nil {
		return Status{Code: Error, Err: err}
	}
	if len(soft) == 0 {
		return Status{Code: Skip}
	}
	pl.soft = soft
	pl.feasible = feasible
	pl.requiredAffinity()
	pl.requireAll = len(pod.Spec.TopologySpreadConstraints) > 0 || !spreadSystemDefaulted(args)
	sc := pl.spreadCache()
	pl.ss = pl.ssBuf[:0]
	for range soft {
		pl.ss = append(pl.ss, softSpread{})
	}
	keys := make([]*topoKeyIndex, len(soft))
	// When every node carries every soft key and no inclusion policy can
	// exclude a node, every node counts: the counts per domain are the
	// cache's.
	filtered := pl.needsInclusion(soft)
	fast := !filtered
	pl.ignores = false
	for i := range soft {
		keys[i] = sc.keyIndex(pl.c, soft[i].key)
		if keys[i].missing > 0 {
			fast = false
			pl.ignores = pl.requireAll
		}
	}
	for i := range soft {
		t := keys[i]
		s := &pl.ss[i]
		s.ids = t.ids
		s.hostname = soft[i].key == api.LabelHostname
		s.offset = float64(soft[i].maxSkew - 1)
		if !soft[i].countsNothing {
			s.perNode, _ = sc.selectorCountsOf(pl.c, pod.Namespace, soft[i].selStr, soft[i].selector)
		}
		if !s.hostname {
			nd := sc.domains(t)
			s.marked = make([]bool, nd)
			switch {
			case s.perNode == nil:
			case fast:
				s.counts = sc.softDomainCounts(pl.c, pod.Namespace, soft[i].selStr, soft[i].selector, t)
			default:
				s.counts = make([]int32, nd)
			}
		}
	}
	sizes := make([]int, len(soft))
	scored := len(feasible)
	zonal := false // some soft key is not the hostname
	for i := range pl.ss {
		zonal = zonal || !pl.ss[i].hostname
	}
	for _, n := range feasible {
		if !pl.ignores && !zonal {
			break // every feasible node is scored, no domain to mark
		}
		if pl.ignoredAt(n) {
			scored--
			continue
		}
		for i := range pl.ss {
			s := &pl.ss[i]
			if s.hostname {
				continue
			}
			d := max(s.ids[n], 0) // a missing label reads as the value ""
			if !s.marked[d] {
				s.marked[d] = true
				sizes[i]++
			}
		}
	}
	for i := range pl.ss {
		s := &pl.ss[i]
		sz := sizes[i]
		if s.hostname {
			sz = scored
		}
		s.weight = math.Log(float64(sz + 2))
	}
	// Count every domain over all nodes passing the inclusion policies;
	// only the domains of scored nodes are ever read.
	nodes := pl.c.nodes
	for i := range pl.ss {
		s := &pl.ss[i]
		if fast || s.hostname || s.perNode == nil {
			continue
		}
		ids, per, counts := s.ids[:len(nodes)], s.perNode[:len(nodes)], s.counts
		for n := range ids {
			if per[n] == 0 || pl.ignoredAt(n) || (filtered && !pl.included(&soft[i], nodes[n])) {
				continue
			}
			counts[max(ids[n], 0)] += per[n]
		}
	}
	return Status{}
}

// hasAllSoft reports whether node index n carries every soft topology key.
func (pl *spreadPlugin) hasAllSoft(n int) bool {
	for i := range pl.ss {
		if pl.ss[i].ids[n] < 0 {
			return false
		}
	}
	return true
}

// ignoredAt reports whether scoring ignores node index n (it lacks a soft
// topology key while every key is required).
func (pl *spreadPlugin) ignoredAt(n int) bool {
	return pl.ignores && !pl.hasAllSoft(n)
}

func (pl *spreadPlugin) score(ni *NodeInfo) int64 {
	return pl.scoreIndex(ni.index)
}

// scoreIndexes writes the raw score of every feasible node (by index)
// into out.
func (pl *spreadPlugin) scoreIndexes(feasible []int, out []int64) {
	out = out[:len(feasible)]
	if len(pl.ss) != 1 || pl.ignores {
		for k, n := range feasible {
			out[k] = pl.scoreIndex(n)
		}
		return
	}
	// One constraint: a node's score depends on its domain's count alone,
	// so the scores of small counts are worked out once.
	var byCount [64]int64
	for c := range byCount {
		byCount[c] = -1 // the scores are never negative
	}
	s := &pl.ss[0]
	for k, n := range feasible {
		d := s.ids[n]
		if d < 0 {
			out[k] = 0
			continue
		}
		cnt := s.count(n, d)
		if cnt < 0 || int(cnt) >= len(byCount) {
			out[k] = pl.scoreIndex(n)
			continue
		}
		if byCount[cnt] < 0 {
			byCount[cnt] = int64(math.Round(float64(cnt)*s.weight + s.offset))
		}
		out[k] = byCount[cnt]
	}
}

// count is the count of node index n's domain d (d >= 0).
func (s *softSpread) count(n int, d int32) int32 {
	switch {
	case s.perNode == nil:
		return 0
	case s.hostname:
		return s.perNode[n]
	}
	return s.counts[d]
}

func (pl *spreadPlugin) scoreIndex(n int) int64 {
	if pl.ignoredAt(n) {
		return 0
	}
	var total float64
	for i := range pl.ss {
		s := &pl.ss[i]
		d := s.ids[n]
		if d < 0 {
			continue
		}
		total += float64(s.count(n, d))*s.weight + s.offset
	}
	return int64(math.Round(total))
}

// normalizeScore is the plugin's NormalizeScore over scores aligned with
// preScore's feasible nodes: ignored nodes get 0, the others
// 100*(max+min-s)/max over the non-ignored scores (100 each when max is 0).
func (pl *spreadPlugin) normalizeScore(scores []int64) {
	if len(scores) > len(pl.feasible) {
		scores = scores[:len(pl.feasible)]
	}
	feasible := pl.feasible[:len(scores)]
	minS, maxS := int64(math.MaxInt64), int64(0)
	for i, s := range scores {
		if pl.ignoredAt(feasible[i]) {
			continue
		}
		minS = min(minS, s)
		maxS = max(maxS, s)
	}
	// The normalized scores of the few raw scores just above the lowest
	// are worked out once.
	var byScore [64]int64
	for i := range byScore {
		byScore[i] = -1 // the normalized scores are never negative
	}
	for i, s := range scores {
		switch {
		case pl.ignoredAt(feasible[i]):
			scores[i] = 0
		case maxS == 0:
			scores[i] = MaxNodeScore
		case s-minS >= 0 && s-minS < int64(len(byScore)):
			v := &byScore[s-minS]
			if *v < 0 {
				*v = MaxNodeScore * (maxS + minS - s) / maxS
			}
			scores[i] = *v
		default:
			scores[i] = MaxNodeScore * (maxS + minS - s) / maxS
		}
	}
}

// spreadSystemDefaulted reports whether the arguments use System
// defaulting.
func spreadSystemDefaulted(a SpreadArgs) bool {
	return a.DefaultingType == "" || a.DefaultingType == SpreadDefaultingSystem
}

// spreadCacheOf returns the snapshot's spread cache, which its update
// methods keep current. A Cluster not made by NewCluster has none; its
// cycles get a fresh cache each, which is always correct and costs a pass
// over the namespace's pods per selector.
func spreadCacheOf(c *Cluster) *spreadCache {
	if c.spread == nil {
		return newSpreadCache()
	}
	return c.spread
}
