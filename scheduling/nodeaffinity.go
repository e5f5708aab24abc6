package scheduling

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/podsem/podsem/api"
)

// ReasonNodeAffinityConflict is NodeAffinity's PreFilter reason when every
// required term pins the pod to node names and no name satisfies a whole
// term.
const ReasonNodeAffinityConflict = "pod affinity terms conflict"

// requiredNodeAffinity is a pod's compiled spec.nodeSelector and required
// node affinity (component-helpers nodeaffinity.RequiredNodeAffinity): a
// node matches when it has every nodeSelector label and satisfies some
// required term. Build it with newRequiredNodeAffinity; safe for
// concurrent use.
type requiredNodeAffinity struct {
	selector api.Selector // nil without nodeSelector
	affinity *api.NodeSelectorMatcher
}

// newRequiredNodeAffinity compiles the pod's nodeSelector and required
// node affinity. Invalid terms never match (the scheduler ignores their
// parse errors, as LazyErrorNodeSelector lets it); the error is returned
// for callers that want to report it.
func newRequiredNodeAffinity(pod *api.Pod) (*requiredNodeAffinity, error) {
	r := &requiredNodeAffinity{}
	if len(pod.Spec.NodeSelector) > 0 {
		r.selector = api.SelectorFromSet(api.Set(pod.Spec.NodeSelector))
	}
	var err error
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		r.affinity, err = api.NewNodeSelectorMatcher(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	return r, err
}

// match reports whether the node satisfies the pod's nodeSelector and
// required node affinity.
func (r *requiredNodeAffinity) match(node *api.Node) bool {
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
	c        *Cluster
	pod      *api.Pod
	required *compiledNodeAffinity
	// nodeNames are the names PreFilter narrowed the nodes to (nil: all).
	nodeNames []string

	preferred []preferredNodeTerm
}

type preferredNodeTerm struct {
	weight int64
	term   colTerm
}

func newNodeAffinityPlugin(c *Cluster, p *PodInfo) nodeAffinityPlugin {
	return nodeAffinityPlugin{c: c, pod: p.pod}
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
// affinity. When every required term pins the pod to node names
// (matchFields metadata.name In, as the DaemonSet controller writes), it
// narrows the candidate nodes to those names (preFilterNodeNames), and
// rejects every node when no name satisfies a whole term.
func (pl *nodeAffinityPlugin) preFilter() Status {
	req := requiredNodeSelector(pl.pod)
	if req == nil && pl.pod.Spec.NodeSelector == nil {
		return Status{Code: Skip}
	}
	pl.required = pl.c.compileRequiredNodeAffinity(pl.pod)
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
	for n := range union {
		pl.nodeNames = append(pl.nodeNames, n)
	}
	return Status{}
}

// preFilterNodeNames returns the node names the required terms pin the pod
// to (PreFilterResult.NodeNames), when they do.
func (pl *nodeAffinityPlugin) preFilterNodeNames() ([]string, bool) {
	return pl.nodeNames, len(pl.nodeNames) > 0
}

func (pl *nodeAffinityPlugin) fits(v *nodeView) bool { return pl.required.match(v.info) }

func (pl *nodeAffinityPlugin) filter(v *nodeView) Status {
	if !pl.required.match(v.info) {
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
		m, err := pl.c.compileTerm(&t.Preference)
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
		if t.term.match(n) {
			s += t.weight
		}
	}
	return s
}

func (pl *nodeAffinityPlugin) normalizeScore(scores []int64) {
	defaultNormalizeScore(MaxNodeScore, false, scores)
}

// colRequirement is a node selector requirement compiled against the
// snapshot's label columns.
type colRequirement struct {
	col *labelColumn // nil when no node carries the key
	op  api.NodeSelectorOperator
	// allowed marks the value ids listed by In / NotIn.
	allowed []bool
	num     int64 // Gt / Lt operand
}

func (r *colRequirement) match(i int) bool {
	id := r.col.id(i)
	switch r.op {
	case api.NodeSelectorOpIn:
		return id >= 0 && int(id) < len(r.allowed) && r.allowed[id]
	case api.NodeSelectorOpNotIn:
		return id < 0 || int(id) >= len(r.allowed) || !r.allowed[id]
	case api.NodeSelectorOpExists:
		return id >= 0
	case api.NodeSelectorOpDoesNotExist:
		return id < 0
	case api.NodeSelectorOpGt:
		return id >= 0 && r.col.numOK[id] && r.col.nums[id] > r.num
	case api.NodeSelectorOpLt:
		return id >= 0 && r.col.numOK[id] && r.col.nums[id] < r.num
	}
	return false
}

// colFieldRequirement is a compiled matchFields entry.
type colFieldRequirement struct {
	key, value string
	not        bool
}

// colTerm is a node selector term compiled against the label columns:
// every requirement must hold. never marks empty and invalid terms.
type colTerm struct {
	reqs   []colRequirement
	fields []colFieldRequirement
	never  bool
}

func (t *colTerm) match(n *NodeInfo) bool {
	if t.never {
		return false
	}
	for i := range t.reqs {
		if !t.reqs[i].match(n.index) {
			return false
		}
	}
	for _, f := range t.fields {
		var v string
		if f.key == api.NodeFieldName {
			v = n.name
		}
		if (v == f.value) == f.not {
			return false
		}
	}
	return true
}

// compileRequirement compiles one matchExpressions entry of a term already
// validated by api.NewNodeSelectorTermMatcher.
func (c *Cluster) compileRequirement(key string, op api.NodeSelectorOperator, values []string) colRequirement {
	r := colRequirement{col: c.labels.column(key), op: op}
	switch op {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if r.col != nil {
			r.allowed = make([]bool, len(r.col.values))
			for _, v := range values {
				if id, ok := r.col.byValue[v]; ok {
					r.allowed[id] = true
				}
			}
		}
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if len(values) == 1 {
			r.num, _ = strconv.ParseInt(values[0], 10, 64)
		}
	}
	return r
}

// compileTerm compiles a node selector term against the label columns,
// with the validity rules of component-helpers: an empty or invalid term
// matches nothing.
func (c *Cluster) compileTerm(term *api.NodeSelectorTerm) (colTerm, error) {
	if len(term.MatchExpressions) == 0 && len(term.MatchFields) == 0 {
		return colTerm{never: true}, nil
	}
	if _, err := api.NewNodeSelectorTermMatcher(*term); err != nil {
		return colTerm{never: true}, err
	}
	var t colTerm
	for _, e := range term.MatchExpressions {
		t.reqs = append(t.reqs, c.compileRequirement(e.Key, e.Operator, e.Values))
	}
	for _, f := range term.MatchFields {
		t.fields = append(t.fields, colFieldRequirement{key: f.Key, value: f.Values[0], not: f.Operator == api.NodeSelectorOpNotIn})
	}
	return t, nil
}

// compiledNodeAffinity is requiredNodeAffinity compiled against the
// snapshot's label columns for one cycle.
type compiledNodeAffinity struct {
	selector []colRequirement // nodeSelector, as In requirements
	all      bool             // no required node affinity
	terms    []colTerm
}

func (c *Cluster) compileRequiredNodeAffinity(pod *api.Pod) *compiledNodeAffinity {
	out := &compiledNodeAffinity{}
	for k, v := range pod.Spec.NodeSelector {
		out.selector = append(out.selector, c.compileRequirement(k, api.NodeSelectorOpIn, []string{v}))
	}
	req := requiredNodeSelector(pod)
	if req == nil {
		out.all = true
		return out
	}
	for i := range req.NodeSelectorTerms {
		t, _ := c.compileTerm(&req.NodeSelectorTerms[i])
		if !t.never {
			out.terms = append(out.terms, t)
		}
	}
	return out
}

func (a *compiledNodeAffinity) match(n *NodeInfo) bool {
	for i := range a.selector {
		if !a.selector[i].match(n.index) {
			return false
		}
	}
	if a.all {
		return true
	}
	for i := range a.terms {
		if a.terms[i].match(n) {
			return true
		}
	}
	return false
}
