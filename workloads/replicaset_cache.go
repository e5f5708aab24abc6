package workloads

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// PodChange is one change of the ReplicaSet controller's pod informer
// cache, as the controller's pod event handlers receive it (addPod,
// updatePod, deletePod in pkg/controller/replicaset): Old nil for a pod
// added, New nil for a pod deleted (Old its last state), both for an
// update of one pod (the same namespace and name). The controller reads
// only Old's namespace and name: it holds what the cache held.
type PodChange struct {
	Old, New *api.Pod
}

// NewIncrementalReplicaSetController returns a ReplicaSet controller, with
// v1.36.3's defaults and no memory, that is fed the pod informer cache's
// changes instead of its content: each Step reads in.PodEvents, the
// changes since the controller's previous Step (whichever set that
// synced; in.Pods must be nil), and keeps its own copy of the cache, as
// the real controller's informer does. It answers every Step exactly as a
// controller of NewReplicaSetController given the whole cache in key
// order (namespace/name) would: the same adoptions, releases, creations,
// deletions (ranked over the cache's pods), status, events, expectations
// and requeue. A sync costs what changed since the set's previous sync,
// not the set's size: per ReplicaSet the controller keeps the counts of
// its status and the pods it would adopt or release, updated by each
// pod event (an orphan's concerns every set of its namespace, any other
// pod's only its controller's); they are counted afresh from the copy when
// the set's uid, selector, template labels, minReadySeconds or deletion
// change. Only a scale-down lists the set's pods, to rank them.
//
// Creations are observed as by a controller given whole caches: a pod the
// set controls that is in the cache at a sync and was not at the set's
// previous sync. The pods and sets given are kept, as an informer's cache
// keeps them: the caller must not modify them afterwards.
func NewIncrementalReplicaSetController() *ReplicaSetController {
	return &ReplicaSetController{cache: &rsCache{
		pods: map[string]*api.Pod{}, inNS: map[string]map[string]struct{}{}, owned: map[string]map[string]struct{}{},
		orphans: map[string]map[string]struct{}{}, sets: map[string]*rsCounts{}, setsInNS: map[string]map[string]*rsCounts{},
		awaiting: map[string]map[string]*rsMemory{},
	}}
}

// rsCache is an incremental controller's copy of the pod informer cache,
// and what it keeps per ReplicaSet.
type rsCache struct {
	// pods are the cache's pods by namespace/name; inNS holds their keys
	// by namespace, owned by their controller's uid, orphans (those
	// without a controller) by namespace.
	pods                 map[string]*api.Pod
	inNS, owned, orphans map[string]map[string]struct{}
	// sets are the counts of each ReplicaSet synced, by uid; setsInNS
	// the same by namespace and uid (the sets an orphan concerns).
	sets     map[string]*rsCounts
	setsInNS map[string]map[string]*rsCounts
	// awaiting are the memories of the sets awaiting creations, by
	// namespace and key: each pod added or deleted there is noted in
	// their fresh and gone.
	awaiting map[string]map[string]*rsMemory
}

// rsCounts is a ReplicaSet's share of the cache: each pod's class for a
// sync of the set (those not ignored) and their sums, for the set as v
// reads it (its shape: see sameShape).
type rsCounts struct {
	v       rsView
	t       rsTally
	members map[string]rsPodClass
	// adopt and release are the keys of the members to adopt and to
	// release; waiting those of the replicas ready but not yet available
	// (minReadySeconds > 0), whose availability changes with time.
	adopt, release, waiting map[string]struct{}
	// at is the latest time a member was classified at: availability
	// only ever comes with time, so a class read at or before now holds
	// at now but for the waiting ones.
	at time.Time
}

