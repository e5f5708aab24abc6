package scheduling

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// ReasonNodeAffinityConflict is NodeAffinity's PreFilter reason when every
// required term pins the pod to node names and no name satisfies a whole
// term.
const ReasonNodeAffinityConflict = "pod affinity terms conflict"

// RequiredNodeAffinity is a pod's compiled spec.nodeSelector and required
// node affinity (component-helpers nodeaffinity.RequiredNodeAffinity): a
// node matches when it has every nodeSelector label and satisfies some
// required term. Build it with NewRequiredNodeAffinity; safe for
// concurrent use.
type RequiredNodeAffinity struct {
	selector api.Selector // nil without nodeSelector
	affinity *api.NodeSelectorMatcher
}

// NewRequiredNodeAffinity compiles the pod's nodeSelector and required
// node affinity. Invalid terms never match (the scheduler ignores their
// parse errors, as LazyErrorNodeSelector lets it); the error is returned
// for callers that want to report it.
func NewRequiredNodeAffinity(pod *api.Pod) (*RequiredNodeAffinity, error) {
	r := &RequiredNodeAffinity{}
	if len(pod.Spec.NodeSelector) > 0 {
		r.selector = api.SelectorFromSet(api.Set(pod.Spec.NodeSelector))
	}
	var err error
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		r.affinity, err = api.NewNodeSelectorMatcher(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return r, err
}

// Match reports whether the node satisfies the pod's nodeSelector and
// required node affinity.
func (r *RequiredNodeAffinity) Match(node *api.Node) bool {
	if r.selector != nil && !r.selector.Matches(api.Set(node.Labels)) {
		return false
	}
	if r.affinity != nil {
		return r.affinity.Match(node.Name, node.Labels)
	}
	return true
}

// nodeAffinityPlugin is NodeAffinity: the filter enforces nodeSelector and
// required node affinity (UnschedulableAndUnresolvable, "node(s) didn't
// match Pod's node affinity/selector"); the score adds the weights of the
// preferred terms the node matches, normalized to 0..100.
type nodeAffinityPlugin struct {
	basePlugin
	pod      *api.Pod
	required *RequiredNodeAffinity

	preferred []preferredNodeTerm
}

type preferredNodeTerm struct {
	weight int64
	term   *api.NodeSelectorTermMatcher
}

func newNodeAffinityPlugin(p *PodInfo) *nodeAffinityPlugin {
	req, _ := NewRequiredNodeAffinity(p.Pod)
	return &nodeAffinityPlugin{pod: p.Pod, required: req}
}

func (pl *nodeAffinityPlugin) name() string       { return PluginNodeAffinity }
func (pl *nodeAffinityPlugin) clone() cyclePlugin { return pl }

func requiredNodeSelector(pod *api.Pod) *api.NodeSelector {
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		return a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	return nil
}

// preFilter skips pods with neither nodeSelector nor required node
// affinity, and rejects every node when the required terms pin the pod to
// node names (matchFields metadata.name In) that no term can satisfy.
func (pl *nodeAffinityPlugin) preFilter() Status {
	req := requiredNodeSelector(pl.pod)
	if req == nil && pl.pod.Spec.NodeSelector == nil {
		return Status{Code: Skip}
	}
	if req == nil {
		return Status{}
	}
	var union map[string]bool
	for _, t := range req.NodeSelectorTerms {
		var names map[string]bool
		for _, r := range t.MatchFields {
			if r.Key != api.NodeFieldName || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			set := map[string]bool{}
			for _, v := range r.Values {
				if names == nil || names[v] {
					set[v] = true
				}
			}
			names = set
		}
		if names == nil {
			return Status{} // this term does not pin node names
		}
		if union == nil {
			union = map[string]bool{}
		}
		for n := range names {
			union[n] = true
		}
	}
	if union != nil && len(union) == 0 {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: []string{ReasonNodeAffinityConflict}}
	}
	return Status{}
}

func (pl *nodeAffinityPlugin) filter(v *NodeView) Status {
	if !pl.required.Match(v.Info.node) {
		return Status{Code: UnschedulableAndUnresolvable, Reasons: reasonsNodeAffinity}
	}
	return Status{}
}

// preScore compiles the preferred terms (weight 0 terms dropped); Skip
// when the pod has none, Error when one does not compile.
func (pl *nodeAffinityPlugin) preScore(feasible []*NodeInfo) Status {
	a := pl.pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution == nil {
		return Status{Code: Skip}
	}
	pl.preferred = pl.preferred[:0]
	var errs []error
	for i, t := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		if t.Weight == 0 {
			continue
		}
		m, err := api.NewNodeSelectorTermMatcher(t.Preference)
		if err != nil {
			errs = append(errs, fmt.Errorf("spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[%d].preference: %w", i, err))
			continue
		}
		pl.preferred = append(pl.preferred, preferredNodeTerm{weight: int64(t.Weight), term: m})
	}
	if len(errs) > 0 {
		return Status{Code: Error, Err: errors.Join(errs...)}
	}
	return Status{}
}

func (pl *nodeAffinityPlugin) score(n *NodeInfo) int64 {
	var s int64
	for _, t := range pl.preferred {
		if t.term.Match(n.node.Name, n.node.Labels) {
			s += t.weight
		}
	}
	return s
}

func (pl *nodeAffinityPlugin) normalizeScore(scores []int64) {
	defaultNormalizeScore(MaxNodeScore, false, scores)
}
