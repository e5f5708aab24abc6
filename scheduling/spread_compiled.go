package scheduling

import (
	"maps"
	"slices"

	"github.com/podsem/podsem/api"
)

// Compiling a pod's topology spread constraints (converting each label
// selector, merging the matchLabelKeys values, resolving the defaults)
// costs as much as the rest of a warm PodTopologySpread PreFilter, and the
// pods of one workload all carry the same constraints. The snapshot's
// spread cache therefore keeps the last few compilations of pods' own
// constraints: a pod whose constraints equal one of them field for field,
// and whose values of the constraints' matchLabelKeys are the same, gets
// the compiled constraints without compiling. What depends on the rest of
// the pod (whether it matches its own selectors) is worked out per cycle.
// Default constraints are not kept: their selectors come from the
// workloads, not the pod.

// maxCompiledSpread is how many compilations the cache keeps; the oldest
// goes first.
const maxCompiledSpread = 8

// compiledSpread is one pod's own constraints compiled: src is a deep copy
// of them, labelKeys the matchLabelKeys in order with the pod's values
// (labelValues; labelHas false for a key the pod lacks), hard and soft the
// DoNotSchedule and ScheduleAnyway constraints compiled, selfMatch unset.
type compiledSpread struct {
	src         []api.TopologySpreadConstraint
	labelKeys   []string
	labelValues []string
	labelHas    []bool
	hard, soft  []spreadConstraint
}

// ownSpreadConstraints appends to dst the pod's own constraints with the
// given action, compiled (the pod has some), from the cache when a pod
// with equal constraints was compiled before.
func (sc *spreadCache) ownSpreadConstraints(dst []spreadConstraint, pod *api.Pod, action api.UnsatisfiableConstraintAction) ([]spreadConstraint, error) {
	cs := pod.Spec.TopologySpreadConstraints
	sc.mu.Lock()
	e := sc.findCompiled(pod)
	sc.mu.Unlock()
	if e == nil {
		hard, err := compileSpreadConstraints(cs, pod, api.DoNotSchedule)
		if err != nil {
			return dst, err
		}
		soft, err := compileSpreadConstraints(cs, pod, api.ScheduleAnyway)
		if err != nil {
			return dst, err
		}
		e = &compiledSpread{src: cloneSpreadConstraints(cs), hard: hard, soft: soft}
		for i := range cs {
			for _, k := range cs[i].MatchLabelKeys {
				v, ok := pod.Labels[k]
				e.labelKeys = append(e.labelKeys, k)
				e.labelValues = append(e.labelValues, v)
				e.labelHas = append(e.labelHas, ok)
			}
		}
		sc.mu.Lock()
		sc.compiled[sc.nextCompiled] = e
		sc.nextCompiled = (sc.nextCompiled + 1) % maxCompiledSpread
		sc.mu.Unlock()
	}
	from := e.hard
	if action == api.ScheduleAnyway {
		from = e.soft
	}
	n := len(dst)
	dst = append(dst, from...)
	labels := api.Set(pod.Labels)
	for i := n; i < len(dst); i++ {
		dst[i].selfMatch = dst[i].selector.Matches(labels)
	}
	return dst, nil
}

// findCompiled returns the kept compilation of constraints equal to the
// pod's, with the same matchLabelKeys values, or nil; mu held.
func (sc *spreadCache) findCompiled(pod *api.Pod) *compiledSpread {
	for _, e := range sc.compiled {
		if e == nil || !equalSpreadConstraints(e.src, pod.Spec.TopologySpreadConstraints) {
			continue
		}
		same := true
		for j, k := range e.labelKeys {
			if v, ok := pod.Labels[k]; ok != e.labelHas[j] || v != e.labelValues[j] {
				same = false
				break
			}
		}
		if same {
			return e
		}
	}
	return nil
}

// cloneSpreadConstraints deep-copies constraints, keeping nil as nil.
func cloneSpreadConstraints(cs []api.TopologySpreadConstraint) []api.TopologySpreadConstraint {
	out := slices.Clone(cs)
	for i := range out {
		c := &out[i]
		if c.LabelSelector != nil {
			ls := &api.LabelSelector{MatchLabels: maps.Clone(c.LabelSelector.MatchLabels),
				MatchExpressions: slices.Clone(c.LabelSelector.MatchExpressions)}
			for j := range ls.MatchExpressions {
				ls.MatchExpressions[j].Values = slices.Clone(ls.MatchExpressions[j].Values)
			}
			c.LabelSelector = ls
		}
		c.MinDomains = clonePtr(c.MinDomains)
		c.NodeAffinityPolicy = clonePtr(c.NodeAffinityPolicy)
		c.NodeTaintsPolicy = clonePtr(c.NodeTaintsPolicy)
		c.MatchLabelKeys = slices.Clone(c.MatchLabelKeys)
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// equalSpreadConstraints reports whether two constraint lists are equal
// field for field, nil maps, slices and pointers differing from empty or
// set ones.
func equalSpreadConstraints(a, b []api.TopologySpreadConstraint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.MaxSkew != y.MaxSkew || x.TopologyKey != y.TopologyKey || x.WhenUnsatisfiable != y.WhenUnsatisfiable ||
			!equalPtr(x.MinDomains, y.MinDomains) || !equalPtr(x.NodeAffinityPolicy, y.NodeAffinityPolicy) ||
			!equalPtr(x.NodeTaintsPolicy, y.NodeTaintsPolicy) || !equalStrings(x.MatchLabelKeys, y.MatchLabelKeys) ||
			!equalLabelSelector(x.LabelSelector, y.LabelSelector) {
			return false
		}
	}
	return true
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func equalStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

func equalLabelSelector(a, b *api.LabelSelector) bool {
	if a == nil || b == nil {
		return a == b
	}
	if (a.MatchLabels == nil) != (b.MatchLabels == nil) || !maps.Equal(a.MatchLabels, b.MatchLabels) ||
		(a.MatchExpressions == nil) != (b.MatchExpressions == nil) || len(a.MatchExpressions) != len(b.MatchExpressions) {
		return false
	}
	for i := range a.MatchExpressions {
		x, y := &a.MatchExpressions[i], &b.MatchExpressions[i]
		if x.Key != y.Key || x.Operator != y.Operator || !equalStrings(x.Values, y.Values) {
			return false
		}
	}
	return true
}
