package cluster

import (
	"slices"

	"github.com/podsem/podsem/api"
)

// This file is the store's indexes, as an informer's indexers keep them:
// the keys of each kind by namespace, the pods by controller (and the
// orphans of each namespace), the pods by node, and every object by the
// uid of each of its owners. They are maintained on every write (put), so
// that a controller's sync reads the objects it concerns instead of
// scanning the kind; each list of keys is kept sorted, so that what a
// caller gets is in the key order a scan would give.

// sortedKeys is a set of store keys, read in sorted order. A key past the
// last one is appended; other adds and removes are kept aside (added,
// gone) and merged into the sorted list at the next read, so that a write
// to a list of 50,000 keys moves none of them and a read after writes
// costs one merge.
type sortedKeys struct {
	keys []string // sorted, without the pending changes
	// added are keys not in keys; gone are keys of keys removed.
	added, gone map[string]bool
}

func (s *sortedKeys) add(k string) {
	if len(s.added) == 0 && len(s.gone) == 0 {
		if n := len(s.keys); n == 0 || s.keys[n-1] < k {
			s.keys = append(s.keys, k)
			return
		}
	}
	if _, found := slices.BinarySearch(s.keys, k); found {
		delete(s.gone, k)
		return
	}
	if s.added == nil {
		s.added = map[string]bool{}
	}
	s.added[k] = true
}

func (s *sortedKeys) remove(k string) {
	if s.added[k] {
		delete(s.added, k)
		return
	}
	if _, found := slices.BinarySearch(s.keys, k); found {
		if s.gone == nil {
			s.gone = map[string]bool{}
		}
		s.gone[k] = true
	}
}

// len is the number of keys.
func (s *sortedKeys) len() int {
	if s == nil {
		return 0
	}
	return len(s.keys) - len(s.gone) + len(s.added)
}

// sort merges the pending changes into keys.
func (s *sortedKeys) sort() {
	if len(s.added) == 0 && len(s.gone) == 0 {
		return
	}
	if len(s.gone) > 0 {
		s.keys = slices.DeleteFunc(s.keys, func(x string) bool { return s.gone[x] })
		clear(s.gone)
	}
	if len(s.added) > 0 {
		add := make([]string, 0, len(s.added))
		for k := range s.added {
			add = append(add, k)
		}
		slices.Sort(add)
		clear(s.added)
		merged := make([]string, 0, len(s.keys)+len(add))
		i, j := 0, 0
		for i < len(s.keys) && j < len(add) {
			if s.keys[i] < add[j] {
				merged = append(merged, s.keys[i])
				i++
			} else {
				merged = append(merged, add[j])
				j++
			}
		}
		merged = append(merged, s.keys[i:]...)
		s.keys = append(merged, add[j:]...)
	}
}

// list is the keys in order (the index's own slice: read it before the
// next write).
func (s *sortedKeys) list() []string {
	if s == nil {
		return nil
	}
	s.sort()
	return s.keys
}

// storeIndex holds the store's indexes.
type storeIndex struct {
	// byNamespace: kind → namespace → keys (namespaced kinds only).
	byNamespace map[string]map[string]*sortedKeys
	// podsByController: the controller's uid → keys of the pods it
	// controls; podOrphans: namespace → keys of the pods without one.
	podsByController map[string]*sortedKeys
	podOrphans       map[string]*sortedKeys
	// podsByNode: node name → keys of the pods bound to it.
	podsByNode map[string]*sortedKeys
	// byOwner: an owner's uid → kind → keys of the objects that have an
	// ownerReference to it.
	byOwner map[string]map[string]*sortedKeys
	// gcCandidates: keys of the pods gcCandidate holds for.
	gcCandidates sortedKeys
	// finalizing counts the objects being deleted with a garbage
	// collector finalizer (orphan or foregroundDeletion) left.
	finalizing int
	// missing are the names of nodes pods were bound to that the store
	// does not hold, while missingKnown: a Node added or removed, or a
	// node name pods are bound to for the first time, clears it.
	missing      []string
	missingKnown bool
}

func newStoreIndex() storeIndex {
	return storeIndex{byNamespace: map[string]map[string]*sortedKeys{}, podsByController: map[string]*sortedKeys{},
		podOrphans: map[string]*sortedKeys{}, podsByNode: map[string]*sortedKeys{}, byOwner: map[string]map[string]*sortedKeys{}}
}

func keysIn[K comparable](m map[K]*sortedKeys, k K) *sortedKeys {
	s := m[k]
	if s == nil {
		s = new(sortedKeys)
		m[k] = s
	}
	return s
}

// indexed are the attributes of an object the indexes file it under.
type indexed struct {
	namespace  string
	controller string // pods: the controller's uid, "" for an orphan
	node       string // pods: spec.nodeName
	owners     []api.OwnerReference
	gc         bool // pods: a pod GC candidate (gcCandidate)
	finalizing bool // being deleted with a garbage collector finalizer
}

