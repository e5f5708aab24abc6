package scheduling

import (
	"maps"
	"slices"
	"sync"

	"github.com/podsem/podsem/api"
)

// spreadCache is what PodTopologySpread keeps between scheduling cycles on
// one snapshot, so that a decision costs a pass over the nodes instead of a
// pass over every pod and every node label:
//
//   - per topology key, the domain of every node (an interned value id, or
//     -1 when the node lacks the key) and the number of nodes in every
//     domain, read from the snapshot's label column of the key the first
//     time a constraint names it (NewCluster reads those of
//     kubernetes.io/hostname and topology.kubernetes.io/zone, the system
//     default constraints' keys);
//   - per (namespace, selector), the number of non-terminating pods of that
//     namespace matching the selector on every node, built the first time a
//     constraint uses the selector ("cold") and reused afterwards ("warm"),
//     and, per topology key asked, the same counts summed per domain with
//     their two smallest (PreFilter's critical paths);
//   - the counted pods by namespace and label (podPostings), kept for the
//     snapshot's life, so that a new selector's counts are computed from
//     posting lists rather than by matching every pod of the namespace.
//
// All are kept current by the snapshot's update methods (podAttached,
// podDetached, nodeAdded, nodeRemoved, nodeUpdated): adding or removing one
// pod costs O(its labels) in the posting lists and one selector match per
// cached selector of its namespace its labels could satisfy, never a
// rebuild. Lookups and insertions are guarded by mu so that concurrent
// cycles may warm the cache; the arrays themselves only change through the
// update methods, which never run concurrently with cycles.
//
// The snapshot (cluster.go) holds one spreadCache and calls the update
// methods; see spreadCacheOf.
type spreadCache struct {
	mu   sync.Mutex
	keys map[string]*topoKeyIndex
	// sels holds the cached selector counts by namespace, then by the
	// selector's string form.
	sels   map[string]map[string]*selectorCounts
	nsels  int
	order  []*selectorCounts // insertion order, for eviction
	nNodes int               // nodes the arrays cover
	// guarded indexes the cached selectors of a namespace that pin a label
	// key to listed values (=, ==, in) by that key and each value: only a
	// pod carrying one of the values can match them, so a pod update
	// visits only the selectors it could move. unguarded holds the rest.
	guarded   map[string]map[string]map[string][]*selectorCounts
	unguarded map[string][]*selectorCounts
	// pods indexes the counted pods by label (spread_postings.go); private
	// is set when the index was built for a cache the snapshot does not
	// keep current (see podIndex).
	pods    *podPostings
	private bool
	// workloads are the objects default constraints take selectors from.
	workloads SpreadWorkloads
	// compiled keeps pods' own constraints compiled, nextCompiled is the
	// slot the next one takes (spread_compiled.go).
	compiled     [maxCompiledSpread]*compiledSpread
	nextCompiled int
}

// maxCachedSelectors bounds the selector cache; the oldest entry goes
// first.
const maxCachedSelectors = 256

// topoKeyIndex maps every node to its domain for one topology key.
type topoKeyIndex struct {
	key string
	// ids[i] is the domain id of node i's value, -1 when node i lacks the
	// key. Id 0 is always the empty value "".
	ids []int32
	// values[d] is domain d's value and byValue the inverse, both built
	// when idOf first needs them; until then, an index built from a label
	// column (fromColumn) names its values by the column's value ids:
	// col.values[colIDs[d]] for d > 0.
	values  []string
	byValue map[string]int32
	col     *labelColumn
	colIDs  []int32
	// nodesIn[d] counts the nodes in domain d, live the domains holding a
	// node, missing the nodes lacking the key.
	nodesIn []int32
	live    int
	missing int
	// version changes whenever a node joins, leaves or changes domain.
	version uint64
}

// place counts delta nodes into domain d (-1: lacking the key).
func (t *topoKeyIndex) place(d, delta int32) {
	if d < 0 {
		t.missing += int(delta)
		return
	}
	before := t.nodesIn[d]
	t.nodesIn[d] += delta
	switch {
	case before == 0 && t.nodesIn[d] > 0:
		t.live++
	case before > 0 && t.nodesIn[d] == 0:
		t.live--
	}
}

