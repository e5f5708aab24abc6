package scheduling

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors the Cluster's update methods return for objects they cannot index
// (nil, no name, duplicate key, unknown key), the what-if statuses without
// a node and the errors of a nil Cluster, Queue, Loop or Scheduler wrap it;
// test for it with errors.Is(err, api.ErrInvalidInput).
var errInvalidInput = fmt.Errorf("scheduling: %w", api.ErrInvalidInput)

// errNilCluster is what the update methods of a nil Cluster return.
var errNilCluster = fmt.Errorf("%w: cluster: nil", errInvalidInput)

// Config is the scheduler configuration a Cluster evaluates pods with. The
// zero value is kube-scheduler v1.36.3's default profile.
type Config struct {
	// Spread holds the PodTopologySpread arguments (default constraints and
	// defaulting type).
	Spread SpreadArgs
	// Plugins names the filter/score plugins to run, a subset of
	// DefaultPlugins(); they always run in the default profile's order. nil
	// means all of them.
	Plugins []string
	// HardPodAffinityWeight is InterPodAffinityArgs.hardPodAffinityWeight:
	// the score weight given to existing pods' required affinity terms that
	// the incoming pod matches. nil means the default, 1; 0 disables it.
	HardPodAffinityWeight *int32
	// IgnorePreferredTermsOfExistingPods is the InterPodAffinityArgs field
	// of that name: when the incoming pod has no preferred terms, existing
	// pods' terms are not scored either.
	IgnorePreferredTermsOfExistingPods bool
	// IgnoredResources and IgnoredResourceGroups are NodeResourcesFitArgs'
	// extended resources (full names, or the part before "/") that
	// NodeResourcesFit does not check.
	IgnoredResources      []string
	IgnoredResourceGroups []string
}

func (cfg *Config) hardPodAffinityWeight() int64 {
	if cfg.HardPodAffinityWeight == nil {
		return 1
	}
	return int64(*cfg.HardPodAffinityWeight)
}

