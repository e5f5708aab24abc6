package scheduling

// The plugin framework: how a filter or score plugin is written here.
//
// A plugin is a type implementing cyclePlugin (below), one value per
// scheduling cycle. (*Cluster).plugins builds the enabled ones for each
// NewCycle, calling one constructor per plugin in kube-scheduler's
// default-profile order (defaultPlugins) and keeping the value in the
// cycle's own storage (cyclePlugins, allocated with the Cycle). A
// constructor only records what it needs from the incoming pod and the
// snapshot (func newXPlugin(c *Cluster, p *PodInfo) xPlugin, returning the
// value); it does no counting, never fails, and the type embeds basePlugin
// for the extension points the plugin does not implement.
//
// The cycle calls the extension points as the framework does:
//
//   - preFilter, once per cycle before any filter (runPreFilter, on the
//     first Decide, Explain or WhatIf): the per-pod work, such as compiling
//     selectors and counting matching pods per topology domain. It returns
//     Success, Skip (filter is never called and every node passes this
//     plugin), a rejection given to every node, or Error with Err set for
//     bad input such as an invalid selector.
//   - filter, once per node: it reads the node through a *nodeView, which
//     is the snapshot's NodeInfo with the pods a what-if removed or added
//     (preemption's victims, nominated pods). What depends on the node's
//     pods therefore comes from the view (numPods, requested,
//     portConflict) or from the plugin's own counts, which addPod and
//     removePod keep in step (inter-pod affinity, topology spread); never
//     from the NodeInfo alone. filter must not allocate when the node
//     passes (return Status{}), and a rejection reuses the package-level
//     reason slices (reasonsTaints, ...) unless it carries numbers (as
//     NodeResourcesFit's does), so that a decision over thousands of nodes
//     allocates nothing per passing node. A plugin may add fits
//     (quickFilter): a cheap check whose true lets the node through
//     without calling filter; when it says false, filter runs and has the
//     last word, so fits may be conservative.
//   - preScore, once over the feasible nodes, then score per feasible node
//     (the raw score) and normalizeScore over all of them in place, to
//     0..MaxNodeScore; Decide applies the weight of defaultScoreWeight.
//     preScore returns Skip when the plugin has nothing to score (every
//     node gets 0 from it), or Error.
//
// Where state lives: everything a plugin computes for the pod lives on the
// plugin value, for the cycle's lifetime; the snapshot (the Cluster and its
// indexes: label columns, pods per namespace and label, the spread cache)
// is only read, so a plugin may keep pointers into it. clone copies what
// addPod and removePod change, and those two update it as if a pod were
// added to or removed from a node (the framework's PreFilterExtensions),
// which is how WhatIf and nominated pods are evaluated without copying the
// snapshot. Plugins whose state does not depend on other pods return
// themselves from clone.
//
// Decide and ScheduleOne (decision.go, schedule.go) share one path: they
// walk the candidate nodes (index order, a PreFilter's node subset, or the
// node tree from a start index) and run the filters node by node until
// enough nodes fit, then score column by column. The walk runs only the
// plugins that can reject a node this cycle (buildChecks), calls the
// hottest through their concrete types (filterNode: NodeResourcesFit reads
// per-node columns, fitcolumns.go; PodTopologySpread works on node indexes,
// fitsIndex), and records a rejection by an exact check as "check j" whose
// Status is built when asked for; scoring calls the hot plugins directly
// too (scoreColumn, preScoreIndexes, scoreIndexes). A new plugin needs none
// of that to be correct: the plain path through the interface gives the
// same answers, and the package's property tests compare Decide and
// ScheduleOne with it (plain_test.go).
//
// A plugin whose PreFilter narrows the nodes (a PreFilterResult with node
// names) also implements nodeSubsetter; the framework intersects the
// subsets and gives the nodes left out the absent-node status.
//
// Adding a plugin: its name constant (Plugin*), its place in
// defaultPlugins, cyclePlugins and plugins(), its weight in defaultScoreWeight, and its
// reason texts (Reason*) as upstream spells them.

