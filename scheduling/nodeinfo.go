package scheduling

import (
	"sort"
	"strconv"

	"github.com/podsem/podsem/api"
)

// Resource is an amount of each resource in kube-scheduler's units
// (framework.Resource): milli-cpu, bytes of memory and ephemeral storage, a
// pod count, and whole units of every scalar resource (extended resources,
// huge pages, prefixed native resources, attachable volumes). Other
// resource names are not accounted by the scheduler and are dropped.
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	// AllowedPodNumber is the "pods" amount: the node's pod capacity in
	// allocatable.
	AllowedPodNumber int64
	// Scalar holds the scalar resources; nil when there are none.
	Scalar map[api.ResourceName]int64
}

// addList adds a resource list the way framework.Resource.Add does, but
// saturating instead of wrapping around (a list names each resource once,
// so this only matters for amounts that are themselves saturated).
func (r *Resource) addList(l api.ResourceList) {
	for name, q := range l {
		switch name {
		case api.ResourceCPU:
			r.MilliCPU = satAdd(r.MilliCPU, q.MilliValue())
		case api.ResourceMemory:
			r.Memory = satAdd(r.Memory, q.Value())
		case api.ResourceEphemeralStorage:
			r.EphemeralStorage = satAdd(r.EphemeralStorage, q.Value())
		case api.ResourcePods:
			r.AllowedPodNumber = satAdd(r.AllowedPodNumber, q.Value())
		default:
			// Extended resources, huge pages, prefixed native resources
			// and attachable volume counts (IsScalarResourceName).
			if name.IsScalar() {
				r.addScalar(name, q.Value(), 1)
			}
		}
	}
}

// addScalar adds v·sign (sign ±1) to a scalar resource; the caller has
// checked that the sum fits.
func (r *Resource) addScalar(name api.ResourceName, v, sign int64) {
	if r.Scalar == nil {
		if v == 0 {
			return
		}
		r.Scalar = map[api.ResourceName]int64{}
	}
	n := r.Scalar[name]
	if sign < 0 {
		n -= v
	} else {
		n += v
	}
	if n == 0 {
		delete(r.Scalar, name)
		return
	}
	r.Scalar[name] = n
}

// addFits reports whether adding o to r (sign +1) or subtracting it (sign
// -1) keeps every amount within int64.
func (r *Resource) addFits(o *Resource, sign int64) bool {
	if addOverflows(r.MilliCPU, o.MilliCPU, sign) || addOverflows(r.Memory, o.Memory, sign) ||
		addOverflows(r.EphemeralStorage, o.EphemeralStorage, sign) ||
		addOverflows(r.AllowedPodNumber, o.AllowedPodNumber, sign) {
		return false
	}
	for k, v := range o.Scalar {
		if addOverflows(r.Scalar[k], v, sign) {
			return false
		}
	}
	return true
}

// add adds o to r (sign +1) or subtracts it (sign -1); the caller has
// checked addFits.
func (r *Resource) add(o *Resource, sign int64) {
	r.MilliCPU = addSigned(r.MilliCPU, o.MilliCPU, sign)
	r.Memory = addSigned(r.Memory, o.Memory, sign)
	r.EphemeralStorage = addSigned(r.EphemeralStorage, o.EphemeralStorage, sign)
	r.AllowedPodNumber = addSigned(r.AllowedPodNumber, o.AllowedPodNumber, sign)
	for k, v := range o.Scalar {
		r.addScalar(k, v, sign)
	}
}

// newResource converts a resource list (framework.NewResource).
func newResource(l api.ResourceList) Resource {
	var r Resource
	r.addList(l)
	return r
}

// equal reports whether r and o hold the same amounts (an absent scalar
// equals zero).
func (r Resource) equal(o Resource) bool {
	if r.MilliCPU != o.MilliCPU || r.Memory != o.Memory || r.EphemeralStorage != o.EphemeralStorage ||
		r.AllowedPodNumber != o.AllowedPodNumber {
		return false
	}
	for k, v := range r.Scalar {
		if o.Scalar[k] != v {
			return false
		}
	}
	for k, v := range o.Scalar {
		if r.Scalar[k] != v {
			return false
		}
	}
	return true
}

