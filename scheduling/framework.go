package scheduling

// Plugin framework shared by every filter and score of this package.
//
// HOW TO PLUG IN A PLUGIN (for spread.go — PodTopologySpread):
//
// Each scheduling cycle (one incoming pod over the snapshot) instantiates
// its plugins through (*Cluster).plugins, which calls one constructor per
// enabled plugin, in kube-scheduler's default-profile order:
//
//	NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
//	NodeResourcesFit, PodTopologySpread, InterPodAffinity
//
// The PodTopologySpread constructor lives in spread*.go and must be:
//
//	func newSpreadPlugin(c *Cluster, p *PodInfo) cyclePlugin
//
// returning a value implementing cyclePlugin (below) whose name() is
// PluginPodTopologySpread. The constructor must be cheap (it runs even when
// only Score is asked for); the PreFilter work (counting matching pods per
// domain over c's nodes, with c.Config().Spread for default constraints)
// belongs in preFilter(), which the framework calls once per cycle before
// any filter(); PreScore work belongs in preScore(). Embed basePlugin for
// the defaults (PreFilter Success, PreScore Skip, no-op addPod/removePod).
// clone() must deep-copy whatever addPod/removePod change (they update the
// counts for what-if evaluation: preemption victims, nominated pods). A
// constructor never fails: bad input (an invalid selector) is reported by
// preFilter() (and preScore()) returning a Status with Code Error and Err.
// plugins() calls it (wired), and the snapshot's update methods keep the
// spread cache (spread_index.go) current.
//
// Optional fast path: a plugin may also implement quickFilter
// (fits(v *NodeView) bool, in filter.go); Filter then calls fits first and
// calls filter only for nodes fits rejects, so the common "passes" case
// builds no Status.
//
// Decide (decision.go) sieves the candidate nodes plugin by plugin in
// profile order and scores column by column; hot plugins get direct
// (non-interface) calls there: sieve and scoreColumn switch on the
// concrete type, and PodTopologySpread works on node indexes throughout
// (fitsIndex, preScoreIndexes, scoreIndexes), never reading a NodeInfo.
//
// What the spread plugin can read: c.NumNodes(), c.Nodes(), c.NodeAt(i),
// c.NodeByName(name) (*NodeInfo: Node(), Name(), Labels(), Taints(),
// Pods(), Index()); c.PodsInNamespace(ns); PodInfo (Pod, Labels(),
// Namespace(), IsTerminating(), Node()); p.Pod for the incoming pod;
// NewRequiredNodeAffinity(pod).Match(node) for nodeAffinityPolicy Honor and
// FindUntoleratedTaint(taints, tolerations) for nodeTaintsPolicy Honor; and
// defaultNormalizeScore. Inside the package, c.labels.column(key) gives a
// node label key as an array of interned value ids by node index (see
// labelColumn in nodeinfo.go), kept current by the snapshot. Snapshot
// accessors never mutate, so a plugin may keep pointers into the snapshot
// for the cycle's duration.

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// Code is the outcome of a plugin for one pod (and one node), with the
// meaning of kube-scheduler's framework status codes
// (pkg/scheduler/framework, fwk.Code).
type Code int

const (
	// Success: the plugin lets the pod through (or, for a score, computed
	// one).
	Success Code = iota
	// Unschedulable: the pod does not fit now, but evicting pods (preemption)
	// might make it fit.
	Unschedulable
	// UnschedulableAndUnresolvable: the pod does not fit, and preempting pods
	// on this node cannot change that; preemption skips such nodes.
	UnschedulableAndUnresolvable
	// Skip: returned by PreFilter or PreScore when the plugin has nothing to
	// check or score for this pod; its Filter or Score is then not run and
	// counts as a pass (or a score of 0).
	Skip
	// Error: the plugin could not evaluate the pod (for example an invalid
	// label selector); Err says why.
	Error
)