// Cluster is an indexed snapshot of nodes and pods, the equivalent of
// kube-scheduler's cache snapshot, which the filters and scores query.
//
// Build it once with NewCluster and keep it current with AddPod,
// RemovePod, UpdatePod, AddNode, RemoveNode, UpdateNode and SetNamespace.
// Queries (NewCycle and what a Cycle does, and every read accessor) never
// modify the snapshot, so any number of goroutines may query it at once;
// updates must not run concurrently with queries or with each other (guard
// the Cluster with a sync.RWMutex if both happen).
//
// Pod placement follows the scheduler's cache:
//   - a pod with spec.nodeName counts on that node (resources, pod slot,
//     host ports, affinity), terminating ones included;
//   - a pod bound to a node not (yet) in the snapshot is kept aside and
//     counted as soon as that node is added;
//   - a pod without spec.nodeName but with status.nominatedNodeName is a
//     nominated pod: it is not counted on the node, but a cycle for a pod
//     of lower or equal priority sees it there (the framework's
//     addNominatedPods);
//   - pods in phase Succeeded or Failed are not counted at all (the
//     scheduler's informer never delivers them).
//
// What the snapshot indexes for the filters and scores:
//   - per node: the summed requests (api.PodRequests with the scheduler's
//     options, FitRequestOptions) and non-zero cpu/memory, the pod count,
//     the used host ports, whether it is cordoned or carries NoSchedule /
//     NoExecute taints, and its pods with (anti-)affinity terms;
//   - per node label key: every node's value, interned, in an array by
//     node index (label columns), so node affinity and topology lookups
//     read arrays instead of each node's label map;
//   - cluster-wide: the pods of each namespace, the pods of each namespace
//     carrying each label, the pods with required anti-affinity terms and
//     those with any affinity term, so that inter-pod affinity counts
//     matching pods per topology domain once per cycle, visiting only the
//     pods a term can select, instead of scanning all pods for every node;
//   - PodTopologySpread's cache of domains and per-selector counts.
//
// AddNode and UpdateNode cost O(label keys), RemoveNode shifts the later
// nodes (O(nodes × label keys)), pod updates cost O(labels of the pod);
// nothing is rebuilt.
type Cluster struct {
	cfg Config

	nodes  []*NodeInfo
	byName map[string]*NodeInfo
	// taintClasses numbers the lists of NoSchedule and NoExecute taints
	// the nodes carry (NodeInfo.hardClass), from 1.
	taintClasses map[string]int32

	// pods holds every pod given to the snapshot, by key.
	pods map[string]*PodInfo
	// orphans holds pods bound to node names absent from the snapshot.
	orphans map[string]map[string]*PodInfo
	// nominated holds pending pods by nominated node name.
	nominated map[string]map[string]*PodInfo

	// namespaces holds the labels of the Namespace objects known.
	namespaces map[string]map[string]string
	// byNamespace lists the pods bound to snapshot nodes, per namespace.
	byNamespace map[string][]*PodInfo
	// byLabel lists the same pods per namespace and label pair.
	byLabel map[string]map[labelPair][]*PodInfo
	// antiAffinityPods lists the pods bound to snapshot nodes that have
	// required anti-affinity terms; affinityPods those with any inter-pod
	// (anti-)affinity term.
	antiAffinityPods []*PodInfo
	affinityPods     []*PodInfo

	// labels interns node labels per key (label columns by node index).
	labels labelIndex

	// spread is PodTopologySpread's cache (spread_index.go), kept current
	// by the update methods.
	spread *spreadCache

	// workloads are those AddObjects was given (SetSpreadWorkloads
	// replaces them).
	workloads SpreadWorkloads

	// storage holds the storage objects and the claims pods use
	// (storage.go).
	storage storageIndex

	// budgets holds the PodDisruptionBudgets by namespace/name, for the
	// PostFilter plugins; budgetList is their sorted list, built on demand.
	budgets    map[string]*api.PodDisruptionBudget
	budgetList []*api.PodDisruptionBudget

	// unschedulableNodes and taintedNodes count the cordoned nodes and
	// those with a NoSchedule or NoExecute taint, so that a cycle skips
	// NodeUnschedulable and TaintToleration when no node can fail them.
	unschedulableNodes, taintedNodes int
	// softTaintedNodes counts the nodes with a PreferNoSchedule taint.
	softTaintedNodes int

	// room holds, by node index, what NodeResourcesFit's filter reads
	// (fitcolumns.go).
	room fitColumns

	// images holds the image states ImageLocality reads.
	images imageIndex

	// tree is the scheduler cache's node tree: the order ScheduleOne
	// walks the nodes in (nodetree.go).
	tree nodeTree
}

// NewCluster builds a snapshot of the nodes and pods with the given
// configuration. Nodes keep the order given (their Index); pods are placed
// as described on Cluster. It fails on a nil node or pod (an error wrapping
// api.ErrInvalidInput that names its position, "nodes[1]: nil"), on a node or
// pod without a name, or on a duplicate node name or pod key.
func NewCluster(nodes []*api.Node, pods []*api.Pod, cfg Config) (*Cluster, error) {
	c := &Cluster{
		cfg:         cfg,
		byName:      make(map[string]*NodeInfo, len(nodes)),
		pods:        make(map[string]*PodInfo, len(pods)),
		orphans:     map[string]map[string]*PodInfo{},
		nominated:   map[string]map[string]*PodInfo{},
		namespaces:  map[string]map[string]string{},
		byNamespace: map[string][]*PodInfo{},
		byLabel:     map[string]map[labelPair][]*PodInfo{},
		spread:      newSpreadCache(),
		labels:      newLabelIndex(),
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	// The nodes of the initial snapshot live in one array, so that a pass
	// over all nodes reads memory in order.
	slab := make([]NodeInfo, len(nodes))
	for i, n := range nodes {
		if n == nil {
			return nil, fmt.Errorf("%w: nodes[%d]: nil", errInvalidInput, i)
		}
		if err := c.addNode(n, &slab[i]); err != nil {
			return nil, fmt.Errorf("nodes[%d]: %w", i, err)
		}
	}
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("%w: pods[%d]: nil", errInvalidInput, i)
		}
		if err := c.AddPod(p); err != nil {
			return nil, fmt.Errorf("pods[%d]: %w", i, err)
		}
	}
	c.prepare()
	return c, nil
}

