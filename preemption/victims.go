package preemption

import (
	"math"
	"sort"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// ReasonNoVictims is DefaultPreemption's status on a node where no pod has
// a lower priority than the preemptor (UnschedulableAndUnresolvable).
const ReasonNoVictims = "No preemption victims found for incoming pod"

// budget is a PodDisruptionBudget compiled once per decision for the
// scheduler's violation check.
type budget struct {
	namespace string
	selector  api.Selector
	allowed   int32
	disrupted map[string]api.Time
}

// compileBudgets keeps the budgets whose selector can select something:
// in the scheduler's check a missing, empty or invalid selector matches no
// pod.
func compileBudgets(pdbs []*api.PodDisruptionBudget) []budget {
	out := make([]budget, 0, len(pdbs))
	for _, pdb := range pdbs {
		if pdb == nil || pdb.Spec.Selector == nil {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || sel.Empty() {
			continue
		}
		out = append(out, budget{
			namespace: pdb.Namespace,
			selector:  sel,
			allowed:   pdb.Status.DisruptionsAllowed,
			disrupted: pdb.Status.DisruptedPods,
		})
	}
	return out
}

// splitByViolation divides the potential victims (keys, already in
// reprieve order) into those whose eviction would take some budget below
// zero and the others, keeping the order within each group, as
// DefaultPreemption's filterPodsWithPDBViolation does: each budget of the
// pod's namespace whose selector matches the pod's labels spends its
// allowance pod by pod, and a pod the budget already lists in
// status.disruptedPods spends nothing and never violates it. Which budgets
// select a set of labels is worked out once per scheduling.LabelSet.
func (d *dryRun) splitByViolation(keys []importance) {
	budgets, allowed := d.budgets, d.allowed
	if len(budgets) == 0 {
		d.violating, d.other = d.violating[:0], append(d.other[:0], keys...)
		return
	}
	for i := range budgets {
		allowed[i] = budgets[i].allowed
	}
	violating, other := d.violating[:0], d.other[:0]
	for _, key := range keys {
		p := d.potential[key.pos]
		violates := false
		if p.HasLabels() {
			sel := d.selecting(p)
			for i := range budgets {
				if !sel.has(i) {
					continue
				}
				if b := &budgets[i]; len(b.disrupted) > 0 {
					if _, ok := b.disrupted[p.Name()]; ok {
						continue
					}
				}
				allowed[i]--
				if allowed[i] < 0 {
					violates = true
				}
			}
		}
		if violates {
			violating = append(violating, key)
		} else {
			other = append(other, key)
		}
	}
	d.violating, d.other = violating, other
}

// budgetSet is a set of budgets by index: a bit mask for up to 64, a
// list of booleans beyond.
type budgetSet struct {
	mask uint64
	many []bool
}

func (s budgetSet) has(i int) bool {
	if s.many != nil {
		return s.many[i]
	}
	return s.mask&(1<<i) != 0
}

// selecting returns the budgets of p's namespace whose selector matches
// p's labels, remembered per LabelSet when there are at most 64 budgets
// (the last few sets asked for are looked up without hashing: a node's
// pods tend to repeat a handful of label sets).
func (d *dryRun) selecting(p *scheduling.PodInfo) budgetSet {
	n := len(d.budgets)
	set := p.LabelSet()
	memo := n <= 64 && !set.IsZero()
	if memo {
		for i := range d.recent {
			if d.recent[i].set == set {
				return budgetSet{mask: d.recent[i].mask}
			}
		}
		if m, ok := d.selects[set]; ok {
			d.remember(set, m)
			return budgetSet{mask: m}
		}
	}
	ns, labels := p.Namespace(), p.Labels()
	var out budgetSet
	if n > 64 {
		out.many = d.many[:0]
	}
	for i := range d.budgets {
		b := &d.budgets[i]
		ok := b.namespace == ns && b.selector.Matches(labels)
		switch {
		case n > 64:
			out.many = append(out.many, ok)
		case ok:
			out.mask |= 1 << i
		}
	}
	if n > 64 {
		d.many = out.many
	}
	if memo {
		if d.selects == nil {
			d.selects = make(map[scheduling.LabelSet]uint64, 16)
		}
		d.selects[set] = out.mask
		d.remember(set, out.mask)
	}
	return out
}

// remember puts a LabelSet's budgets among the recent ones, in place of
// the oldest.
func (d *dryRun) remember(set scheduling.LabelSet, mask uint64) {
	d.recent[d.next] = selection{set: set, mask: mask}
	d.next = (d.next + 1) % len(d.recent)
}

// startNanos is the pod's start time as the scheduler's GetPodStartTime
// reads it: status.startTime, or now when it is unset (upstream reads the
// clock there); a zero now puts such a pod after every pod with a start
// time.
func startNanos(p *scheduling.PodInfo, now time.Time) int64 {
	if start, ok := p.StartUnixNano(); ok {
		return start
	}
	if !now.IsZero() {
		return now.UnixNano()
	}
	return math.MaxInt64
}

// importance is what MoreImportantPod compares of a pod, its priority and
// its start time (startNanos), with the pod's position in the dry run's
// list of potential victims. It holds no pointer, so that sorting and
// copying keys costs the garbage collector nothing.
type importance struct {
	start int64
	prio  int32
	pos   int32
}

// before reports whether a is more important than b, as the scheduler's
// MoreImportantPod says: the higher priority, then the earlier start.
func (a *importance) before(b *importance) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.start < b.start
}

// byImportance sorts keys most important first (sort.Interface on a
// pointer, so that sorting allocates nothing).
type byImportance []importance

func (s *byImportance) Len() int           { return len(*s) }
func (s *byImportance) Swap(i, j int)      { (*s)[i], (*s)[j] = (*s)[j], (*s)[i] }
func (s *byImportance) Less(i, j int) bool { return (*s)[i].before(&(*s)[j]) }

// keysOf appends to keys the importance of each of pods, pos being its
// position in pods.
func (d *dryRun) keysOf(keys []importance, pods []*scheduling.PodInfo) []importance {
	for i, p := range pods {
		keys = append(keys, importance{prio: p.Priority(), start: startNanos(p, d.now), pos: int32(i)})
	}
	return keys
}

// sortByImportance sorts keys most important first, in the order
// upstream's sort.Slice leaves the pods in, pods equal on priority and
// start time included: sort.Sort runs the same algorithm, which for up to
// 12 elements is the insertion sort written out here (and is stable
// there). Only the comparisons decide the order, so sorting the keys
// leaves them as sorting the pods would.
func (d *dryRun) sortByImportance(keys []importance) {
	if len(keys) <= 12 {
		for i := 1; i < len(keys); i++ {
			for j := i; j > 0 && keys[j].before(&keys[j-1]); j-- {
				keys[j], keys[j-1] = keys[j-1], keys[j]
			}
		}
		return
	}
	// sort.Sort takes the keys through the dryRun, which is on the heap
	// already, so that the interface costs no allocation.
	d.sorting = keys
	sort.Sort(&d.sorting)
	d.sorting = nil
}

// dryRun is the scratch space of one decision's per-node victim selection.
type dryRun struct {
	now      time.Time
	cycle    *scheduling.Cycle
	priority int32
	budgets  []budget
	allowed  []int32
	// arithmetic is false when every node is to be evaluated through
	// WhatIf (tests compare the two ways).
	arithmetic bool
	ledger     scheduling.Ledger
	// whatIf is the what-if reused from node to node (Reset) when the
	// ledger cannot decide.
	whatIf *scheduling.WhatIf
	// Buffers reused from node to node: the node's potential victims, and
	// keys into them.
	potential                      []*scheduling.PodInfo
	keys, violating, other, victim []importance
	sorting                        byImportance
	// selects remembers which budgets select each LabelSet (at most 64
	// budgets), recent the last few it was asked for (next is the entry
	// to replace); many is the answer's buffer beyond 64.
	selects map[scheduling.LabelSet]uint64
	recent  [8]selection
	next    int
	many    []bool
}

// selection is the set of budgets that select a LabelSet.
type selection struct {
	set  scheduling.LabelSet
	mask uint64
}

// reasonsNoVictims is the reason list of a node without lower-priority
// pods; never modified.
var reasonsNoVictims = []string{ReasonNoVictims}

// selectVictims is DefaultPreemption's SelectVictimsOnNode: remove every
// pod of lower priority than the preemptor, check that the preemptor then
// fits (with the pods nominated to the node of at least its priority),
// and reprieve as many of them as possible, the ones whose eviction would
// violate a budget first, each group from the most important down. It
// returns the victims most important first, as keys into the node's
// potential victims (d.potential), both in buffers valid until the next
// call, and how many of them violate a budget; or the status that rules
// the node out.
//
// When the cycle's filters depend on other pods only through their
// requests, number and host ports, a scheduling.Ledger decides each step
// by arithmetic on the node's totals; otherwise each step runs the filters
// through a WhatIf. Both give the same answers (the package's properties
// compare them).
func (d *dryRun) selectVictims(n *scheduling.NodeInfo) ([]importance, int, scheduling.Status) {
	d.potential = d.potential[:0]
	for _, p := range n.Pods() {
		if p.Priority() < d.priority {
			d.potential = append(d.potential, p)
		}
	}
	if len(d.potential) == 0 {
		return nil, 0, scheduling.Status{Code: scheduling.UnschedulableAndUnresolvable, Plugin: pluginName, Reasons: reasonsNoVictims}
	}
	var w *scheduling.WhatIf
	if d.arithmetic && d.ledger.Reset(d.cycle, n, d.potential) {
		if !d.ledger.Fits() {
			return nil, 0, d.ledger.Status()
		}
	} else {
		if d.whatIf == nil || d.whatIf.Reset(n) != nil {
			d.whatIf = d.cycle.WhatIf(n)
		}
		w = d.whatIf
		for _, p := range d.potential {
			w.RemovePod(p)
		}
		if st := w.Filter(); !st.IsSuccess() {
			return nil, 0, st
		}
	}
	d.keys = d.keysOf(d.keys[:0], d.potential)
	d.sortByImportance(d.keys)
	d.splitByViolation(d.keys)
	victims := d.victim[:0]
	numViolating := 0
	for k, group := range [2][]importance{d.violating, d.other} {
		for _, key := range group {
			p := d.potential[key.pos]
			var back bool
			if w == nil {
				back = d.ledger.Reprieve(p)
			} else {
				w.AddPod(p)
				st := w.Filter()
				if st.Code == scheduling.Error {
					d.victim = victims[:0]
					return nil, 0, st
				}
				if back = st.IsSuccess(); !back {
					w.RemovePod(p)
				}
			}
			if !back {
				victims = append(victims, key)
				if k == 0 {
					numViolating++
				}
			}
		}
	}
	if len(d.violating) != 0 && len(d.other) != 0 {
		d.sortByImportance(victims)
	}
	d.victim = victims
	return victims, numViolating, scheduling.Status{}
}