// String returns the framework's spelling of the code ("Success",
// "Unschedulable", "UnschedulableAndUnresolvable", "Skip", "Error").
func (c Code) String() string {
	switch c {
	case Success:
		return "Success"
	case Unschedulable:
		return "Unschedulable"
	case UnschedulableAndUnresolvable:
		return "UnschedulableAndUnresolvable"
	case Skip:
		return "Skip"
	case Error:
		return "Error"
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// Rejects reports whether the code keeps the pod off the node.
func (c Code) Rejects() bool {
	return c == Unschedulable || c == UnschedulableAndUnresolvable || c == Error
}

// The plugin names, as kube-scheduler registers them.
const (
	PluginNodeUnschedulable = "NodeUnschedulable"
	PluginNodeName          = "NodeName"
	PluginTaintToleration   = "TaintToleration"
	PluginNodeAffinity      = "NodeAffinity"
	PluginNodePorts         = "NodePorts"
	PluginNodeResourcesFit  = "NodeResourcesFit"
	PluginPodTopologySpread = "PodTopologySpread"
	PluginInterPodAffinity  = "InterPodAffinity"
)

// defaultPlugins lists the filter/score plugins this package implements in
// the order of kube-scheduler's default profile (filters first; the
// score-only NodeResourcesBalancedAllocation last). Config.Plugins may name
// a subset.
var defaultPlugins = [...]string{
	PluginNodeUnschedulable,
	PluginNodeName,
	PluginTaintToleration,
	PluginNodeAffinity,
	PluginNodePorts,
	PluginNodeResourcesFit,
	PluginPodTopologySpread,
	PluginInterPodAffinity,
	PluginNodeResourcesBalancedAllocation,
}

// DefaultPlugins returns the plugin names of kube-scheduler's default
// profile that this package implements, in filter order.
func DefaultPlugins() []string { return append([]string(nil), defaultPlugins[:]...) }

// defaultScoreWeight is each plugin's score weight in the default profile
// (pkg/scheduler/apis/config/v1 default plugins); 0 for filter-only ones.
func defaultScoreWeight(plugin string) int64 {
	switch plugin {
	case PluginTaintToleration:
		return 3
	case PluginNodeAffinity, PluginPodTopologySpread, PluginInterPodAffinity:
		return 2
	case PluginNodeResourcesFit, PluginNodeResourcesBalancedAllocation:
		return 1
	}
	return 0
}

// Upstream's reason texts.
const (
	ReasonNodeUnschedulable          = "node(s) were unschedulable"
	ReasonNodeName                   = "node(s) didn't match the requested node name"
	ReasonTaints                     = "node(s) had untolerated taint(s)"
	ReasonNodeAffinity               = "node(s) didn't match Pod's node affinity/selector"
	ReasonNodePorts                  = "node(s) didn't have free ports for the requested pod ports"
	ReasonTooManyPods                = "Too many pods"
	ReasonPodAffinity                = "node(s) didn't match pod affinity rules"
	ReasonPodAntiAffinity            = "node(s) didn't match pod anti-affinity rules"
	ReasonExistingPodsAntiAffinity   = "node(s) didn't satisfy existing pods anti-affinity rules"
	ReasonInsufficientResourcePrefix = "Insufficient "
)

// Status is one plugin's verdict: the code, the plugin, upstream's reason
// texts and, for NodeResourcesFit, the numbers behind them.
type Status struct {
	Code    Code
	Plugin  string
	Reasons []string
	// Insufficient lists the resources NodeResourcesFit found short, with
	// the request, the amount already requested on the node and the
	// allocatable amount.
	Insufficient []InsufficientResource
	// Err is set when Code is Error.
	Err error
}

// IsSuccess reports whether the status lets the pod through.
func (s Status) IsSuccess() bool { return s.Code == Success || s.Code == Skip }

// String renders the status for people: "NodeResourcesFit:
// Unschedulable: Insufficient cpu (requested 2000, used 1500, allocatable
// 3000)".
func (s Status) String() string {
	var b strings.Builder
	if s.Plugin != "" {
		b.WriteString(s.Plugin)
		b.WriteString(": ")
	}
	b.WriteString(s.Code.String())
	if len(s.Reasons) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(s.Reasons, ", "))
	}
	if s.Err != nil {
		b.WriteString(": ")
		b.WriteString(s.Err.Error())
	}
	return b.String()
}