// selectorDomains is a selector's count of matching pods per domain of one
// topology key, over every node carrying the key (PreFilter's counts when
// no node inclusion policy excludes a node and every node carries every
// DoNotSchedule key), kept current with the selector's per-node counts,
// with the two smallest counts over the domains holding a node
// (PreFilter's critical paths) computed on demand.
type selectorDomains struct {
	t      *topoKeyIndex
	counts []int32
	// paths are valid when pathsOK and t.version is pathsVersion.
	paths        criticalPaths
	pathsOK      bool
	pathsVersion uint64
}

// grow extends counts to every domain id of the key.
func (dc *selectorDomains) grow() {
	if n := dc.t.numDomains(); len(dc.counts) < n {
		dc.counts = append(dc.counts, make([]int32, n-len(dc.counts))...)
	}
}

// add moves the count of domain d (-1: none) by delta, a domain holding
// a node (the node a pod is bound to or leaves). The critical paths follow
// when they can without a recount.
func (dc *selectorDomains) add(d, delta int32) {
	if d < 0 || delta == 0 {
		return
	}
	dc.grow()
	dc.counts[d] += delta
	if dc.pathsOK {
		dc.pathsOK = dc.paths.moved(d, int(dc.counts[d]), delta < 0)
	}
}

// selectorCounts counts, per node, the non-terminating pods of one
// namespace that one selector matches (the plugin's countPodsMatchSelector
// for every node at once).
type selectorCounts struct {
	ns, str string
	sel     api.Selector
	perNode []int32
	// domains holds the entry's counts per domain, for the keys asked.
	domains []*selectorDomains
	// guardKey and guardValues are the requirement the entry is indexed
	// under in spreadCache.guarded (guardKey "" and no values: unguarded).
	guardKey    string
	guardValues []string
}

// guard picks the requirement of sel pinning a key to the fewest values
// (=, ==, in); ok is false when none does.
func guard(sel api.Selector) (key string, values []string, ok bool) {
	for _, r := range sel.Requirements() {
		switch r.Operator() {
		case api.SelectionEquals, api.SelectionDoubleEquals, api.SelectionIn:
		default:
			continue
		}
		if vs := r.Values(); !ok || len(vs) < len(values) {
			key, values, ok = r.Key(), vs, true
		}
	}
	return key, values, ok
}

// index files e under its guard (or as unguarded).
func (sc *spreadCache) index(e *selectorCounts) {
	key, values, ok := guard(e.sel)
	if !ok {
		sc.unguarded[e.ns] = append(sc.unguarded[e.ns], e)
		return
	}
	e.guardKey, e.guardValues = key, values
	byKey := sc.guarded[e.ns]
	if byKey == nil {
		byKey = map[string]map[string][]*selectorCounts{}
		sc.guarded[e.ns] = byKey
	}
	byValue := byKey[key]
	if byValue == nil {
		byValue = map[string][]*selectorCounts{}
		byKey[key] = byValue
	}
	for _, v := range values {
		byValue[v] = append(byValue[v], e)
	}
}

// unindex removes e from the guard index.
func (sc *spreadCache) unindex(e *selectorCounts) {
	drop := func(list []*selectorCounts) []*selectorCounts {
		for i, x := range list {
			if x == e {
				list[i] = list[len(list)-1]
				list[len(list)-1] = nil
				return list[:len(list)-1]
			}
		}
		return list
	}
	if len(e.guardValues) == 0 {
		if l := drop(sc.unguarded[e.ns]); len(l) > 0 {
			sc.unguarded[e.ns] = l
		} else {
			delete(sc.unguarded, e.ns)
		}
		return
	}
	byKey := sc.guarded[e.ns]
	byValue := byKey[e.guardKey]
	for _, v := range e.guardValues {
		if l := drop(byValue[v]); len(l) > 0 {
			byValue[v] = l
		} else {
			delete(byValue, v)
		}
	}
	if len(byValue) == 0 {
		delete(byKey, e.guardKey)
	}
	if len(byKey) == 0 {
		delete(sc.guarded, e.ns)
	}
}