// stepIncremental is Step of an incremental controller: the pod events
// applied to the copy of the cache, then the sync of in.ReplicaSet from
// its counts. Malformed events are an error that changes nothing; the
// events of a step whose ReplicaSet is bad input are applied (they are
// the cache's) before the error is returned.
func (c *ReplicaSetController) stepIncremental(in ReplicaSetInput, now time.Time) (ReplicaSetSync, error) {
	if in.Pods != nil {
		return ReplicaSetSync{}, fmt.Errorf("%w: pods: %d given to an incremental controller, which reads podEvents (pods must be nil)", errInvalidInput, len(in.Pods))
	}
	for i, ch := range in.PodEvents {
		switch {
		case ch.Old == nil && ch.New == nil:
			return ReplicaSetSync{}, fmt.Errorf("%w: podEvents[%d]: nil (neither old nor new)", errInvalidInput, i)
		case ch.Old != nil && ch.New != nil && (ch.Old.Namespace != ch.New.Namespace || ch.Old.Name != ch.New.Name) && ch.Old.Key() != ch.New.Key():
			return ReplicaSetSync{}, fmt.Errorf("%w: podEvents[%d]: old %s and new %s are two pods", errInvalidInput, i, ch.Old.Key(), ch.New.Key())
		}
	}
	cache := c.cache
	for _, ch := range in.PodEvents {
		if ch.New != nil {
			cache.apply(ch.New.Key(), ch.New, now)
		} else {
			cache.apply(ch.Old.Key(), nil, now)
		}
	}
	if in.Deleted {
		if in.ReplicaSet == nil {
			return ReplicaSetSync{}, fmt.Errorf("%w: replicaset: nil", errInvalidInput)
		}
		c.forget(in.ReplicaSet)
		return ReplicaSetSync{}, nil
	}
	v, err := cache.view(in.ReplicaSet)
	if err != nil {
		return ReplicaSetSync{}, err
	}
	rs := v.rs
	key, mem := c.memory(rs)
	if old := c.sets[key]; old != nil && old != mem {
		cache.forget(key, rs.Namespace, old)
	}
	counts := cache.countsOf(v, now)
	pending := cache.pending(mem, rs, now)
	res := ReplicaSetSync{Adopted: cache.podsOf(counts.adopt), Released: cache.podsOf(counts.release)}
	var next time.Time
	for k := range counts.waiting {
		next = nextAvailability(next, cache.pods[k], rs.Spec.MinReadySeconds, now)
	}
	v.finish(&res, in, pending, counts.t, next, func() ([]*api.Pod, []*api.Pod) { return cache.pool(counts, in.OtherReplicaSets) }, now)
	c.remember(key, mem, res, now)
	cache.await(key, rs.Namespace, mem)
	return res, nil
}

// apply makes the copy hold n under key (nil: no pod) and updates what
// depends on it: the indexes, the counts of the sets the pod concerns
// before and after, the creations noted for awaiting sets.
func (c *rsCache) apply(key string, n *api.Pod, now time.Time) {
	o := c.pods[key]
	if o == nil && n == nil {
		return
	}
	oc, nc := controllerUID(o), controllerUID(n)
	if o == nil || n == nil || o.Namespace != n.Namespace || oc != nc {
		if o != nil {
			c.file(key, o, oc, false)
		}
		if n != nil {
			c.file(key, n, nc, true)
		}
	}
	if n != nil {
		c.pods[key] = n
	} else {
		delete(c.pods, key)
	}
	// The sets the pod concerns: its controller, or for an orphan every
	// set of its namespace (one it may be adopted by).
	for i, p := range [2]*api.Pod{o, n} {
		if p == nil || i == 1 && o != nil && oc == nc && o.Namespace == n.Namespace {
			continue
		}
		uid := oc
		if i == 1 {
			uid = nc
		}
		if uid != "" {
			if a := c.sets[uid]; a != nil {
				a.set(key, a.v.classify(n, now), now)
			}
			continue
		}
		for _, a := range c.setsInNS[p.Namespace] {
			a.set(key, a.v.classify(n, now), now)
		}
	}
	c.observe(key, o, n)
}

// controllerUID is the uid of p's controller, "" for an orphan or no pod.
func controllerUID(p *api.Pod) string {
	if p == nil {
		return ""
	}
	if ref := p.ControllerRef(); ref != nil {
		return ref.UID
	}
	return ""
}

// file adds key to the indexes p's namespace and controller (uid) put it
// in, or removes it from them.
func (c *rsCache) file(key string, p *api.Pod, uid string, add bool) {
	put := func(m map[string]map[string]struct{}, k string) {
		if add {
			s := m[k]
			if s == nil {
				s = map[string]struct{}{}
				m[k] = s
			}
			s[key] = struct{}{}
			return
		}
		delete(m[k], key)
		if len(m[k]) == 0 {
			delete(m, k)
		}
	}
	put(c.inNS, p.Namespace)
	if uid != "" {
		put(c.owned, uid)
	} else {
		put(c.orphans, p.Namespace)
	}
}

