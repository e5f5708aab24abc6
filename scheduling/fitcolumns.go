package scheduling

// fitColumns hold, by node index, what is left on each node for
// NodeResourcesFit's filter: pod slots (allocatable pods less the pods
// there) and allocatable cpu, memory and ephemeral storage less the
// requests of the node's pods. A decision's walk reads these arrays instead
// of each node's NodeInfo; the Cluster keeps them current on every bind,
// unbind and node change (O(1) each, a node removal shifting them).
type fitColumns struct {
	pods          []int64
	cpu, mem, eph []int64
}

func (f *fitColumns) nodeAdded(ni *NodeInfo) {
	f.pods = append(f.pods, 0)
	f.cpu = append(f.cpu, 0)
	f.mem = append(f.mem, 0)
	f.eph = append(f.eph, 0)
	f.set(ni)
}

// set refreshes node ni's entries.
func (f *fitColumns) set(ni *NodeInfo) {
	i := ni.index
	a, r := &ni.allocatable, &ni.requested
	f.pods[i] = a.AllowedPodNumber - int64(len(ni.pods))
	f.cpu[i] = a.MilliCPU - r.MilliCPU
	f.mem[i] = a.Memory - r.Memory
	f.eph[i] = a.EphemeralStorage - r.EphemeralStorage
}

func (f *fitColumns) nodeRemoved(i int) {
	f.pods = append(f.pods[:i], f.pods[i+1:]...)
	f.cpu = append(f.cpu[:i], f.cpu[i+1:]...)
	f.mem = append(f.mem[:i], f.mem[i+1:]...)
	f.eph = append(f.eph[:i], f.eph[i+1:]...)
}

// fitsAt is fits for a node as it stands (no what-if), read from the
// snapshot's columns.
func (pl *fitPlugin) fitsAt(c *Cluster, v *nodeView) bool {
	i := v.info.index
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
		return pl.fits(v)
	}
	return true
}