// schedulerPodRequests is what the scheduler's cache accounts for a pod
// already on a node (framework PodInfo.CalculateResource): component-helpers'
// PodRequests with in-place resize state and pod-level resources
// (FitRequestOptions), together with the "non-zero" cpu and memory the
// resource scorers use, where a container that requests no cpu or memory
// counts 100m and 200Mi (only for what pod-level requests leave unset).
func schedulerPodRequests(pod *api.Pod) (r Resource, non0CPU, non0Mem int64) {
	opts := FitRequestOptions()
	reqs := boundPodRequests(pod)
	r = newResource(reqs)
	_, hasCPU := reqs[api.ResourceCPU]
	_, hasMem := reqs[api.ResourceMemory]
	podLevel := api.IsPodLevelRequestsSet(pod)
	defaultCPU, defaultMem := !podLevel || !hasCPU, !podLevel || !hasMem
	non0 := reqs
	if (defaultCPU || defaultMem) && !requestsNamed(pod, opts, defaultCPU, defaultMem) {
		nonMissing := api.ResourceList{}
		if defaultCPU {
			nonMissing[api.ResourceCPU] = api.NewMilliQuantity(DefaultMilliCPURequest, api.DecimalSI)
		}
		if defaultMem {
			nonMissing[api.ResourceMemory] = api.NewQuantity(DefaultMemoryRequest, api.DecimalSI)
		}
		opts.NonMissingContainerRequests = nonMissing
		non0 = api.PodRequests(pod, opts)
	}
	return r, non0.Cpu().MilliValue(), non0.Memory().Value()
}

// boundPodRequests is the requests the scheduler's cache accounts for a
// pod bound to a node (schedulerPodRequests), as a resource list.
func boundPodRequests(pod *api.Pod) api.ResourceList {
	return api.PodRequests(pod, FitRequestOptions())
}

// requestsNamed reports whether every container of pod (regular and init)
// requests cpu (when cpu is set) and memory (when mem is set) in its spec,
// and the spec counts (no infeasible resize under opts): then no container
// is missing one, the non-zero defaults change nothing and the non-zero
// requests are the requests. Most pods state their cpu and memory
// requests, and this saves them a second pass of the formula.
func requestsNamed(pod *api.Pod, opts api.PodResourcesOptions, cpu, mem bool) bool {
	if opts.UseStatusResources && api.IsPodResizeInfeasible(pod) {
		return false
	}
	for _, list := range [2][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range list {
			r := list[i].Resources.Requests
			if _, ok := r[api.ResourceCPU]; cpu && !ok {
				return false
			}
			if _, ok := r[api.ResourceMemory]; mem && !ok {
				return false
			}
		}
	}
	return true
}

// incomingPodRequests is what NodeResourcesFit's PreFilter computes for the
// pod being scheduled: the plain spec computation with pod-level resources
// and overhead (computePodResourceRequest).
func incomingPodRequests(pod *api.Pod) Resource {
	return newResource(api.PodRequests(pod, api.PodResourcesOptions{}))
}

// hostPort is one host port a pod's container binds: the host IP
// ("0.0.0.0" when unset), the protocol ("TCP" when unset) and the port.
type hostPort struct {
	ip       string
	protocol string
	port     int32
}

// protoPort is a host port without its IP.
type protoPort struct {
	protocol string
	port     int32
}

// podHostPorts lists the host ports of the pod's containers and sidecars
// (init containers with restartPolicy Always, which run for the pod's whole
// life), defaulted as the scheduler's HostPortInfo does; only ports with
// hostPort > 0 count (pkg/scheduler/util GetHostPorts).
func podHostPorts(pod *api.Pod) []hostPort {
	var out []hostPort
	eachHostPort(pod, func(hp hostPort) bool {
		out = append(out, hp)
		return true
	})
	return out
}