// set makes cl the class of the pod under key (classified at now).
func (a *rsCounts) set(key string, cl rsPodClass, now time.Time) {
	if now.After(a.at) {
		a.at = now
	}
	old, had := a.members[key]
	if had && old == cl {
		return
	}
	if had {
		a.t.add(old, -1)
		delete(a.adopt, key)
		delete(a.release, key)
		delete(a.waiting, key)
	}
	if cl.role == rsIgnored {
		delete(a.members, key)
		return
	}
	a.t.add(cl, 1)
	a.members[key] = cl
	switch {
	case cl.role == rsAdopted:
		a.adopt[key] = struct{}{}
	case cl.role == rsReleased:
		a.release[key] = struct{}{}
	}
	if cl.claimed() && cl.ready && !cl.available {
		a.waiting[key] = struct{}{}
	}
}

// countsOf returns the counts of v's set at now: those kept, once the
// waiting replicas are classified again at now, when the set's shape is
// the one they were counted for and now is not before their time; else
// counted afresh from the copy.
func (c *rsCache) countsOf(v rsView, now time.Time) *rsCounts {
	a := c.sets[v.rs.UID]
	if a == nil || !a.sameShape(v) || v.rs.Spec.MinReadySeconds > 0 && now.Before(a.at) {
		return c.recount(v, now)
	}
	a.v = v
	for k := range a.waiting {
		a.set(k, v.classify(c.pods[k], now), now)
	}
	return a
}

// sameShape reports whether v reads the set a was counted for the same
// way: the same uid and namespace, selector, template labels,
// minReadySeconds, and deletion (a set being deleted adopts nothing).
func (a *rsCounts) sameShape(v rsView) bool {
	p, r := a.v.rs, v.rs
	if p == r {
		return true
	}
	return p.UID == r.UID && p.Namespace == r.Namespace && p.Spec.MinReadySeconds == r.Spec.MinReadySeconds &&
		(p.DeletionTimestamp == nil) == (r.DeletionTimestamp == nil) &&
		(p.Spec.Selector == r.Spec.Selector || (p.Spec.Selector == nil) == (r.Spec.Selector == nil) && a.v.sel.String() == v.sel.String()) &&
		maps.Equal(p.Spec.Template.Labels, r.Spec.Template.Labels)
}

// view is newRSView(rs), reading again only what changed since the set's
// last count: a status write or a scale shares the stored set's selector
// (the same object: objects are not edited in place) and template labels,
// whose compiled forms the last view holds.
func (c *rsCache) view(rs *api.ReplicaSet) (rsView, error) {
	if rs == nil || rs.Spec.Replicas == nil || *rs.Spec.Replicas < 0 || rs.Spec.Selector == nil {
		return newRSView(rs)
	}
	a := c.sets[rs.UID]
	if a == nil || a.v.rs.Spec.Selector != rs.Spec.Selector || !maps.Equal(a.v.rs.Spec.Template.Labels, rs.Spec.Template.Labels) {
		return newRSView(rs)
	}
	v := a.v
	v.rs = rs
	return v, nil
}

// recount counts v's set afresh at now from the pods it may concern: the
// ones it controls and the orphans of its namespace.
func (c *rsCache) recount(v rsView, now time.Time) *rsCounts {
	rs := v.rs
	a := &rsCounts{v: v, members: map[string]rsPodClass{}, adopt: map[string]struct{}{}, release: map[string]struct{}{}, waiting: map[string]struct{}{}}
	for _, keys := range []map[string]struct{}{c.owned[rs.UID], c.orphans[rs.Namespace]} {
		for k := range keys {
			a.set(k, v.classify(c.pods[k], now), now)
		}
	}
	c.sets[rs.UID] = a
	byUID := c.setsInNS[rs.Namespace]
	if byUID == nil {
		byUID = map[string]*rsCounts{}
		c.setsInNS[rs.Namespace] = byUID
	}
	byUID[rs.UID] = a
	return a
}

// forget drops what the copy keeps for mem's set, replaced by another of
// the same key (namespace ns).
func (c *rsCache) forget(key, ns string, mem *rsMemory) {
	if a := c.sets[mem.uid]; a != nil {
		delete(c.sets, mem.uid)
		delete(c.setsInNS[a.v.rs.Namespace], mem.uid)
	}
	if c.awaiting[ns][key] == mem {
		delete(c.awaiting[ns], key)
	}
}

