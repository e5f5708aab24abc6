package proptest

import (
	"strconv"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// drawNodeSelector draws a spec.nodeSelector on one well-known label.
func (g *podGen) drawNodeSelector(d *drawer) map[string]string {
	if !chance(d, "node-selector", 8) {
		return nil
	}
	switch pick(d, "node-selector-key", []string{api.LabelOS, api.LabelTopologyZone, labelInstanceType, labelArch}) {
	case api.LabelOS:
		return map[string]string{api.LabelOS: "linux"}
	case api.LabelTopologyZone:
		return map[string]string{api.LabelTopologyZone: pick(d, "node-selector-zone", g.tp.zoneNames())}
	case labelInstanceType:
		return map[string]string{labelInstanceType: pick(d, "node-selector-type", g.tp.plainInstanceTypeNames())}
	default:
		return map[string]string{labelArch: pick(d, "node-selector-arch", g.tp.archs())}
	}
}

// drawNodeRequirement draws one node selector requirement, with every
// operator, on the labels generated nodes carry.
func (g *podGen) drawNodeRequirement(d *drawer) api.NodeSelectorRequirement {
	switch pick(d, "node-req", []string{"zone", "region", "type", "arch", "gt", "lt", "spot", "os"}) {
	case "zone":
		return api.NodeSelectorRequirement{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: subset(d, "node-req-zones", g.tp.zoneNames())}
	case "region":
		return api.NodeSelectorRequirement{Key: api.LabelTopologyRegion, Operator: api.NodeSelectorOpIn, Values: []string{pick(d, "node-req-region", g.tp.regions())}}
	case "type":
		return api.NodeSelectorRequirement{Key: labelInstanceType, Operator: api.NodeSelectorOpNotIn, Values: []string{pick(d, "node-req-type", g.tp.plainInstanceTypeNames())}}
	case "arch":
		return api.NodeSelectorRequirement{Key: labelArch, Operator: api.NodeSelectorOpIn, Values: subset(d, "node-req-arch", g.tp.archs())}
	case "gt":
		return api.NodeSelectorRequirement{Key: labelGeneration, Operator: api.NodeSelectorOpGt, Values: []string{strconv.Itoa(intIn(d, "node-req-gt", 0, 4))}}
	case "lt":
		return api.NodeSelectorRequirement{Key: labelGeneration, Operator: api.NodeSelectorOpLt, Values: []string{strconv.Itoa(intIn(d, "node-req-lt", 2, 6))}}
	case "spot":
		return api.NodeSelectorRequirement{Key: labelSpot, Operator: pick(d, "node-req-spot", []api.NodeSelectorOperator{api.NodeSelectorOpDoesNotExist, api.NodeSelectorOpExists})}
	default:
		return api.NodeSelectorRequirement{Key: api.LabelOS, Operator: api.NodeSelectorOpIn, Values: []string{"linux"}}
	}
}

func (g *podGen) drawNodeSelectorTerm(d *drawer) api.NodeSelectorTerm {
	var term api.NodeSelectorTerm
	for range intIn(d, "node-term-exprs", 1, 2) {
		term.MatchExpressions = append(term.MatchExpressions, g.drawNodeRequirement(d))
	}
	return term
}

// drawNodeAffinity draws required and preferred node affinity. A
// DaemonSet pod, when node names are known, is pinned to one node by a
// matchFields term, as the DaemonSet controller pins it.
func (g *podGen) drawNodeAffinity(d *drawer, id identity) *api.NodeAffinity {
	var na api.NodeAffinity
	if id.kind == kindDaemonSet && len(g.opts.NodeNames) > 0 {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchFields: []api.NodeSelectorRequirement{{Key: api.NodeFieldName, Operator: api.NodeSelectorOpIn, Values: []string{pick(d, "daemon-node", g.opts.NodeNames)}}},
		}}}
	} else if chance(d, "required-node-affinity", 8) {
		ns := &api.NodeSelector{}
		for range intIn(d, "node-terms", 1, 2) {
			term := g.drawNodeSelectorTerm(d)
			if len(g.opts.NodeNames) > 0 && chance(d, "match-fields", 4) {
				term.MatchFields = []api.NodeSelectorRequirement{{
					Key:      api.NodeFieldName,
					Operator: pick(d, "match-fields-op", []api.NodeSelectorOperator{api.NodeSelectorOpNotIn, api.NodeSelectorOpIn}),
					Values:   []string{pick(d, "match-fields-node", g.opts.NodeNames)},
				}}
			}
			ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, term)
		}
		na.RequiredDuringSchedulingIgnoredDuringExecution = ns
	}
	if chance(d, "preferred-node-affinity", 6) {
		for range intIn(d, "preferred-node-terms", 1, 2) {
			na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
				api.PreferredSchedulingTerm{Weight: int32(intIn(d, "node-weight", 1, 100)), Preference: g.drawNodeSelectorTerm(d)})
		}
	}
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil && na.PreferredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	return &na
}

