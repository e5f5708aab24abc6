package disruption

import (
	"container/heap"
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
)

// ZoneState is the node lifecycle controller's verdict on one zone's
// health, taken after every monitor pass from the Ready conditions of the
// zone's nodes (ComputeZoneState); it sets the zone's NoExecute tainting
// rate.
type ZoneState string

// The zone states.
const (
	// ZoneInitial is a zone first seen in this pass.
	ZoneInitial ZoneState = "Initial"
	// ZoneNormal is tainted at the eviction rate.
	ZoneNormal ZoneState = "Normal"
	// ZonePartialDisruption has more than two not-Ready nodes making up at
	// least the unhealthy-zone threshold: tainted at the secondary rate
	// when larger than the large-cluster threshold, else not at all.
	ZonePartialDisruption ZoneState = "PartialDisruption"
	// ZoneFullDisruption has no Ready node: tainted at the eviction rate,
	// unless every zone is fully disrupted, when nothing is tainted.
	ZoneFullDisruption ZoneState = "FullDisruption"
)

// LabelNodeExcludeDisruption on a node (any value) leaves it out of its
// zone's health (node.kubernetes.io/exclude-disruption).
const LabelNodeExcludeDisruption = "node.kubernetes.io/exclude-disruption"

// tokenBucket is the tainting queue's rate limiter (client-go's token
// bucket over golang.org/x/time/rate, burst 1): it starts full, refills at
// qps tokens a second, and a try takes a token when a whole one is there.
// A qps of 0 never lets anything through.
type tokenBucket struct {
	qps    float32
	tokens float64
	last   time.Time
	used   bool // last and tokens are set (a fresh bucket is full)
}

func (b *tokenBucket) tryAccept(now time.Time) bool {
	if b.qps <= 0 {
		return false
	}
	tokens := 1.0
	if b.used {
		elapsed := max(now.Sub(b.last), 0)
		tokens = min(1, b.tokens+elapsed.Seconds()*float64(b.qps))
	}
	if tokens < 1 {
		return false
	}
	b.tokens, b.last, b.used = tokens-1, now, true
	return true
}

// queued is one entry of a zone's tainting queue.
type queued struct {
	node      string
	processAt time.Time
	seq       uint64 // insertion order, for equal processAt; identifies the entry
}

// zoneTainter is a zone's RateLimitedTimedQueue: the nodes waiting for
// their NoExecute taint, ordered by processAt, and the set of nodes added
// and not since removed (a tainted node stays in the set, so it is not
// queued again until it is Ready again or loses its taint). The heap may
// hold entries no longer queued; live names each queued node's entry, and
// head drops the others.
type zoneTainter struct {
	limiter tokenBucket
	heap    queueHeap
	live    map[string]uint64
	set     map[string]bool
}

func newZoneTainter(qps float32) *zoneTainter {
	return &zoneTainter{limiter: tokenBucket{qps: qps}, live: map[string]uint64{}, set: map[string]bool{}}
}

// add queues node unless it is in the set; it reports whether it did.
func (z *zoneTainter) add(node string, now time.Time, seq uint64) bool {
	if z.set[node] {
		return false
	}
	z.set[node] = true
	z.live[node] = seq
	heap.Push(&z.heap, queued{node: node, processAt: now, seq: seq})
	return true
}

// remove takes node out of the queue and the set.
func (z *zoneTainter) remove(node string) {
	delete(z.set, node)
	delete(z.live, node)
}

// head is the queued node to process first; false when none is queued.
func (z *zoneTainter) head() (queued, bool) {
	for len(z.heap) > 0 {
		if q := z.heap[0]; z.live[q.node] == q.seq {
			return q, true
		}
		heap.Pop(&z.heap)
	}
	return queued{}, false
}

// done takes the head out of the queue; it stays in the set.
func (z *zoneTainter) done() {
	q := heap.Pop(&z.heap).(queued)
	delete(z.live, q.node)
}

// retry moves the head to a later processAt.
func (z *zoneTainter) retry(at time.Time, seq uint64) {
	q := heap.Pop(&z.heap).(queued)
	q.processAt, q.seq = at, seq
	z.live[q.node] = seq
	heap.Push(&z.heap, q)
}

