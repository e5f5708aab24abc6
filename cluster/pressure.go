package cluster

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/nodepressure"
)

// The node model's figures for the signals a Node object has no capacity
// for: the inodes of each filesystem and the node's pid_max (the kernel's
// default on a 64-bit host with systemd). A pressure action's percentage
// of these signals, and the kubelet's percentage thresholds on them
// (nodefs.inodesFree<5%), are taken of these numbers.
const (
	ModelFilesystemInodes = 1_000_000
	ModelMaxPID           = 4_194_304
)

// podCleanupPoll is how often the kubelet's eviction manager checks, after
// an eviction, whether the evicted pod is cleaned up
// (podCleanupPollFreq in pkg/kubelet/eviction): it runs its next pass as
// soon as it is, nodepressure.PodCleanupTimeout at the latest.
const podCleanupPoll = time.Second

// pressureState is a kubelet's eviction manager (pkg/kubelet/eviction) and
// what the node's statistics read, as pressure actions set them.
type pressureState struct {
	mgr *nodepressure.Manager
	// values are the signals a pressure action set: the amount available
	// and the capacity it is read against.
	values map[nodepressure.Signal]signalValue
	// nextPass is the eviction manager's next housekeeping pass; after an
	// eviction, evicted is the pod waiting for its cleanup since
	// evictedAt, polled every second.
	nextPass  time.Time
	evicted   string
	evictedAt time.Time
	// conditions are the pressure conditions of the last pass.
	conditions []api.NodeConditionType
	// usage is each pod's usage of a resource (pod key to bytes, inodes or
	// processes), as the last pressure action on one of its signals gave
	// it; nil for a resource no action gave usage for.
	usage map[api.ResourceName]map[string]int64
}

type signalValue struct {
	available, capacity int64
}

// conditionList is the eviction manager's pressure conditions (none for a
// kubelet that never saw pressure).
func (p *pressureState) conditionList() []api.NodeConditionType {
	if p == nil {
		return nil
	}
	return p.conditions
}

func (p *pressureState) nextDeadline() time.Time {
	if p == nil {
		return time.Time{}
	}
	return p.nextPass
}

// pressure is the scenario's pressure action: the node's statistics read
// value for signal from now on (a quantity, "50Mi" or "1000", or a
// percentage of the signal's capacity, "5%"). The kubelet's eviction
// manager reads it at its next housekeeping pass (every
// nodepressure.MonitoringPeriod, 10 s, on the kubelet's cadence); a later
// pressure action with a value above the threshold relieves the pressure
// (the condition then clears once evictionPressureTransitionPeriod, 5 m
// by default, has passed without the threshold being met).
//
// The capacity a signal is read against is the node's status.capacity
// (memory for memory.available and allocatableMemory.available,
// ephemeral-storage for the *fs.available signals), or the node model's
// ModelFilesystemInodes and ModelMaxPID. The node's filesystems are one
// (nodepressure.LayoutShared): a value for nodefs, imagefs or containerfs
// sets all three, as the kubelet's statistics of a node with one disk
// report.
//
// usage, when not nil, is each pod's usage of the signal's resource
// (namespace/name to a quantity: memory working set, ephemeral storage
// written to its first container's writable layer, inodes there, or
// processes), replacing an earlier action's for that resource; the
// kubelet's Summary then reports every pod on the node, a pod not listed
// using nothing, and the eviction manager ranks them by usage above
// requests, priority and usage (pkg/kubelet/eviction's rankers). A listed
// pod that stops running frees what it used: the signal's available
// amount goes up by it. Without usage, pods report no statistics and are
// ranked by priority alone (a pod without statistics ranks first, and all
// do).
func (m *Machine) pressure(node, signal, value string, usage map[string]string, now time.Time) error {
	k := m.kubelets[node]
	n, _ := m.store.get("Node", node).(*api.Node)
	if k == nil || n == nil {
		return fmt.Errorf("Node/%s: %w", node, errNotFound)
	}
	s := nodepressure.Signal(signal)
	if !s.Valid() {
		return fmt.Errorf("unknown eviction signal %q", signal)
	}
	var capacity int64
	switch s.Resource() {
	case api.ResourceMemory:
		list := n.Status.Capacity
		if s == nodepressure.SignalAllocatableMemoryAvailable {
			list = n.Status.Allocatable
		}
		q, ok := list[api.ResourceMemory]
		if !ok {
			return fmt.Errorf("Node/%s reports no memory capacity for %s", node, signal)
		}
		capacity = q.Value()
	case api.ResourceEphemeralStorage:
		q, ok := n.Status.Capacity[api.ResourceEphemeralStorage]
		if !ok {
			return fmt.Errorf("Node/%s reports no ephemeral-storage capacity for %s", node, signal)
		}
		capacity = q.Value()
	case nodepressure.ResourceInodes:
		capacity = ModelFilesystemInodes
	default:
		capacity = ModelMaxPID
	}
	avail, err := parseSignalValue(value, capacity)
	if err != nil {
		return fmt.Errorf("pressure %s=%s: %w", signal, value, err)
	}
	if k.pressure == nil {
		mgr, err := nodepressure.NewManager(m.cfg.Eviction, nodepressure.LayoutShared)
		if err != nil {
			return err
		}
		// The next pass on the kubelet's cadence (its Lease's).
		k.nextLease = k.pendingTick(now, m.kubeletPhase) // it ticks from now on
		k.pressure = &pressureState{mgr: mgr, values: map[nodepressure.Signal]signalValue{}, nextPass: k.nextLease}
	}
	if err := k.pressure.setUsage(s, usage); err != nil {
		return fmt.Errorf("pressure %s=%s: %w", signal, value, err)
	}
	v := signalValue{available: avail, capacity: max(capacity, avail)}
	for _, t := range sameFilesystem(s) {
		k.pressure.values[t] = v
	}
	return nil
}

