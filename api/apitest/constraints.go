package apitest

import (
	"strconv"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// drawNodeSelector draws a spec.nodeSelector on one well-known label.
func (g *podGen) drawNodeSelector(t *rapid.T) map[string]string {
	if !chance(t, "node-selector", 5) {
		return nil
	}
	switch pick(t, "node-selector-key", []string{labelOS, api.LabelTopologyZone, labelInstanceType, labelArch}) {
	case labelOS:
		return map[string]string{labelOS: "linux"}
	case api.LabelTopologyZone:
		return map[string]string{api.LabelTopologyZone: pick(t, "node-selector-zone", g.tp.zoneNames())}
	case labelInstanceType:
		return map[string]string{labelInstanceType: pick(t, "node-selector-type", g.tp.instanceTypeNames())}
	default:
		return map[string]string{labelArch: pick(t, "node-selector-arch", []string{"amd64", "arm64"})}
	}
}

// drawNodeRequirement draws one node selector requirement, with every
// operator, on the labels generated nodes carry.
func (g *podGen) drawNodeRequirement(t *rapid.T) api.NodeSelectorRequirement {
	switch pick(t, "node-req", []string{"zone", "region", "type", "arch", "gt", "lt", "spot", "os"}) {
	case "zone":
		return api.NodeSelectorRequirement{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: subset(t, "node-req-zones", g.tp.zoneNames())}
	case "region":
		return api.NodeSelectorRequirement{Key: api.LabelTopologyRegion, Operator: api.NodeSelectorOpIn, Values: []string{pick(t, "node-req-region", g.tp.regions())}}
	case "type":
		return api.NodeSelectorRequirement{Key: labelInstanceType, Operator: api.NodeSelectorOpNotIn, Values: []string{pick(t, "node-req-type", g.tp.instanceTypeNames())}}
	case "arch":
		return api.NodeSelectorRequirement{Key: labelArch, Operator: api.NodeSelectorOpIn, Values: subset(t, "node-req-arch", []string{"amd64", "arm64"})}
	case "gt":
		return api.NodeSelectorRequirement{Key: labelGeneration, Operator: api.NodeSelectorOpGt, Values: []string{strconv.Itoa(intIn(t, "node-req-gt", 0, 4))}}
	case "lt":
		return api.NodeSelectorRequirement{Key: labelGeneration, Operator: api.NodeSelectorOpLt, Values: []string{strconv.Itoa(intIn(t, "node-req-lt", 2, 6))}}
	case "spot":
		return api.NodeSelectorRequirement{Key: labelSpot, Operator: pick(t, "node-req-spot", []api.NodeSelectorOperator{api.NodeSelectorOpDoesNotExist, api.NodeSelectorOpExists})}
	default:
		return api.NodeSelectorRequirement{Key: labelOS, Operator: api.NodeSelectorOpIn, Values: []string{"linux"}}
	}
}

func (g *podGen) drawNodeSelectorTerm(t *rapid.T) api.NodeSelectorTerm {
	var term api.NodeSelectorTerm
	for range intIn(t, "node-term-exprs", 1, 2) {
		term.MatchExpressions = append(term.MatchExpressions, g.drawNodeRequirement(t))
	}
	return term
}

// drawNodeAffinity draws required and preferred node affinity. A
// DaemonSet pod, when node names are known, is pinned to one node by a
// matchFields term, as the DaemonSet controller pins it.
func (g *podGen) drawNodeAffinity(t *rapid.T, id identity) *api.NodeAffinity {
	var na api.NodeAffinity
	if id.kind == kindDaemonSet && len(g.opts.NodeNames) > 0 {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchFields: []api.NodeSelectorRequirement{{Key: api.NodeFieldName, Operator: api.NodeSelectorOpIn, Values: []string{pick(t, "daemon-node", g.opts.NodeNames)}}},
		}}}
	} else if chance(t, "required-node-affinity", 5) {
		ns := &api.NodeSelector{}
		for range intIn(t, "node-terms", 1, 2) {
			term := g.drawNodeSelectorTerm(t)
			if len(g.opts.NodeNames) > 0 && chance(t, "match-fields", 4) {
				term.MatchFields = []api.NodeSelectorRequirement{{
					Key:      api.NodeFieldName,
					Operator: pick(t, "match-fields-op", []api.NodeSelectorOperator{api.NodeSelectorOpNotIn, api.NodeSelectorOpIn}),
					Values:   []string{pick(t, "match-fields-node", g.opts.NodeNames)},
				}}
			}
			ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, term)
		}
		na.RequiredDuringSchedulingIgnoredDuringExecution = ns
	}
	if chance(t, "preferred-node-affinity", 5) {
		for range intIn(t, "preferred-node-terms", 1, 2) {
			na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
				api.PreferredSchedulingTerm{Weight: int32(intIn(t, "node-weight", 1, 100)), Preference: g.drawNodeSelectorTerm(t)})
		}
	}
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil && na.PreferredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	return &na
}