// queueHeap orders queue entries by processAt, then insertion.
type queueHeap []queued

func (h queueHeap) Len() int { return len(h) }
func (h queueHeap) Less(i, j int) bool {
	if !h[i].processAt.Equal(h[j].processAt) {
		return h[i].processAt.Before(h[j].processAt)
	}
	return h[i].seq < h[j].seq
}
func (h queueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *queueHeap) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *queueHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	*h = old[:len(old)-1]
	return q
}

// swapLimiter is SwapLimiter: a new rate gets a fresh bucket, drained at
// once when the old one had no token left.
func (z *zoneTainter) swapLimiter(qps float32, now time.Time) {
	if z.limiter.qps == qps {
		return
	}
	fresh := tokenBucket{qps: qps}
	if qps > 0 && !z.limiter.tryAccept(now) {
		fresh.tryAccept(now)
	}
	z.limiter = fresh
}

// NodeLifecycle is kube-controller-manager's node lifecycle controller
// (pkg/controller/nodelifecycle) over all the nodes of a cluster, as a
// state machine with time as an argument: MonitorPass is one
// monitorNodeHealth pass (every DefaultNodeMonitorPeriod) followed by
// handleDisruption, TaintPass one doNoExecuteTaintingPass (every
// DefaultNodeEvictionPeriod).
//
// Each node's health is NodeMonitor's (grace periods, the Unknown flip,
// the pods marked not ready, the NoSchedule pass). What NodeLifecycle adds
// is the way NoExecute taints are written: a node found not Ready or
// unreachable is queued in its zone's tainting queue, and TaintPass taints
// queued nodes at each zone's rate — a token bucket of burst one refilled
// at --node-eviction-rate (one node per 10 s by default) in a Normal zone
// and in a fully disrupted one, at --secondary-node-eviction-rate in a
// partly disrupted zone larger than --large-cluster-size-threshold, not
// at all in a smaller partly disrupted zone. When every zone is fully
// disrupted (the control plane, not the nodes, is the likely culprit), the
// controller removes every node's not-ready and unreachable NoExecute
// taints (those the node carried when the pass began: one swapped in by
// that same pass stays) and stops tainting; when some node is Ready again it restarts
// every node's grace period from that pass. A node a starting controller
// sees for the first time has those taints removed and, if still not
// Ready, is queued again, so a restart restarts its pods' eviction clocks.
// Nodes with the node.kubernetes.io/exclude-disruption label do not count
// towards their zone's health.
//
// Upstream processes the nodes of a pass in parallel, so nodes queued in
// one pass are tainted in an order it does not fix; NodeLifecycle takes
// the input order. Not modelled: node label reconciliation, events and
// metrics. A NodeLifecycle is not safe for concurrent use.
type NodeLifecycle struct {
	cfg     NodeLifecycleConfig
	monitor NodeMonitor
	known   map[string]uint64 // node name -> the last pass that listed it
	passes  uint64
	states  map[string]ZoneState
	tainter map[string]*zoneTainter
	seq     uint64
}

// NewNodeLifecycle returns a controller that has seen no node yet, as
// after a controller-manager start.
func NewNodeLifecycle(cfg NodeLifecycleConfig) *NodeLifecycle {
	return &NodeLifecycle{
		cfg:     cfg,
		monitor: NodeMonitor{cfg: cfg, nodes: map[string]*nodeHealth{}},
		known:   map[string]uint64{},
		states:  map[string]ZoneState{},
		tainter: map[string]*zoneTainter{},
	}
}

// ZoneReport is one zone after a monitor pass.
type ZoneReport struct {
	// Key is the zone's api.ZoneKey; Region and Zone its two labels.
	Key, Region, Zone string
	// Nodes counts the zone's nodes that count towards its health (not
	// excluded from disruption checks), NotReady those of them whose Ready
	// condition is missing or not True.
	Nodes, NotReady int
	// State is the zone's state; Rate the NoExecute taints per second its
	// queue now lets through (0: none).
	State ZoneState
	Rate  float32
}

