package scheduling

import "github.com/podsem/podsem/api"

// basePlugin gives the extension points a plugin does not implement their
// framework defaults: PreFilter Success, PreScore Skip, no state to update.
type basePlugin struct{}

func (basePlugin) preFilter() Status                    { return Status{} }
func (basePlugin) preScore(feasible []*NodeInfo) Status { return Status{Code: Skip} }
func (basePlugin) score(n *NodeInfo) int64              { return 0 }
func (basePlugin) normalizeScore(scores []int64)        {}
func (basePlugin) addPod(p *PodInfo, n *NodeInfo)       {}
func (basePlugin) removePod(p *PodInfo, n *NodeInfo)    {}

// Reason lists shared by every rejection of a kind; never modified.
var (
	reasonsNodeUnschedulable = []string{ReasonNodeUnschedulable}
	reasonsNodeName          = []string{ReasonNodeName}
	reasonsTaints            = []string{ReasonTaints}
	reasonsNodeAffinity      = []string{ReasonNodeAffinity}
	reasonsNodePorts         = []string{ReasonNodePorts}
	reasonsPodAffinity       = []string{ReasonPodAffinity}
	reasonsPodAntiAffinity   = []string{ReasonPodAntiAffinity}
	reasonsExistingAnti      = []string{ReasonExistingPodsAntiAffinity}
)

// nodeUnschedulablePlugin is NodeUnschedulable: a cordoned node
// (spec.unschedulable) takes only pods tolerating the
// node.kubernetes.io/unschedulable:NoSchedule taint.
type nodeUnschedulablePlugin struct {
	basePlugin
	tolerates bool
}

func newNodeUnschedulablePlugin(p *PodInfo) nodeUnschedulablePlugin {
	t := api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}
	return nodeUnschedulablePlugin{tolerates: toleratesTaint(p.pod.Spec.Tolerations, &t)}
}

func (pl *nodeUnschedulablePlugin) name() string       { return PluginNodeUnschedulable }
func (pl *nodeUnschedulablePlugin) clone() cyclePlugin { return pl }

func (pl *nodeUnschedulablePlugin) fits(v *nodeView) bool {
	return !v.info.unschedulable || pl.tolerates
}

func (pl *nodeUnschedulablePlugin) filter(v *nodeView) Status {
	if v.info.unschedulable && !pl.tolerates {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsNodeUnschedulable}
	}
	return Status{}
}

// nodeNamePlugin is NodeName: a pod naming a node in spec.nodeName fits
// only that node.
type nodeNamePlugin struct {
	basePlugin
	nodeName string
}

func newNodeNamePlugin(p *PodInfo) nodeNamePlugin {
	return nodeNamePlugin{nodeName: p.pod.Spec.NodeName}
}

func (pl *nodeNamePlugin) name() string       { return PluginNodeName }
func (pl *nodeNamePlugin) clone() cyclePlugin { return pl }

func (pl *nodeNamePlugin) fits(v *nodeView) bool {
	return pl.nodeName == "" || pl.nodeName == v.info.name
}

func (pl *nodeNamePlugin) filter(v *nodeView) Status {
	if pl.nodeName != "" && pl.nodeName != v.info.name {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsNodeName}
	}
	return Status{}
}