// drawPodAffinityTerm draws one pod (anti-)affinity term selecting pods of
// app, in the pod's namespace or others.
func (g *podGen) drawPodAffinityTerm(t *rapid.T, p *api.Pod, app string, topologyKey string) api.PodAffinityTerm {
	term := api.PodAffinityTerm{TopologyKey: topologyKey}
	if rapid.Bool().Draw(t, "term-match-labels") {
		term.LabelSelector = &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
	} else {
		term.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{app}}}}
	}
	switch pick(t, "term-namespaces", []string{"own", "list", "selector", "all"}) {
	case "list":
		term.Namespaces = subset(t, "term-namespace", g.namespaces)
	case "selector":
		term.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{labelNamespaceName: pick(t, "term-namespace-name", g.namespaces)}}
	case "all":
		term.NamespaceSelector = &api.LabelSelector{}
	}
	if chance(t, "term-match-label-keys", 4) {
		term.MatchLabelKeys = []string{labelPodTemplateHash}
	}
	if chance(t, "term-mismatch-label-keys", 6) {
		term.MismatchLabelKeys = []string{labelTeam}
	}
	return term
}

// drawPodAffinity draws pod affinity towards other apps (co-location in
// a zone or region) and anti-affinity away from the pod's own app (one
// per node, or spread over zones), each required or preferred.
func (g *podGen) drawPodAffinity(t *rapid.T, p *api.Pod) (*api.PodAffinity, *api.PodAntiAffinity) {
	var pa *api.PodAffinity
	var anti *api.PodAntiAffinity
	if chance(t, "pod-affinity", 6) {
		pa = &api.PodAffinity{}
		other := pick(t, "affinity-app", g.apps)
		key := pick(t, "affinity-key", []string{api.LabelTopologyZone, api.LabelTopologyRegion, api.LabelHostname})
		if rapid.Bool().Draw(t, "affinity-required") {
			pa.RequiredDuringSchedulingIgnoredDuringExecution = []api.PodAffinityTerm{g.drawPodAffinityTerm(t, p, other, key)}
		} else {
			pa.PreferredDuringSchedulingIgnoredDuringExecution = []api.WeightedPodAffinityTerm{{
				Weight: int32(intIn(t, "affinity-weight", 1, 100)), PodAffinityTerm: g.drawPodAffinityTerm(t, p, other, key),
			}}
		}
	}
	if chance(t, "pod-anti-affinity", 4) {
		anti = &api.PodAntiAffinity{}
		app := p.Labels["app"]
		if rapid.Bool().Draw(t, "anti-affinity-required") {
			anti.RequiredDuringSchedulingIgnoredDuringExecution = []api.PodAffinityTerm{g.drawPodAffinityTerm(t, p, app, api.LabelHostname)}
		}
		if rapid.Bool().Draw(t, "anti-affinity-preferred") || anti.RequiredDuringSchedulingIgnoredDuringExecution == nil {
			key := pick(t, "anti-affinity-key", []string{api.LabelTopologyZone, api.LabelHostname})
			anti.PreferredDuringSchedulingIgnoredDuringExecution = []api.WeightedPodAffinityTerm{{
				Weight: int32(intIn(t, "anti-affinity-weight", 1, 100)), PodAffinityTerm: g.drawPodAffinityTerm(t, p, app, key),
			}}
		}
	}
	return pa, anti
}