// LifecyclePass is what one monitor pass found and did.
type LifecyclePass struct {
	// Nodes holds one report per input node, in input order. Their
	// NoExecute updates are those the pass makes at once — a node Ready
	// again (or newly seen, or every zone fully disrupted) loses its
	// not-ready and unreachable NoExecute taints, a node tainted with the
	// opposite one has it swapped — not the queued taints, which TaintPass
	// writes.
	Nodes []NodeHealthReport
	// Queued names the nodes this pass added to a tainting queue, in the
	// order they were added.
	Queued []string
	// Zones are the zones after the pass, by key.
	Zones []ZoneReport
	// EnteredFullDisruption and ExitedFullDisruption report the pass that
	// found every zone fully disrupted, and the first one after that found
	// one that is not.
	EnteredFullDisruption, ExitedFullDisruption bool
}

// MonitorPass is one monitor pass at now over every node of the cluster
// (the nodes as the API server holds them, including what earlier passes
// wrote); leases maps a node's name to the renewTime of its Lease (absent:
// none). Nodes missing since the last pass are forgotten. A nil node is an
// error naming its position, and nothing changes.
func (c *NodeLifecycle) MonitorPass(nodes []*api.Node, leases map[string]time.Time, now time.Time) (LifecyclePass, error) {
	if c == nil {
		return LifecyclePass{}, fmt.Errorf("%w: node lifecycle: nil", ErrInvalidInput)
	}
	for i, n := range nodes {
		if n == nil {
			return LifecyclePass{}, fmt.Errorf("%w: nodes[%d]: nil", ErrInvalidInput, i)
		}
	}
	if c.known == nil {
		*c = *NewNodeLifecycle(c.cfg)
	}
	var pass LifecyclePass
	pass.Nodes = make([]NodeHealthReport, len(nodes))
	// Taints as the pass leaves them, which its decisions do not see: a
	// pass decides from the nodes as it listed them.
	taints := make([][]api.Taint, len(nodes))
	reachable := make([]NodeTaintUpdate, len(nodes))
	keys := make([]string, len(nodes))
	c.passes++
	for i, n := range nodes {
		keys[i] = api.ZoneKey(n)
		taints[i] = n.Spec.Taints
		seen := c.known[n.Name] != 0
		c.known[n.Name] = c.passes
		if seen {
			if _, ok := c.states[keys[i]]; !ok {
				c.addZone(keys[i])
			}
			continue
		}
		c.addZone(keys[i])
		reachable[i] = c.markReachable(keys[i], n.Name, taints[i], now)
		taints[i] = reachable[i].Taints
	}
	for name, last := range c.known {
		if last != c.passes {
			delete(c.known, name)
		}
	}

	ready := map[string][]*api.NodeCondition{}
	for i, n := range nodes {
		rep, _, _ := c.monitor.observeHealth(n, leases[n.Name], now)
		if _, excluded := n.Labels[LabelNodeExcludeDisruption]; !excluded {
			ready[keys[i]] = append(ready[keys[i]], rep.CurrentReady)
		}
		// The NoSchedule pass judged the listed taints; its changes apply
		// to the taints as this pass left them (it touches no NoExecute
		// taint).
		cur := taints[i]
		if rep.NoSchedule.Changed() {
			cur = swapTaints(cur, rep.NoSchedule.Added, rep.NoSchedule.Removed, now).Taints
		}
		update := NodeTaintUpdate{Taints: cur}
		if rep.CurrentReady != nil {
			update = c.processTaintBaseEviction(n, keys[i], cur, rep.ObservedReady.Status, now, &pass)
		}
		if len(reachable[i].Removed) > 0 {
			update.Removed = append(slices.Clone(reachable[i].Removed), update.Removed...)
		}
		rep.NoExecute = update
		rep.Taints = update.Taints
		pass.Nodes[i] = rep
	}
	c.handleDisruption(nodes, ready, now, &pass)
	for k, st := range c.states {
		region, zone := api.SplitZoneKey(k)
		z := ZoneReport{Key: k, Region: region, Zone: zone, Nodes: len(ready[k]), State: st, Rate: c.tainter[k].limiter.qps}
		z.NotReady, _ = c.zoneState(ready[k])
		pass.Zones = append(pass.Zones, z)
	}
	slices.SortFunc(pass.Zones, func(a, b ZoneReport) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	return pass, nil
}

// addZone is addPodEvictorForNewZone: a zone's state starts Initial and
// its tainting queue empty, at the eviction rate with a full bucket.
func (c *NodeLifecycle) addZone(key string) {
	if _, ok := c.states[key]; ok {
		return
	}
	c.states[key] = ZoneInitial
	c.tainter[key] = newZoneTainter(c.cfg.evictionRate())
}

// markReachable is markNodeAsReachable on the node named name, of zone
// key, whose taints are now taints: its not-ready and unreachable NoExecute taints go, and it leaves
// its zone's queue and set.
func (c *NodeLifecycle) markReachable(key, name string, taints []api.Taint, now time.Time) NodeTaintUpdate {
	if z := c.tainter[key]; z != nil {
		z.remove(name)
	}
	return swapTaints(taints, nil, []api.Taint{unreachableNoExecute, notReadyNoExecute}, now)
}

// processTaintBaseEviction decides from the Ready condition the node
// carried when the pass looked (ready) and the node as listed at the start
// of the pass, and changes cur, the taints as the pass has left them so
// far.
func (c *NodeLifecycle) processTaintBaseEviction(listed *api.Node, key string, cur []api.Taint, ready api.ConditionStatus, now time.Time, pass *LifecyclePass) NodeTaintUpdate {
	switch ready {
	case api.ConditionFalse, api.ConditionUnknown:
		own, opposite := notReadyNoExecute, unreachableNoExecute
		if ready == api.ConditionUnknown {
			own, opposite = opposite, own
		}
		if hasTaint(listed.Spec.Taints, opposite.Key, opposite.Effect) {
			return swapTaints(cur, []api.Taint{own}, []api.Taint{opposite}, now)
		}
		// markNodeForTainting: a node whose taint is missing leaves the
		// set and is queued again.
		z := c.tainter[key]
		if !hasTaint(listed.Spec.Taints, own.Key, own.Effect) {
			z.remove(listed.Name)
		}
		c.seq++
		if z.add(listed.Name, now, c.seq) {
			pass.Queued = append(pass.Queued, listed.Name)
		}
	case api.ConditionTrue:
		return c.markReachable(key, listed.Name, cur, now)
	}
	return NodeTaintUpdate{Taints: cur}
}

// zoneState is ComputeZoneState: the number of not-Ready nodes and the
// zone's state.
func (c *NodeLifecycle) zoneState(conds []*api.NodeCondition) (int, ZoneState) {
	ready, notReady := 0, 0
	for _, cond := range conds {
		if cond != nil && cond.Status == api.ConditionTrue {
			ready++
		} else {
			notReady++
		}
	}
	switch {
	case ready == 0 && notReady > 0:
		return notReady, ZoneFullDisruption
	case notReady > 2 && float32(notReady)/float32(notReady+ready) >= c.cfg.unhealthyZoneThreshold():
		return notReady, ZonePartialDisruption
	}
	return notReady, ZoneNormal
}

// rateFor is setLimiterInZone's rate for a zone of size nodes in state st.
func (c *NodeLifecycle) rateFor(st ZoneState, size int) float32 {
	switch st {
	case ZonePartialDisruption:
		if int32(size) > c.cfg.largeClusterSizeThreshold() {
			return c.cfg.secondaryEvictionRate()
		}
		return 0
	default:
		return c.cfg.evictionRate()
	}
}

// handleDisruption sets each zone's state and rate after a pass.
func (c *NodeLifecycle) handleDisruption(nodes []*api.Node, ready map[string][]*api.NodeCondition, now time.Time, pass *LifecyclePass) {
	next := map[string]ZoneState{}
	allAre := true
	for k, conds := range ready {
		_, st := c.zoneState(conds)
		if st != ZoneFullDisruption {
			allAre = false
		}
		next[k] = st
		if _, ok := c.states[k]; !ok {
			c.states[k] = ZoneInitial
		}
	}
	allWere := true
	for k, st := range c.states {
		if _, ok := ready[k]; !ok {
			delete(c.states, k)
			continue
		}
		if st != ZoneFullDisruption {
			allWere = false
		}
	}
	if allAre && allWere {
		return
	}
	switch {
	case allAre:
		pass.EnteredFullDisruption = true
		for i, n := range nodes {
			rep := &pass.Nodes[i]
			if z := c.tainter[api.ZoneKey(n)]; z != nil {
				z.remove(n.Name)
			}
			// markNodeAsReachable removes each taint only when the node as
			// listed at the start of the pass has it: a taint this pass
			// swapped in stays.
			var del []api.Taint
			for _, t := range []api.Taint{unreachableNoExecute, notReadyNoExecute} {
				if hasTaint(n.Spec.Taints, t.Key, t.Effect) {
					del = append(del, t)
				}
			}
			u := swapTaints(rep.Taints, nil, del, now)
			rep.NoExecute.Removed = append(rep.NoExecute.Removed, u.Removed...)
			rep.NoExecute.Taints, rep.Taints = u.Taints, u.Taints
		}
		for k := range c.states {
			c.tainter[k].swapLimiter(0, now)
			c.states[k] = ZoneFullDisruption
		}
	case allWere:
		pass.ExitedFullDisruption = true
		for _, n := range nodes {
			if h := c.monitor.nodes[n.Name]; h != nil {
				h.probe, h.readyTransition = now, now
			}
		}
		for k := range c.states {
			c.tainter[k].swapLimiter(c.rateFor(next[k], len(ready[k])), now)
			c.states[k] = next[k]
		}
	default:
		for k, st := range c.states {
			if st == next[k] {
				continue
			}
			c.tainter[k].swapLimiter(c.rateFor(next[k], len(ready[k])), now)
			c.states[k] = next[k]
		}
	}
}

// NodeTaintResult is a NoExecute taint TaintPass wrote on a node.
type NodeTaintResult struct {
	Node   string
	Update NodeTaintUpdate
}

// TaintPass is one NoExecute tainting pass at now: in each zone (by key),
// while the zone's rate lets a node through, the queued node to process
// first gets the not-ready or unreachable NoExecute taint its Ready
// condition calls for (the other one removed), or leaves the queue when it
// is gone or Ready again; a node without a Ready condition is retried
// 50 ms later. nodes are the cluster's nodes as the API server holds them
// (after the monitor passes' writes). A nil node is an error naming its
// position, and nothing changes.
func (c *NodeLifecycle) TaintPass(nodes []*api.Node, now time.Time) ([]NodeTaintResult, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: node lifecycle: nil", ErrInvalidInput)
	}
	for i, n := range nodes {
		if n == nil {
			return nil, fmt.Errorf("%w: nodes[%d]: nil", ErrInvalidInput, i)
		}
	}
	// Most passes find no token or nothing queued: the nodes are indexed
	// by name only when a queued node is processed.
	var byName map[string]*api.Node
	lookup := func(name string) *api.Node {
		if byName == nil {
			byName = make(map[string]*api.Node, len(nodes))
			for _, n := range nodes {
				byName[n.Name] = n
			}
		}
		return byName[name]
	}
	keys := make([]string, 0, len(c.tainter))
	for k := range c.tainter {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []NodeTaintResult
	for _, k := range keys {
		z := c.tainter[k]
		for {
			q, ok := z.head()
			if !ok || !z.limiter.tryAccept(now) || now.Before(q.processAt) {
				break
			}
			n := lookup(q.node)
			var ready *api.NodeCondition
			if n != nil {
				ready = n.FindCondition(api.NodeReady)
			}
			if n != nil && ready == nil {
				c.seq++
				z.retry(now.Add(50*time.Millisecond+1), c.seq)
				continue
			}
			z.done()
			if n == nil {
				continue
			}
			add, opposite := notReadyNoExecute, unreachableNoExecute
			switch ready.Status {
			case api.ConditionFalse:
			case api.ConditionUnknown:
				add, opposite = opposite, add
			default:
				continue
			}
			u := swapTaints(n.Spec.Taints, []api.Taint{add}, []api.Taint{opposite}, now)
			if len(u.Added)+len(u.Removed) > 0 {
				out = append(out, NodeTaintResult{Node: n.Name, Update: u})
			}
		}
	}
	return out, nil
}