// drawPodAffinityTerm draws one pod (anti-)affinity term selecting pods of
// app, in the pod's namespace or others.
func (g *podGen) drawPodAffinityTerm(d *drawer, p *api.Pod, app string, topologyKey string) api.PodAffinityTerm {
	term := api.PodAffinityTerm{TopologyKey: topologyKey}
	if flip(d, "term-match-labels") {
		term.LabelSelector = &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
	} else {
		term.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{app}}}}
	}
	switch pick(d, "term-namespaces", []string{"own", "list", "selector", "all"}) {
	case "list":
		term.Namespaces = subset(d, "term-namespace", g.namespaces)
	case "selector":
		term.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{labelNamespaceName: pick(d, "term-namespace-name", g.namespaces)}}
	case "all":
		term.NamespaceSelector = &api.LabelSelector{}
	}
	if app == p.Labels["app"] && chance(d, "term-match-label-keys", 3) {
		// Pods of the same app and the same revision: the usual use of
		// matchLabelKeys, in anti-affinity during a rolling update.
		term.MatchLabelKeys = []string{workloads.LabelPodTemplateHash}
	}
	if chance(d, "term-mismatch-label-keys", 6) {
		term.MismatchLabelKeys = []string{labelTeam}
	}
	return term
}

// drawPodAffinity draws pod affinity towards other apps (co-location in
// a zone or region) and anti-affinity away from the pod's own app (one
// per node, or spread over zones), each required or preferred.
func (g *podGen) drawPodAffinity(d *drawer, p *api.Pod) (*api.PodAffinity, *api.PodAntiAffinity) {
	var pa *api.PodAffinity
	var anti *api.PodAntiAffinity
	if chance(d, "pod-affinity", 8) {
		pa = &api.PodAffinity{}
		other := pick(d, "affinity-app", g.affinityApps(p))
		key := pick(d, "affinity-key", []string{api.LabelTopologyZone, api.LabelTopologyRegion, api.LabelHostname})
		if flip(d, "affinity-required") {
			pa.RequiredDuringSchedulingIgnoredDuringExecution = []api.PodAffinityTerm{g.drawPodAffinityTerm(d, p, other, key)}
		} else {
			pa.PreferredDuringSchedulingIgnoredDuringExecution = []api.WeightedPodAffinityTerm{{
				Weight: int32(intIn(d, "affinity-weight", 1, 100)), PodAffinityTerm: g.drawPodAffinityTerm(d, p, other, key),
			}}
		}
	}
	if chance(d, "pod-anti-affinity", 4) {
		anti = &api.PodAntiAffinity{}
		app := p.Labels["app"]
		if flip(d, "anti-affinity-required") {
			anti.RequiredDuringSchedulingIgnoredDuringExecution = []api.PodAffinityTerm{g.drawPodAffinityTerm(d, p, app, api.LabelHostname)}
		}
		if flip(d, "anti-affinity-preferred") || anti.RequiredDuringSchedulingIgnoredDuringExecution == nil {
			key := pick(d, "anti-affinity-key", []string{api.LabelTopologyZone, api.LabelHostname})
			anti.PreferredDuringSchedulingIgnoredDuringExecution = []api.WeightedPodAffinityTerm{{
				Weight: int32(intIn(d, "anti-affinity-weight", 1, 100)), PodAffinityTerm: g.drawPodAffinityTerm(d, p, app, key),
			}}
		}
	}
	return pa, anti
}