func indexAttrs(o api.Object) (indexed, bool) {
	if o == nil {
		return indexed{}, false
	}
	_, m := objectMeta(o)
	if m == nil {
		return indexed{}, false
	}
	a := indexed{namespace: m.Namespace, owners: m.OwnerReferences,
		finalizing: m.DeletionTimestamp != nil && slices.ContainsFunc(m.Finalizers, isGCFinalizer)}
	if p, ok := o.(*api.Pod); ok {
		if ref := m.ControllerRef(); ref != nil {
			a.controller = ref.UID
		}
		a.node = p.Spec.NodeName
		a.gc = gcCandidate(p)
	}
	return a, true
}

func sameOwners(a, b []api.OwnerReference) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].UID != b[i].UID {
			return false
		}
	}
	return true
}

// update files key of kind under next's attributes instead of prev's
// (either nil: the object is new, or gone). Only the indexes whose
// attribute changed are touched: removing a key and adding it back to the
// same list changes nothing (sortedKeys), so a bind moves the pod in the
// node index alone, and a status write touches none.
func (x *storeIndex) update(kind, key string, prev, next api.Object) {
	if kind == "Node" && (prev == nil) != (next == nil) {
		x.missingKnown = false
	}
	pa, hadPrev := indexAttrs(prev)
	na, hasNext := indexAttrs(next)
	both := hadPrev && hasNext
	// move removes key from the list at from (when there was one) and
	// adds it to the list at to (when there is one).
	move := func(from, to *sortedKeys) {
		if from != nil {
			from.remove(key)
		}
		if to != nil {
			to.add(key)
		}
	}
	if hadPrev && pa.finalizing {
		x.finalizing--
	}
	if hasNext && na.finalizing {
		x.finalizing++
	}
	if !both || pa.namespace != na.namespace {
		var from, to *sortedKeys
		if hadPrev && pa.namespace != "" {
			from = x.namespaceList(kind, pa.namespace)
		}
		if hasNext && na.namespace != "" {
			to = x.namespaceList(kind, na.namespace)
		}
		move(from, to)
	}
	if kind == "Pod" {
		if !both || pa.controller != na.controller || (pa.controller == "" && pa.namespace != na.namespace) {
			var from, to *sortedKeys
			if hadPrev {
				from = x.controllerList(pa)
			}
			if hasNext {
				to = x.controllerList(na)
			}
			move(from, to)
		}
		if !both || pa.node != na.node {
			var from, to *sortedKeys
			if hadPrev && pa.node != "" {
				from = keysIn(x.podsByNode, pa.node)
			}
			if hasNext && na.node != "" {
				to = keysIn(x.podsByNode, na.node)
				if to.len() == 0 {
					x.missingKnown = false
				}
			}
			move(from, to)
		}
		if !both || pa.gc != na.gc {
			if hadPrev && pa.gc {
				x.gcCandidates.remove(key)
			}
			if hasNext && na.gc {
				x.gcCandidates.add(key)
			}
		}
	}
	if !both || !sameOwners(pa.owners, na.owners) {
		if hadPrev {
			x.fileOwners(kind, key, pa.owners, false)
		}
		if hasNext {
			x.fileOwners(kind, key, na.owners, true)
		}
	}
}

// namespaceList is the byNamespace list of kind in namespace.
func (x *storeIndex) namespaceList(kind, namespace string) *sortedKeys {
	ns := x.byNamespace[kind]
	if ns == nil {
		ns = map[string]*sortedKeys{}
		x.byNamespace[kind] = ns
	}
	return keysIn(ns, namespace)
}

// controllerList is the list a pod with attributes a is in: its
// controller's, or its namespace's orphans.
func (x *storeIndex) controllerList(a indexed) *sortedKeys {
	if a.controller != "" {
		return keysIn(x.podsByController, a.controller)
	}
	return keysIn(x.podOrphans, a.namespace)
}

// fileOwners adds key under each of owners' uids, or removes it.
func (x *storeIndex) fileOwners(kind, key string, owners []api.OwnerReference, add bool) {
	for _, r := range owners {
		if r.UID == "" {
			continue
		}
		byKind := x.byOwner[r.UID]
		if byKind == nil {
			byKind = map[string]*sortedKeys{}
			x.byOwner[r.UID] = byKind
		}
		if s := keysIn(byKind, kind); add {
			s.add(key)
		} else {
			s.remove(key)
		}
	}
}

// objectsOf returns the objects of kind with the given keys, in order.
func objectsOf[T api.Object](s *store, kind string, keys []string) []T {
	m := s.objs[kind]
	out := make([]T, 0, len(keys))
	for _, k := range keys {
		if o, ok := m[k].(T); ok {
			out = append(out, o)
		}
	}
	return out
}

// namespaceKeys are the keys of kind in namespace, in order (the store's
// own slice: do not modify it, nor write to the store while reading it).
func (s *store) namespaceKeys(kind, namespace string) []string {
	return s.index.byNamespace[kind][namespace].list()
}

