package scheduling

// fitColumns hold, by node index, what the resource plugins read of each
// node: for NodeResourcesFit's filter, what is left (pod slots: allocatable
// pods less the pods there; allocatable cpu, memory and ephemeral storage
// less the requests of the node's pods); for the resource scores, the
// allocatable cpu and memory, the pods' requests and their non-zero
// requests. A decision reads these arrays instead of each node's NodeInfo;
// the Cluster keeps them current on every bind, unbind and node change
// (O(1) each, a node removal shifting them).
type fitColumns struct {
	pods                   []int64
	cpu, mem, eph          []int64
	cpuAlloc, memAlloc     []int64
	cpuReq, memReq         []int64
	cpuNonZero, memNonZero []int64
}

// all lists the columns, for growing and shifting them together.
func (f *fitColumns) all() [10]*[]int64 {
	return [10]*[]int64{&f.pods, &f.cpu, &f.mem, &f.eph, &f.cpuAlloc, &f.memAlloc, &f.cpuReq, &f.memReq,
		&f.cpuNonZero, &f.memNonZero}
}

func (f *fitColumns) nodeAdded(ni *NodeInfo) {
	for _, col := range f.all() {
		*col = append(*col, 0)
	}
	f.set(ni)
}

// set refreshes node ni's entries.
func (f *fitColumns) set(ni *NodeInfo) {
	i := ni.index
	a, r := &ni.allocatable, &ni.requested
	cpu, mem, eph := ni.exactRequested()
	f.pods[i] = satSub(a.AllowedPodNumber, int64(len(ni.pods)))
	f.cpu[i] = roomLeft(a.MilliCPU, cpu)
	f.mem[i] = roomLeft(a.Memory, mem)
	f.eph[i] = roomLeft(a.EphemeralStorage, eph)
	f.cpuAlloc[i], f.memAlloc[i] = a.MilliCPU, a.Memory
	f.cpuReq[i], f.memReq[i] = r.MilliCPU, r.Memory
	f.cpuNonZero[i], f.memNonZero[i] = ni.non0CPU, ni.non0Mem
}

func (f *fitColumns) nodeRemoved(i int) {
	for _, col := range f.all() {
		if len(*col) > i {
			*col = append((*col)[:i], (*col)[i+1:]...)
		}
	}
}

// fitsAt is fits for node index i as it stands (no what-if), read from
// the snapshot's columns.
func (pl *fitPlugin) fitsAt(c *Cluster, i int) bool {
	room := &c.room
	if room.pods[i] < 1 {
		return false
	}
	r := &pl.req
	if (r.MilliCPU > 0 && r.MilliCPU > room.cpu[i]) || (r.Memory > 0 && r.Memory > room.mem[i]) ||
		(r.EphemeralStorage > 0 && r.EphemeralStorage > room.eph[i]) {
		return false
	}
	if len(pl.scalars) > 0 {
		return pl.fits(&nodeView{info: c.nodes[i]})
	}
	return true
}

// scoreAt is score (LeastAllocated) read from the snapshot's columns.
func (pl *fitPlugin) scoreAt(c *Cluster, i int) int64 {
	room := &c.room
	var total, weights int64
	if a := room.cpuAlloc[i]; a != 0 {
		req := satAdd(room.cpuNonZero[i], pl.scoreCPU)
		s, ok := leastRequestedFast(req, a)
		if !ok {
			s = leastRequestedScoreWide(req, a)
		}
		total = satAdd(total, s)
		weights++
	}
	if a := room.memAlloc[i]; a != 0 {
		req := satAdd(room.memNonZero[i], pl.scoreMem)
		s, ok := leastRequestedFast(req, a)
		if !ok {
			s = leastRequestedScoreWide(req, a)
		}
		total = satAdd(total, s)
		weights++
	}
	switch weights {
	case 0:
		return 0
	case 1:
		return total
	}
	return total / 2
}

// scoreAt is score read from the snapshot's columns.
func (pl *balancedPlugin) scoreAt(c *Cluster, i int) int64 {
	room := &c.room
	cpu, mem := room.cpuReq[i], room.memReq[i]
	with := balanceScore(satAdd(cpu, pl.cpu), room.cpuAlloc[i], satAdd(mem, pl.mem), room.memAlloc[i])
	without := balanceScore(cpu, room.cpuAlloc[i], mem, room.memAlloc[i])
	return balancedScore(with, without)
}
