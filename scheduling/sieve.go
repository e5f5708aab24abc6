package scheduling

import (
	"math/bits"
	"slices"
)

// The block sieve: how a decision walks thousands of nodes when every
// filter that can reject a node this cycle is exact and reads the node by
// index (see buildChecks), and no node carries nominated pods.
//
// The walk takes the nodes in blocks of up to 64 in its order and runs the
// checks column by column: each check computes, for the whole block, a
// bit mask of the nodes it lets through, reading only the snapshot's (or
// the cycle's) arrays — a column of what is left on each node for
// NodeResourcesFit, a node-to-domain array and the domain counts for each
// PodTopologySpread constraint. A node a check rejects gets that check's
// lazy verdict (its Status is built when asked for), and the later checks
// see only the nodes still standing. The nodes left standing are the
// block's feasible ones, in walk order; when they include the node past
// numFeasibleNodesToFind, the walk ends there exactly as the node-by-node
// loop would, and what the block looked at beyond it is undone.
//
// A check's answer for a node does not depend on the order in which the
// nodes or the checks are looked at, so the sieve gives each node the
// verdict the node-by-node loop gives it: a node rejected by several
// checks gets the first of them in plugin order, because the sieve runs
// the checks in that order and stops looking at a node once rejected.

// sieveRank is one check in the sieve's running order: its position in
// Cycle.sieve and the nodes it rejected so far in the walk.
type sieveRank struct {
	check    int
	rejected int
}

// sieveBlock is the number of nodes the sieve looks at together (the bits
// of a mask).
const sieveBlock = 64

// sieveCheck is one column check of the sieve. Several may come from one
// filterCheck (one per PodTopologySpread constraint, one per resource);
// check is its position in Cycle.checks, whose lazy verdict its rejections
// get.
type sieveCheck struct {
	kind  int
	check int
	// sieveAtLeast: col[i] >= least.
	col   []int64
	least int64
	// sieveDomain, sieveDomainKey: counts[ids[i]] <= limit (the node's
	// domain has room); sieveDomainKey also rejects ids[i] < 0 (the node
	// lacks the key), sieveHasKey only that.
	ids    []int32
	counts []int32
	limit  int32
	// sieveNodeCount: counts[i] <= limit (the node is its domain).
	// sieveDomainMask: bit ids[i] of mask is set (a domain with room; at
	// most 64 domains, every node carrying the key).
	mask uint64
	// sieveNode: the filterCheck's own exact check on each node.
	ch *filterCheck
}

// The kinds of sieveCheck.
const (
	sieveAtLeast = iota
	sieveDomain
	sieveDomainKey
	sieveHasKey
	sieveNodeCount
	sieveDomainMask
	sieveNode
)

// buildSieve compiles cy.checks into column checks, or leaves cy.sieveOK
// false when some check is not exact (the node-by-node loop then runs).
func (cy *Cycle) buildSieve() {
	cy.sieve = cy.sieveBuf[:0]
	cy.sieveOK = false
	c := cy.c
	for j := range cy.checks {
		ch := &cy.checks[j]
		switch ch.kind {
		case checkResources:
			r := &ch.fit.req
			if len(ch.fit.scalars) > 0 {
				cy.sieve = append(cy.sieve, sieveCheck{kind: sieveNode, check: j, ch: ch})
				continue
			}
			cy.sieve = append(cy.sieve, sieveCheck{kind: sieveAtLeast, check: j, col: c.room.pods, least: 1})
			for _, x := range [...]struct {
				col []int64
				req int64
			}{{c.room.cpu, r.MilliCPU}, {c.room.mem, r.Memory}, {c.room.eph, r.EphemeralStorage}} {
				if x.req > 0 {
					cy.sieve = append(cy.sieve, sieveCheck{kind: sieveAtLeast, check: j, col: x.col, least: x.req})
				}
			}
		case checkSpread:
			cy.sieve = ch.spread.appendSieve(cy.sieve, j)
		case checkTaint, checkNodeAffinity, checkUnschedulable, checkNodeName:
			cy.sieve = append(cy.sieve, sieveCheck{kind: sieveNode, check: j, ch: ch})
		default:
			return
		}
	}
	cy.sieveOK = true
}