// InsufficientResource is one resource NodeResourcesFit found short on a
// node (noderesources.InsufficientResource): the pod's request, what the
// node's pods already request, and the node's allocatable amount, in the
// scheduler's units (milli-cpu, bytes, counts). Unresolvable is true when
// the request alone exceeds the allocatable amount, so no preemption helps.
type InsufficientResource struct {
	Resource     string
	Reason       string
	Requested    int64
	Used         int64
	Capacity     int64
	Unresolvable bool
}

// NodeResult is the outcome of the filters for one node: Status.Code is
// Success when the pod fits, otherwise the status of the first plugin that
// rejected it (kube-scheduler stops at the first rejection).
type NodeResult struct {
	// Node is the node's name; Index its position in the snapshot.
	Node   string
	Index  int
	Status Status
}

// Fits reports whether every filter passed.
func (r NodeResult) Fits() bool { return r.Status.Code == Success }

// PluginScore is one plugin's contribution to a node's score: the
// normalized score (0-100) and the plugin's weight.
type PluginScore struct {
	Plugin string
	Score  int64
	Weight int64
}

// NodeScore is a feasible node's score: the weighted sum of the plugins'
// normalized scores, as kube-scheduler's RunScorePlugins adds them, and the
// breakdown.
type NodeScore struct {
	Node    string
	Index   int
	Total   int64
	Plugins []PluginScore
}

// MaxNodeScore is the highest normalized score a plugin gives a node.
const MaxNodeScore = 100

// SpreadArgs are the PodTopologySpread plugin arguments of the scheduler
// configuration (PodTopologySpreadArgs). The zero value means v1.36.3's
// defaults: DefaultingType "System" with the system default constraints.
type SpreadArgs struct {
	// DefaultingType is "System" (the default when empty) or "List".
	DefaultingType string
	// DefaultConstraints apply to pods without constraints of their own
	// when DefaultingType is "List".
	DefaultConstraints []api.TopologySpreadConstraint
}

// cyclePlugin is one plugin instantiated for one pod's scheduling cycle.
// Its constructor performs the PreFilter computation; the methods are the
// remaining extension points. All methods must be safe to call from
// several goroutines at once once constructed (they only read), except
// addPod/removePod, which are only called on a clone.
type cyclePlugin interface {
	// name returns the plugin's registered name (Plugin* constants).
	name() string
	// preFilter returns the PreFilter outcome: Success; Skip (filter is not
	// run and every node passes this plugin); Unschedulable or
	// UnschedulableAndUnresolvable (every node is rejected with this
	// status); or Error.
	preFilter() Status
	// filter judges one node (only called when preFilter succeeded). v
	// carries the node and any pods a what-if adds or removes there.
	filter(v *NodeView) Status
	// preScore prepares scoring over the nodes that passed every filter and
	// returns Success, or Skip when the plugin has nothing to score (each
	// node then gets 0 from it).
	preScore(feasible []*NodeInfo) Status
	// score returns the raw score of one feasible node.
	score(n *NodeInfo) int64
	// normalizeScore rewrites raw scores (aligned with preScore's feasible
	// nodes) into 0..MaxNodeScore in place.
	normalizeScore(scores []int64)
	// clone returns an independent copy of the cycle state, for what-if
	// evaluation (preemption, nominated pods).
	clone() cyclePlugin
	// addPod and removePod update the cycle state as if p were added to or
	// removed from node n (framework PreFilterExtensions). Plugins whose
	// state does not depend on other pods do nothing.
	addPod(p *PodInfo, n *NodeInfo)
	removePod(p *PodInfo, n *NodeInfo)
}

