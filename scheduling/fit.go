package scheduling

import (
	"sort"
	"strings"

	"github.com/podsem/podsem/api"
)

// fitPlugin is NodeResourcesFit's filter: the node must have room for one
// more pod (allocatable "pods") and, for every resource the pod requests
// (cpu, memory, ephemeral-storage, scalar resources), allocatable minus
// what the node's pods already request must cover the request. A node
// whose whole allocatable amount is below a request is
// UnschedulableAndUnresolvable (preemption cannot help); otherwise the
// rejection is Unschedulable.
type fitPlugin struct {
	basePlugin
	pod *api.Pod
	req Resource
	// scoreCPU and scoreMem are the pod's non-zero requests for scoring.
	scoreCPU, scoreMem int64
	// scalars lists the requested scalar resources that are checked, in
	// name order.
	scalars []api.ResourceName
}

func newFitPlugin(cfg *Config, p *PodInfo) fitPlugin {
	pl := fitPlugin{pod: p.pod, req: p.requests}
	for name, v := range p.requests.Scalar {
		if v == 0 || cfg.ignoredResource(name) {
			continue
		}
		pl.scalars = append(pl.scalars, name)
	}
	sort.Slice(pl.scalars, func(i, j int) bool { return pl.scalars[i] < pl.scalars[j] })
	return pl
}

// ignoredResource reports whether NodeResourcesFitArgs tell the filter to
// skip an extended resource.
func (cfg *Config) ignoredResource(name api.ResourceName) bool {
	if !name.IsExtended() {
		return false
	}
	for _, r := range cfg.IgnoredResources {
		if string(name) == r {
			return true
		}
	}
	if len(cfg.IgnoredResourceGroups) > 0 {
		group, _, _ := strings.Cut(string(name), "/")
		for _, g := range cfg.IgnoredResourceGroups {
			if group == g {
				return true
			}
		}
	}
	return false
}

func (pl *fitPlugin) name() string       { return PluginNodeResourcesFit }
func (pl *fitPlugin) clone() cyclePlugin { return pl }

// fits is the filter without the report: a pod slot and room for every
// requested resource.
func (pl *fitPlugin) fits(v *nodeView) bool {
	n := v.info
	alloc := &n.allocatable
	if !roomForPod(alloc, int64(v.numPods())) {
		return false
	}
	if pl.requestsNothing() {
		return true
	}
	cpu, mem, eph := v.requested()
	if !pl.roomFor(alloc, cpu, mem, eph) {
		return false
	}
	for _, name := range pl.scalars {
		if !pl.roomForScalar(alloc, name, v.requestedScalar(name)) {
			return false
		}
	}
	return true
}

// roomForPod reports whether a node with pods pods has a slot for one more.
func roomForPod(alloc *Resource, pods int64) bool { return pods < alloc.AllowedPodNumber }

// requestsNothing reports whether the pod requests no resource the filter
// checks (only its pod slot counts then).
func (pl *fitPlugin) requestsNothing() bool {
	r := &pl.req
	return r.MilliCPU == 0 && r.Memory == 0 && r.EphemeralStorage == 0 && len(pl.scalars) == 0
}

// roomFor reports whether the pod's cpu, memory and ephemeral-storage
// requests fit beside the amounts already requested on the node: each
// positive request at most what is left of the allocatable amount.
func (pl *fitPlugin) roomFor(alloc *Resource, cpu, mem, eph int64) bool {
	r := &pl.req
	return !((r.MilliCPU > 0 && r.MilliCPU > satSub(alloc.MilliCPU, cpu)) ||
		(r.Memory > 0 && r.Memory > satSub(alloc.Memory, mem)) ||
		(r.EphemeralStorage > 0 && r.EphemeralStorage > satSub(alloc.EphemeralStorage, eph)))
}

