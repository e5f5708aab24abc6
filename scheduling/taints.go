package scheduling

import "github.com/podsem/podsem/api"

// toleratesTaint reports whether any toleration tolerates the taint
// (api.TolerationsTolerateTaint).
func toleratesTaint(tols []api.Toleration, t *api.Taint) bool {
	return api.TolerationsTolerateTaint(tols, t)
}

// findUntoleratedTaint returns the first of the node's NoSchedule or
// NoExecute taints that none of the tolerations tolerates, as the
// TaintToleration filter looks for it (api.FindUntoleratedTaint); ok is
// false when every such taint is tolerated. PreferNoSchedule taints never
// keep a pod off a node.
func findUntoleratedTaint(taints []api.Taint, tols []api.Toleration) (taint api.Taint, ok bool) {
	return api.FindUntoleratedTaint(taints, tols, api.TaintEffectNoSchedule, api.TaintEffectNoExecute)
}

// taintPlugin is TaintToleration: the pod must tolerate every NoSchedule
// and NoExecute taint of the node (UnschedulableAndUnresolvable otherwise,
// "node(s) had untolerated taint(s)"); nodes score lower for each
// PreferNoSchedule taint the pod does not tolerate.
type taintPlugin struct {
	basePlugin
	tols []api.Toleration
	// preferTols are the tolerations that can tolerate PreferNoSchedule
	// taints (effect empty or PreferNoSchedule).
	preferTols []api.Toleration
	// verdicts caches fits by NodeInfo.hardClass: 1 tolerated, 2 not,
	// 0 not judged yet. Nodes of one class carry the same taints.
	verdicts []uint8
}

func newTaintPlugin(p *PodInfo) taintPlugin {
	return taintPlugin{tols: p.pod.Spec.Tolerations}
}

func (pl *taintPlugin) name() string       { return PluginTaintToleration }
func (pl *taintPlugin) clone() cyclePlugin { return pl }

func (pl *taintPlugin) fits(v *nodeView) bool {
	if !v.info.hardTaints {
		return true
	}
	cls := int(v.info.hardClass)
	if cls > 0 && cls < len(pl.verdicts) && pl.verdicts[cls] != 0 {
		return pl.verdicts[cls] == 1
	}
	_, bad := findUntoleratedTaint(v.info.node.Spec.Taints, pl.tols)
	if cls > 0 {
		if cls >= len(pl.verdicts) {
			pl.verdicts = append(pl.verdicts, make([]uint8, cls+1-len(pl.verdicts))...)
		}
		pl.verdicts[cls] = 1
		if bad {
			pl.verdicts[cls] = 2
		}
	}
	return !bad
}

func (pl *taintPlugin) filter(v *nodeView) Status {
	if !v.info.hardTaints {
		return Status{}
	}
	if _, bad := findUntoleratedTaint(v.info.node.Spec.Taints, pl.tols); bad {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsTaints}
	}
	return Status{}
}

// preScore keeps the tolerations that matter for PreferNoSchedule taints
// (tainttoleration PreScore); it always succeeds.
func (pl *taintPlugin) preScore(feasible []*NodeInfo) Status {
	pl.preferTols = pl.preferTols[:0]
	for _, t := range pl.tols {
		if t.Effect == "" || t.Effect == api.TaintEffectPreferNoSchedule {
			pl.preferTols = append(pl.preferTols, t)
		}
	}
	return Status{}
}

// score counts the node's PreferNoSchedule taints the pod does not
// tolerate.
func (pl *taintPlugin) score(n *NodeInfo) int64 {
	if !n.softTaints {
		return 0
	}
	var count int64
	for i := range n.node.Spec.Taints {
		t := &n.node.Spec.Taints[i]
		if t.Effect == api.TaintEffectPreferNoSchedule && !toleratesTaint(pl.preferTols, t) {
			count++
		}
	}
	return count
}

// normalizeScore maps the counts to 0..100, fewer untolerated taints
// scoring higher (DefaultNormalizeScore with reverse).
func (pl *taintPlugin) normalizeScore(scores []int64) {
	defaultNormalizeScore(MaxNodeScore, true, scores)
}