// setUsage keeps a pressure action's per-pod usage of the signal's
// resource, replacing the previous action's: quantities, keyed by
// namespace/name.
func (p *pressureState) setUsage(s nodepressure.Signal, usage map[string]string) error {
	if usage == nil {
		return nil
	}
	m := make(map[string]int64, len(usage))
	for key, v := range usage {
		q, err := api.ParseQuantity(strings.TrimSpace(v))
		if err != nil || q.Sign() < 0 {
			return fmt.Errorf("usage %s=%q: want a quantity ≥ 0", key, v)
		}
		m[key] = q.Value()
	}
	if p.usage == nil {
		p.usage = map[api.ResourceName]map[string]int64{}
	}
	p.usage[s.Resource()] = m
	return nil
}

// sameFilesystem lists the signals one reading sets: on the node's one
// filesystem, nodefs, imagefs and containerfs are the same disk.
func sameFilesystem(s nodepressure.Signal) []nodepressure.Signal {
	switch s {
	case nodepressure.SignalNodeFsAvailable, nodepressure.SignalImageFsAvailable, nodepressure.SignalContainerFsAvailable:
		return []nodepressure.Signal{nodepressure.SignalNodeFsAvailable, nodepressure.SignalImageFsAvailable, nodepressure.SignalContainerFsAvailable}
	case nodepressure.SignalNodeFsInodesFree, nodepressure.SignalImageFsInodesFree, nodepressure.SignalContainerFsInodesFree:
		return []nodepressure.Signal{nodepressure.SignalNodeFsInodesFree, nodepressure.SignalImageFsInodesFree, nodepressure.SignalContainerFsInodesFree}
	}
	return []nodepressure.Signal{s}
}

// parseSignalValue reads a pressure action's value: a quantity, or a
// percentage of capacity.
func parseSignalValue(v string, capacity int64) (int64, error) {
	v = strings.TrimSpace(v)
	if p, ok := strings.CutSuffix(v, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f > 100 {
			return 0, fmt.Errorf("percentage %q is not between 0%% and 100%%", v)
		}
		return int64(f / 100 * float64(capacity)), nil
	}
	q, err := api.ParseQuantity(v)
	if err != nil {
		return 0, err
	}
	if q.Sign() < 0 {
		return 0, fmt.Errorf("negative value %q", v)
	}
	return q.Value(), nil
}

func later(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}

