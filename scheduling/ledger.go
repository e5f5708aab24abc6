package scheduling

import "fmt"

// Ledger is a what-if on one node for a cycle's pod, like WhatIf, shaped
// for the dry run of kube-scheduler's preemption (SelectVictimsOnNode):
// some of the node's pods are taken away at once (Reset), then put back one
// at a time as long as the pod still fits (Reprieve). Instead of running
// the filters after every step, it keeps the node's totals under the
// what-if — the pod count, the requested cpu, memory, ephemeral-storage and
// scalar resources, and the uses of host ports that conflict with the
// pod's — and decides by arithmetic on them, so that a step costs the same
// whatever the number of pods on the node.
//
// The arithmetic decides the filters only when none of the filters the
// cycle runs reads other pods beyond their requests, their number and
// their host ports: each plugin whose PreFilter said Success must be one
// of NodeUnschedulable, NodeName, TaintToleration and NodeAffinity (which
// read only the node), NodePorts or NodeResourcesFit, and no PreFilter may
// have rejected the pod. When inter-pod affinity, a DoNotSchedule topology
// spread constraint or any other filter that counts pods is active for the
// cycle, Reset reports false and the caller uses WhatIf instead.
//
// Whenever Reset said true, Fits and Status give exactly what WhatIf's
// Filter gives with the same pods removed, the pods nominated to the node
// included (the pod must fit both with those of at least its priority
// added and without them, as the framework's
// RunFilterPluginsWithNominatedPods requires).
//
// It is exported for PostFilter plugins (see PostFilter) that dry-run
// pod removals on node after node: package preemption's
// DefaultPreemption, or a custom preemption or descheduling policy. WhatIf
// answers the same question for any filter, at the cost of running the
// filters for each step.
//
// The zero value is ready to use. A Ledger may be reset on node after node
// and cycle after cycle; Reset, Fits and Reprieve allocate nothing once its
// buffers have grown to the largest node, and the statuses Status returns
// share a few large arrays for their reasons. It reads the cycle and its
// snapshot as WhatIf does (the snapshot must not change meanwhile) and is
// not safe for concurrent use. A nil *Ledger decides nothing: Reset,
// Fits and Reprieve report false and Status is an Error status.
type Ledger struct {
	// cy is the cycle the plugin roles below were read from.
	cy *Cycle
	// arith is false when the arithmetic cannot decide cy's filters.
	arith bool
	// fit is NodeResourcesFit when active; ports are the pod's host ports
	// when NodePorts is active; static are the active plugins that read
	// only the node.
	fit    *fitPlugin
	ports  []hostPort
	static []cyclePlugin

	// node is the node of the what-if, nil until a Reset succeeds.
	node *NodeInfo
	// staticOK: the node passes the plugins that read only the node.
	staticOK   bool
	staticView nodeView
	// own are the node's totals under the what-if; nom those of the pods
	// nominated to the node that the framework adds (hasNom is false when
	// there are none).
	own, nom totals
	hasNom   bool
	// removed[i] tells whether the node's pod at position i is removed.
	removed []bool
	// view collects the removed pods for Status; statusView is the view
	// Status runs the filters on, and arena the storage of its reasons.
	view       []*PodInfo
	statusView nodeView
	arena      statusArena
}

// totals are the amounts the arithmetic compares: a pod count, requests
// (scalars aligned with the NodeResourcesFit plugin's checked scalar
// resources) and uses of host ports conflicting with the incoming pod's.
// The requests are summed exactly (wide), so that taking pods away and
// putting them back never wraps around.
type totals struct {
	pods          int64
	cpu, mem, eph wide
	scalars       []wide
	conflicts     int
}

// add adds p's share to t (sign +1) or takes it away (sign -1).
func (t *totals) add(l *Ledger, p *PodInfo, sign int64) {
	t.pods += sign
	r := &p.requests
	t.cpu.add(r.MilliCPU, sign)
	t.mem.add(r.Memory, sign)
	t.eph.add(r.EphemeralStorage, sign)
	if r.Scalar != nil && l.fit != nil {
		for j, name := range l.fit.scalars {
			t.scalars[j].add(r.Scalar[name], sign)
		}
	}
	if len(l.ports) > 0 && len(p.ports) > 0 {
		t.conflicts += int(sign) * conflictsBetween(l.ports, p.ports)
	}
}