import (
	"fmt"
	"sort"
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

// The plugin names, as kube-scheduler registers them.
const (
	PluginNodeUnschedulable    = "NodeUnschedulable"
	PluginNodeName             = "NodeName"
	PluginTaintToleration      = "TaintToleration"
	PluginNodeAffinity         = "NodeAffinity"
	PluginNodePorts            = "NodePorts"
	PluginNodeResourcesFit     = "NodeResourcesFit"
	PluginVolumeRestrictions   = "VolumeRestrictions"
	PluginNodeVolumeLimits     = "NodeVolumeLimits"
	PluginVolumeBinding        = "VolumeBinding"
	PluginVolumeZone           = "VolumeZone"
	PluginPodTopologySpread    = "PodTopologySpread"
	PluginInterPodAffinity     = "InterPodAffinity"
	PluginDynamicResources     = "DynamicResources"
	PluginNodeDeclaredFeatures = "NodeDeclaredFeatures"
	PluginImageLocality        = "ImageLocality"
)

// defaultPlugins lists the filter/score plugins this package implements in
// the order of kube-scheduler v1.36.3's default profile (filters first, in
// filter order; the score-only NodeResourcesBalancedAllocation and
// ImageLocality last). Config.Plugins may name a subset.
var defaultPlugins = [...]string{
	PluginNodeUnschedulable,
	PluginNodeName,
	PluginTaintToleration,
	PluginNodeAffinity,
	PluginNodePorts,
	PluginNodeResourcesFit,
	PluginVolumeRestrictions,
	PluginNodeVolumeLimits,
	PluginVolumeBinding,
	PluginVolumeZone,
	PluginPodTopologySpread,
	PluginInterPodAffinity,
	PluginDynamicResources,
	PluginNodeDeclaredFeatures,
	PluginNodeResourcesBalancedAllocation,
	PluginImageLocality,
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
	case PluginNodeAffinity, PluginPodTopologySpread, PluginInterPodAffinity, PluginDynamicResources:
		return 2
	case PluginNodeResourcesFit, PluginVolumeBinding, PluginNodeResourcesBalancedAllocation, PluginImageLocality:
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

// PluginScore is one plugin's contribution to a node's score: the
// normalized score (0-100) and the plugin's weight.
type PluginScore struct {
	Plugin string
	Score  int64
	Weight int64
}

// NodeScore is a feasible node's score: the weighted sum of the plugins'
// normalized scores, as kube-scheduler's RunPreScorePlugins and
// RunScorePlugins compute it, and the breakdown. Each plugin's raw scores
// are normalized to 0..MaxNodeScore and multiplied by its weight in
// v1.36.3's default profile: TaintToleration 3, NodeAffinity 2,
// PodTopologySpread 2, InterPodAffinity 2, DynamicResources 2,
// NodeResourcesFit 1 (the LeastAllocated strategy over cpu and memory),
// VolumeBinding 1, NodeResourcesBalancedAllocation 1, ImageLocality 1. A
// plugin whose PreScore says Skip is listed with 0 (kube-scheduler leaves
// it out of the node's scores; Decision.PreScore tells which did).
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

// cyclePlugin is one plugin instantiated for one pod's scheduling cycle
// (see the top of this file). A cycle is used by one goroutine at a time;
// addPod and removePod are only called on a clone.
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
	filter(v *nodeView) Status
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
// (*Cluster).NewCycle, then ask it for a Decision (Decide), an Explanation
// (Explain) or a what-if on one node (WhatIf); PreFilter runs once, on the
// first of these, and is reused by the others. A cycle reads the snapshot,
// so the snapshot must not be updated while the cycle is in use. A Cycle is
// not safe for concurrent use; create one per goroutine.
type Cycle struct {
	c       *Cluster
	pod     *PodInfo
	plugins []cyclePlugin
	store   cyclePlugins

	preFilterDone bool
	// The PreFilter statuses of the plugins that ran, in plugin order
	// (every plugin, unless one rejected the pod as
	// UnschedulableAndUnresolvable or failed, which ends the PreFilter
	// phase there, as the framework's RunPreFilterPlugins does): the first
	// preFilterN plugins ran, with the codes in preFilterCode; when some
	// status carries more than its code (reasons, an error), all of them
	// are in preFilterFull instead (see appendPreFilter).
	preFilterN    int
	preFilterCode [len(defaultPlugins)]Code
	preFilterFull []Status
	// active are the plugins whose filter runs (PreFilter did not say
	// Skip).
	active []cyclePlugin
	// quick holds, aligned with active, the plugins' quickFilter (nil for
	// plugins without one).
	quick []quickFilter
	// rejectAll is set when a PreFilter rejected or failed: every node gets
	// it.
	rejectAll *Status
	// subset is set when a PreFilter narrowed the candidate nodes
	// (PreFilterResult.NodeNames): the snapshot indexes of the named nodes
	// that exist, ascending; subsetPlugins names the plugins that narrowed
	// them, sorted, and absent is the status the other nodes get.
	subset        []int
	hasSubset     bool
	subsetPlugins []string
	absent        Status
	// checks are the active plugins as Decide's filter loop runs them
	// (buildChecks).
	checks []filterCheck
	// activeBuf, quickBuf and checksBuf hold active, quick and checks
	// while few plugins are active.
	activeBuf [8]cyclePlugin
	quickBuf  [8]quickFilter
	checksBuf [8]filterCheck
	// sieve holds the checks as column checks when every one is exact
	// (sieveOK), for the block sieve (sieve.go).
	sieve    []sieveCheck
	sieveOK  bool
	sieveBuf [4]sieveCheck
	// sieveOrder is the sieve's running order (sieveWalk).
	sieveOrder    []sieveRank
	sieveOrderBuf [4]sieveRank
	// view is the node view the filters reuse from node to node.
	view nodeView
}

// nodeSubsetter is implemented by plugins whose PreFilter may narrow the
// nodes the filters run on (a PreFilterResult with NodeNames): after a
// successful preFilter, preFilterNodeNames returns those names and true,
// or false when every node remains a candidate.
type nodeSubsetter interface {
	preFilterNodeNames() (names []string, ok bool)
}

// ReasonNodesDidNotSatisfyPlugins is the format of the status the framework
// gives the nodes a PreFilter left out of its node subset
// (findNodesThatFitPod): "node(s) didn't satisfy plugin(s) [NodeAffinity]",
// the narrowing plugins sorted.
const ReasonNodesDidNotSatisfyPlugins = "node(s) didn't satisfy plugin(s) %v"

// NewCycle starts a scheduling cycle for pod. The pod need not be in the
// snapshot; if a pod with its key is there, it is not treated specially
// (callers scheduling a pod remove it first, as the scheduler does). A nil
// pod or Cluster gives a nil Cycle, whose decisions cover no node.
func (c *Cluster) NewCycle(pod *api.Pod) *Cycle {
	if c == nil || pod == nil {
		return nil
	}
	cy := &Cycle{c: c, pod: newIncomingPodInfo(pod)}
	cy.plugins = c.plugins(cy.pod, &cy.store)
	cy.active, cy.quick, cy.checks = cy.activeBuf[:0], cy.quickBuf[:0], cy.checksBuf[:0]
	return cy
}

// Pod returns the incoming pod as indexed for the cycle (nil for a nil
// Cycle).
func (cy *Cycle) Pod() *PodInfo {
	if cy == nil {
		return nil
	}
	return cy.pod
}

// Cluster returns the snapshot the cycle evaluates the pod on (nil for a
// nil Cycle).
func (cy *Cycle) Cluster() *Cluster {
	if cy == nil {
		return nil
	}
	return cy.c
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

// cyclePlugins holds one cycle's plugin values, allocated with the Cycle
// (NewCycle allocates once for the cycle and its plugins); list holds the
// enabled ones in the default profile's order.
type cyclePlugins struct {
	list               [len(defaultPlugins)]cyclePlugin
	unschedulable      nodeUnschedulablePlugin
	nodeName           nodeNamePlugin
	taint              taintPlugin
	nodeAffinity       nodeAffinityPlugin
	ports              nodePortsPlugin
	fit                fitPlugin
	volumeRestrictions volumeRestrictionsPlugin
	volumeLimits       nodeVolumeLimitsPlugin
	volumeBinding      volumeBindingPlugin
	volumeZone         volumeZonePlugin
	spread             spreadPlugin
	interPodAffinity   interPodAffinityPlugin
	dynamicResources   dynamicResourcesPlugin
	declaredFeatures   nodeDeclaredFeaturesPlugin
	balanced           balancedPlugin
	imageLocality      imageLocalityPlugin
}

// plugins instantiates the enabled plugins for one cycle into s, in the
// default profile's order, and returns them.
func (c *Cluster) plugins(pod *PodInfo, s *cyclePlugins) []cyclePlugin {
	out := s.list[:0]
	for _, name := range defaultPlugins {
		if !c.enabled(name) {
			continue
		}
		var p cyclePlugin
		switch name {
		case PluginNodeUnschedulable:
			s.unschedulable = newNodeUnschedulablePlugin(pod)
			p = &s.unschedulable
		case PluginNodeName:
			s.nodeName = newNodeNamePlugin(pod)
			p = &s.nodeName
		case PluginTaintToleration:
			v := s.taint.verdicts // the last cycle's buffer, emptied
			clear(v)
			s.taint = newTaintPlugin(pod)
			s.taint.verdicts = v
			p = &s.taint
		case PluginNodeAffinity:
			s.nodeAffinity = newNodeAffinityPlugin(c, pod)
			p = &s.nodeAffinity
		case PluginNodePorts:
			s.ports = newNodePortsPlugin(pod)
			p = &s.ports
		case PluginNodeResourcesFit:
			s.fit = newFitPlugin(&c.cfg, pod)
			p = &s.fit
		case PluginVolumeRestrictions:
			s.volumeRestrictions = newVolumeRestrictionsPlugin(c, pod)
			p = &s.volumeRestrictions
		case PluginNodeVolumeLimits:
			s.volumeLimits = newNodeVolumeLimitsPlugin(c, pod)
			p = &s.volumeLimits
		case PluginVolumeBinding:
			s.volumeBinding = newVolumeBindingPlugin(c, pod)
			p = &s.volumeBinding
		case PluginVolumeZone:
			s.volumeZone = newVolumeZonePlugin(c, pod)
			p = &s.volumeZone
		case PluginPodTopologySpread:
			s.spread = newSpreadPlugin(c, pod)
			p = &s.spread
		case PluginInterPodAffinity:
			s.interPodAffinity = newInterPodAffinityPlugin(c, pod)
			p = &s.interPodAffinity
		case PluginDynamicResources:
			s.dynamicResources = newDynamicResourcesPlugin(pod)
			p = &s.dynamicResources
		case PluginNodeDeclaredFeatures:
			p = &s.declaredFeatures
		case PluginNodeResourcesBalancedAllocation:
			s.balanced = newBalancedPlugin(pod)
			p = &s.balanced
		case PluginImageLocality:
			s.imageLocality = newImageLocalityPlugin(c, pod)
			p = &s.imageLocality
		}
		out = append(out, p)
	}
	return out
}

// appendPreFilter appends the PreFilter statuses of the plugins that ran
// to dst.
func (cy *Cycle) appendPreFilter(dst []Status) []Status {
	if cy.preFilterFull != nil {
		return append(dst, cy.preFilterFull...)
	}
	for j := range cy.preFilterN {
		dst = append(dst, Status{Code: cy.preFilterCode[j], Plugin: cy.plugins[j].name()})
	}
	return dst
}

// runPreFilter runs the plugins' PreFilter once, as the framework's
// RunPreFilterPlugins does: Skip leaves a plugin's filter out; an
// UnschedulableAndUnresolvable or Error status ends the phase at once and is
// every node's status; an Unschedulable status lets the later plugins run
// (their state serves preemption) and, the last one given, fails the cycle
// unless a later plugin ends it. Node subsets returned by the plugins are
// intersected; an empty intersection rejects the pod.
func (cy *Cycle) runPreFilter() {
	if cy.preFilterDone {
		return
	}
	cy.preFilterDone = true
	var unschedulable *Status
	var names map[string]bool // the merged subset, nil when every node
	var narrowing []string
	for j, p := range cy.plugins {
		st := p.preFilter()
		st.Plugin = p.name()
		cy.preFilterCode[j] = st.Code
		cy.preFilterN++
		if cy.preFilterFull != nil || st.Reasons != nil || st.Err != nil || st.Insufficient != nil {
			if cy.preFilterFull == nil {
				cy.preFilterFull = cy.appendPreFilter(make([]Status, 0, len(cy.plugins)))[:j]
			}
			cy.preFilterFull = append(cy.preFilterFull, st)
		}
		switch st.Code {
		case Skip:
			continue
		case Success:
		case Unschedulable:
			s := st
			unschedulable = &s
		default: // UnschedulableAndUnresolvable, Error
			s := st
			cy.rejectAll = &s
			return
		}
		cy.active = append(cy.active, p)
		q, _ := p.(quickFilter)
		cy.quick = append(cy.quick, q)
		if st.Code != Success {
			continue
		}
		ns, ok := p.(nodeSubsetter)
		if !ok {
			continue
		}
		list, ok := ns.preFilterNodeNames()
		if !ok {
			continue
		}
		narrowing = append(narrowing, p.name())
		if names == nil {
			names = make(map[string]bool, len(list))
			for _, n := range list {
				names[n] = true
			}
		} else {
			keep := make(map[string]bool, len(list))
			for _, n := range list {
				if names[n] {
					keep[n] = true
				}
			}
			names = keep
		}
		if len(names) == 0 {
			sort.Strings(narrowing)
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", narrowing)
			if len(narrowing) == 1 {
				msg = "node(s) didn't satisfy plugin " + narrowing[0]
			}
			cy.rejectAll = &Status{Code: UnschedulableAndUnresolvable, Reasons: []string{msg}}
			cy.subsetPlugins = narrowing
			return
		}
	}
	if unschedulable != nil {
		cy.rejectAll = unschedulable
	}
	cy.buildChecks()
	cy.buildSieve()
	if names != nil {
		cy.hasSubset = true
		sort.Strings(narrowing)
		cy.subsetPlugins = narrowing
		for n := range names {
			if ni := cy.c.byName[n]; ni != nil {
				cy.subset = append(cy.subset, ni.index)
			}
		}
		sort.Ints(cy.subset)
		cy.absent = Status{Code: UnschedulableAndUnresolvable,
			Reasons: []string{fmt.Sprintf(ReasonNodesDidNotSatisfyPlugins, narrowing)}}
	}
}