// eachHostPort calls f with each of podHostPorts's ports, in its order,
// without building the list, until f returns false; it reports whether f
// saw them all.
func eachHostPort(pod *api.Pod, f func(hostPort) bool) bool {
	each := func(c *api.Container) bool {
		for _, p := range c.Ports {
			if p.HostPort <= 0 {
				continue
			}
			hp := hostPort{ip: p.HostIP, protocol: string(p.Protocol), port: p.HostPort}
			if hp.ip == "" {
				hp.ip = "0.0.0.0"
			}
			if hp.protocol == "" {
				hp.protocol = "TCP"
			}
			if !f(hp) {
				return false
			}
		}
		return true
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].IsSidecar() && !each(&pod.Spec.InitContainers[i]) {
			return false
		}
	}
	for i := range pod.Spec.Containers {
		if !each(&pod.Spec.Containers[i]) {
			return false
		}
	}
	return true
}

// portUsage counts the host ports in use on a node (framework
// HostPortInfo, with counts so that pods can be removed).
type portUsage struct {
	exact map[hostPort]int  // by IP, protocol and port
	any   map[protoPort]int // by protocol and port, over all IPs
}

func (u *portUsage) add(ports []hostPort, sign int) {
	for _, p := range ports {
		if u.exact == nil {
			u.exact = map[hostPort]int{}
			u.any = map[protoPort]int{}
		}
		pp := protoPort{p.protocol, p.port}
		if n := u.exact[p] + sign; n == 0 {
			delete(u.exact, p)
		} else {
			u.exact[p] = n
		}
		if n := u.any[pp] + sign; n == 0 {
			delete(u.any, pp)
		} else {
			u.any[pp] = n
		}
	}
}

// conflictCount counts the uses that conflict with p (HostPortInfo.
// CheckConflict): for 0.0.0.0 any IP on the same protocol and port; for a
// specific IP that IP or 0.0.0.0.
func (u *portUsage) conflictCount(p hostPort) int {
	if len(u.exact) == 0 {
		return 0
	}
	if p.ip == "0.0.0.0" {
		return u.any[protoPort{p.protocol, p.port}]
	}
	n := u.exact[p]
	wild := p
	wild.ip = "0.0.0.0"
	return n + u.exact[wild]
}

// conflictsWith reports whether two host ports conflict.
func (p hostPort) conflictsWith(q hostPort) bool {
	if p.protocol != q.protocol || p.port != q.port {
		return false
	}
	return p.ip == q.ip || p.ip == "0.0.0.0" || q.ip == "0.0.0.0"
}

// PodInfo is a pod as the snapshot indexes it (framework.PodInfo): the API
// object, with what the filters need precomputed — the resources the
// scheduler accounts for it, its host ports, its compiled inter-pod
// affinity terms — and its placement, which the Cluster maintains. Callers
// get PodInfos from the snapshot (NodeInfo.Pods, Cluster.NominatedPods,
// WhatIf.Pod, Cycle.Pod) to hand back to a WhatIf; read the pod itself
// through Pod, as a NodeInfo's node through Node.
type PodInfo struct {
	// pod is the API object; it must not be modified while in the
	// snapshot.
	pod *api.Pod

	key string
	// prio, labelled, started and startNanos cache spec.priority, whether
	// the pod has labels, and status.startTime (started is false when it
	// is unset or zero), so that a pass over many pods (preemption's dry
	// run) need not read the API objects.
	prio       int32
	labelled   bool
	started    bool
	nominee    bool // pending pod nominated to a node
	startNanos int64
	// node, nodeSlot and labelPairs come next to those, and requests
	// after them, so that such a pass reads few cache lines per pod.
	node     *NodeInfo // the node the pod is bound to, nil if none in the snapshot
	nodeSlot int       // position in node.pods
	// labelPairs are the pod's labels, sorted, never modified once the
	// pod is attached (pods of a namespace with the same labels may share
	// the list: see LabelSet); labelSlots[j] is the pod's position in the
	// label index list of labelPairs[j].
	labelPairs []labelPair
	requests   Resource
	// non0CPU and non0Mem are the requests the resource scorers count
	// (NonZeroRequested), for pods on nodes.
	non0CPU, non0Mem int64
	ports            []hostPort
	// claimNames are the claims the pod's volumes reference
	// (podClaimNames).
	claimNames []string

	requiredAffinity      []affinityTerm
	requiredAntiAffinity  []affinityTerm
	preferredAffinity     []weightedAffinityTerm
	preferredAntiAffinity []weightedAffinityTerm
	// termErr is the first error compiling the pod's affinity terms.
	termErr error

	nsSlot     int   // position in the namespace index
	antiSlot   int   // position in Cluster.antiAffinityPods, -1 when absent
	affSlot    int   // position in Cluster.affinityPods, -1 when absent
	labelSlots []int // see labelPairs
	// spreadID is the pod's id in PodTopologySpread's pod index, 0 when
	// not indexed (spread_postings.go).
	spreadID int32
}