func newSpreadCache() *spreadCache {
	return &spreadCache{keys: map[string]*topoKeyIndex{}, sels: map[string]map[string]*selectorCounts{},
		guarded: map[string]map[string]map[string][]*selectorCounts{}, unguarded: map[string][]*selectorCounts{},
		pods: newPodPostings()}
}

// keyIndex returns the domain index of key, building it on first use.
func (sc *spreadCache) keyIndex(c *Cluster, key string) *topoKeyIndex {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.syncNodes(c)
	if t, ok := sc.keys[key]; ok {
		return t
	}
	t := &topoKeyIndex{key: key, ids: make([]int32, len(c.nodes)), values: []string{""}, nodesIn: []int32{0}}
	if c.labels.nNodes == len(c.nodes) {
		t.fromColumn(c.labels.column(key))
	} else {
		for i, n := range c.nodes {
			t.ids[i] = t.idOf(n.node.Labels)
			t.place(t.ids[i], 1)
		}
	}
	sc.keys[key] = t
	return t
}

// fromColumn fills the index of a snapshot whose label column of the key
// is col (nil: no node carries it) from the column's interned values,
// giving the domains the ids idOf would give them node by node (the empty
// value 0, then the others in the order of their first node), so that a
// new key costs a pass over one array instead of a label map lookup per
// node. The values themselves are read from the column when idOf first
// needs them (a column's values are never changed, only appended to).
func (t *topoKeyIndex) fromColumn(col *labelColumn) {
	if col == nil {
		for i := range t.ids {
			t.ids[i] = -1
		}
		t.missing = len(t.ids)
		return
	}
	// byCol[v] is the domain id of the column's value id v, 0 until seen;
	// the column's empty value, if any, is domain 0 from the start.
	byCol := make([]int32, len(col.values))
	empty, hasEmpty := col.byValue[""]
	nodesIn := make([]int32, len(col.values)+1)
	colIDs := make([]int32, 1, len(col.values)+1)
	colIDs[0] = -1 // the empty value, named by string
	missing := 0
	for i, v := range col.ids {
		if v < 0 {
			t.ids[i] = -1
			missing++
			continue
		}
		d := byCol[v]
		if d == 0 && (!hasEmpty || v != empty) {
			d = int32(len(colIDs))
			colIDs = append(colIDs, v)
			byCol[v] = d
		}
		t.ids[i] = d
		nodesIn[d]++
	}
	t.nodesIn = nodesIn[:len(colIDs)]
	t.missing = missing
	for _, n := range t.nodesIn {
		if n > 0 {
			t.live++
		}
	}
	t.values = nil
	t.col, t.colIDs = col, colIDs
}

// value returns domain d's value.
func (t *topoKeyIndex) value(d int32) string {
	if t.col != nil {
		if d == 0 {
			return ""
		}
		return t.col.values[t.colIDs[d]]
	}
	return t.values[d]
}

// numDomains returns the number of domain ids of the key so far.
func (t *topoKeyIndex) numDomains() int { return len(t.nodesIn) }

// domains returns the number of domain ids of the key so far.
func (sc *spreadCache) domains(t *topoKeyIndex) int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return t.numDomains()
}

// idOf interns the node's value for the key.
func (t *topoKeyIndex) idOf(labels map[string]string) int32 {
	v, ok := labels[t.key]
	if !ok {
		return -1
	}
	if t.byValue == nil {
		if t.col != nil {
			t.values = make([]string, len(t.colIDs))
			for d, v := range t.colIDs[1:] {
				t.values[d+1] = t.col.values[v]
			}
			t.col, t.colIDs = nil, nil
		}
		t.byValue = make(map[string]int32, len(t.values))
		for id, v := range t.values {
			t.byValue[v] = int32(id)
		}
	}
	if id, ok := t.byValue[v]; ok {
		return id
	}
	id := int32(len(t.values))
	t.values = append(t.values, v)
	t.nodesIn = append(t.nodesIn, 0)
	t.byValue[v] = id
	return id
}

// selectorCounts returns the per-node counts of pods of ns matching sel,
// building them on first use; cold reports whether they were built now.
func (sc *spreadCache) selectorCounts(c *Cluster, ns string, sel api.Selector) (counts []int32, cold bool) {
	return sc.selectorCountsOf(c, ns, sel.String(), sel)
}