// drawSpread draws up to two topology spread constraints over the pod's
// own app, never two with the same {topologyKey, whenUnsatisfiable};
// minDomains only with DoNotSchedule.
func (g *podGen) drawSpread(t *rapid.T, p *api.Pod) []api.TopologySpreadConstraint {
	if !chance(t, "spread", 4) {
		return nil
	}
	var out []api.TopologySpreadConstraint
	seen := map[[2]string]bool{}
	for range intIn(t, "spread-constraints", 1, 2) {
		c := api.TopologySpreadConstraint{
			MaxSkew:           int32(intIn(t, "max-skew", 1, 3)),
			TopologyKey:       pick(t, "spread-key", []string{api.LabelTopologyZone, api.LabelHostname, api.LabelTopologyRegion}),
			WhenUnsatisfiable: pick(t, "spread-when", []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}),
			LabelSelector:     &api.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}},
		}
		k := [2]string{c.TopologyKey, string(c.WhenUnsatisfiable)}
		if seen[k] {
			continue
		}
		seen[k] = true
		if c.WhenUnsatisfiable == api.DoNotSchedule && chance(t, "min-domains", 4) {
			c.MinDomains = ptr(int32(intIn(t, "min-domains-value", 1, 3)))
		}
		if chance(t, "spread-match-label-keys", 3) {
			c.MatchLabelKeys = []string{labelPodTemplateHash}
		}
		if chance(t, "node-affinity-policy", 5) {
			c.NodeAffinityPolicy = ptr(pick(t, "node-affinity-policy-value", []api.NodeInclusionPolicy{api.NodeInclusionPolicyIgnore, api.NodeInclusionPolicyHonor}))
		}
		if chance(t, "node-taints-policy", 5) {
			c.NodeTaintsPolicy = ptr(pick(t, "node-taints-policy-value", []api.NodeInclusionPolicy{api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore}))
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
func (g *podGen) drawTolerations(t *rapid.T, p *api.Pod, id identity) []api.Toleration {
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
	for range intIn(t, "tolerations", 0, 3) {
		switch pick(t, "toleration", []string{"dedicated", "gpu", "spot", "not-ready", "unreachable", "all"}) {
		case "dedicated":
			add(api.Toleration{Key: keyDedicated, Operator: pick(t, "dedicated-op", []api.TolerationOperator{api.TolerationOpEqual, ""}),
				Value: pick(t, "dedicated-value", []string{"gpu", "infra"}), Effect: api.TaintEffectNoSchedule})
		case "gpu":
			add(api.Toleration{Key: string(resourceGPU), Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule})
		case "spot":
			add(api.Toleration{Key: labelSpot, Operator: api.TolerationOpExists})
		case "not-ready", "unreachable":
			key := api.TaintNodeNotReady
			if rapid.Bool().Draw(t, "toleration-unreachable") {
				key = api.TaintNodeUnreachable
			}
			tol := api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}
			if !chance(t, "toleration-forever", 4) {
				tol.TolerationSeconds = ptr(int64(pick(t, "toleration-seconds", []int{300, 0, 30, 3600})))
			}
			add(tol)
		case "all":
			if chance(t, "tolerate-everything", 3) {
				add(api.Toleration{Operator: api.TolerationOpExists})
			}
		}
	}
	return out
}