// labelPair is one label: key and value.
type labelPair struct {
	key, value string
}

// labelPos returns the position of lp in p.labelPairs.
func (p *PodInfo) labelPos(lp labelPair) int {
	i := sort.Search(len(p.labelPairs), func(i int) bool { return p.labelPairs[i].key >= lp.key })
	return i
}

// priority is the pod's spec.priority (PodPriority).
func (p *PodInfo) priority() int32 { return p.prio }

// hasAffinityTerms reports whether the pod has any inter-pod (anti-)affinity
// term (framework NodeInfo.PodsWithAffinity membership).
func (p *PodInfo) hasAffinityTerms() bool {
	return len(p.requiredAffinity)+len(p.requiredAntiAffinity)+len(p.preferredAffinity)+len(p.preferredAntiAffinity) > 0
}

// newPodInfo indexes a pod already placed (or nominated), key its
// namespace/name; incoming pods use newIncomingPodInfo.
func newPodInfo(key string, pod *api.Pod) *PodInfo {
	pi := &PodInfo{pod: pod, key: key, antiSlot: -1, affSlot: -1}
	pi.cacheFields()
	if len(pod.Labels) > 0 {
		pi.labelPairs = make([]labelPair, 0, len(pod.Labels))
		for k, v := range pod.Labels {
			pi.labelPairs = append(pi.labelPairs, labelPair{k, v})
		}
		sort.Slice(pi.labelPairs, func(i, j int) bool { return pi.labelPairs[i].key < pi.labelPairs[j].key })
		pi.labelSlots = make([]int, len(pi.labelPairs))
	}
	pi.requests, pi.non0CPU, pi.non0Mem = schedulerPodRequests(pod)
	pi.ports = podHostPorts(pod)
	pi.claimNames = podClaimNames(pod)
	pi.compileAffinity()
	return pi
}

// newIncomingPodInfo indexes the pod being scheduled.
func newIncomingPodInfo(pod *api.Pod) *PodInfo {
	pi := &PodInfo{pod: pod, key: pod.Namespace + "/" + pod.Name, antiSlot: -1, affSlot: -1}
	pi.cacheFields()
	pi.requests = incomingPodRequests(pod)
	pi.ports = podHostPorts(pod)
	pi.claimNames = podClaimNames(pod)
	pi.compileAffinity()
	return pi
}

// NodeInfo is one node of the snapshot with what the filters need about it
// (framework.NodeInfo): the node object, its allocatable resources, the sum
// of its pods' requests, its pods, its used host ports. Read it through its
// methods; it changes only through the Cluster's update methods.
type NodeInfo struct {
	// The fields every filter pass reads come first, to share cache lines.

	// name, unschedulable and hardTaints cache what the cheapest filters
	// read, so that they need not touch the node object.
	name          string
	index         int
	unschedulable bool
	hardTaints    bool // some NoSchedule or NoExecute taint
	softTaints    bool // some PreferNoSchedule taint
	pods          []*PodInfo
	allocatable   Resource
	requested     Resource

	node *api.Node
	// non0CPU and non0Mem sum the pods' non-zero cpu and memory
	// (NonZeroRequested).
	non0CPU, non0Mem int64
	ports            portUsage
	// over holds the exact totals of the pods' requests while one of
	// them is beyond the int64 range (requested, non0CPU and non0Mem
	// then hold them saturated); nil otherwise (see account).
	over *wideResource

	// withAffinity counts pods with any inter-pod affinity term;
	// withRequiredAntiAffinity those with a required anti-affinity term.
	withAffinity             int
	withRequiredAntiAffinity int

	// zone is the node's group in the scheduler's node tree (nodetree.go).
	zone *zoneGroup
	// images are the ids of the image names the node lists, sorted
	// (imagelocality.go).
	images []int32
}