// prepare builds, once the initial nodes are in, what nearly every
// decision reads and the update methods keep current from then on, so
// that the first decision on a new snapshot does not pay for it: the node
// tree's walk order, and PodTopologySpread's domains of the well-known
// topology keys its system default constraints use (kubernetes.io/hostname
// and topology.kubernetes.io/zone), for the keys some node carries. Each
// is one pass over an array of the nodes.
func (c *Cluster) prepare() {
	c.tree.lists()
	if !c.enabled(PluginPodTopologySpread) {
		return
	}
	for _, key := range [...]string{api.LabelHostname, api.LabelTopologyZone} {
		if c.labels.column(key) != nil {
			c.spread.keyIndex(c, key)
		}
	}
}

func knownPlugin(name string) bool {
	for _, p := range defaultPlugins {
		if p == name {
			return true
		}
	}
	return false
}

// NumNodes returns the number of nodes (0 for a nil Cluster).
func (c *Cluster) NumNodes() int {
	if c == nil {
		return 0
	}
	return len(c.nodes)
}

// NodeAt returns the node at index i, the index a Decision reports it
// under; nil when i is not in [0, NumNodes()).
func (c *Cluster) NodeAt(i int) *NodeInfo {
	if c == nil || i < 0 || i >= len(c.nodes) {
		return nil
	}
	return c.nodes[i]
}

// NodeByName returns the node with that name, or nil.
func (c *Cluster) NodeByName(name string) *NodeInfo {
	if c == nil {
		return nil
	}
	return c.byName[name]
}