// conflictsBetween counts the pairs of ports, one of the incoming pod's and
// one of another pod's, that conflict: what that pod adds to the node's
// conflict counts for the incoming pod's ports.
func conflictsBetween(incoming, other []hostPort) int {
	n := 0
	for _, p := range incoming {
		for _, q := range other {
			if p.conflictsWith(q) {
				n++
			}
		}
	}
	return n
}

// roles reads the roles of cy's active filter plugins, once per cycle.
func (l *Ledger) roles(cy *Cycle) {
	l.cy, l.arith, l.fit, l.ports = cy, cy.rejectAll == nil, nil, nil
	clear(l.static)
	l.static = l.static[:0]
	for _, p := range cy.active {
		switch pl := p.(type) {
		case *nodeUnschedulablePlugin, *nodeNamePlugin, *taintPlugin, *nodeAffinityPlugin:
			l.static = append(l.static, p)
		case *fitPlugin:
			l.fit = pl
		case *nodePortsPlugin:
			l.ports = pl.ports
		default:
			l.arith = false
		}
	}
	n := 0
	if l.fit != nil {
		n = len(l.fit.scalars)
	}
	l.own.scalars = grow(l.own.scalars, n)
	l.nom.scalars = grow(l.nom.scalars, n)
}

// Reset starts a what-if of cy's pod on node n, a node of cy's snapshot,
// with the pods in removed taken away (nil entries, pods not bound to n
// and repeated pods are ignored). It reports whether the arithmetic
// decides cy's filters (see Ledger); when it says false, the Ledger holds
// no what-if and the caller evaluates the node with WhatIf. A nil cy or n
// gives false.
func (l *Ledger) Reset(cy *Cycle, n *NodeInfo, removed []*PodInfo) bool {
	if l == nil {
		return false
	}
	l.node = nil
	if cy == nil || n == nil {
		return false
	}
	cy.runPreFilter()
	if l.cy != cy {
		l.roles(cy)
	}
	if !l.arith {
		return false
	}
	l.node = n
	l.staticView.info = n
	l.staticOK = runFilters(l.static, &l.staticView).IsSuccess()
	l.own.set(n, l)
	l.removed = grow(l.removed, len(n.pods))
	clear(l.removed)
	for _, p := range removed {
		if p == nil || p.node != n || l.removed[p.nodeSlot] {
			continue
		}
		l.removed[p.nodeSlot] = true
		l.own.add(l, p, -1)
	}
	l.hasNom = false
	l.nom.reset()
	for _, p := range cy.c.nominated[n.name] {
		if cy.seesNominated(p) {
			l.hasNom = true
			l.nom.add(l, p, 1)
		}
	}
	return true
}

// set makes t the totals of node n as it stands.
func (t *totals) set(n *NodeInfo, l *Ledger) {
	t.pods = int64(len(n.pods))
	t.cpu, t.mem, t.eph = n.exactRequested()
	if l.fit != nil {
		for j, name := range l.fit.scalars {
			t.scalars[j] = n.exactScalar(name)
		}
	}
	t.conflicts = 0
	for _, p := range l.ports {
		t.conflicts += n.ports.conflictCount(p)
	}
}

// reset zeroes t, keeping its storage.
func (t *totals) reset() {
	s := t.scalars
	clear(s)
	*t = totals{scalars: s}
}

// fitsTotals applies NodeResourcesFit's arithmetic to the totals (plus
// extra's, when not nil).
func (l *Ledger) fitsTotals(t, extra *totals) bool {
	if l.fit == nil {
		return true
	}
	alloc := &l.node.allocatable
	pods, cpu, mem, eph := t.pods, t.cpu, t.mem, t.eph
	if extra != nil {
		pods, cpu, mem, eph = satAdd(pods, extra.pods), cpu.plus(extra.cpu), mem.plus(extra.mem), eph.plus(extra.eph)
	}
	if !roomForPod(alloc, pods) {
		return false
	}
	if l.fit.requestsNothing() {
		return true
	}
	if !l.fit.roomFor(alloc, cpu.sat(), mem.sat(), eph.sat()) {
		return false
	}
	for j, name := range l.fit.scalars {
		used := t.scalars[j]
		if extra != nil {
			used = used.plus(extra.scalars[j])
		}
		if !l.fit.roomForScalar(alloc, name, used.sat()) {
			return false
		}
	}
	return true
}

// Fits reports whether the pod passes every filter on the node under the
// what-if, as WhatIf.Filter().IsSuccess() would say. Without a successful
// Reset, and on a nil Ledger, it reports false.
func (l *Ledger) Fits() bool {
	if l == nil || l.node == nil || !l.staticOK {
		return false
	}
	if l.own.conflicts+l.nom.conflicts > 0 {
		return false
	}
	if l.hasNom && !l.fitsTotals(&l.own, &l.nom) {
		return false
	}
	return l.fitsTotals(&l.own, nil)
}