// summary is the kubelet's Summary API of the node at now: the signals
// pressure actions set, read at now, with what the pods listed in a usage
// map and no longer active freed; and, once a usage map was given, the
// active pods' statistics.
func (p *pressureState) summary(node string, active []*api.Pod, now time.Time) nodepressure.Summary {
	t := api.NewTime(now)
	u := func(v int64) *uint64 { x := uint64(v); return &x }
	s := nodepressure.Summary{Node: nodepressure.NodeStats{NodeName: node}}
	freed := p.freed(active)
	values := make(map[nodepressure.Signal]signalValue, len(p.values))
	for sig, v := range p.values {
		v.available = min(v.capacity, v.available+freed[sig.Resource()])
		values[sig] = v
	}
	if len(p.usage) > 0 {
		s.Pods = p.podStats(active, t)
	}
	fs := func(avail, inodes nodepressure.Signal) *nodepressure.FsStats {
		a, okA := values[avail]
		i, okI := values[inodes]
		if !okA && !okI {
			return nil
		}
		f := &nodepressure.FsStats{Time: t}
		if okA {
			f.AvailableBytes, f.CapacityBytes, f.UsedBytes = u(a.available), u(a.capacity), u(a.capacity-a.available)
		}
		if okI {
			f.InodesFree, f.Inodes, f.InodesUsed = u(i.available), u(i.capacity), u(i.capacity-i.available)
		}
		return f
	}
	if v, ok := values[nodepressure.SignalMemoryAvailable]; ok {
		s.Node.Memory = &nodepressure.MemoryStats{Time: t, AvailableBytes: u(v.available), WorkingSetBytes: u(v.capacity - v.available)}
	}
	if v, ok := values[nodepressure.SignalAllocatableMemoryAvailable]; ok {
		s.Node.SystemContainers = []nodepressure.ContainerStats{{Name: nodepressure.SystemContainerPods,
			Memory: &nodepressure.MemoryStats{Time: t, AvailableBytes: u(v.available), WorkingSetBytes: u(v.capacity - v.available)}}}
	}
	s.Node.Fs = fs(nodepressure.SignalNodeFsAvailable, nodepressure.SignalNodeFsInodesFree)
	image := fs(nodepressure.SignalImageFsAvailable, nodepressure.SignalImageFsInodesFree)
	container := fs(nodepressure.SignalContainerFsAvailable, nodepressure.SignalContainerFsInodesFree)
	if image != nil || container != nil {
		s.Node.Runtime = &nodepressure.RuntimeStats{ImageFs: image, ContainerFs: container}
	}
	if v, ok := values[nodepressure.SignalPIDAvailable]; ok {
		max, cur := v.capacity, v.capacity-v.available
		s.Node.Rlimit = &nodepressure.RlimitStats{Time: t, MaxPID: &max, NumOfRunningProcesses: &cur}
	}
	return s
}