// setNode records the node object and what is cached from it.
func (n *NodeInfo) setNode(node *api.Node) {
	n.node = node
	n.name = node.Name
	n.unschedulable = node.Spec.Unschedulable
	n.hardTaints, n.softTaints = false, false
	for _, t := range node.Spec.Taints {
		switch t.Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectNoExecute:
			n.hardTaints = true
		case api.TaintEffectPreferNoSchedule:
			n.softTaints = true
		}
	}
	n.allocatable = newResource(node.Status.Allocatable)
}

// The accessors below treat a nil NodeInfo (NodeByName of an unknown
// name) as an empty node: no object, no name, index -1, no pods, zero
// amounts.

// Node returns the API object (nil for a nil NodeInfo).
func (n *NodeInfo) Node() *api.Node {
	if n == nil {
		return nil
	}
	return n.node
}

// Name returns the node's name ("" for a nil NodeInfo).
func (n *NodeInfo) Name() string {
	if n == nil {
		return ""
	}
	return n.name
}

// Index returns the node's position in the snapshot (0..NumNodes-1), the
// index a Decision reports it under; -1 for a nil NodeInfo.
func (n *NodeInfo) Index() int {
	if n == nil {
		return -1
	}
	return n.index
}

// Pods returns the pods bound to the node, terminating ones included, in
// no particular order. The slice must not be modified. A nil NodeInfo has
// none.
func (n *NodeInfo) Pods() []*PodInfo {
	if n == nil {
		return nil
	}
	return n.pods
}

// Allocatable returns the node's status.allocatable in scheduler units (do
// not modify the Scalar map); zero for a nil NodeInfo.
func (n *NodeInfo) Allocatable() Resource {
	if n == nil {
		return Resource{}
	}
	return n.allocatable
}

// Requested returns the sum of the requests of the node's pods, as the
// scheduler accounts them (do not modify the Scalar map); zero for a nil
// NodeInfo.
func (n *NodeInfo) Requested() Resource {
	if n == nil {
		return Resource{}
	}
	return n.requested
}

// account adds the requests of p, just added to or removed from n.pods,
// to the node's totals (sign +1) or takes them away (sign -1). While the
// totals fit an int64 this is plain addition; once one would leave the
// int64 range the totals are summed again exactly from the pods (wide),
// and requested, non0CPU and non0Mem hold them saturated, so that taking
// a pod away later gives the exact total again.
func (n *NodeInfo) account(p *PodInfo, sign int64) {
	if n.over == nil && n.requested.addFits(&p.requests, sign) &&
		!addOverflows(n.non0CPU, p.non0CPU, sign) && !addOverflows(n.non0Mem, p.non0Mem, sign) {
		n.requested.add(&p.requests, sign)
		n.non0CPU = addSigned(n.non0CPU, p.non0CPU, sign)
		n.non0Mem = addSigned(n.non0Mem, p.non0Mem, sign)
		return
	}
	n.recount()
}

// recount sums the node's pods' requests exactly; it keeps the wide sums
// in n.over while some total is beyond int64 and drops them otherwise.
func (n *NodeInfo) recount() {
	var w wideResource
	for _, p := range n.pods {
		r := &p.requests
		w.cpu.add(r.MilliCPU, 1)
		w.mem.add(r.Memory, 1)
		w.eph.add(r.EphemeralStorage, 1)
		w.pods.add(r.AllowedPodNumber, 1)
		w.non0CPU.add(p.non0CPU, 1)
		w.non0Mem.add(p.non0Mem, 1)
		for k, v := range r.Scalar {
			if w.scalar == nil {
				w.scalar = map[api.ResourceName]wide{}
			}
			s := w.scalar[k]
			s.add(v, 1)
			w.scalar[k] = s
		}
	}
	n.requested = Resource{MilliCPU: w.cpu.sat(), Memory: w.mem.sat(), EphemeralStorage: w.eph.sat(),
		AllowedPodNumber: w.pods.sat()}
	n.non0CPU, n.non0Mem = w.non0CPU.sat(), w.non0Mem.sat()
	exact := w.cpu.carry == 0 && w.mem.carry == 0 && w.eph.carry == 0 && w.pods.carry == 0 &&
		w.non0CPU.carry == 0 && w.non0Mem.carry == 0
	for k, s := range w.scalar {
		if s.lo != 0 || s.carry != 0 {
			if n.requested.Scalar == nil {
				n.requested.Scalar = map[api.ResourceName]int64{}
			}
			n.requested.Scalar[k] = s.sat()
		}
		exact = exact && s.carry == 0
	}
	n.over = nil
	if !exact {
		n.over = &w
	}
}