// selectorCountsOf is selectorCounts for sel with its String form str.
func (sc *spreadCache) selectorCountsOf(c *Cluster, ns, str string, sel api.Selector) (counts []int32, cold bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.syncNodes(c)
	e, cold := sc.entry(c, ns, str, sel)
	return e.perNode, cold
}

// hardDomainCounts returns the counts per domain of t of the pods of ns
// matching sel, over every node carrying the key, and their critical
// paths over the domains holding a node; the counts are the cache's, to
// read and not modify.
func (sc *spreadCache) hardDomainCounts(c *Cluster, ns string, sel api.Selector, t *topoKeyIndex) ([]int32, criticalPaths) {
	return sc.hardDomainCountsOf(c, ns, sel.String(), sel, t)
}

// hardDomainCountsOf is hardDomainCounts for sel with its String form
// str.
func (sc *spreadCache) hardDomainCountsOf(c *Cluster, ns, str string, sel api.Selector, t *topoKeyIndex) ([]int32, criticalPaths) {
	dc := sc.selectorDomainsOf(c, ns, str, sel, t)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if !dc.pathsOK || dc.pathsVersion != t.version {
		dc.paths = newCriticalPaths()
		for d, n := range t.nodesIn {
			if n > 0 {
				dc.paths.insert(int32(d), int(dc.counts[d]))
			}
		}
		dc.pathsOK, dc.pathsVersion = true, t.version
	}
	return dc.counts, dc.paths
}

// softDomainCounts returns the counts per domain of t of the pods of ns
// matching sel (String form str), over every node carrying the key; they
// are the cache's, to read and not modify.
func (sc *spreadCache) softDomainCounts(c *Cluster, ns, str string, sel api.Selector, t *topoKeyIndex) []int32 {
	dc := sc.selectorDomainsOf(c, ns, str, sel, t)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return dc.counts
}

// selectorDomainsOf returns the per-domain counts of the pods of ns matching
// sel (String form str) for key t, building them on first use.
func (sc *spreadCache) selectorDomainsOf(c *Cluster, ns, str string, sel api.Selector, t *topoKeyIndex) *selectorDomains {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.syncNodes(c)
	e, _ := sc.entry(c, ns, str, sel)
	for _, dc := range e.domains {
		if dc.t == t {
			dc.grow()
			return dc
		}
	}
	dc := &selectorDomains{t: t, counts: make([]int32, t.numDomains())}
	for n, d := range t.ids {
		if d >= 0 {
			dc.counts[d] += e.perNode[n]
		}
	}
	e.domains = append(e.domains, dc)
	return dc
}

// entry returns the cache entry of sel in ns (str is sel.String()),
// counting it now when absent (cold); mu held.
func (sc *spreadCache) entry(c *Cluster, ns, str string, sel api.Selector) (e *selectorCounts, cold bool) {
	if e, ok := sc.sels[ns][str]; ok {
		return e, false
	}
	e = &selectorCounts{ns: ns, str: str, sel: sel, perNode: make([]int32, len(c.nodes))}
	sc.podIndex(c).countSelector(ns, sel, e.perNode)
	if sc.nsels >= maxCachedSelectors {
		old := sc.order[0]
		sc.order[0] = nil
		sc.order = sc.order[1:]
		delete(sc.sels[old.ns], old.str)
		if len(sc.sels[old.ns]) == 0 {
			delete(sc.sels, old.ns)
		}
		sc.unindex(old)
		sc.nsels--
	}
	m := sc.sels[ns]
	if m == nil {
		m = map[string]*selectorCounts{}
		sc.sels[ns] = m
	}
	m[str] = e
	sc.index(e)
	sc.order = append(sc.order, e)
	sc.nsels++
	return e, true
}

// podIndex returns the index of c's counted pods: the one the snapshot's
// update methods keep current when sc is the snapshot's cache, else one
// built now from the snapshot's pods for this cache alone (mu held).
func (sc *spreadCache) podIndex(c *Cluster) *podPostings {
	if c.spread == sc || sc.private {
		return sc.pods
	}
	sc.private = true
	for _, ns := range slices.Sorted(maps.Keys(c.byNamespace)) {
		for _, p := range c.byNamespace[ns] {
			if countable(p) {
				sc.pods.add(p)
			}
		}
	}
	return sc.pods
}

