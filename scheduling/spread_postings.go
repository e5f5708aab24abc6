package scheduling

import (
	"math/bits"
	"slices"

	"github.com/podsem/podsem/api"
)

// podPostings indexes the pods PodTopologySpread counts (bound to a
// snapshot node and not terminating, see countable) so that the pods a
// selector matches are found from label posting lists, and counted per
// node, without matching the labels of every pod of the namespace:
//
//   - every indexed pod has a small integer id (PodInfo.spreadID; ids are
//     reused after removal, 0 is never one) and the node index of every id
//     is one column, so that counting a matched pod on its node reads two
//     arrays;
//   - per namespace, the ids of its pods, and per label key and value, the
//     ids of its pods carrying that label: unordered lists in which every
//     pod knows its position, so that adding or removing a pod costs
//     O(its labels) and never a pass over nodes or pods.
//
// Whether a pod passes one requirement of a selector depends only on its
// value of the requirement's key (or on the key being absent), so the
// pods a requirement matches are a union of value lists of its key when
// pods lacking the key fail it (in, =, ==, exists, gt, lt), and the
// namespace minus such a union when they pass it (notin, !=, !). The
// value lists of one key are disjoint, so a union is a concatenation. A
// selector, the conjunction of its requirements, is counted by walking
// its smallest positive union (or the whole namespace when it has none)
// and keeping the pods every other requirement's set admits, marked in a
// bitset by pod id; a requirement whose lists are far longer than the
// candidates left is checked on each candidate's labels instead (see
// countSelector). Long, dense lists also keep their ids as a bitset, and
// when that is less work the requirements' sets are built from those
// bitsets and intersected 64 pods at a time (countBits).
//
// The snapshot's update methods keep it current through spreadCache
// (podAttached, podDetached, nodeRemoved); counting runs with the cache's
// mutex held, which also guards the scratch space.
type podPostings struct {
	// node[id] is the node index of pod id, -1 for a free id; pods[id] the
	// pod; slots[id] its positions: [0] in its namespace's list, [1+j] in
	// the value list of its j-th label (PodInfo.labelPairs order).
	node  []int32
	pods  []*PodInfo
	slots [][]int32
	free  []int32
	byNS  map[string]*nsPostings
	// chunk is storage the slots of new ids are carved from.
	chunk []int32

	// directRatio is directCheckRatio (tests vary it).
	directRatio int
	// bitmapMin is bitmapMinIDs; bitmapMode chooses countSelector's
	// evaluation: by cost (0), by bitmaps whenever possible (1), never by
	// bitmaps (2). Tests vary both.
	bitmapMin  int
	bitmapMode int

	// Scratch space for countSelector.
	mark  []uint64
	acc   []uint64
	cands []int32
	lists [][]int32
	// bitsOf[k] is the bitset of lists[k]'s posting list, nil when none.
	bitsOf [][]uint64
	sets   []reqSet
}

// countable reports whether a pod counts for topology spread: bound to a
// snapshot node and not terminating.
func countable(p *PodInfo) bool { return p.node != nil && p.pod.DeletionTimestamp == nil }

// nsPostings holds the posting lists of one namespace.
type nsPostings struct {
	all  []int32
	keys map[string]map[string]*postingList
}

// postingList holds the ids of the pods carrying one label value and,
// while the list is dense among the ids in use (see keepBits), the same
// ids as a bitset (bit id set), so that a selector's requirements are
// intersected a word of 64 ids at a time instead of id by id.
type postingList struct {
	ids  []int32
	bits []uint64
}

// bitmapMinIDs is the length from which a posting list keeps a bitset:
// while it holds at least one id in 32 of those in use (created then,
// dropped below one in 64), the bitset takes at most twice the memory of
// the list itself, and its words are fewer than its ids.
const bitmapMinIDs = 256

// keepBits creates or drops l's bitset after l changed: created when l
// holds at least bitmapMin ids and one id in 32 of those in use, dropped
// when fewer than one in 64.
func (pp *podPostings) keepBits(l *postingList) {
	n, space := len(l.ids), len(pp.node)
	if l.bits != nil {
		if n < pp.bitmapMin || n*64 < space {
			l.bits = nil
		}
		return
	}
	if n >= pp.bitmapMin && n*32 >= space {
		l.bits = make([]uint64, (space+63)/64)
		for _, id := range l.ids {
			l.bits[id>>6] |= 1 << (id & 63)
		}
	}
}

