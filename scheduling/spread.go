package scheduling

import (
	"errors"
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// PodTopologySpread's reason texts (podtopologyspread.ErrReason*).
const (
	// ReasonSpreadConstraintsNotMatch: placing the pod on the node would
	// push some DoNotSchedule constraint's skew above its maxSkew
	// (Unschedulable: evicting pods may fix it).
	ReasonSpreadConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	// ReasonSpreadMissingLabel: the node lacks a DoNotSchedule constraint's
	// topology key (UnschedulableAndUnresolvable).
	ReasonSpreadMissingLabel = ReasonSpreadConstraintsNotMatch + " (missing required label)"
)

// The reason lists of PodTopologySpread's rejections; never modified.
var (
	reasonsSpreadSkew    = []string{ReasonSpreadConstraintsNotMatch}
	reasonsSpreadMissing = []string{ReasonSpreadMissingLabel}
)

// The defaulting types of SpreadArgs (PodTopologySpreadArgs.defaultingType).
const (
	// SpreadDefaultingSystem uses SystemDefaultSpreadConstraints for pods
	// without constraints of their own; scoring then also counts nodes that
	// lack a zone label (for the hostname constraint).
	SpreadDefaultingSystem = "System"
	// SpreadDefaultingList uses SpreadArgs.DefaultConstraints.
	SpreadDefaultingList = "List"
)

// ErrInvalidSpreadArgs is wrapped by the error a cycle reports when the
// PodTopologySpread arguments are not valid.
var ErrInvalidSpreadArgs = errors.New("invalid PodTopologySpread arguments")

// SystemDefaultSpreadConstraints returns the constraints kube-scheduler
// v1.36.3 applies to a pod with no spec.topologySpreadConstraints under
// System defaulting: spread over kubernetes.io/hostname with maxSkew 3 and
// over topology.kubernetes.io/zone with maxSkew 5, both ScheduleAnyway (so
// they only score). Their selector is built from the Services and the
// controller that select the pod (see Cluster.SetSpreadWorkloads); a pod no
// Service or supported controller selects is not spread by default.
func SystemDefaultSpreadConstraints() []api.TopologySpreadConstraint {
	return []api.TopologySpreadConstraint{
		{TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 3},
		{TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, MaxSkew: 5},
	}
}

// SpreadWorkloads are the objects whose selectors topology spread's default
// constraints borrow (the Service, ReplicationController, ReplicaSet and
// StatefulSet listers of kube-scheduler's PodTopologySpread plugin).
type SpreadWorkloads struct {
	Services               []*api.Service
	ReplicationControllers []*api.ReplicationController
	ReplicaSets            []*api.ReplicaSet
	StatefulSets           []*api.StatefulSet
}

// defaultSpreadSelector is the label selector the default spread
// constraints give a pod (the scheduler's helper.DefaultSelector): the
// merged selectors of the Services in the pod's namespace whose (non-nil)
// selector matches the pod, then the selector of the pod's controller when
// it is a v1 ReplicationController (merged as labels), or an apps/v1
// ReplicaSet or StatefulSet (its requirements added) found in the pod's
// namespace. An Empty result means the pod gets no default constraints.
func defaultSpreadSelector(pod *api.Pod, w SpreadWorkloads) api.Selector {
	set := api.Set{}
	for _, svc := range w.Services {
		if svc == nil || svc.Namespace != pod.Namespace || svc.Spec.Selector == nil {
			continue
		}
		if api.SelectorFromSet(api.Set(svc.Spec.Selector)).Matches(api.Set(pod.Labels)) {
			for k, v := range svc.Spec.Selector {
				set[k] = v
			}
		}
	}
	sel := api.SelectorFromSet(set)
	owner := pod.ControllerRef()
	if owner == nil {
		return sel
	}
	group, version, ok := parseGroupVersion(owner.APIVersion)
	if !ok || version != "v1" {
		return sel
	}
	switch {
	case group == "" && owner.Kind == "ReplicationController":
		for _, rc := range w.ReplicationControllers {
			if rc != nil && rc.Namespace == pod.Namespace && rc.Name == owner.Name {
				for k, v := range rc.Spec.Selector {
					set[k] = v
				}
				return api.SelectorFromSet(set)
			}
		}
	case group == "apps" && owner.Kind == "ReplicaSet":
		for _, rs := range w.ReplicaSets {
			if rs != nil && rs.Namespace == pod.Namespace && rs.Name == owner.Name {
				return addSelectorRequirements(sel, rs.Spec.Selector)
			}
		}
	case group == "apps" && owner.Kind == "StatefulSet":
		for _, ss := range w.StatefulSets {
			if ss != nil && ss.Namespace == pod.Namespace && ss.Name == owner.Name {
				return addSelectorRequirements(sel, ss.Spec.Selector)
			}
		}
	}
	return sel
}

// addSelectorRequirements adds the requirements of a workload's selector
// to sel; a selector that selects nothing or does not compile adds none.
func addSelectorRequirements(sel api.Selector, ls *api.LabelSelector) api.Selector {
	other, err := api.LabelSelectorAsSelector(ls)
	if err != nil || api.SelectsNothing(other) {
		return sel
	}
	return sel.Add(other.Requirements()...)
}

// parseGroupVersion splits an apiVersion ("v1", "apps/v1") as
// schema.ParseGroupVersion does; ok is false for more than one slash.
func parseGroupVersion(s string) (group, version string, ok bool) {
	switch n := strings.Count(s, "/"); {
	case s == "":
		return "", "", true
	case n == 0:
		return "", s, true
	case n == 1:
		i := strings.IndexByte(s, '/')
		return s[:i], s[i+1:], true
	}
	return "", "", false
}

// spreadConstraint is a topology spread constraint compiled for one pod:
// the selector is parsed (and merged with the pod's matchLabelKeys values)
// and the optional fields are resolved to their defaults.
type spreadConstraint struct {
	maxSkew  int32
	key      string
	selector api.Selector
	// selStr is selector.String(), the key of its counts in the spread
	// cache.
	selStr        string
	minDomains    int32
	honorAffinity bool // nodeAffinityPolicy Honor (the default)
	honorTaints   bool // nodeTaintsPolicy Honor (default Ignore)
	// selfMatch: the incoming pod matches the selector.
	selfMatch bool
	// countsNothing: no existing pod is ever counted (an empty or
	// match-nothing selector).
	countsNothing bool
}

// compileSpreadConstraints keeps the constraints with the given action and
// compiles them, as the plugin's filterTopologySpreadConstraints does.
func compileSpreadConstraints(cs []api.TopologySpreadConstraint, pod *api.Pod, action api.UnsatisfiableConstraintAction) ([]spreadConstraint, error) {
	var out []spreadConstraint
	for i := range cs {
		c := &cs[i]
		if c.WhenUnsatisfiable != action {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(c.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("topologySpreadConstraints[%d].labelSelector: %w", i, err)
		}
		if len(c.MatchLabelKeys) > 0 {
			sel = mergeMatchLabelKeys(sel, c.MatchLabelKeys, pod.Labels)
		}
		sc := spreadConstraint{
			maxSkew:       c.MaxSkew,
			key:           c.TopologyKey,
			selector:      sel,
			minDomains:    1,
			honorAffinity: true,
		}
		if c.MinDomains != nil {
			sc.minDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			sc.honorAffinity = *c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor
		}
		if c.NodeTaintsPolicy != nil {
			sc.honorTaints = *c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor
		}
		sc.finish(pod)
		out = append(out, sc)
	}
	return out, nil
}

func (sc *spreadConstraint) finish(pod *api.Pod) {
	sc.selStr = sc.selector.String()
	sc.selfMatch = sc.selector.Matches(api.Set(pod.Labels))
	sc.countsNothing = sc.selector.Empty() || api.SelectsNothing(sc.selector)
}

// mergeMatchLabelKeys adds key=value requirements for each matchLabelKeys
// key the pod carries (KEP-3243), so that only pods of the same revision or
// group count. A constraint without a labelSelector selects nothing, and
// the plugin leaves such a selector alone: the keys cannot widen it into
// one that counts pods (mergeLabelSetWithSelector keeps a selector that
// has no requirement list as it is).
func mergeMatchLabelKeys(sel api.Selector, keys []string, podLabels map[string]string) api.Selector {
	if api.SelectsNothing(sel) {
		return sel
	}
	set := api.Set{}
	for _, k := range keys {
		if v, ok := podLabels[k]; ok {
			set[k] = v
		}
	}
	if len(set) == 0 {
		return sel
	}
	return api.SelectorFromSet(set).Add(sel.Requirements()...)
}

// spreadConstraintsFor returns the pod's constraints with the given action:
// its own when it has any, else the configured defaults with the selector
// defaultSpreadSelector builds (none when that selector is empty).
func spreadConstraintsFor(pod *api.Pod, args SpreadArgs, w SpreadWorkloads, action api.UnsatisfiableConstraintAction) ([]spreadConstraint, error) {
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		return compileSpreadConstraints(pod.Spec.TopologySpreadConstraints, pod, action)
	}
	defaults, err := spreadDefaults(args)
	if err != nil {
		return nil, err
	}
	cs, err := compileSpreadConstraints(defaults, pod, action)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	sel := defaultSpreadSelector(pod, w)
	if sel.Empty() {
		return nil, nil
	}
	for i := range cs {
		cs[i].selector = sel
		cs[i].finish(pod)
	}
	return cs, nil
}

// spreadDefaults returns the default constraints the arguments configure.
func spreadDefaults(args SpreadArgs) ([]api.TopologySpreadConstraint, error) {
	switch args.DefaultingType {
	case "", SpreadDefaultingSystem:
		if len(args.DefaultConstraints) > 0 {
			return nil, fmt.Errorf("%w: defaultConstraints must be empty when defaultingType is System", ErrInvalidSpreadArgs)
		}
		return SystemDefaultSpreadConstraints(), nil
	case SpreadDefaultingList:
		return args.DefaultConstraints, nil
	}
	return nil, fmt.Errorf("%w: defaultingType %q: want System or List", ErrInvalidSpreadArgs, args.DefaultingType)
}