// exactRequested returns the node's requested cpu, memory and ephemeral
// storage, exactly.
func (n *NodeInfo) exactRequested() (cpu, mem, eph wide) {
	if n.over != nil {
		return n.over.cpu, n.over.mem, n.over.eph
	}
	r := &n.requested
	return wide{lo: r.MilliCPU}, wide{lo: r.Memory}, wide{lo: r.EphemeralStorage}
}

// exactScalar returns the node's requested amount of a scalar resource,
// exactly.
func (n *NodeInfo) exactScalar(name api.ResourceName) wide {
	if n.over != nil {
		return n.over.scalar[name]
	}
	return wide{lo: n.requested.Scalar[name]}
}

func (n *NodeInfo) addPod(p *PodInfo) {
	p.node = n
	p.nodeSlot = len(n.pods)
	n.pods = append(n.pods, p)
	n.account(p, 1)
	n.ports.add(p.ports, 1)
	if p.hasAffinityTerms() {
		n.withAffinity++
	}
	if len(p.requiredAntiAffinity) > 0 {
		n.withRequiredAntiAffinity++
	}
}

func (n *NodeInfo) removePod(p *PodInfo) {
	last := len(n.pods) - 1
	moved := n.pods[last]
	n.pods[p.nodeSlot] = moved
	moved.nodeSlot = p.nodeSlot
	n.pods[last] = nil
	n.pods = n.pods[:last]
	n.account(p, -1)
	n.ports.add(p.ports, -1)
	if p.hasAffinityTerms() {
		n.withAffinity--
	}
	if len(p.requiredAntiAffinity) > 0 {
		n.withRequiredAntiAffinity--
	}
	p.node = nil
}

// nodeView is a node as a filter sees it: the snapshot's node with some of
// its pods taken away (preemption victims) and some pods added (pods
// nominated to it), without copying anything. With nothing removed or
// added it is the node as it stands.
type nodeView struct {
	info *NodeInfo
	// removed are pods of info treated as gone; added are pods treated as
	// bound to info.
	removed []*PodInfo
	added   []*PodInfo
	// unindexed counts pods bound to info that info does not hold
	// (AdmissionCheck's node, which sums its pods' requests into
	// info.requested without indexing them).
	unindexed int
	// arena, when set, supplies the storage of rejection statuses'
	// reason lists (see statusArena).
	arena *statusArena
}

// numPods is the pod count under the what-if.
func (v *nodeView) numPods() int {
	return len(v.info.pods) + v.unindexed - len(v.removed) + len(v.added)
}

// requested returns the requested amounts under the what-if for the
// fixed-name resources, exact sums saturated to the int64 range.
func (v *nodeView) requested() (cpu, mem, eph int64) {
	if len(v.removed) == 0 && len(v.added) == 0 {
		// The node as it stands: its totals, saturated (what the exact
		// sums give saturated, without reading them).
		r := &v.info.requested
		return r.MilliCPU, r.Memory, r.EphemeralStorage
	}
	c, m, e := v.info.exactRequested()
	for _, p := range v.removed {
		c.add(p.requests.MilliCPU, -1)
		m.add(p.requests.Memory, -1)
		e.add(p.requests.EphemeralStorage, -1)
	}
	for _, p := range v.added {
		c.add(p.requests.MilliCPU, 1)
		m.add(p.requests.Memory, 1)
		e.add(p.requests.EphemeralStorage, 1)
	}
	return c.sat(), m.sat(), e.sat()
}