// setBit records id in l's bitset, when l keeps one.
func (l *postingList) setBit(id int32) {
	if l.bits == nil {
		return
	}
	w := int(id >> 6)
	if w >= len(l.bits) {
		l.bits = slices.Grow(l.bits, max(w+1, 2*len(l.bits))-len(l.bits))[:w+1]
	}
	l.bits[w] |= 1 << (id & 63)
}

// clearBit removes id from l's bitset, when l keeps one.
func (l *postingList) clearBit(id int32) {
	if w := int(id >> 6); w < len(l.bits) {
		l.bits[w] &^= 1 << (id & 63)
	}
}

// rebits applies keepBits to every list (after a test changed bitmapMin).
func (pp *podPostings) rebits() {
	for _, nsp := range pp.byNS {
		for _, byValue := range nsp.keys {
			for _, l := range byValue {
				l.bits = nil
				pp.keepBits(l)
			}
		}
	}
}

func newPodPostings() *podPostings {
	// Id 0 is reserved: PodInfo.spreadID 0 means "not indexed".
	return &podPostings{node: []int32{-1}, pods: []*PodInfo{nil}, slots: [][]int32{nil}, byNS: map[string]*nsPostings{},
		directRatio: directCheckRatio, bitmapMin: bitmapMinIDs}
}

// add indexes a countable pod and returns its id.
func (pp *podPostings) add(p *PodInfo) int32 {
	var id int32
	if n := len(pp.free); n > 0 {
		id = pp.free[n-1]
		pp.free = pp.free[:n-1]
	} else {
		id = int32(len(pp.node))
		// The columns double when full: building a snapshot leaves less
		// garbage than append's gentler growth of large slices.
		pp.node = append(grown(pp.node), -1)
		pp.pods = append(grown(pp.pods), nil)
		pp.slots = append(grown(pp.slots), nil)
	}
	pp.node[id] = int32(p.node.index)
	pp.pods[id] = p
	nsp := pp.byNS[p.pod.Namespace]
	if nsp == nil {
		nsp = &nsPostings{keys: map[string]map[string]*postingList{}}
		pp.byNS[p.pod.Namespace] = nsp
	}
	slots := append(pp.slotsFor(id, 1+len(p.labelPairs)), int32(len(nsp.all)))
	nsp.all = append(nsp.all, id)
	for _, lp := range p.labelPairs {
		byValue := nsp.keys[lp.key]
		if byValue == nil {
			byValue = map[string]*postingList{}
			nsp.keys[lp.key] = byValue
		}
		l := byValue[lp.value]
		if l == nil {
			l = &postingList{}
			byValue[lp.value] = l
		}
		slots = append(slots, int32(len(l.ids)))
		l.ids = append(l.ids, id)
		l.setBit(id)
		pp.keepBits(l)
	}
	pp.slots[id] = slots
	return id
}

// grown returns s with room for one more element, doubling its capacity
// when it is full.
func grown[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 16))
}

// slotsFor returns empty storage for n slots of id: its previous slots
// when large enough, else a piece carved from a shared chunk (so that
// indexing a pod allocates nothing of its own).
func (pp *podPostings) slotsFor(id int32, n int) []int32 {
	if s := pp.slots[id]; cap(s) >= n {
		return s[:0]
	}
	if len(pp.chunk) < n {
		pp.chunk = make([]int32, max(n, 1024))
	}
	s := pp.chunk[:0:n]
	pp.chunk = pp.chunk[n:]
	return s
}