// drawSpread draws up to two topology spread constraints over the pod's
// own app, never two with the same {topologyKey, whenUnsatisfiable};
// minDomains only with DoNotSchedule.
func (g *podGen) drawSpread(d *drawer, p *api.Pod) []api.TopologySpreadConstraint {
	if !chance(d, "spread", 4) {
		return nil
	}
	var out []api.TopologySpreadConstraint
	seen := map[[2]string]bool{}
	for range intIn(d, "spread-constraints", 1, 2) {
		c := api.TopologySpreadConstraint{
			MaxSkew:           int32(intIn(d, "max-skew", 1, 3)),
			TopologyKey:       pick(d, "spread-key", []string{api.LabelTopologyZone, api.LabelHostname, api.LabelTopologyRegion}),
			WhenUnsatisfiable: pick(d, "spread-when", []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}),
			LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}},
		}
		k := [2]string{c.TopologyKey, string(c.WhenUnsatisfiable)}
		if seen[k] {
			continue
		}
		seen[k] = true
		if c.WhenUnsatisfiable == api.DoNotSchedule && chance(d, "min-domains", 4) {
			c.MinDomains = ptr(int32(intIn(d, "min-domains-value", 1, 3)))
		}
		if chance(d, "spread-match-label-keys", 3) {
			c.MatchLabelKeys = []string{workloads.LabelPodTemplateHash}
		}
		if chance(d, "node-affinity-policy", 5) {
			c.NodeAffinityPolicy = ptr(pick(d, "node-affinity-policy-value", []api.NodeInclusionPolicy{api.NodeInclusionPolicyIgnore, api.NodeInclusionPolicyHonor}))
		}
		if chance(d, "node-taints-policy", 5) {
			c.NodeTaintsPolicy = ptr(pick(d, "node-taints-policy-value", []api.NodeInclusionPolicy{api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore}))
		}
		out = append(out, c)
	}
	return out
}

// drawTolerations draws tolerations of the taints generated nodes carry:
// dedicated pools, GPUs, spot capacity, not-ready and unreachable nodes
// (with tolerationSeconds), and now and then every taint at once. GPU pods
// tolerate the GPU taint; DaemonSet pods get the tolerations the DaemonSet
// controller adds.
func (g *podGen) drawTolerations(d *drawer, p *api.Pod, id identity) []api.Toleration {
	var out []api.Toleration
	has := func(key string, effect api.TaintEffect) bool {
		for _, tol := range out {
			if tol.Key == key && tol.Effect == effect {
				return true
			}
		}
		return false
	}
	add := func(tol api.Toleration) {
		if !has(tol.Key, tol.Effect) {
			out = append(out, tol)
		}
	}
	if id.kind == kindDaemonSet {
		add(api.Toleration{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute})
		add(api.Toleration{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute})
		add(api.Toleration{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
	}
	for _, c := range p.Spec.Containers {
		if _, ok := c.Resources.Limits[resourceGPU]; ok {
			add(api.Toleration{Key: string(resourceGPU), Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
		}
	}
	for range intIn(d, "tolerations", 0, 3) {
		switch pick(d, "toleration", []string{"dedicated", "gpu", "spot", "not-ready", "unreachable", "all"}) {
		case "dedicated":
			add(api.Toleration{Key: keyDedicated, Operator: pick(d, "dedicated-op", []api.TolerationOperator{api.TolerationOpEqual, ""}),
				Value: pick(d, "dedicated-value", []string{"gpu", "infra"}), Effect: api.TaintEffectNoSchedule})
		case "gpu":
			add(api.Toleration{Key: string(resourceGPU), Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
		case "spot":
			add(api.Toleration{Key: labelSpot, Operator: api.TolerationOpExists})
		case "not-ready", "unreachable":
			key := api.TaintNodeNotReady
			if flip(d, "toleration-unreachable") {
				key = api.TaintNodeUnreachable
			}
			tol := api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}
			if !chance(d, "toleration-forever", 4) {
				tol.TolerationSeconds = ptr(int64(pick(d, "toleration-seconds", []int{300, 0, 30, 3600})))
			}
			add(tol)
		case "all":
			if chance(d, "tolerate-everything", 3) {
				add(api.Toleration{Operator: api.TolerationOpExists})
			}
		}
	}
	return out
}