// Reprieve puts back p, a pod Reset removed, if the pod still fits on the
// node with p there, and reports whether it did. A pod that is not
// removed (never was, or already put back) is left alone and gives false;
// so do a nil p and a nil Ledger.
func (l *Ledger) Reprieve(p *PodInfo) bool {
	if l == nil || l.node == nil || p == nil || p.node != l.node || !l.removed[p.nodeSlot] {
		return false
	}
	l.own.add(l, p, 1)
	if l.Fits() {
		l.removed[p.nodeSlot] = false
		return true
	}
	l.own.add(l, p, -1)
	return false
}

// Status returns the filters' verdict on the node under the what-if, as
// WhatIf.Filter gives it: Success, or the status of the first plugin that
// rejects the pod, with its reasons and numbers. It runs the filters
// themselves, so it is meant for a node that does not fit. The statuses
// of successive calls share a few large arrays for their reasons (each
// status's slices are capped, so appending to them copies). Without a
// successful Reset, and on a nil Ledger, it is an Error status whose Err
// wraps api.ErrInvalidInput.
func (l *Ledger) Status() Status {
	if l == nil {
		return Status{Code: Error, Err: fmt.Errorf("%w: ledger: nil", errInvalidInput)}
	}
	if l.node == nil {
		return Status{Code: Error, Err: fmt.Errorf("%w: ledger without a node (Reset failed or was not called)", errInvalidInput)}
	}
	l.view = l.view[:0]
	for _, p := range l.node.pods {
		if l.removed[p.nodeSlot] {
			l.view = append(l.view, p)
		}
	}
	l.statusView = nodeView{info: l.node, removed: l.view, arena: &l.arena}
	var st Status
	if nom := l.cy.nominatedFor(l.node); len(nom) > 0 {
		st = l.cy.evaluate(l.cy.active, &l.statusView, nom)
	} else {
		st = runFilters(l.cy.active, &l.statusView)
	}
	clear(l.view)
	l.statusView = nodeView{}
	return st
}

// statusArena hands out the storage of rejection statuses' Insufficient
// and Reasons lists from a few large arrays, so that a caller collecting
// many statuses (preemption's failed dry runs, or every node's filter
// status) does not allocate per status. Storage handed out is never handed
// out again, and each list is capped at its length. A nil arena allocates
// each list on its own.
//
// Each new array is four times the previous one, up to limit entries
// (when limit is positive): a decision sets it from its number of nodes,
// so that reading every node's status again and again (one preemption
// after another on the same decision) allocates about what it keeps, a
// constant number of arrays per pass, instead of ever larger arrays.
type statusArena struct {
	ins   []InsufficientResource
	text  []string
	limit int
}

// chunk is the size of the array that replaces one of capacity have when
// a list of n entries does not fit.
func (a *statusArena) chunk(have, n, least int) int {
	size := max(4*have, least)
	if a.limit > 0 {
		size = min(size, a.limit)
	}
	return max(size, n)
}

// insufficient returns an empty list with room for n entries, to fill
// and then pass to take or keep.
func (a *statusArena) insufficient(n int) []InsufficientResource {
	if a == nil {
		return nil
	}
	if cap(a.ins)-len(a.ins) < n {
		a.ins = make([]InsufficientResource, 0, a.chunk(cap(a.ins), n, 16*n))
	}
	return a.ins[len(a.ins) : len(a.ins) : len(a.ins)+n]
}

// keep keeps ins (insufficient's list, filled) for good and returns it
// capped at its length.
func (a *statusArena) keep(ins []InsufficientResource) []InsufficientResource {
	n := len(ins)
	if a != nil && n > 0 && cap(a.ins) > len(a.ins) && &ins[0] == &a.ins[len(a.ins) : len(a.ins)+1][0] {
		a.ins = a.ins[:len(a.ins)+n]
	}
	return ins[:n:n]
}

// reasons returns a list of n reasons to fill, kept for good.
func (a *statusArena) reasons(n int) []string {
	if a == nil {
		return make([]string, n)
	}
	if cap(a.text)-len(a.text) < n {
		a.text = make([]string, 0, a.chunk(cap(a.text), n, 64))
	}
	out := a.text[len(a.text) : len(a.text)+n : len(a.text)+n]
	a.text = a.text[:len(a.text)+n]
	return out
}