// evictionPass runs the kubelet's eviction manager when its housekeeping
// pass is due (pkg/kubelet/eviction managerImpl.Start): every 10 s, or,
// after it evicted a pod, as soon as the pod is cleaned up (checked every
// second, for at most nodepressure.PodCleanupTimeout). Each pass is a
// nodepressure.Manager Step with the node's Summary and its active pods;
// its Events are recorded, its pressure conditions kept for the node
// status and admission, and the pod it evicts is killed through its
// machine (lifecycle.Killed with the pass's grace override, reason
// Evicted and the eviction message).
func (c *Machine) evictionPass(k *kubelet, now time.Time) error {
	p := k.pressure
	if p == nil || k.silent || p.nextPass.After(now) {
		return nil
	}
	if p.evicted != "" && now.Sub(p.evictedAt) < nodepressure.PodCleanupTimeout {
		if r := k.pods[p.evicted]; r != nil && !r.m.Terminal() && !r.m.Removed() {
			p.nextPass = now.Add(podCleanupPoll)
			return nil // not cleaned up yet
		}
	}
	p.evicted = ""
	keys := make([]string, 0, len(k.pods))
	for key, r := range k.pods {
		if !r.m.Terminal() && !r.m.Removed() {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	var active []*api.Pod
	for _, key := range keys {
		if pod, _ := c.cache.get("Pod", key).(*api.Pod); pod != nil && pod.UID == k.pods[key].uid {
			active = append(active, pod)
		}
	}
	pass := stepMachine1(c, "eviction-manager", k.node, p.mgr, nodepressure.Observation{Summary: p.summary(k.node, active, now), Pods: active}, now)
	p.conditions = pass.Conditions
	p.nextPass = now.Add(nodepressure.MonitoringPeriod)
	for i := range pass.Events {
		c.rec.event(now, &pass.Events[i])
	}
	if e := pass.Eviction; e != nil {
		key := e.Pod.Key()
		p.evicted, p.evictedAt = key, now
		p.nextPass = now.Add(podCleanupPoll)
		if r := k.pods[key]; r != nil {
			return k.step(c, r, lifecycle.Killed(e.Grace.GracePeriodSeconds, api.PodStatusReasonEvicted, e.Message), now)
		}
	}
	return nil
}

// nodeConditions are the node conditions the kubelet posts at now
// (lifecycle.NodeConditions from the eviction manager's and the node
// shutdown manager's state); the node status events it records on a
// transition are recorded.
func (c *Machine) nodeConditions(k *kubelet, old []api.NodeCondition, now time.Time) []api.NodeCondition {
	conds, events := lifecycle.NodeConditions(old, lifecycle.NodeStatusInput{Node: k.node,
		Pressure: k.pressure.conditionList(), ShuttingDown: k.shutdown != nil}, now)
	for i := range events {
		c.rec.event(now, &events[i])
	}
	return conds
}

// updateNodeStatus is the kubelet's node status update at its
// nodeStatusUpdateFrequency tick (10 s): it posts the status at once when
// a condition changed (status, reason or message; tryUpdateNodeStatus
// posts a changed status whatever nodeStatusReportFrequency says), and
// leaves the unchanged status to the periodic report.
func (c *Machine) updateNodeStatus(k *kubelet, now time.Time) error {
	old, _ := c.store.get("Node", k.node).(*api.Node)
	if old == nil || k.silent {
		return nil
	}
	if old == k.postedNode && k.nodeState() == k.postedState {
		return nil // nothing changed since the kubelet's own post
	}
	want, _ := lifecycle.NodeConditions(old.Status.Conditions, lifecycle.NodeStatusInput{Node: k.node,
		Pressure: k.pressure.conditionList(), ShuttingDown: k.shutdown != nil}, now)
	if sameConditionStates(old.Status.Conditions, want) {
		k.checkedNode = old
		return nil
	}
	return c.postNodeStatus(k, now)
}

// postNodeStatus posts the node's status now (its conditions as the
// kubelet computes them), and restarts the periodic report's clock
// (nodeStatusReportFrequency).
func (c *Machine) postNodeStatus(k *kubelet, now time.Time) error {
	k.nextStatus, k.statusAnchor = now.Add(NodeStatusReportFrequency), now
	c.leaseGen++ // the node lifecycle controller's clocks (leaseOf) read statusAnchor
	old, _ := c.store.get("Node", k.node).(*api.Node)
	if old == nil {
		return nil
	}
	// Only the conditions change: the new object shares the rest with the
	// old one, which the store never edits.
	cp := *old
	n := &cp
	n.Status.Conditions = c.nodeConditions(k, old.Status.Conditions, now)
	if !k.registered {
		k.registered = true
		registrationStatus(k, &n.Status)
		if n.Annotations[api.AnnControllerManagedAttachDetach] != "true" {
			// The kubelet registers with its default
			// enableControllerAttachDetach: the attach-detach controller
			// manages the node's volumes.
			n.Annotations = maps.Clone(n.Annotations)
			if n.Annotations == nil {
				n.Annotations = map[string]string{}
			}
			n.Annotations[api.AnnControllerManagedAttachDetach] = "true"
		}
	}
	c.store.nextRV(&n.ObjectMeta)
	c.store.put("Node", k.node, n, watchModified, old)
	k.postedNode, k.postedState = n, k.nodeState()
	return nil
}

// The runtime model's kubelet: its version and its port (the kubelet's
// default --port).
const (
	kubeletVersion = "v1.36.3"
	kubeletPort    = 10250
)

// registrationStatus fills in, on the kubelet's first status post, what
// the runtime model's kubelet reports of its host (RuntimeModel): the
// addresses InternalIP 10.0.0.<index + 1> and Hostname when the node has
// none, its node info, its daemon endpoint, and allocatable as capacity
// when the node has none.
func registrationStatus(k *kubelet, st *api.NodeStatus) {
	if len(st.Addresses) == 0 {
		st.Addresses = []api.NodeAddress{{Type: api.NodeInternalIP, Address: nodeIP(k.index)},
			{Type: api.NodeHostName, Address: k.node}}
	}
	st.NodeInfo.KubeletVersion = kubeletVersion
	st.NodeInfo.OperatingSystem = "linux"
	st.NodeInfo.Architecture = "amd64"
	st.NodeInfo.ContainerRuntimeVersion = "fake://1.0"
	st.DaemonEndpoints.KubeletEndpoint.Port = kubeletPort
	if st.Allocatable == nil {
		st.Allocatable = st.Capacity
	}
}

// nodeState is what the kubelet's node conditions are computed from.
type nodeState struct {
	pressure     [3]bool // MemoryPressure, DiskPressure, PIDPressure
	shuttingDown bool
}

func (k *kubelet) nodeState() nodeState {
	st := nodeState{shuttingDown: k.shutdown != nil}
	for _, c := range k.pressure.conditionList() {
		switch c {
		case api.NodeMemoryPressure:
			st.pressure[0] = true
		case api.NodeDiskPressure:
			st.pressure[1] = true
		case api.NodePIDPressure:
			st.pressure[2] = true
		}
	}
	return st
}

// sameConditionStates reports whether two condition lists say the same,
// heartbeat times aside (the kubelet's nodeStatusHasChanged).
func sameConditionStates(a, b []api.NodeCondition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastTransitionTime.Time.Equal(y.LastTransitionTime.Time) {
			return false
		}
	}
	return true
}

// freed is, by resource, what the pods listed in the usage maps and no
// longer active on the node used: memory, storage, inodes and processes a
// stopped pod gave back.
func (p *pressureState) freed(active []*api.Pod) map[api.ResourceName]int64 {
	if len(p.usage) == 0 {
		return nil
	}
	running := make(map[string]bool, len(active))
	for _, pod := range active {
		running[pod.Key()] = true
	}
	out := map[api.ResourceName]int64{}
	for res, m := range p.usage {
		for key, v := range m {
			if !running[key] {
				out[res] += v
			}
		}
	}
	return out
}

// podStats are the Summary's per-pod statistics of the active pods: each
// resource a usage map was given for, a pod not listed using nothing; the
// usage is the pod's and its first container's.
func (p *pressureState) podStats(active []*api.Pod, t api.Time) []nodepressure.PodStats {
	u := func(v int64) *uint64 { x := uint64(v); return &x }
	out := make([]nodepressure.PodStats, 0, len(active))
	for _, pod := range active {
		st := nodepressure.PodStats{PodRef: nodepressure.PodReference{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID}}
		var c nodepressure.ContainerStats
		if len(pod.Spec.Containers) > 0 {
			c.Name = pod.Spec.Containers[0].Name
		}
		key := pod.Key()
		if m, ok := p.usage[api.ResourceMemory]; ok {
			st.Memory = &nodepressure.MemoryStats{Time: t, WorkingSetBytes: u(m[key])}
			c.Memory = &nodepressure.MemoryStats{Time: t, WorkingSetBytes: u(m[key])}
		}
		bytes, okB := p.usage[api.ResourceEphemeralStorage]
		inodes, okI := p.usage[nodepressure.ResourceInodes]
		if okB || okI {
			c.Rootfs = &nodepressure.FsStats{Time: t, UsedBytes: u(bytes[key]), InodesUsed: u(inodes[key])}
			c.Logs = &nodepressure.FsStats{Time: t, UsedBytes: u(0), InodesUsed: u(0)}
		}
		if m, ok := p.usage[nodepressure.ResourcePIDs]; ok {
			st.ProcessStats = &nodepressure.ProcessStats{ProcessCount: u(m[key])}
		}
		if c.Name != "" {
			st.Containers = []nodepressure.ContainerStats{c}
		}
		out = append(out, st)
	}
	return out
}

// withHeartbeats is the Node n as the API server holds it when the
// kubelet's periodic status posts, computed when read (kubelet.statusAt),
// are counted in: the heartbeat of each condition the kubelet posts is its
// last post's when that is later (the node lifecycle controller's Unknown
// conditions keep the heartbeat they found, the last post's too). n
// itself when nothing is later.
func (m *Machine) withHeartbeats(n *api.Node) *api.Node {
	k := m.kubelets[n.Name]
	if k == nil || k.eagerStatus {
		return n
	}
	last := k.statusAt(m.now, m.kubeletPhase)
	if last.IsZero() {
		return n
	}
	var conds []api.NodeCondition
	for i, c := range n.Status.Conditions {
		if lifecycle.KubeletNodeCondition(c.Type) && c.LastHeartbeatTime.Time.Before(last) {
			if conds == nil {
				conds = slices.Clone(n.Status.Conditions)
			}
			conds[i].LastHeartbeatTime = api.NewTime(last)
		}
	}
	if conds == nil {
		return n
	}
	cp := *n
	cp.Status.Conditions = conds
	return &cp
}