// podsOnNode are the pods bound to node, in key order.
func (s *store) podsOnNode(node string) []*api.Pod {
	if ks := s.index.podsByNode[node].list(); len(ks) > 0 {
		return objectsOf[*api.Pod](s, "Pod", ks)
	}
	return nil
}

// podsOf are the pods of namespace a controller with one of uids
// controls, and the namespace's orphans, in key order: every pod a sync
// of such a controller does not ignore.
func (s *store) podsOf(namespace string, uids ...string) []*api.Pod {
	var lists [][]string
	if ks := s.index.podOrphans[namespace].list(); len(ks) > 0 {
		lists = append(lists, ks)
	}
	for _, uid := range uids {
		if ks := s.index.podsByController[uid].list(); len(ks) > 0 {
			lists = append(lists, ks)
		}
	}
	var keys []string
	switch len(lists) {
	case 0:
		return nil
	case 1:
		keys = lists[0]
	default:
		for _, l := range lists {
			keys = append(keys, l...)
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	var out []*api.Pod
	m := s.objs["Pod"]
	for _, k := range keys {
		p, _ := m[k].(*api.Pod)
		if p != nil && p.Namespace == namespace {
			out = append(out, p)
		}
	}
	return out
}

// dependents are the objects of kind with an ownerReference to one of
// uids, in key order.
func (s *store) dependents(kind string, uids map[string]bool) []api.Object {
	var keys []string
	n := 0
	for uid := range uids {
		if ks := s.index.byOwner[uid][kind].list(); len(ks) > 0 {
			keys = append(keys, ks...)
			n++
		}
	}
	if n > 1 {
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	return objectsOf[api.Object](s, kind, keys)
}

// deploymentPods are the pods of d's ReplicaSets (those it controls among
// sets), with the namespace's orphans: the Deployment controller reads
// the pods of its ReplicaSets only (workloads.DeploymentInput).
func deploymentPods(c *store, d *api.Deployment, sets []*api.ReplicaSet) []*api.Pod {
	var uids []string
	for _, rs := range sets {
		if ref := rs.ControllerRef(); ref != nil && ref.UID == d.UID {
			uids = append(uids, rs.UID)
		}
	}
	return c.podsOf(d.Namespace, uids...)
}

// kubeletOrder is the kubelets' node names in order. Kubelets are only
// ever added, so the cache is current while it has as many names.
func (m *Machine) kubeletOrder() []string {
	if len(m.kubeletsSorted) != len(m.kubelets) {
		m.kubeletsSorted = m.kubeletsSorted[:0]
		for n := range m.kubelets {
			m.kubeletsSorted = append(m.kubeletsSorted, n)
		}
		slices.Sort(m.kubeletsSorted)
		for i, n := range m.kubeletsSorted {
			m.kubelets[n].rank = i
		}
	}
	return m.kubeletsSorted
}

// gcCandidate reports a pod the pod garbage collector may act on whatever
// the nodes: terminated (a phase other than Pending, Running, Unknown:
// counted against the terminated-pod threshold) or terminating
// (termination.Collector's other categories). The rest of its work is
// the pods bound to nodes missing from the node cache (podGCPods).
func gcCandidate(p *api.Pod) bool {
	switch p.Status.Phase {
	case api.PodPending, api.PodRunning, api.PodUnknown:
		return p.DeletionTimestamp != nil
	}
	return true
}

// nodesOf are the cached nodes pods are bound to, by name: the nodes pod
// GC reads are those of the pods it is given (it looks a pod's node up by
// name, and its quarantine's nodes are the missing nodes of earlier
// pods), so the others change no pass.
func (s *store) nodesOf(pods []*api.Pod) []*api.Node {
	var names []string
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			names = append(names, p.Spec.NodeName)
		}
	}
	slices.Sort(names)
	var out []*api.Node
	for _, n := range slices.Compact(names) {
		if o, ok := s.objs["Node"][n].(*api.Node); ok {
			out = append(out, o)
		}
	}
	return out
}

// podGCPods are the cached pods the pod garbage collector can act on or
// count, in key order: the gcCandidate ones and those bound to a node the
// cache does not hold. A running pod on a known node is none of its
// business (termination.Collector: terminated pods over the threshold,
// terminating pods on out-of-service nodes or never scheduled, pods on
// missing nodes), so leaving it out changes no pass and no deadline.
func (s *store) podGCPods() []*api.Pod {
	keys := s.index.gcCandidates.list()
	x := &s.index
	if !x.missingKnown {
		x.missing = x.missing[:0]
		for node, ks := range x.podsByNode {
			if ks.len() > 0 && s.objs["Node"][node] == nil {
				x.missing = append(x.missing, node)
			}
		}
		x.missingKnown = true
	}
	var extra []string
	for _, node := range x.missing {
		extra = append(extra, x.podsByNode[node].list()...)
	}
	if len(extra) > 0 {
		keys = append(slices.Clip(keys), extra...)
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	return objectsOf[*api.Pod](s, "Pod", keys)
}
