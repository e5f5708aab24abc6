package scheduling

import (
	"sync"
	"sync/atomic"

	"github.com/podsem/podsem/api"
)

// The scheduler's node list: kube-scheduler does not walk the nodes in the
// order its cache received them. Its cache keeps a node tree
// (pkg/scheduler/backend/cache/node_tree.go): the nodes grouped by zone
// key, the groups in the order their first node arrived, and the list a
// cycle walks takes the first node of every group, then the second of
// every group, and so on, a group that ran out being skipped. A cycle
// starts at the snapshot's nextStartNodeIndex and wraps around.
//
// The tree itself is updated in O(zones + the node's zone) when a node is
// added, updated or removed; the flattened list a decision walks is built
// from it (a cursor walking the rounds) by NewCluster once its nodes are
// in, then again the first time a decision needs it after a node was
// added, removed or moved to another zone, so that no update of the
// snapshot costs O(nodes) for it.

// zoneGroup is one zone of the node tree: its nodes' snapshot indexes in
// arrival order (renumbered when a node is removed).
type zoneGroup struct {
	key   string
	nodes []int32
}

// nodeTree groups the snapshot's nodes by zone key (see the top of this
// file).
type nodeTree struct {
	zones []*zoneGroup
	byKey map[string]*zoneGroup
	n     int

	// flat is the node list, valid while stale is false; mu serializes
	// the decisions that rebuild it (decisions may run concurrently, the
	// updates that make it stale may not).
	// at is flat's inverse: at[i] is node index i's position in flat.
	flat  []int32
	at    []int32
	stale atomic.Bool
	mu    sync.Mutex
}

// list returns the flattened node list, rebuilding it if the tree changed.
func (t *nodeTree) list() []int32 {
	flat, _ := t.lists()
	return flat
}

// lists returns the flattened node list and its inverse (the position of
// every node index in it), rebuilding them if the tree changed.
func (t *nodeTree) lists() (flat, at []int32) {
	if !t.stale.Load() {
		return t.flat, t.at
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stale.Load() {
		flat := make([]int32, 0, t.n)
		at := make([]int32, t.n)
		if t.n > 0 {
			cur := t.cursor(0)
			for p := range t.n {
				i := cur.next()
				flat = append(flat, int32(i))
				at[i] = int32(p)
			}
		}
		t.flat, t.at = flat, at
		t.stale.Store(false)
	}
	return t.flat, t.at
}

func (t *nodeTree) add(ni *NodeInfo) {
	key := api.ZoneKey(ni.node)
	z := t.byKey[key]
	if z == nil {
		if t.byKey == nil {
			t.byKey = map[string]*zoneGroup{}
		}
		z = &zoneGroup{key: key}
		t.byKey[key] = z
		t.zones = append(t.zones, z)
	}
	ni.zone = z
	z.nodes = append(z.nodes, int32(ni.index))
	t.n++
	t.stale.Store(true)
}

func (t *nodeTree) remove(ni *NodeInfo) {
	z := ni.zone
	if z == nil {
		return
	}
	for i, m := range z.nodes {
		if int(m) == ni.index {
			z.nodes = append(z.nodes[:i], z.nodes[i+1:]...)
			break
		}
	}
	ni.zone = nil
	t.n--
	t.stale.Store(true)
	if len(z.nodes) > 0 {
		return
	}
	delete(t.byKey, z.key)
	for i, m := range t.zones {
		if m == z {
			t.zones = append(t.zones[:i], t.zones[i+1:]...)
			break
		}
	}
}

// renumber shifts the indexes above a removed node's index down by one.
func (t *nodeTree) renumber(removed int) {
	t.stale.Store(true)
	for _, z := range t.zones {
		for i, m := range z.nodes {
			if int(m) > removed {
				z.nodes[i] = m - 1
			}
		}
	}
}

// update moves a node whose zone key changed to the end of its new zone,
// as the cache's nodeTree.updateNode does; a node keeping its zone keeps
// its place.
func (t *nodeTree) update(ni *NodeInfo) {
	if ni.zone != nil && ni.zone.key == api.ZoneKey(ni.node) {
		return
	}
	t.remove(ni)
	t.add(ni)
}

// before reports the number of list positions taken by rounds 0..r-1.
func (t *nodeTree) before(r int) int {
	s := 0
	for _, z := range t.zones {
		s += min(len(z.nodes), r)
	}
	return s
}

// treeCursor walks the node list from a position, wrapping around.
type treeCursor struct {
	t        *nodeTree
	round    int
	zi       int
	maxRound int
}

// cursor returns a cursor at list position p (0 <= p < t.n).
func (t *nodeTree) cursor(p int) treeCursor {
	c := treeCursor{t: t}
	for _, z := range t.zones {
		c.maxRound = max(c.maxRound, len(z.nodes))
	}
	if t.n == 0 {
		return c
	}
	// The largest round starting at or before p.
	lo, hi := 0, c.maxRound-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.before(mid) <= p {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	c.round = lo
	q := p - t.before(lo)
	for i, z := range t.zones {
		if len(z.nodes) > lo {
			if q == 0 {
				c.zi = i
				break
			}
			q--
		}
	}
	return c
}

// next returns the snapshot index of the node at the cursor and advances
// it.
func (c *treeCursor) next() int {
	zones := c.t.zones
	ni := int(zones[c.zi].nodes[c.round])
	c.zi++
	for {
		for c.zi < len(zones) && len(zones[c.zi].nodes) <= c.round {
			c.zi++
		}
		if c.zi < len(zones) {
			return ni
		}
		c.round++
		c.zi = 0
		if c.round >= c.maxRound {
			c.round = 0
		}
	}
}

// TreeOrder returns the snapshot indexes of the nodes in the order of
// kube-scheduler's node list (its cache's node tree: zones round robin, see
// ZoneKey), the order ScheduleOne walks from its start index. It allocates
// the list; nil for a nil Cluster.
func (c *Cluster) TreeOrder() []int {
	if c == nil || c.tree.n == 0 {
		return nil
	}
	flat := c.tree.list()
	out := make([]int, len(flat))
	for k, i := range flat {
		out[k] = int(i)
	}
	return out
}
