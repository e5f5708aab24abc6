package nodelifecycle

import (
	"fmt"
	"slices"
	"strings"
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

// Controller is kube-controller-manager's node lifecycle controller
// (pkg/controller/nodelifecycle) over all the nodes of a cluster, as a
// state machine with time as an argument. It runs two passes on their own
// periods, both counted from its first Step: the monitor pass
// (monitorNodeHealth followed by handleDisruption) every
// Config.MonitorPeriod, 5 s by default, and the NoExecute tainting pass
// (doNoExecuteTaintingPass) every TaintPassPeriod, 100 ms. Step runs the
// passes due at now, the monitor pass first; NextDeadline says when one
// next has work.
//
// Each node's health is Monitor's (grace periods, the Unknown flip, the
// pods marked not ready, the NoSchedule pass). What Controller adds is
// the way NoExecute taints are written: a node found not Ready or
// unreachable is queued in its zone's tainting queue, and the tainting
// pass taints queued nodes at each zone's rate — a token bucket of burst
// one refilled at --node-eviction-rate (one node per 10 s by default) in a
// Normal zone and in a fully disrupted one, at
// --secondary-node-eviction-rate in a partly disrupted zone larger than
// --large-cluster-size-threshold, not at all in a smaller partly disrupted
// zone. When every zone is fully disrupted (the control plane, not the
// nodes, is the likely culprit), the controller removes every node's
// not-ready and unreachable NoExecute taints (those the node carried when
// the pass began: one swapped in by that same pass stays) and stops
// tainting; when some node is Ready again it restarts every node's grace
// period from that pass. A node a starting controller sees for the first
// time has those taints removed and, if still not Ready, is queued again,
// so a restart restarts its pods' eviction clocks. Nodes with the
// node.kubernetes.io/exclude-disruption label do not count towards their
// zone's health.
//
// Upstream runs the two passes in goroutines of their own and processes
// the nodes of a pass in parallel, so what falls at one instant comes in
// an order it does not fix; Controller runs the monitor pass first (a node
// it queues can be tainted by the tainting pass of the same step) and
// takes the input order. It returns the Events the controller records
// (Report.Events, HealthReport.Events). Not modelled: node label
// reconciliation and metrics. The zero value is ready to use with the default configuration.
//
// A pass costs what changed: a node listed as the same object as at the
// last pass, whose last look did nothing (or only queued it again), gets
// only its Lease and grace period checked — what a full look would find
// — so a pass over thousands of healthy nodes reads each one's Lease
// (Input.LeaseOf reads it by position) and reports none of them.
// A Controller is not safe for concurrent use.
type Controller struct {
	cfg     Config
	monitor Monitor
	known   map[string]*knownNode // node name -> when it was last listed, its UID, what its last look left
	// zoneKeys interns the zone keys seen (api.ZoneKey), so that a pass
	// joins no string per node; zones holds each key's count of the pass.
	zoneKeys map[[2]string]string
	zones    map[string]*zoneCount
	passes   uint64
	// stamp numbers the listings whose positions differ from the last
	// one's: a record whose stamp is the current one is listed at its
	// knownNode.at (the records of nodes not listed keep older stamps).
	stamp uint64
	// listed is the step's knownNode of each input node, by position
	// (nil: a node the controller has not seen yet); names the input's
	// node names, by position, when every one of them was known.
	listed []*knownNode
	names  []string
	// prev is the input of the step that set names or found them
	// unchanged, by position: a node listed as the same object needs no
	// name read.
	prev []*api.Node
	// lookAll makes every monitor pass look at every node in full, the
	// quiet ones too (tests compare both ways).
	lookAll bool
	// rows are the listed nodes' quiet checks, by position, for the
	// listing stamped rowStamp (see quietRow).
	rows     []quietRow
	rowStamp uint64
	// queued is how many nodes the last monitor pass queued.
	queued  int
	states  map[string]ZoneState
	tainter map[string]*zoneTainter
	seq     uint64

	// The passes' schedule: both tick from start, the controller's first
	// step; nextMonitor and nextTaint are the next ticks due.
	started                bool
	start                  time.Time
	nextMonitor, nextTaint time.Time
}

// NewController returns a controller that has seen no node yet, as after a
// controller-manager start. A configuration Config.Validate refuses is an
// error wrapping api.ErrInvalidInput, and no controller.
func NewController(cfg Config) (*Controller, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return newController(cfg), nil
}

func newController(cfg Config) *Controller {
	return &Controller{
		cfg:     cfg,
		monitor: Monitor{cfg: cfg, nodes: map[string]*nodeHealth{}},
		known:   map[string]*knownNode{},
		zones:   map[string]*zoneCount{},
		states:  map[string]ZoneState{},
		tainter: map[string]*zoneTainter{},
	}
}

// Input is the cluster as the controller's informers show it at a step.
// The same input again is the tick: time passed, nothing else happened.
type Input struct {
	// Nodes are every node of the cluster as the API server holds them,
	// every write of earlier steps applied. A node changed since an
	// earlier step is a new object, as an informer delivers it: the
	// controller reads a node it was given before by the same pointer as
	// unchanged.
	Nodes []*api.Node
	// Leases maps a node's name to the renewTime of its Lease in
	// kube-node-lease (absent: none). Only monitor passes read it.
	Leases map[string]time.Time
	// LeaseOf, when not nil, gives the renewTime of the Lease of Nodes[i]
	// (zero: none) instead of Leases: a caller that knows when its
	// kubelets renew can compute a Lease when it is read rather than write
	// every renewal, and the controller looks no name up.
	LeaseOf func(i int) time.Time
}

// lease is the renewTime of the Lease of in.Nodes[i].
func (in *Input) lease(i int, n *api.Node) time.Time {
	if in.LeaseOf != nil {
		return in.LeaseOf(i) // the node itself is not read
	}
	return in.Leases[n.Name]
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

// TaintWrite is a NoExecute taint the tainting pass wrote on a node.
type TaintWrite struct {
	Node   string
	Update TaintUpdate
}

// knownNode is the controller's knownNodeSet entry: its UID when first
// listed (which the RemovingNode event names). A node the step did not
// list keeps the stamp of an earlier listing: a monitor pass forgets it.
type knownNode struct {
	uid string
	// node is the object last listed, with its zone's count and whether it
	// is excluded from the zone's disruption count, read once per object.
	node     *api.Node
	zone     *zoneCount
	excluded bool
	// stamp and at: the step that last listed the node, and its position
	// in that step's input.
	stamp uint64
	at    int
	// What the node's last full look left. quiet: the look changed
	// nothing — no status, taint or queue change, no pods marked, no Event
	// — so the next look at the same object does the same, unless its
	// grace period runs out (a renewed lease only moves its probe time).
	// health is its Monitor record, grace its grace period, ready and
	// unknown its Ready condition's status (True; Unknown).
	quiet          bool
	requeue        bool // quiet but for queueing the node again: not Ready, its NoExecute taint missing
	health         *nodeHealth
	grace          time.Duration
	ready, unknown bool
}

// quietRow is what a monitor pass reads of a listed node whose last look
// was quiet, kept by position in one array so that a pass over thousands
// of quiet nodes reads memory in order rather than each node's records
// (knownNode, nodeHealth) wherever they lie. A valid row mirrors its
// knownNode as the last look left it; while dirty, its lease and probe
// time are newer than the node's nodeHealth, which flushRow brings up to
// date before anything else reads it.
type quietRow struct {
	k     *knownNode
	node  *api.Node
	zone  *zoneCount
	lease time.Time
	probe time.Time
	grace time.Duration
	// valid: the fields mirror k; dirty: lease and probe are not yet in
	// k.health.
	valid, dirty                             bool
	quiet, requeue, unknown, ready, excluded bool
}

// load makes r mirror k after a look at it.
func (r *quietRow) load(k *knownNode) {
	*r = quietRow{k: k, node: k.node, zone: k.zone, grace: k.grace, valid: k.health != nil,
		quiet: k.quiet, requeue: k.requeue, unknown: k.unknown, ready: k.ready, excluded: k.excluded}
	if k.health != nil {
		r.lease, r.probe = k.health.lease, k.health.probe
	}
}

// flush writes a dirty row's lease and probe time to its node's record.
func (r *quietRow) flush() {
	if r.dirty {
		r.k.health.lease, r.k.health.probe = r.lease, r.probe
		r.dirty = false
	}
}

// flushRows writes every dirty row to its node's record; with invalidate,
// the rows are dropped, to be read again from the records at the next
// pass.
func (c *Controller) flushRows(invalidate bool) {
	for i := range c.rows {
		c.rows[i].flush()
		if invalidate {
			c.rows[i] = quietRow{}
		}
	}
}

// zoneCount is one zone's node count of a monitor pass: the nodes that
// count towards its health, Ready or not.
type zoneCount struct {
	key             string
	pass            uint64 // the pass the counts are of
	ready, notReady int
}

// Report is what one Step found and did: the monitor pass's results when
// one ran, then the tainting pass's writes. A caller applies them in that
// order: each node's status and taints from Nodes, then the Tainted
// writes, whose taints already include the monitor pass's.
type Report struct {
	// MonitorPass reports whether a monitor pass ran; the fields up to
	// ExitedFullDisruption are its results, empty when none ran.
	MonitorPass bool
	// Events are the node Events the monitor pass records as it lists the
	// nodes, before it looks at any: RegisteredNode for each node it sees
	// for the first time (in input order), then RemovingNode for each
	// node gone since the last pass (by name); NodeEvent gives their
	// text. The NodeNotReady events of the looks are in Nodes.
	Events []api.Event
	// Nodes holds the report of each input node the pass did something
	// to — wrote its status, changed its taints, marked its pods not
	// ready, recorded an Event — in input order, HealthReport.Node naming
	// it; a node without one was looked at and left as it was. Their
	// NoExecute updates are those the pass makes at once — a node Ready
	// again (or newly seen, or every zone fully disrupted) loses its
	// not-ready and unreachable NoExecute taints, a node tainted with the
	// opposite one has it swapped — not the queued taints, which the
	// tainting pass writes.
	Nodes []HealthReport
	// at holds each report's node position in the input.
	at []int
	// Queued names the nodes the pass added to a tainting queue, in the
	// order they were added.
	Queued []string
	// Zones are the zones after the pass, by key.
	Zones []ZoneReport
	// EnteredFullDisruption and ExitedFullDisruption report the pass that
	// found every zone fully disrupted, and the first one after that found
	// one that is not.
	EnteredFullDisruption, ExitedFullDisruption bool

	// TaintPass reports whether a tainting pass ran; Tainted lists its
	// writes, in zone order, then queue order.
	TaintPass bool
	Tainted   []TaintWrite
}

// Step runs the passes due at now over in: the monitor pass when a monitor
// period has passed since the last one, then the tainting pass when a
// tainting period has, which sees the nodes with the monitor pass's writes
// applied. The first step runs both. A step later than a pass's tick runs
// that pass once, at now, and the next tick is the first on its period's
// grid after now (a ticker dropping missed ticks); a step before any tick
// runs nothing and returns an empty report. A nil machine or a nil node is
// an error naming it (a node by its position), and nothing changes.
func (c *Controller) Step(in Input, now time.Time) (Report, error) {
	if c == nil {
		return Report{}, fmt.Errorf("%w: node lifecycle controller: nil", errInvalidInput)
	}
	if c.known == nil {
		cfg := c.cfg
		*c = *newController(cfg)
	}
	if err := c.list(in.Nodes); err != nil {
		return Report{}, err
	}
	if !c.started {
		c.started, c.start, c.nextMonitor, c.nextTaint = true, now, now, now
	}
	var r Report
	nodes := in.Nodes
	if !now.Before(c.nextMonitor) {
		c.monitorPass(&in, now, &r)
		c.nextMonitor = nextTick(c.start, c.cfg.monitorPeriod(), now)
		nodes = applyReports(nodes, &r)
	}
	if !now.Before(c.nextTaint) {
		r.TaintPass = true
		r.Tainted = c.taintPass(nodes, now)
		c.nextTaint = nextTick(c.start, TaintPassPeriod, now)
	}
	return r, nil
}

// list checks the step's nodes and finds the controller's record of each
// (c.listed): a nil node or two nodes of one name are an error naming
// them. It changes nothing else.
func (c *Controller) list(nodes []*api.Node) error {
	// Most steps list the nodes of the step before, in the same order,
	// some of them changed: their names need no lookup.
	if len(nodes) == len(c.names) && len(c.names) > 0 {
		same := true
		for i, n := range nodes {
			// The object the step before listed here is the same node
			// without reading it (objects are not changed in place).
			if n != nil && n == c.prev[i] {
				continue
			}
			if n == nil || n.Name != c.names[i] {
				same = false
				break
			}
			c.prev[i] = n
		}
		if same {
			// Every record keeps its position and its stamp, which
			// changes only with the positions.
			return nil
		}
	}
	c.names = c.names[:0]
	c.stamp++
	c.listed = slices.Grow(c.listed[:0], len(nodes))
	var fresh map[string]int // positions of the names not known yet
	for i, n := range nodes {
		if n == nil {
			return fmt.Errorf("%w: nodes[%d]: nil", errInvalidInput, i)
		}
		// The API server holds one node of a name; two would share one
		// health record and one queue entry, each undoing the other.
		j, dup := -1, false
		k := c.known[n.Name]
		if k != nil {
			j, dup = k.at, k.stamp == c.stamp
			k.stamp, k.at = c.stamp, i
		} else {
			if fresh == nil {
				fresh = map[string]int{}
			}
			j, dup = fresh[n.Name]
			fresh[n.Name] = i
		}
		if dup {
			return fmt.Errorf("%w: nodes[%d]: duplicate node name %q (also nodes[%d])", errInvalidInput, i, n.Name, j)
		}
		c.listed = append(c.listed, k)
	}
	c.prev = c.prev[:0]
	if !slices.Contains(c.listed, nil) {
		for _, n := range nodes {
			c.names = append(c.names, n.Name)
		}
		c.prev = append(c.prev, nodes...)
	}
	return nil
}

// Node returns the report of the node named name, false when the monitor
// pass left it as it was (or did not run).
func (r Report) Node(name string) (HealthReport, bool) {
	for _, h := range r.Nodes {
		if h.Node == name {
			return h, true
		}
	}
	return HealthReport{}, false
}

// NextDeadline returns when the controller next has work: the next monitor
// pass, or, when some zone's tainting queue holds a node and its rate is
// not 0, the first tainting tick at which that zone's token bucket has a
// token, if earlier. The tainting passes between do nothing, so a caller
// stepping from deadline to deadline sees the same taints, at the same
// times, as one stepping every 100 ms. Before the first step, and for a
// nil Controller, it is the zero time: the first input starts the
// controller.
func (c *Controller) NextDeadline() time.Time {
	if c == nil || !c.started {
		return time.Time{}
	}
	next := c.nextMonitor
	for _, z := range c.tainter {
		if len(z.live) == 0 {
			continue
		}
		if t, ok := z.limiter.firstToken(c.start, TaintPassPeriod, c.nextTaint, next); ok {
			next = t
		}
	}
	return next
}

// applyReports returns nodes with each monitor pass write of r applied
// (status and taints), copying only the nodes written.
func applyReports(nodes []*api.Node, r *Report) []*api.Node {
	var out []*api.Node
	for j, rep := range r.Nodes {
		if rep.Status == nil && !rep.NoSchedule.Changed() && !rep.NoExecute.Changed() {
			continue
		}
		if out == nil {
			out = slices.Clone(nodes)
		}
		i := r.at[j]
		n := *nodes[i]
		if rep.Status != nil {
			n.Status = *rep.Status
		}
		n.Spec.Taints = rep.Taints
		out[i] = &n
	}
	if out == nil {
		return nodes
	}
	return out
}

// zoneKey is api.ZoneKey of n, interned.
func (c *Controller) zoneKey(n *api.Node) string {
	region, zone := api.NodeZone(n)
	k := [2]string{region, zone}
	key, ok := c.zoneKeys[k]
	if !ok {
		if c.zoneKeys == nil {
			c.zoneKeys = map[[2]string]string{}
		}
		key = api.JoinZoneKey(region, zone)
		c.zoneKeys[k] = key
	}
	return key
}

// monitorPass is one monitor pass at now over every node of the cluster
// (c.listed holds their records); nodes missing since the last pass are
// forgotten.
//
// A node listed as the same object as at the last pass, whose last look
// was quiet (knownNode.quiet), is not looked at again in full: that look
// would find what the last one found, and only the lease can have moved,
// which moves the probe time. Its grace period is checked, and the full
// look made when it has run out.
func (c *Controller) monitorPass(in *Input, now time.Time, pass *Report) {
	nodes := in.Nodes
	pass.MonitorPass = true
	c.passes++
	if c.queued > 0 {
		pass.Queued = make([]string, 0, c.queued) // most passes queue again what the last one did
	}
	defer func() {
		if c.queued = len(pass.Queued); c.queued == 0 {
			pass.Queued = nil
		}
	}()
	if len(c.rows) != len(nodes) || c.rowStamp != c.stamp {
		// Another listing: the rows are read again from the records.
		c.flushRows(true)
		c.rows = slices.Grow(c.rows[:0], len(nodes))[:len(nodes)]
		clear(c.rows)
		c.rowStamp = c.stamp
	}
	for i, n := range nodes {
		r := &c.rows[i]
		if r.valid && r.node == n && (r.quiet || r.requeue) && !c.lookAll {
			// stillQuiet on the row: the same object as last looked at,
			// that look quiet; a renewed lease moves the probe time.
			z := r.zone
			if z.pass != c.passes {
				z.pass, z.ready, z.notReady = c.passes, 0, 0
				c.addZone(z.key)
			}
			if lease := in.lease(i, n); !lease.IsZero() && (r.lease.IsZero() || r.lease.Before(lease)) {
				r.lease, r.probe, r.dirty = lease, now, true
			}
			if r.unknown || !now.After(r.probe.Add(r.grace)) {
				if r.requeue {
					c.requeueQuiet(z.key, n.Name, now, pass)
				}
				countIn(r.zone, r.excluded, r.ready)
				continue
			}
			// The grace period ran out: the look in full below.
		}
		r.flush()
		c.lookAt(in, i, n, now, pass)
		r.load(c.listed[i])
	}
	if len(c.known) > len(nodes) {
		var gone []string
		for name, k := range c.known {
			if k.stamp != c.stamp {
				gone = append(gone, name)
			}
		}
		slices.Sort(gone)
		for _, name := range gone {
			pass.Events = append(pass.Events, NodeEvent(name, c.known[name].uid, EventRemovingNode))
			delete(c.known, name)
		}
	}
	c.handleDisruption(nodes, now, pass)
	for k, st := range c.states {
		region, zone := api.SplitZoneKey(k)
		zc := c.zones[k]
		z := ZoneReport{Key: k, Region: region, Zone: zone, Nodes: zc.ready + zc.notReady, NotReady: zc.notReady, State: st, Rate: c.tainter[k].limiter.qps}
		pass.Zones = append(pass.Zones, z)
	}
	slices.SortFunc(pass.Zones, func(a, b ZoneReport) int { return strings.Compare(a.Key, b.Key) })
}

// requeueQuiet is markNodeForTainting for a node whose last look only
// queued it again: its taint is still missing, so it leaves its zone's
// queue and is added again.
func (c *Controller) requeueQuiet(zone, name string, now time.Time, pass *Report) {
	c.seq++
	c.tainter[zone].requeue(name, now, c.seq)
	pass.Queued = append(pass.Queued, name)
}

// lookAt is the monitor pass's look at the node n, at position i: its
// quiet check against its record, else a look in full.
func (c *Controller) lookAt(in *Input, i int, n *api.Node, now time.Time, pass *Report) {
	k := c.listed[i]
	first := k == nil
	if first {
		k = &knownNode{uid: n.UID, stamp: c.stamp, at: i}
		c.known[n.Name] = k
		c.listed[i] = k
		pass.Events = append(pass.Events, NodeEvent(n.Name, n.UID, EventRegisteredNode))
	}
	if k.node != n {
		_, x := n.Labels[LabelNodeExcludeDisruption]
		k.node, k.zone, k.excluded, k.quiet, k.requeue = n, c.zoneCount(c.zoneKey(n)), x, false, false
	}
	z := k.zone
	if z.pass != c.passes {
		z.pass, z.ready, z.notReady = c.passes, 0, 0
		c.addZone(z.key)
	}
	if !first && (k.quiet || k.requeue) && !c.lookAll && c.stillQuiet(k, in.lease(i, n), now) {
		if k.requeue {
			c.requeueQuiet(z.key, n.Name, now, pass)
		}
		k.count()
		return
	}
	var reachable TaintUpdate
	cur := n.Spec.Taints
	if first {
		reachable = c.markReachable(z.key, n.Name, cur, now)
		cur = reachable.Taints
	}
	var rep HealthReport
	h := c.monitor.observeHealth(n, in.lease(i, n), now, &rep)
	// The NoSchedule pass judged the listed taints; its changes apply
	// to the taints as this pass left them (it touches no NoExecute
	// taint).
	if rep.NoSchedule.Changed() {
		cur = swapTaints(cur, rep.NoSchedule.Added, rep.NoSchedule.Removed, now).Taints
	}
	update := TaintUpdate{Taints: cur}
	queued := len(pass.Queued)
	if rep.CurrentReady != nil {
		update = c.processTaintBaseEviction(n, z.key, cur, rep.CurrentReady.Status, now, pass)
	}
	if len(reachable.Removed) > 0 {
		update.Removed = append(slices.Clone(reachable.Removed), update.Removed...)
	}
	rep.NoExecute = update
	rep.Taints = update.Taints
	cr := rep.CurrentReady
	k.health, k.grace = h, rep.GracePeriod
	k.ready = cr != nil && cr.Status == api.ConditionTrue
	k.unknown = cr != nil && cr.Status == api.ConditionUnknown
	requeued := len(pass.Queued) > queued
	k.quiet = !rep.acted() && !requeued
	k.requeue = !rep.acted() && requeued && (k.unknown && !hasTaint(n.Spec.Taints, unreachableNoExecute.Key, unreachableNoExecute.Effect) ||
		cr != nil && cr.Status == api.ConditionFalse && !hasTaint(n.Spec.Taints, notReadyNoExecute.Key, notReadyNoExecute.Effect))
	k.count()
	if rep.acted() {
		pass.Nodes = append(pass.Nodes, rep)
		pass.at = append(pass.at, i)
	}
}

// stillQuiet reports whether a look now at a node whose last look was
// quiet (or only queued it again), listed as the same object, with its
// lease at lease, would do the same, and takes the lease in as that look
// would: a renewal the controller has not seen moves the probe time to
// now. Only a grace period run out (Ready not already Unknown) makes the
// look do something else.
func (c *Controller) stillQuiet(k *knownNode, lease time.Time, now time.Time) bool {
	h := k.health
	if !lease.IsZero() && (h.lease.IsZero() || h.lease.Before(lease)) {
		h.lease, h.probe = lease, now
	}
	return k.unknown || !now.After(h.probe.Add(k.grace))
}

// count counts the node in its zone's health, unless it is excluded.
func (k *knownNode) count() { countIn(k.zone, k.excluded, k.ready) }

// countIn counts a node, Ready or not, in its zone z's health, unless it
// is excluded from it.
func countIn(z *zoneCount, excluded, ready bool) {
	switch {
	case excluded:
	case ready:
		z.ready++
	default:
		z.notReady++
	}
}

// zoneCount is the count of the zone keyed key.
func (c *Controller) zoneCount(key string) *zoneCount {
	z := c.zones[key]
	if z == nil {
		z = &zoneCount{key: key}
		c.zones[key] = z
	}
	return z
}

// acted reports whether the look did something: wrote the node's status,
// changed its taints, marked its pods not ready or recorded an Event.
func (r *HealthReport) acted() bool {
	return r.Status != nil || r.NoSchedule.Changed() || r.NoExecute.Changed() || r.MarkPodsNotReady || len(r.Events) > 0
}

// addZone is addPodEvictorForNewZone: a zone's state starts Initial and
// its tainting queue empty, at the eviction rate with a full bucket.
func (c *Controller) addZone(key string) {
	if _, ok := c.states[key]; ok {
		return
	}
	c.states[key] = ZoneInitial
	c.tainter[key] = newZoneTainter(c.cfg.evictionRate())
}

// markReachable is markNodeAsReachable on the node named name, of zone
// key, whose taints are now taints: its not-ready and unreachable NoExecute taints go, and it leaves
// its zone's queue and set.
func (c *Controller) markReachable(key, name string, taints []api.Taint, now time.Time) TaintUpdate {
	if z := c.tainter[key]; z != nil {
		z.remove(name)
	}
	return swapTaints(taints, nil, []api.Taint{unreachableNoExecute, notReadyNoExecute}, now)
}

// processTaintBaseEviction decides from the Ready condition the node
// carried when the pass looked (ready) and the node as listed at the start
// of the pass, and changes cur, the taints as the pass has left them so
// far.
func (c *Controller) processTaintBaseEviction(listed *api.Node, key string, cur []api.Taint, ready api.ConditionStatus, now time.Time, pass *Report) TaintUpdate {
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
		c.seq++
		if !hasTaint(listed.Spec.Taints, own.Key, own.Effect) {
			z.requeue(listed.Name, now, c.seq)
			pass.Queued = append(pass.Queued, listed.Name)
		} else if z.add(listed.Name, now, c.seq) {
			pass.Queued = append(pass.Queued, listed.Name)
		}
	case api.ConditionTrue:
		return c.markReachable(key, listed.Name, cur, now)
	}
	return TaintUpdate{Taints: cur}
}

// zoneState is ComputeZoneState of a zone with ready Ready nodes and
// notReady others.
func (c *Controller) zoneState(ready, notReady int) ZoneState {
	switch {
	case ready == 0 && notReady > 0:
		return ZoneFullDisruption
	case notReady > 2 && float32(notReady)/float32(notReady+ready) >= c.cfg.unhealthyZoneThreshold():
		return ZonePartialDisruption
	}
	return ZoneNormal
}

// rateFor is setLimiterInZone's rate for a zone of size nodes in state st.
func (c *Controller) rateFor(st ZoneState, size int) float32 {
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

// handleDisruption sets each zone's state and rate after a pass, from the
// pass's zone counts: a zone none of whose nodes counts is forgotten.
func (c *Controller) handleDisruption(nodes []*api.Node, now time.Time, pass *Report) {
	counted := func(z *zoneCount) bool { return z != nil && z.pass == c.passes && z.ready+z.notReady > 0 }
	next := map[string]ZoneState{}
	allAre := true
	for k, z := range c.zones {
		if !counted(z) {
			continue
		}
		st := c.zoneState(z.ready, z.notReady)
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
		if !counted(c.zones[k]) {
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
	// Both transitions read or reset every node's record: the rows are
	// written back and read again at the next pass.
	switch {
	case allAre:
		pass.EnteredFullDisruption = true
		c.flushRows(true)
		c.untaintAll(nodes, now, pass)
		for k := range c.states {
			c.tainter[k].swapLimiter(0, now)
			c.states[k] = ZoneFullDisruption
		}
	case allWere:
		pass.ExitedFullDisruption = true
		c.flushRows(true)
		for _, n := range nodes {
			if h := c.monitor.nodes[n.Name]; h != nil {
				h.probe, h.readyTransition = now, now
			}
		}
		for k := range c.states {
			z := c.zones[k]
			c.tainter[k].swapLimiter(c.rateFor(next[k], z.ready+z.notReady), now)
			c.states[k] = next[k]
		}
	default:
		for k, st := range c.states {
			if st == next[k] {
				continue
			}
			z := c.zones[k]
			c.tainter[k].swapLimiter(c.rateFor(next[k], z.ready+z.notReady), now)
			c.states[k] = next[k]
		}
	}
}

// untaintAll is the pass entering full disruption: every node leaves its
// zone's tainting queue and set and loses the not-ready and unreachable
// NoExecute taints it carried when the pass began (markNodeAsReachable
// removes a taint only when the node as listed has it: a taint this pass
// swapped in stays). Every node's next look is in full, as it is queued
// again.
func (c *Controller) untaintAll(nodes []*api.Node, now time.Time, pass *Report) {
	reps := make([]*HealthReport, len(nodes))
	for j := range pass.Nodes {
		reps[pass.at[j]] = &pass.Nodes[j]
	}
	var out []HealthReport
	var at []int
	for i, n := range nodes {
		k := c.listed[i]
		k.quiet, k.requeue = false, false
		if z := c.tainter[k.zone.key]; z != nil {
			z.remove(n.Name)
		}
		rep := reps[i]
		if rep == nil {
			rep = &HealthReport{}
			c.quietReport(n, k, rep)
		}
		var del []api.Taint
		for _, t := range []api.Taint{unreachableNoExecute, notReadyNoExecute} {
			if hasTaint(n.Spec.Taints, t.Key, t.Effect) {
				del = append(del, t)
			}
		}
		u := swapTaints(rep.Taints, nil, del, now)
		rep.NoExecute.Removed = append(rep.NoExecute.Removed, u.Removed...)
		rep.NoExecute.Taints, rep.Taints = u.Taints, u.Taints
		if rep.acted() {
			out = append(out, *rep)
			at = append(at, i)
		}
	}
	pass.Nodes, pass.at = out, at
}

// quietReport fills rep as the look at node n, whose record is k and
// whose last look was quiet, would have: nothing written, nothing changed.
func (c *Controller) quietReport(n *api.Node, k *knownNode, rep *HealthReport) {
	h := k.health
	rep.Node, rep.GracePeriod, rep.ProbeTime = n.Name, k.grace, h.probe
	rep.CurrentReady = n.FindCondition(api.NodeReady)
	if rep.CurrentReady != nil {
		rep.ObservedReady = *rep.CurrentReady
	} else {
		rep.ObservedReady = unknownReadyStandIn(n)
	}
	rep.Conditions = n.Status.Conditions
	rep.NoSchedule = TaintUpdate{Taints: n.Spec.Taints}
	rep.NoExecute = TaintUpdate{Taints: n.Spec.Taints}
	rep.Taints = n.Spec.Taints
}

// taintPass is one NoExecute tainting pass at now: in each zone (by key),
// while the zone's rate lets a node through, the queued node to process
// first gets the not-ready or unreachable NoExecute taint its Ready
// condition calls for (the other one removed), or leaves the queue when it
// is gone or Ready again; a node without a Ready condition is retried
// 50 ms later. nodes are the cluster's nodes as the API server holds them
// (after the monitor passes' writes).
func (c *Controller) taintPass(nodes []*api.Node, now time.Time) []TaintWrite {
	// A queued node is found by its position in the step's input
	// (c.listed); a name the controller does not know (forgotten at an
	// earlier pass, listed again) by indexing the nodes.
	var byName map[string]*api.Node
	lookup := func(name string) *api.Node {
		if k := c.known[name]; k != nil && k.stamp == c.stamp {
			return nodes[k.at]
		}
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
	var out []TaintWrite
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
				out = append(out, TaintWrite{Node: n.Name, Update: u})
			}
		}
	}
	return out
}