// syncNodes drops everything when the snapshot's node count no longer
// matches the arrays: a cache not kept current by the update methods
// (spreadCacheOf returning a fresh cache per cycle) never reaches here
// stale, and a kept one always matches.
func (sc *spreadCache) syncNodes(c *Cluster) {
	if sc.nNodes == len(c.nodes) {
		return
	}
	sc.keys = map[string]*topoKeyIndex{}
	sc.sels = map[string]map[string]*selectorCounts{}
	sc.guarded = map[string]map[string]map[string][]*selectorCounts{}
	sc.unguarded = map[string][]*selectorCounts{}
	sc.order = nil
	sc.nsels = 0
	sc.nNodes = len(c.nodes)
}

// podAttached counts a pod just bound to a snapshot node.
func (sc *spreadCache) podAttached(p *PodInfo) { sc.podDelta(p, 1) }

// podDetached uncounts a pod about to leave its node (p.node still set).
func (sc *spreadCache) podDetached(p *PodInfo) { sc.podDelta(p, -1) }

func (sc *spreadCache) podDelta(p *PodInfo, d int32) {
	if !countable(p) {
		return
	}
	if d > 0 {
		p.spreadID = sc.pods.add(p)
	} else if p.spreadID != 0 {
		sc.pods.remove(p, p.spreadID)
		p.spreadID = 0
	}
	labels := api.Set(p.pod.Labels)
	for key, byValue := range sc.guarded[p.pod.Namespace] {
		v, ok := labels[key]
		if !ok {
			continue
		}
		for _, e := range byValue[v] {
			if e.sel.Matches(labels) {
				e.count(p.node.index, d)
			}
		}
	}
	for _, e := range sc.unguarded[p.pod.Namespace] {
		if e.sel.Matches(labels) {
			e.count(p.node.index, d)
		}
	}
}

// count moves the entry's count on node index n by d.
func (e *selectorCounts) count(n int, d int32) {
	e.perNode[n] += d
	for _, dc := range e.domains {
		dc.add(dc.t.ids[n], d)
	}
}

// nodeAdded extends the arrays for a node appended to the snapshot (before
// any of its pods are attached).
func (sc *spreadCache) nodeAdded(n *NodeInfo) {
	if sc.nNodes != n.index {
		sc.nNodes = -1 // out of step: rebuilt on next use
		return
	}
	for _, t := range sc.keys {
		d := t.idOf(n.node.Labels)
		t.ids = append(t.ids, d)
		t.place(d, 1)
		t.version++
	}
	for _, e := range sc.order {
		e.perNode = append(e.perNode, 0)
	}
	sc.nNodes++
}

// nodeRemoved drops the node at index (after its pods were detached);
// later nodes shift down by one.
func (sc *spreadCache) nodeRemoved(index int) {
	sc.pods.nodeRemoved(index)
	if index >= sc.nNodes || sc.nNodes < 0 {
		sc.nNodes = -1
		return
	}
	for _, t := range sc.keys {
		t.place(t.ids[index], -1)
		t.version++
		t.ids = append(t.ids[:index], t.ids[index+1:]...)
	}
	for _, e := range sc.order {
		e.perNode = append(e.perNode[:index], e.perNode[index+1:]...)
	}
	sc.nNodes--
}

// nodeUpdated re-reads the node's labels (its pods are unchanged).
func (sc *spreadCache) nodeUpdated(n *NodeInfo) {
	if n.index >= sc.nNodes || sc.nNodes < 0 {
		sc.nNodes = -1
		return
	}
	for _, t := range sc.keys {
		old, d := t.ids[n.index], t.idOf(n.node.Labels)
		if old == d {
			continue
		}
		t.ids[n.index] = d
		t.place(old, -1)
		t.place(d, 1)
		t.version++
		// The node's pods move to the new domain.
		for _, e := range sc.order {
			for _, dc := range e.domains {
				if dc.t == t {
					dc.add(old, -e.perNode[n.index])
					dc.add(d, e.perNode[n.index])
				}
			}
		}
	}
}