// appendSieve adds one column check per DoNotSchedule constraint to s,
// leaving out those no node can fail: a constraint whose every domain is
// within its limit (looked at when the domains are few) on a key every
// node carries.
func (pl *spreadPlugin) appendSieve(s []sieveCheck, j int) []sieveCheck {
	for i := range pl.hs {
		h := &pl.hs[i]
		missing := h.missing > 0
		limit := int32(max(min(h.limit, 1<<31-1), -1<<31))
		if len(h.counts) <= sieveBlock {
			roomy := true
			for _, n := range h.counts {
				if n > limit {
					roomy = false
					break
				}
			}
			if roomy {
				if missing {
					s = append(s, sieveCheck{kind: sieveHasKey, check: j, ids: h.ids})
				}
				continue
			}
		}
		if h.perNode != nil {
			s = append(s, sieveCheck{kind: sieveNodeCount, check: j, counts: h.perNode, limit: limit})
			continue
		}
		if !missing && len(h.counts) <= 64 {
			// Few domains: a bit per domain with room.
			var mask uint64
			for d, n := range h.counts {
				if n <= limit {
					mask |= 1 << d
				}
			}
			s = append(s, sieveCheck{kind: sieveDomainMask, check: j, ids: h.ids, mask: mask})
			continue
		}
		kind := sieveDomain
		if missing {
			kind = sieveDomainKey
		}
		s = append(s, sieveCheck{kind: kind, check: j, ids: h.ids, counts: h.counts, limit: limit})
	}
	return s
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// pass returns the mask of the block's nodes (idx, at most 64) that the
// check lets through; alive are those still standing (only they need a
// correct bit).
func (sc *sieveCheck) pass(cy *Cycle, idx []int32, alive uint64) uint64 {
	var m uint64
	// The masks are built from the last node back, one shift per node.
	switch sc.kind {
	case sieveAtLeast:
		col, least := sc.col, sc.least
		for p := len(idx) - 1; p >= 0; p-- {
			m = m<<1 | b2u(col[idx[p]] >= least)
		}
	case sieveDomain:
		ids, counts, limit := sc.ids, sc.counts, sc.limit
		for p := len(idx) - 1; p >= 0; p-- {
			m = m<<1 | b2u(counts[ids[idx[p]]] <= limit)
		}
	case sieveDomainKey:
		ids, counts, limit := sc.ids, sc.counts, sc.limit
		for p := len(idx) - 1; p >= 0; p-- {
			m <<= 1
			if d := ids[idx[p]]; d >= 0 {
				m |= b2u(counts[d] <= limit)
			}
		}
	case sieveHasKey:
		ids := sc.ids
		for p := len(idx) - 1; p >= 0; p-- {
			m = m<<1 | b2u(ids[idx[p]] >= 0)
		}
	case sieveNodeCount:
		counts, limit := sc.counts, sc.limit
		for p := len(idx) - 1; p >= 0; p-- {
			m = m<<1 | b2u(counts[idx[p]] <= limit)
		}
	case sieveDomainMask:
		ids, mask := sc.ids, sc.mask
		for p := len(idx) - 1; p >= 0; p-- {
			m = m<<1 | mask>>(uint32(ids[idx[p]])&63)&1
		}
	case sieveNode:
		return sc.passSparse(cy, idx, alive)
	}
	return m
}

// passSparse is pass computed node by node over the nodes still standing,
// cheaper than pass when they are few.
func (sc *sieveCheck) passSparse(cy *Cycle, idx []int32, alive uint64) uint64 {
	var m uint64
	for a := alive; a != 0; a &= a - 1 {
		p := bits.TrailingZeros64(a)
		if sc.passes(cy, int(idx[p])) {
			m |= 1 << p
		}
	}
	return m
}

// passes is the check's verdict on node index i.
func (sc *sieveCheck) passes(cy *Cycle, i int) bool {
	switch sc.kind {
	case sieveAtLeast:
		return sc.col[i] >= sc.least
	case sieveDomain:
		return sc.counts[sc.ids[i]] <= sc.limit
	case sieveDomainKey:
		d := sc.ids[i]
		return d >= 0 && sc.counts[d] <= sc.limit
	case sieveHasKey:
		return sc.ids[i] >= 0
	case sieveNodeCount:
		return sc.counts[i] <= sc.limit
	case sieveDomainMask:
		return sc.mask>>(uint32(sc.ids[i])&63)&1 != 0
	}
	return cy.exactCheck(sc.ch, i)
}

// sieveSparse is the number of nodes standing under which a check looks
// at them one by one rather than at the whole block.
const sieveSparse = 16

// exactCheck is an exact check's verdict on node index i as it stands.
func (cy *Cycle) exactCheck(ch *filterCheck, i int) bool {
	switch ch.kind {
	case checkResources:
		return ch.fit.fitsAt(cy.c, i)
	case checkSpread:
		return ch.spread.fitsIndex(i)
	}
	view := &nodeView{info: cy.c.nodes[i]}
	switch ch.kind {
	case checkTaint:
		return ch.p.(*taintPlugin).fits(view)
	case checkNodeAffinity:
		return ch.p.(*nodeAffinityPlugin).fits(view)
	case checkUnschedulable:
		return ch.p.(*nodeUnschedulablePlugin).fits(view)
	case checkNodeName:
		return ch.p.(*nodeNamePlugin).fits(view)
	}
	return false
}

// sieveWalk runs the walk w with the sieve until k nodes are feasible (the
// (k+1)-th ends it unevaluated), leaving out node index skip. It records
// the feasible nodes and how far the walk went (d.walkEnd), no verdict.
func (cy *Cycle) sieveWalk(d *Decision, w *walker, k, skip int) {
	var buf [sieveBlock]int32
	d.evaluatedOK = false
	// The checks run the one that rejected most nodes so far first, so
	// that the later ones see few nodes standing and look at them one by
	// one; the order does not change any verdict.
	order := cy.sieveOrder[:0]
	if order == nil {
		order = cy.sieveOrderBuf[:0]
	}
	for s := range cy.sieve {
		order = append(order, sieveRank{check: s})
	}
	cy.sieveOrder = order
	for w.pos < w.n {
		idx := w.fill(buf[:0], skip)
		b := len(idx)
		if b == 0 {
			break
		}
		alive := ^uint64(0) >> (sieveBlock - b)
		for r := range order {
			sc := &cy.sieve[order[r].check]
			var pass uint64
			if bits.OnesCount64(alive) > sieveSparse {
				pass = sc.pass(cy, idx, alive)
			} else {
				pass = sc.passSparse(cy, idx, alive)
			}
			order[r].rejected += bits.OnesCount64(alive &^ pass)
			alive &= pass
			if alive == 0 {
				break
			}
		}
		for r := 1; r < len(order); r++ {
			for q := r; q > 0 && order[q].rejected > order[q-1].rejected; q-- {
				order[q], order[q-1] = order[q-1], order[q]
			}
		}
		if need := k - len(d.feasible); bits.OnesCount64(alive) > need {
			// The (need+1)-th node standing ends the walk: it and the
			// nodes after it are not evaluated.
			a := alive
			for range need {
				a &= a - 1
			}
			end := bits.TrailingZeros64(a)
			d.appendFeasible(idx, alive&(1<<end-1))
			d.numEvaluated += end
			d.walkEnd = d.walk.position(int(idx[end]))
			return
		}
		d.appendFeasible(idx, alive)
		d.numEvaluated += b
	}
	d.walkEnd = w.n
}

// appendFeasible appends the block's nodes (idx) whose bits are set in
// alive to d.feasible, in block order.
func (d *Decision) appendFeasible(idx []int32, alive uint64) {
	for ; alive != 0; alive &= alive - 1 {
		d.feasible = append(d.feasible, int(idx[bits.TrailingZeros64(alive)]))
	}
}

// fill appends the walk's next node indexes to buf, up to its capacity,
// leaving out skip, and returns it.
func (w *walker) fill(buf []int32, skip int) []int32 {
	for len(buf) < cap(buf) && w.pos < w.n {
		p := w.start + w.pos
		if p >= w.n {
			p -= w.n
		}
		// The run of positions up to the end of the list, the end of the
		// walk or the room left.
		run := min(cap(buf)-len(buf), w.n-w.pos, w.n-p)
		from := len(buf)
		switch {
		case w.list != nil:
			for _, i := range w.list[p : p+run] {
				buf = append(buf, int32(i))
			}
		case w.tree:
			buf = append(buf, w.flat[p:p+run]...)
		default:
			for i := p; i < p+run; i++ {
				buf = append(buf, int32(i))
			}
		}
		w.pos += run
		if skip >= 0 {
			if q := slices.Index(buf[from:], int32(skip)); q >= 0 {
				buf = slices.Delete(buf, from+q, from+q+1)
			}
		}
	}
	return buf
}