// roomForScalar is roomFor for one of the checked scalar resources.
func (pl *fitPlugin) roomForScalar(alloc *Resource, name api.ResourceName, used int64) bool {
	q := pl.req.Scalar[name]
	return q <= 0 || q <= satSub(alloc.Scalar[name], used)
}

func (pl *fitPlugin) filter(v *nodeView) Status {
	n := v.info
	alloc := &n.allocatable
	ins := v.arena.insufficient(4 + len(pl.scalars))
	// shared is the set of fitReasonTexts the entries give (bit k for
	// text k), 0 when a scalar resource is short too.
	shared := 0
	if pods := int64(v.numPods()); pods >= alloc.AllowedPodNumber {
		ins = append(ins, InsufficientResource{Resource: string(api.ResourcePods), Reason: fitReasonTexts[0],
			Requested: 1, Used: pods, Capacity: alloc.AllowedPodNumber})
		shared = 1
	}
	r := &pl.req
	if r.MilliCPU != 0 || r.Memory != 0 || r.EphemeralStorage != 0 || len(pl.scalars) != 0 {
		cpu, mem, eph := v.requested()
		k := len(ins)
		if ins = checkFit(ins, "cpu", fitReasonTexts[1], r.MilliCPU, cpu, alloc.MilliCPU); len(ins) > k {
			shared |= 1 << 1
		}
		k = len(ins)
		if ins = checkFit(ins, "memory", fitReasonTexts[2], r.Memory, mem, alloc.Memory); len(ins) > k {
			shared |= 1 << 2
		}
		k = len(ins)
		if ins = checkFit(ins, "ephemeral-storage", fitReasonTexts[3], r.EphemeralStorage, eph, alloc.EphemeralStorage); len(ins) > k {
			shared |= 1 << 3
		}
		k = len(ins)
		for _, name := range pl.scalars {
			ins = checkFit(ins, string(name), "", r.Scalar[name], v.requestedScalar(name), alloc.Scalar[name])
		}
		if len(ins) > k {
			shared = 0
		}
	}
	if len(ins) == 0 {
		return Status{}
	}
	st := Status{Code: Unschedulable, Insufficient: v.arena.keep(ins)}
	for i := range ins {
		if ins[i].Unresolvable {
			st.Code = UnschedulableAndUnresolvable
		}
	}
	if shared != 0 {
		st.Reasons = fitReasonLists[shared]
		return st
	}
	st.Reasons = v.arena.reasons(len(ins))
	for i := range ins {
		st.Reasons[i] = ins[i].Reason
	}
	return st
}

// fitReasonTexts are the reasons of the resources NodeResourcesFit checks
// for every pod, in the order filter checks them.
var fitReasonTexts = [4]string{ReasonTooManyPods, "Insufficient cpu", "Insufficient memory", "Insufficient ephemeral-storage"}

// fitReasonLists holds, for every non-empty subset of fitReasonTexts (a
// bit mask), the reason list of a rejection for exactly those resources,
// shared by all such rejections (each list capped at its length, never
// modified), so that a rejection without scalar resources stores no
// reason list of its own.
var fitReasonLists = func() (lists [16][]string) {
	for mask := 1; mask < len(lists); mask++ {
		for k, text := range fitReasonTexts {
			if mask&(1<<k) != 0 {
				lists[mask] = append(lists[mask], text)
			}
		}
		lists[mask] = lists[mask][:len(lists[mask]):len(lists[mask])]
	}
	return lists
}()

// checkFit appends an InsufficientResource when a positive request exceeds
// what is left of the allocatable amount.
func checkFit(ins []InsufficientResource, name, reason string, req, used, alloc int64) []InsufficientResource {
	if req <= 0 || req <= satSub(alloc, used) {
		return ins
	}
	if reason == "" {
		reason = ReasonInsufficientResourcePrefix + name
	}
	return append(ins, InsufficientResource{Resource: name, Reason: reason, Requested: req, Used: used,
		Capacity: alloc, Unresolvable: req > alloc})
}