// requestedScalar returns the requested amount of a scalar resource under
// the what-if, an exact sum saturated to the int64 range.
func (v *nodeView) requestedScalar(name api.ResourceName) int64 {
	if len(v.removed) == 0 && len(v.added) == 0 {
		return v.info.requested.Scalar[name]
	}
	n := v.info.exactScalar(name)
	for _, p := range v.removed {
		n.add(p.requests.Scalar[name], -1)
	}
	for _, p := range v.added {
		n.add(p.requests.Scalar[name], 1)
	}
	return n.sat()
}

// portConflict reports whether p conflicts with a host port in use under
// the what-if.
func (v *nodeView) portConflict(p hostPort) bool {
	n := v.info.ports.conflictCount(p)
	for _, q := range v.removed {
		for _, qp := range q.ports {
			if p.conflictsWith(qp) {
				n--
			}
		}
	}
	if n > 0 {
		return true
	}
	for _, q := range v.added {
		for _, qp := range q.ports {
			if p.conflictsWith(qp) {
				return true
			}
		}
	}
	return false
}

// labelColumn is one node label key across the snapshot: the interned
// value of every node (by node index), so that filters read a node's label
// as an array element instead of a map lookup on a cold node object.
type labelColumn struct {
	key string
	// ids[i] is the value id of node i's label, -1 when node i lacks it.
	ids []int32
	// values, byValue intern the values; nums/numOK hold each value parsed
	// as a base-10 int64 for Gt/Lt.
	values  []string
	byValue map[string]int32
	nums    []int64
	numOK   []bool
	// present counts the nodes that carry the key.
	present int
}

// id returns the value id of node index i, -1 when absent or when col is
// nil.
func (col *labelColumn) id(i int) int32 {
	if col == nil {
		return -1
	}
	return col.ids[i]
}

func (col *labelColumn) intern(v string) int32 {
	if id, ok := col.byValue[v]; ok {
		return id
	}
	id := int32(len(col.values))
	col.values = append(col.values, v)
	col.byValue[v] = id
	n, err := strconv.ParseInt(v, 10, 64)
	col.nums = append(col.nums, n)
	col.numOK = append(col.numOK, err == nil)
	return id
}

// labelIndex holds a labelColumn for every label key some node carries.
type labelIndex struct {
	cols   map[string]*labelColumn
	nNodes int
}

func newLabelIndex() labelIndex { return labelIndex{cols: map[string]*labelColumn{}} }

// column returns the column of key, nil when no node carries it.
func (x *labelIndex) column(key string) *labelColumn { return x.cols[key] }

// nodeAdded extends every column by the node appended at index nNodes.
func (x *labelIndex) nodeAdded(n *api.Node) {
	for _, col := range x.cols {
		col.ids = append(col.ids, -1)
	}
	x.nNodes++
	x.setLabels(x.nNodes-1, n.Labels)
}

func (x *labelIndex) setLabels(i int, labels map[string]string) {
	for k, v := range labels {
		col := x.cols[k]
		if col == nil {
			col = &labelColumn{key: k, ids: make([]int32, x.nNodes), byValue: map[string]int32{}}
			for j := range col.ids {
				col.ids[j] = -1
			}
			x.cols[k] = col
		}
		col.ids[i] = col.intern(v)
		col.present++
	}
}

// clearNode marks node i as carrying no label, dropping columns no node
// carries any more.
func (x *labelIndex) clearNode(i int) {
	for k, col := range x.cols {
		if col.ids[i] >= 0 {
			col.ids[i] = -1
			col.present--
			if col.present == 0 {
				delete(x.cols, k)
			}
		}
	}
}

// nodeUpdated replaces node i's labels.
func (x *labelIndex) nodeUpdated(i int, n *api.Node) {
	x.clearNode(i)
	x.setLabels(i, n.Labels)
}

// nodeRemoved drops node i; later nodes shift down.
func (x *labelIndex) nodeRemoved(i int) {
	x.clearNode(i)
	for _, col := range x.cols {
		col.ids = append(col.ids[:i], col.ids[i+1:]...)
	}
	x.nNodes--
}