// observe notes, for each set of the namespace awaiting creations, a pod
// that came (n a pod other than o) or went: as a controller given whole
// caches compares the pods (by uid, or key) of one sync with the last.
func (c *rsCache) observe(key string, o, n *api.Pod) {
	var oid, nid, ns string
	if o != nil {
		oid, ns = podIdentity(o), o.Namespace
	}
	if n != nil {
		nid, ns = podIdentity(n), n.Namespace
	}
	if oid == nid {
		return
	}
	for _, m := range c.awaiting[ns] {
		if o != nil {
			if _, ok := m.fresh[oid]; ok {
				delete(m.fresh, oid)
			} else {
				m.gone[oid] = true
			}
		}
		if n != nil {
			if m.gone[nid] {
				delete(m.gone, nid)
			} else {
				m.fresh[nid] = key
			}
		}
	}
}

// podIdentity is the pod's uid, or its key when it has none.
func podIdentity(p *api.Pod) string {
	if p.UID != "" {
		return p.UID
	}
	return p.Key()
}

// pending is rsMemory.pending of an incremental controller: the
// creations observed are the pods noted fresh since the set's previous
// sync that it controls, the deletions awaited the victims still in the
// copy and not being deleted.
func (c *rsCache) pending(m *rsMemory, rs *api.ReplicaSet, now time.Time) ReplicaSetExpectations {
	if m.expecting && m.add > 0 {
		for id, key := range m.fresh {
			if m.add == 0 {
				break
			}
			if p := c.pods[key]; p != nil && podIdentity(p) == id {
				m.observeCreation(rs, p)
			}
		}
	}
	live := 0
	for k := range m.deleted {
		if p := c.pods[k]; p != nil && p.Namespace == rs.Namespace && m.awaitsDeletion(p) {
			live++
		}
	}
	return m.outstanding(live, now)
}

// await starts anew the noting of the pods that come and go for the set
// key of namespace ns after its sync, while it awaits creations, and
// stops it otherwise.
func (c *rsCache) await(key, ns string, mem *rsMemory) {
	if mem.expecting && mem.add > 0 {
		mem.fresh, mem.gone = map[string]string{}, map[string]bool{}
		byKey := c.awaiting[ns]
		if byKey == nil {
			byKey = map[string]*rsMemory{}
			c.awaiting[ns] = byKey
		}
		byKey[key] = mem
		return
	}
	mem.fresh, mem.gone = nil, nil
	if byKey := c.awaiting[ns]; byKey[key] != nil {
		delete(byKey, key)
		if len(byKey) == 0 {
			delete(c.awaiting, ns)
		}
	}
}

// podsOf are the pods under keys, in key order; nil for none.
func (c *rsCache) podsOf(keys map[string]struct{}) []*api.Pod {
	if len(keys) == 0 {
		return nil
	}
	out := make([]*api.Pod, 0, len(keys))
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		out = append(out, c.pods[k])
	}
	return out
}

// pool is what a scale-down of a's set ranks: its replicas, and the pods
// that rank them (those of the namespaces of the set and of the others of
// its controller), in key order.
func (c *rsCache) pool(a *rsCounts, others []*api.ReplicaSet) (claimed, pods []*api.Pod) {
	rs := a.v.rs
	keys := slices.Collect(maps.Keys(c.inNS[rs.Namespace]))
	if ctrl := rs.ControllerRef(); ctrl != nil {
		seen := map[string]bool{rs.Namespace: true}
		for _, o := range others {
			if o == nil || seen[o.Namespace] {
				continue
			}
			if r := o.ControllerRef(); r != nil && r.UID == ctrl.UID {
				seen[o.Namespace] = true
				keys = slices.AppendSeq(keys, maps.Keys(c.inNS[o.Namespace]))
			}
		}
	}
	slices.Sort(keys)
	pods = make([]*api.Pod, len(keys))
	claimed = make([]*api.Pod, 0, a.t.replicas)
	for i, k := range keys {
		pods[i] = c.pods[k]
		if a.members[k].claimed() {
			claimed = append(claimed, pods[i])
		}
	}
	return claimed, pods
}
