package scheduling

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// genSpreadConstraint draws a constraint from a small space, so that equal
// constraints recur: selectors nil, empty, by labels or by expressions,
// matchLabelKeys, and the optional fields set or not.
func genSpreadConstraint(t *rapid.T) api.TopologySpreadConstraint {
	c := api.TopologySpreadConstraint{
		MaxSkew:           int32(rapid.IntRange(1, 2).Draw(t, "maxSkew")),
		TopologyKey:       rapid.SampledFrom([]string{"zone", "host"}).Draw(t, "key"),
		WhenUnsatisfiable: rapid.SampledFrom([]api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}).Draw(t, "when"),
	}
	switch rapid.IntRange(0, 4).Draw(t, "selector") {
	case 1:
		c.LabelSelector = &api.LabelSelector{}
	case 2:
		c.LabelSelector = &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom([]string{"a", "b"}).Draw(t, "app")}}
	case 3:
		c.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app",
			Operator: api.LabelSelectorOpIn, Values: rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b"}), 1, 2, rapid.ID[string]).Draw(t, "in")}}}
	case 4:
		c.LabelSelector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpExists}}}
	}
	if rapid.Bool().Draw(t, "hasMinDomains") {
		m := int32(rapid.IntRange(1, 2).Draw(t, "minDomains"))
		c.MinDomains = &m
	}
	if rapid.Bool().Draw(t, "hasAffinityPolicy") {
		p := rapid.SampledFrom([]api.NodeInclusionPolicy{api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore}).Draw(t, "affinityPolicy")
		c.NodeAffinityPolicy = &p
	}
	if rapid.Bool().Draw(t, "hasTaintsPolicy") {
		p := rapid.SampledFrom([]api.NodeInclusionPolicy{api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore}).Draw(t, "taintsPolicy")
		c.NodeTaintsPolicy = &p
	}
	if rapid.Bool().Draw(t, "hasMatchLabelKeys") {
		c.MatchLabelKeys = []string{rapid.SampledFrom([]string{"rev", "app"}).Draw(t, "matchLabelKey")}
	}
	return c
}

// compiledView is what a compiled constraint holds, comparable.
func compiledView(cs []spreadConstraint) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%d %s %q %q %d %v %v %v %v", c.maxSkew, c.key, c.selector.String(), c.selStr,
			c.minDomains, c.honorAffinity, c.honorTaints, c.selfMatch, c.countsNothing))
	}
	return out
}

// The constraints the spread cache hands out for pod after pod, compiled or
// kept from an earlier pod with equal ones, equal those compiled afresh,
// also when a pod's constraints are changed in place between cycles.
func TestOwnSpreadConstraintsEqualCompiled(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := newSpreadCache()
		shared := rapid.SliceOfN(rapid.Custom(genSpreadConstraint), 1, 3).Draw(t, "shared")
		for i := range rapid.IntRange(1, 30).Draw(t, "pods") {
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("p", i), Labels: map[string]string{}}}
			for _, k := range []string{"app", "rev"} {
				if v := rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "label"); v != "" {
					pod.Labels[k] = v
				}
			}
			switch rapid.IntRange(0, 3).Draw(t, "constraints") {
			case 0: // a fresh list
				pod.Spec.TopologySpreadConstraints = rapid.SliceOfN(rapid.Custom(genSpreadConstraint), 1, 3).Draw(t, "own")
			case 1: // the shared list changed in place
				shared[rapid.IntRange(0, len(shared)-1).Draw(t, "changed")] = genSpreadConstraint(t)
				pod.Spec.TopologySpreadConstraints = shared
			default: // the shared list as it is
				pod.Spec.TopologySpreadConstraints = shared
			}
			for _, action := range []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway} {
				want, wantErr := compileSpreadConstraints(pod.Spec.TopologySpreadConstraints, pod, action)
				got, gotErr := sc.ownSpreadConstraints(nil, pod, action)
				if (gotErr != nil) != (wantErr != nil) {
					t.Fatalf("pod %d %s: error %v, want %v", i, action, gotErr, wantErr)
				}
				if g, w := compiledView(got), compiledView(want); !reflect.DeepEqual(g, w) {
					t.Fatalf("pod %d %s:\n got %v\nwant %v", i, action, g, w)
				}
			}
		}
	})
}

// equalSpreadConstraints compares every field of a constraint and of its
// selector: a field added to the API types must be added there too.
func TestEqualSpreadConstraintsCoversEveryField(t *testing.T) {
	for typ, want := range map[reflect.Type]int{
		reflect.TypeFor[api.TopologySpreadConstraint](): 8,
		reflect.TypeFor[api.LabelSelector]():            2,
		reflect.TypeFor[api.LabelSelectorRequirement](): 3,
	} {
		if got := typ.NumField(); got != want {
			t.Errorf("%s has %d fields, equalSpreadConstraints and cloneSpreadConstraints know %d", typ, got, want)
		}
	}
}