// remove drops pod p, indexed under id, from the index.
func (pp *podPostings) remove(p *PodInfo, id int32) {
	ns := p.pod.Namespace
	nsp := pp.byNS[ns]
	slots := pp.slots[id]
	nsp.all = pp.cut(nsp.all, slots[0], func(moved int32) int { return 0 })
	for j, lp := range p.labelPairs {
		byValue := nsp.keys[lp.key]
		l := byValue[lp.value]
		l.ids = pp.cut(l.ids, slots[1+j], func(moved int32) int { return 1 + pp.pods[moved].labelPos(lp) })
		l.clearBit(id)
		pp.keepBits(l)
		if len(l.ids) == 0 {
			delete(byValue, lp.value)
			if len(byValue) == 0 {
				delete(nsp.keys, lp.key)
			}
		}
	}
	if len(nsp.all) == 0 {
		delete(pp.byNS, ns)
	}
	pp.node[id] = -1
	pp.pods[id] = nil
	pp.free = append(pp.free, id)
}

// cut removes the entry at pos from list by moving the last entry there,
// and records the moved pod's new position in its slot slot(moved).
func (pp *podPostings) cut(list []int32, pos int32, slot func(moved int32) int) []int32 {
	last := len(list) - 1
	if int(pos) != last {
		moved := list[last]
		list[pos] = moved
		pp.slots[moved][slot(moved)] = pos
	}
	return list[:last]
}

// nodeRemoved accounts for the removal of the node at index (whose pods
// were removed before): later nodes shift down by one.
func (pp *podPostings) nodeRemoved(index int) {
	for id, n := range pp.node {
		if int(n) > index {
			pp.node[id] = n - 1
		}
	}
}

// reqSet is the set of pods of a namespace one requirement selects,
// as value lists: pp.lists[from:to], size ids in all. When negative, the
// requirement matches the namespace's pods outside the lists; otherwise
// exactly those in them.
type reqSet struct {
	req      *api.Requirement
	from, to int
	size     int
	negative bool
	// cost is the work of building the set as a bitset: the words of
	// the lists keeping one, the ids of the others.
	cost int
}

// oneLabel is a label set holding one label, for asking a requirement
// about one value of its key.
type oneLabel struct{ key, value string }

func (l *oneLabel) Has(key string) bool { return key == l.key }
func (l *oneLabel) Get(key string) string {
	if key == l.key {
		return l.value
	}
	return ""
}

// requirementSet lists the value lists of r's key on which r's verdict
// differs from its verdict on a pod lacking the key.
func (pp *podPostings) requirementSet(nsp *nsPostings, r *api.Requirement) reqSet {
	s := reqSet{req: r, from: len(pp.lists), negative: r.Matches(api.Set(nil))}
	byValue := nsp.keys[r.Key()]
	if len(byValue) > 0 {
		one := &oneLabel{key: r.Key()}
		add := func(v string, l *postingList) {
			one.value = v
			if r.Matches(one) != s.negative {
				pp.lists = append(pp.lists, l.ids)
				pp.bitsOf = append(pp.bitsOf, l.bits)
				s.size += len(l.ids)
				if l.bits != nil {
					s.cost += len(l.bits)
				} else {
					s.cost += len(l.ids)
				}
			}
		}
		switch r.Operator() {
		case api.SelectionIn, api.SelectionEquals, api.SelectionDoubleEquals, api.SelectionNotIn, api.SelectionNotEquals:
			// Only a listed value can give another verdict than absence.
			for _, v := range r.Values() {
				if l := byValue[v]; l != nil {
					add(v, l)
				}
			}
		default:
			for v, l := range byValue {
				add(v, l)
			}
		}
	}
	s.to = len(pp.lists)
	return s
}

// directCheckRatio: a requirement whose lists hold more than this many
// ids per remaining candidate is checked on each candidate's labels
// instead of being marked in the bitset.
const directCheckRatio = 16