// Cycle is one scheduling cycle: an incoming pod evaluated against the
// snapshot with the configured plugins, as kube-scheduler's framework runs
// PreFilter, Filter, PreScore, Score and NormalizeScore. Build it with
// (*Cluster).NewCycle; it reads the snapshot, so the snapshot must not be
// updated while the cycle is in use. A Cycle is not safe for concurrent
// use; create one per goroutine.
type Cycle struct {
	c       *Cluster
	pod     *PodInfo
	plugins []cyclePlugin

	preFilterDone bool
	preFilter     []Status // per plugin
	// active are the plugins whose filter runs (PreFilter Success).
	active []cyclePlugin
	// quick holds, aligned with active, the plugins' quickFilter (nil for
	// plugins without one).
	quick []quickFilter
	// allQuick: every active plugin has a quick check.
	allQuick bool
	// rejectAll is set when a PreFilter rejected or failed: every node gets
	// it.
	rejectAll *Status
	// preScore holds the PreScore statuses of the last Score call.
	preScore []Status
	// view is the node view Filter reuses from node to node.
	view NodeView
}

// NewCycle starts a scheduling cycle for pod. The pod need not be in the
// snapshot; if a pod with its key is there, it is not treated specially
// (callers scheduling a pod remove it first, as the scheduler does).
func (c *Cluster) NewCycle(pod *api.Pod) *Cycle {
	pi := newIncomingPodInfo(pod)
	return &Cycle{c: c, pod: pi, plugins: c.plugins(pi)}
}

// Pod returns the incoming pod as indexed for the cycle.
func (cy *Cycle) Pod() *PodInfo { return cy.pod }

// Plugins returns the names of the plugins the cycle runs, in order.
func (cy *Cycle) Plugins() []string {
	out := make([]string, len(cy.plugins))
	for i, p := range cy.plugins {
		out[i] = p.name()
	}
	return out
}

// enabled reports whether the configuration runs the plugin.
func (c *Cluster) enabled(name string) bool {
	if c.cfg.Plugins == nil {
		return true
	}
	for _, p := range c.cfg.Plugins {
		if p == name {
			return true
		}
	}
	return false
}

// plugins instantiates the enabled plugins for one cycle, in the default
// profile's order.
func (c *Cluster) plugins(pod *PodInfo) []cyclePlugin {
	out := make([]cyclePlugin, 0, len(defaultPlugins))
	add := func(name string, mk func() cyclePlugin) {
		if c.enabled(name) {
			out = append(out, mk())
		}
	}
	add(PluginNodeUnschedulable, func() cyclePlugin { return newNodeUnschedulablePlugin(pod) })
	add(PluginNodeName, func() cyclePlugin { return newNodeNamePlugin(pod) })
	add(PluginTaintToleration, func() cyclePlugin { return newTaintPlugin(pod) })
	add(PluginNodeAffinity, func() cyclePlugin { return newNodeAffinityPlugin(c, pod) })
	add(PluginNodePorts, func() cyclePlugin { return newNodePortsPlugin(pod) })
	add(PluginNodeResourcesFit, func() cyclePlugin { return newFitPlugin(c, pod) })
	add(PluginPodTopologySpread, func() cyclePlugin { return newSpreadPlugin(c, pod) })
	add(PluginInterPodAffinity, func() cyclePlugin { return newInterPodAffinityPlugin(c, pod) })
	add(PluginNodeResourcesBalancedAllocation, func() cyclePlugin { return newBalancedPlugin(pod) })
	return out
}

// runPreFilter runs every plugin's PreFilter once.
func (cy *Cycle) runPreFilter() {
	if cy.preFilterDone {
		return
	}
	cy.preFilterDone = true
	cy.allQuick = true
	cy.preFilter = make([]Status, len(cy.plugins))
	for i, p := range cy.plugins {
		st := p.preFilter()
		st.Plugin = p.name()
		cy.preFilter[i] = st
		switch {
		case st.Code == Success:
			cy.active = append(cy.active, p)
			q, ok := p.(quickFilter)
			cy.quick = append(cy.quick, q)
			cy.allQuick = cy.allQuick && ok
		case st.Code == Skip:
		default:
			if cy.rejectAll == nil {
				s := st
				cy.rejectAll = &s
			}
		}
	}
}

// PreFilter returns each plugin's PreFilter status, in plugin order.
func (cy *Cycle) PreFilter() []Status {
	cy.runPreFilter()
	return append([]Status(nil), cy.preFilter...)
}