// NominatedPods returns the pending pods nominated to the node (by
// status.nominatedNodeName), sorted by namespace/name, as the scheduling
// queue's nominator lists them (a PostFilter plugin that takes a node
// clears the lower-priority nominations there); none for a nil Cluster.
func (c *Cluster) NominatedPods(nodeName string) []*PodInfo {
	if c == nil {
		return nil
	}
	m := c.nominated[nodeName]
	out := make([]*PodInfo, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// SetNamespace records a Namespace object's labels, used by
// namespaceSelector in inter-pod affinity terms. A namespace with no object
// has no labels. A nil namespace, or a nil Cluster, is an error wrapping
// api.ErrInvalidInput.
func (c *Cluster) SetNamespace(ns *api.Namespace) error {
	if c == nil {
		return errNilCluster
	}
	if ns == nil {
		return fmt.Errorf("%w: namespace: nil", errInvalidInput)
	}
	if ns.Name == "" {
		return fmt.Errorf("%w: namespace without metadata.name", errInvalidInput)
	}
	labels := make(map[string]string, len(ns.Labels))
	for k, v := range ns.Labels {
		labels[k] = v
	}
	c.namespaces[ns.Name] = labels
	return nil
}

// RemoveNamespace forgets a Namespace object. It does nothing on a nil
// Cluster.
func (c *Cluster) RemoveNamespace(name string) {
	if c != nil {
		delete(c.namespaces, name)
	}
}

// AddNode adds a node at the end of the index order. Pods already given
// that are bound to it start counting there. A nil node, or a nil Cluster,
// is an error wrapping api.ErrInvalidInput.
func (c *Cluster) AddNode(n *api.Node) error {
	if c == nil {
		return errNilCluster
	}
	return c.addNode(n, &NodeInfo{})
}

func (c *Cluster) addNode(n *api.Node, ni *NodeInfo) error {
	if n == nil {
		return fmt.Errorf("%w: node: nil", errInvalidInput)
	}
	if n.Name == "" {
		return fmt.Errorf("%w: node without metadata.name", errInvalidInput)
	}
	if _, dup := c.byName[n.Name]; dup {
		return fmt.Errorf("%w: duplicate node %q", errInvalidInput, n.Name)
	}
	ni.index = len(c.nodes)
	ni.setNode(n)
	c.classifyTaints(ni)
	c.countNode(ni, 1)
	c.room.nodeAdded(ni)
	c.nodes = append(c.nodes, ni)
	c.labels.nodeAdded(n)
	c.tree.add(ni)
	c.images.nodeAdded(ni)
	c.byName[n.Name] = ni
	c.spread.nodeAdded(ni)
	if waiting := c.orphans[n.Name]; len(waiting) > 0 {
		delete(c.orphans, n.Name)
		for _, key := range sortedKeys(waiting) {
			c.attach(waiting[key], ni)
		}
	}
	return nil
}

// RemoveNode removes a node; the indices of later nodes shift down by one.
// Its pods stay known and count again if a node of that name is added. A
// nil Cluster is an error wrapping api.ErrInvalidInput.
func (c *Cluster) RemoveNode(name string) error {
	if c == nil {
		return errNilCluster
	}
	ni, ok := c.byName[name]
	if !ok {
		return fmt.Errorf("%w: no node %q", errInvalidInput, name)
	}
	for len(ni.pods) > 0 {
		p := ni.pods[len(ni.pods)-1]
		c.detach(p)
		c.addOrphan(p, name)
	}
	copy(c.nodes[ni.index:], c.nodes[ni.index+1:])
	c.nodes[len(c.nodes)-1] = nil
	c.nodes = c.nodes[:len(c.nodes)-1]
	for i := ni.index; i < len(c.nodes); i++ {
		c.nodes[i].index = i
	}
	delete(c.byName, name)
	c.countNode(ni, -1)
	c.tree.remove(ni)
	c.tree.renumber(ni.index)
	c.room.nodeRemoved(ni.index)
	c.images.nodeRemoved(ni)
	c.labels.nodeRemoved(ni.index)
	c.spread.nodeRemoved(ni.index)
	return nil
}

// UpdateNode replaces the node object of the same name, keeping its index
// and its pods. A nil node, or a nil Cluster, is an error wrapping
// api.ErrInvalidInput.
func (c *Cluster) UpdateNode(n *api.Node) error {
	if c == nil {
		return errNilCluster
	}
	if n == nil {
		return fmt.Errorf("%w: node: nil", errInvalidInput)
	}
	if n.Name == "" {
		return fmt.Errorf("%w: node without metadata.name", errInvalidInput)
	}
	ni, ok := c.byName[n.Name]
	if !ok {
		return fmt.Errorf("%w: no node %q", errInvalidInput, n.Name)
	}
	if old := ni.node; old != nil && !nodeSchedulingChanged(old, n) && slices.EqualFunc(old.Status.Images, n.Status.Images, sameImage) {
		// Nothing the snapshot reads changed (a status post's heartbeat,
		// conditions, addresses): only the object is new.
		ni.node = n
		return nil
	}
	c.images.nodeRemoved(ni)
	c.countNode(ni, -1)
	ni.setNode(n)
	c.classifyTaints(ni)
	c.countNode(ni, 1)
	c.room.set(ni)
	c.tree.update(ni)
	c.images.nodeAdded(ni)
	c.labels.nodeUpdated(ni.index, n)
	c.spread.nodeUpdated(ni)
	return nil
}

// classifyTaints sets the node's hardClass: the number of its list of
// NoSchedule and NoExecute taints (key, value and effect; the time a taint
// was added does not matter to a toleration).
func (c *Cluster) classifyTaints(ni *NodeInfo) {
	if !ni.hardTaints {
		return
	}
	var b []byte
	for _, t := range ni.node.Spec.Taints {
		if t.Effect == api.TaintEffectNoSchedule || t.Effect == api.TaintEffectNoExecute {
			b = append(append(append(append(append(b, t.Key...), 0), t.Value...), 0), t.Effect...)
			b = append(b, 0)
		}
	}
	id, ok := c.taintClasses[string(b)]
	if !ok {
		if c.taintClasses == nil {
			c.taintClasses = map[string]int32{}
		}
		id = int32(len(c.taintClasses) + 1)
		c.taintClasses[string(b)] = id
	}
	ni.hardClass = id
}

// countNode adds (sign +1) or removes (-1) a node's flags to the
// cluster-wide counts.
func (c *Cluster) countNode(ni *NodeInfo, sign int) {
	if ni.unschedulable {
		c.unschedulableNodes += sign
	}
	if ni.hardTaints {
		c.taintedNodes += sign
	}
	if ni.softTaints {
		c.softTaintedNodes += sign
	}
}

// AddPod adds a pod, placed as described on Cluster. The pod must not be
// modified while in the snapshot (replace it with UpdatePod). A nil pod,
// or a nil Cluster, is an error wrapping api.ErrInvalidInput.
func (c *Cluster) AddPod(p *api.Pod) error {
	if c == nil {
		return errNilCluster
	}
	if p == nil {
		return fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if p.Name == "" {
		return fmt.Errorf("%w: pod without metadata.name", errInvalidInput)
	}
	return c.addPod(p.Namespace+"/"+p.Name, p)
}

// addPod is AddPod of a valid pod whose key (namespace/name) the caller
// built.
func (c *Cluster) addPod(key string, p *api.Pod) error {
	if _, dup := c.pods[key]; dup {
		return fmt.Errorf("%w: duplicate pod %q", errInvalidInput, key)
	}
	pi := newPodInfo(key, p)
	c.pods[key] = pi
	c.place(pi)
	return nil
}

// RemovePod removes the pod with that namespace and name. A nil Cluster is
// an error wrapping api.ErrInvalidInput.
func (c *Cluster) RemovePod(namespace, name string) error {
	if c == nil {
		return errNilCluster
	}
	return c.removePod(namespace + "/" + name)
}

// removePod is RemovePod by key (namespace/name).
func (c *Cluster) removePod(key string) error {
	pi, ok := c.pods[key]
	if !ok {
		return fmt.Errorf("%w: no pod %q", errInvalidInput, key)
	}
	c.unplace(pi)
	delete(c.pods, key)
	return nil
}

// UpdatePod replaces the pod with the same namespace and name (for example
// once it is bound, nominated, resized or terminating). A nil pod, or a nil
// Cluster, is an error wrapping api.ErrInvalidInput.
func (c *Cluster) UpdatePod(p *api.Pod) error {
	if c == nil {
		return errNilCluster
	}
	if p == nil {
		return fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	if p.Name == "" {
		return fmt.Errorf("%w: pod without metadata.name", errInvalidInput)
	}
	return c.updatePod(p.Namespace+"/"+p.Name, p)
}

// updatePod is UpdatePod of a valid pod whose key (namespace/name) the
// caller built.
func (c *Cluster) updatePod(key string, p *api.Pod) error {
	if pi, ok := c.pods[key]; ok && sameIndexedInputs(pi.pod, p) {
		// A status update (the most common): what newPodInfo computes
		// from the pod is unchanged, so the PodInfo is kept and only
		// re-placed, which moves it in the lists it is in as a removal
		// and an addition would.
		// The spread counts stay as they are when the pod stays counted
		// on its node: a removal and an addition would move them by -1
		// and +1.
		spread := pi.node == nil || !counted(p) || (pi.pod.DeletionTimestamp == nil) != (p.DeletionTimestamp == nil)
		c.unplaceSpread(pi, spread)
		pi.pod = p
		pi.cacheFields()
		c.placeSpread(pi, spread)
		return nil
	}
	if err := c.removePod(key); err != nil {
		return err
	}
	return c.addPod(key, p)
}

// sameIndexedInputs reports whether newPodInfo computes the same fields
// for pod b as for pod a (the same pod, updated): the same labels; the same
// spec fields it reads — nodeName, priority, containers and init
// containers (requests, ports), pod-level resources, overhead, volumes
// (claims), affinity (terms); and the same in-place resize state of the
// status that the requests read (api.PodRequests with status resources).
// Values shared by both pods (a status update that copies the spec's
// references) compare at once.
func sameIndexedInputs(a, b *api.Pod) bool {
	x, y := &a.Spec, &b.Spec
	if x.NodeName != y.NodeName || api.PodPriority(a) != api.PodPriority(b) ||
		!sameSlice(x.Containers, y.Containers) || !sameSlice(x.InitContainers, y.InitContainers) ||
		!sameSlice(x.Volumes, y.Volumes) || !samePtr(x.Affinity, y.Affinity) || !samePtr(x.Resources, y.Resources) ||
		!reflect.DeepEqual(x.Overhead, y.Overhead) {
		return false
	}
	if !maps.Equal(a.Labels, b.Labels) || api.IsPodResizeInfeasible(a) != api.IsPodResizeInfeasible(b) {
		return false
	}
	if noContainerStatusResources(a) && noContainerStatusResources(b) {
		// The requests consult a container status only when it reports
		// resources: none does on either side (the kubelet's first status
		// adds statuses without any), so neither consults one.
		return sameStatusResources(a, b)
	}
	if len(a.Status.ContainerStatuses) != len(b.Status.ContainerStatuses) ||
		len(a.Status.InitContainerStatuses) != len(b.Status.InitContainerStatuses) {
		return false
	}
	for _, l := range [2][2][]api.ContainerStatus{
		{a.Status.ContainerStatuses, b.Status.ContainerStatuses},
		{a.Status.InitContainerStatuses, b.Status.InitContainerStatuses},
	} {
		for i := range l[0] {
			x, y := &l[0][i], &l[1][i]
			if x.Name != y.Name || !reflect.DeepEqual(x.Resources, y.Resources) || !reflect.DeepEqual(x.AllocatedResources, y.AllocatedResources) {
				return false
			}
		}
	}
	return sameStatusResources(a, b)
}

// sameStatusResources compares the pod-level status fields the requests
// read: the resources, the allocated resources and the node-allocatable
// claim statuses.
func sameStatusResources(a, b *api.Pod) bool {
	return reflect.DeepEqual(a.Status.Resources, b.Status.Resources) &&
		reflect.DeepEqual(a.Status.AllocatedResources, b.Status.AllocatedResources) &&
		reflect.DeepEqual(a.Status.NodeAllocatableResourceClaimStatuses, b.Status.NodeAllocatableResourceClaimStatuses)
}

// noContainerStatusResources reports whether none of the pod's container
// statuses (regular and init) reports resources.
func noContainerStatusResources(p *api.Pod) bool {
	for _, l := range [2][]api.ContainerStatus{p.Status.ContainerStatuses, p.Status.InitContainerStatuses} {
		for i := range l {
			if l[i].Resources != nil {
				return false
			}
		}
	}
	return true
}

// sameSlice reports whether a and b hold equal elements: the same backing
// array at once, else element by element.
func sameSlice[T any](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// samePtr reports whether a and b point to equal values (or are both nil).
func samePtr[T any](a, b *T) bool {
	return a == b || a != nil && b != nil && reflect.DeepEqual(*a, *b)
}

// counted reports whether the scheduler's cache holds the pod at all.
func counted(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

func (c *Cluster) place(pi *PodInfo) { c.placeSpread(pi, true) }

// placeSpread is place, counting the pod in the spread counts when spread
// is set.
func (c *Cluster) placeSpread(pi *PodInfo, spread bool) {
	p := pi.pod
	if !counted(p) {
		return
	}
	if p.Spec.NodeName != "" {
		if ni, ok := c.byName[p.Spec.NodeName]; ok {
			c.attachSpread(pi, ni, spread)
		} else {
			c.addOrphan(pi, p.Spec.NodeName)
		}
		return
	}
	if nn := p.Status.NominatedNodeName; nn != "" {
		m := c.nominated[nn]
		if m == nil {
			m = map[string]*PodInfo{}
			c.nominated[nn] = m
		}
		m[pi.key] = pi
		pi.nominee = true
	}
}

func (c *Cluster) unplace(pi *PodInfo) { c.unplaceSpread(pi, true) }

// unplaceSpread is unplace, uncounting the pod from the spread counts when
// spread is set.
func (c *Cluster) unplaceSpread(pi *PodInfo, spread bool) {
	switch {
	case pi.node != nil:
		c.detachSpread(pi, spread)
	case pi.nominee:
		nn := pi.pod.Status.NominatedNodeName
		delete(c.nominated[nn], pi.key)
		if len(c.nominated[nn]) == 0 {
			delete(c.nominated, nn)
		}
		pi.nominee = false
	case pi.pod.Spec.NodeName != "":
		nn := pi.pod.Spec.NodeName
		delete(c.orphans[nn], pi.key)
		if len(c.orphans[nn]) == 0 {
			delete(c.orphans, nn)
		}
	}
}

func (c *Cluster) addOrphan(pi *PodInfo, nodeName string) {
	m := c.orphans[nodeName]
	if m == nil {
		m = map[string]*PodInfo{}
		c.orphans[nodeName] = m
	}
	m[pi.key] = pi
}

// attach counts a pod on a snapshot node and in the cluster-wide indexes.
func (c *Cluster) attach(pi *PodInfo, ni *NodeInfo) { c.attachSpread(pi, ni, true) }

// attachSpread is attach, counting the pod in the spread counts when spread
// is set.
func (c *Cluster) attachSpread(pi *PodInfo, ni *NodeInfo, spread bool) {
	ni.addPod(pi)
	c.room.set(ni)
	if spread {
		c.spread.podAttached(pi)
	}
	c.storage.claimsUsed(pi, 1)
	ns := pi.pod.Namespace
	nsPods := c.byNamespace[ns]
	pi.nsSlot = len(nsPods)
	c.byNamespace[ns] = append(nsPods, pi)
	if len(pi.requiredAntiAffinity) > 0 {
		pi.antiSlot = len(c.antiAffinityPods)
		c.antiAffinityPods = append(c.antiAffinityPods, pi)
	}
	if pi.hasAffinityTerms() {
		pi.affSlot = len(c.affinityPods)
		c.affinityPods = append(c.affinityPods, pi)
	}
	byPair := c.byLabel[ns]
	if byPair == nil {
		byPair = map[labelPair][]*PodInfo{}
		c.byLabel[ns] = byPair
	}
	var first []*PodInfo // the pods carrying the first label
	if len(pi.labelPairs) > 0 {
		// Pods of a namespace with the same labels as the last one
		// indexed under the first label share its list (see LabelSet).
		first = byPair[pi.labelPairs[0]]
		if len(first) > 0 {
			if last := first[len(first)-1]; slices.Equal(last.labelPairs, pi.labelPairs) {
				pi.labelPairs = last.labelPairs
			}
		}
	}
	for j, lp := range pi.labelPairs {
		same := first
		if j > 0 {
			same = byPair[lp]
		}
		pi.labelSlots[j] = len(same)
		byPair[lp] = append(same, pi)
	}
}

// detach undoes attach.
func (c *Cluster) detach(pi *PodInfo) { c.detachSpread(pi, true) }

// detachSpread is detach, uncounting the pod from the spread counts when
// spread is set.
func (c *Cluster) detachSpread(pi *PodInfo, spread bool) {
	if spread {
		c.spread.podDetached(pi)
	}
	c.storage.claimsUsed(pi, -1)
	node := pi.node
	pi.node.removePod(pi)
	c.room.set(node)
	ns := pi.pod.Namespace
	list := c.byNamespace[ns]
	last := len(list) - 1
	list[pi.nsSlot] = list[last]
	list[pi.nsSlot].nsSlot = pi.nsSlot
	list[last] = nil
	if last == 0 {
		delete(c.byNamespace, ns)
	} else {
		c.byNamespace[ns] = list[:last]
	}
	if pi.antiSlot >= 0 {
		l := c.antiAffinityPods
		last := len(l) - 1
		l[pi.antiSlot] = l[last]
		l[pi.antiSlot].antiSlot = pi.antiSlot
		l[last] = nil
		c.antiAffinityPods = l[:last]
		pi.antiSlot = -1
	}
	if pi.affSlot >= 0 {
		l := c.affinityPods
		last := len(l) - 1
		l[pi.affSlot] = l[last]
		l[pi.affSlot].affSlot = pi.affSlot
		l[last] = nil
		c.affinityPods = l[:last]
		pi.affSlot = -1
	}
	byPair := c.byLabel[ns]
	for j, lp := range pi.labelPairs {
		l := byPair[lp]
		last := len(l) - 1
		moved := l[last]
		slot := pi.labelSlots[j]
		l[slot] = moved
		moved.labelSlots[moved.labelPos(lp)] = slot
		l[last] = nil
		if last == 0 {
			delete(byPair, lp)
		} else {
			byPair[lp] = l[:last]
		}
	}
	if len(byPair) == 0 {
		delete(c.byLabel, ns)
	}
}

func sortedKeys(m map[string]*PodInfo) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sameImage compares two entries of a node's status.images.
func sameImage(a, b api.ContainerImage) bool {
	return a.SizeBytes == b.SizeBytes && slices.Equal(a.Names, b.Names)
}