// countSelector adds to perNode[i] the number of indexed pods of ns on
// node index i that sel matches.
func (pp *podPostings) countSelector(ns string, sel api.Selector, perNode []int32) {
	nsp := pp.byNS[ns]
	if nsp == nil || api.SelectsNothing(sel) {
		return
	}
	reqs := sel.Requirements()
	pp.lists, pp.bitsOf = pp.lists[:0], pp.bitsOf[:0]
	sets := pp.sets[:0]
	driver := -1
	for i := range reqs {
		s := pp.requirementSet(nsp, &reqs[i])
		if !s.negative && s.size == 0 {
			return // nothing matches
		}
		if s.negative && s.size == 0 {
			continue // everything passes
		}
		sets = append(sets, s)
		if !s.negative && (driver < 0 || s.size < sets[driver].size) {
			driver = len(sets) - 1
		}
	}
	pp.sets = sets
	var from [][]int32
	var drv reqSet
	if driver >= 0 {
		drv = sets[driver]
		from = pp.lists[drv.from:drv.to]
		sets = append(sets[:driver], sets[driver+1:]...)
	} else {
		from = [][]int32{nsp.all}
	}
	node := pp.node
	if len(sets) == 0 {
		for _, l := range from {
			for _, id := range l {
				perNode[node[id]]++
			}
		}
		return
	}
	if driver >= 0 && pp.useBits(drv, sets) {
		pp.countBits(drv, sets, perNode)
		return
	}
	slices.SortFunc(sets, func(a, b reqSet) int { return a.size - b.size })
	cands := pp.cands[:0]
	for _, l := range from {
		cands = append(cands, l...)
	}
	if words := (len(pp.node) + 63) / 64; len(pp.mark) < words {
		pp.mark = make([]uint64, words)
	}
	mark := pp.mark
	for _, s := range sets {
		if len(cands) == 0 {
			break
		}
		w := 0
		if len(cands)*pp.directRatio < s.size {
			for _, id := range cands {
				if s.req.Matches(api.Set(pp.pods[id].pod.Labels)) {
					cands[w] = id
					w++
				}
			}
			cands = cands[:w]
			continue
		}
		for _, l := range pp.lists[s.from:s.to] {
			for _, id := range l {
				mark[id>>6] |= 1 << (id & 63)
			}
		}
		in := !s.negative
		for _, id := range cands {
			if (mark[id>>6]&(1<<(id&63)) != 0) == in {
				cands[w] = id
				w++
			}
		}
		cands = cands[:w]
		if s.size > len(mark) {
			clear(mark)
		} else {
			for _, l := range pp.lists[s.from:s.to] {
				for _, id := range l {
					mark[id>>6] = 0
				}
			}
		}
	}
	for _, id := range cands {
		perNode[node[id]]++
	}
	pp.cands = cands[:0]
}

// useBits reports whether countSelector intersects the driver's set d and
// the other sets as bitsets (countBits) rather than by candidates: when
// building every set as a bitset, and the intersections a word at a time,
// is less work than walking the driver's ids and marking or checking the
// other sets' ones.
func (pp *podPostings) useBits(d reqSet, sets []reqSet) bool {
	switch pp.bitmapMode {
	case 1:
		return true
	case 2:
		return false
	}
	words := (len(pp.node) + 63) / 64
	bits := d.cost + words
	cands := d.size
	for _, s := range sets {
		bits += s.cost + 2*words
		cands += min(s.size, d.size*pp.directRatio) + d.size
	}
	return bits < cands
}

// countBits counts the pods in the driver's set d and in every positive
// set of sets, outside every negative one, as countSelector does, building
// each set as a bitset from its lists' bitsets (or ids) and intersecting
// them word by word.
func (pp *podPostings) countBits(d reqSet, sets []reqSet, perNode []int32) {
	words := (len(pp.node) + 63) / 64
	if cap(pp.acc) < 2*words {
		pp.acc = make([]uint64, 2*words)
	}
	acc, tmp := pp.acc[:words], pp.acc[words:2*words]
	pp.fill(acc, d)
	for _, s := range sets {
		pp.fill(tmp, s)
		if s.negative {
			for w := range acc {
				acc[w] &^= tmp[w]
			}
		} else {
			for w := range acc {
				acc[w] &= tmp[w]
			}
		}
	}
	node := pp.node
	for w, word := range acc {
		for word != 0 {
			id := w<<6 | bits.TrailingZeros64(word)
			perNode[node[id]]++
			word &= word - 1
		}
	}
}

// fill writes the ids of set s's lists into dst as a bitset.
func (pp *podPostings) fill(dst []uint64, s reqSet) {
	clear(dst)
	for k := s.from; k < s.to; k++ {
		if b := pp.bitsOf[k]; b != nil {
			for w, x := range b[:min(len(b), len(dst))] {
				dst[w] |= x
			}
			continue
		}
		for _, id := range pp.lists[k] {
			dst[id>>6] |= 1 << (id & 63)
		}
	}
}
