package scheduling

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// Validate checks cfg as kube-scheduler validates the matching plugin
// arguments of a KubeSchedulerConfiguration (pkg/scheduler/apis/config/
// validation: ValidatePodTopologySpreadArgs, ValidateInterPodAffinityArgs,
// ValidateNodeResourcesFitArgs), with upstream's field names and messages,
// after podsem's own defaulting (an empty DefaultingType is "System", a
// nil HardPodAffinityWeight is 1). Plugins must name plugins of
// DefaultPlugins. NewCluster calls it; the error wraps api.ErrInvalidInput
// (and ErrInvalidSpreadArgs for the PodTopologySpread arguments) and lists
// every problem, as kube-scheduler's aggregate does ("[a, b]" when there
// are several).
func (cfg Config) Validate() error {
	var errs []string
	for _, p := range cfg.Plugins {
		if !knownPlugin(p) {
			errs = append(errs, fmt.Sprintf("Config.Plugins: unknown plugin %q", p))
		}
	}
	spread := validateSpreadArgs(cfg.Spread)
	if w := cfg.hardPodAffinityWeight(); w < 0 || w > 100 {
		errs = append(errs, fmt.Sprintf("Config.HardPodAffinityWeight: hardPodAffinityWeight: Invalid value: %d: not in valid range [0, 100]", w))
	}
	for i, r := range cfg.IgnoredResources {
		errs = appendLabelNameErrs(errs, "Config.IgnoredResources: ignoredResources["+strconv.Itoa(i)+"]", r)
	}
	for i, g := range cfg.IgnoredResourceGroups {
		path := "Config.IgnoredResourceGroups: ignoredResourceGroups[" + strconv.Itoa(i) + "]"
		if strings.Contains(g, "/") {
			errs = append(errs, fmt.Sprintf("%s: Invalid value: %q: resource group name can't contain '/'", path, g))
		}
		errs = appendLabelNameErrs(errs, path, g)
	}
	switch {
	case len(spread) > 0:
		return fmt.Errorf("%w: %w: %s", errInvalidInput, ErrInvalidSpreadArgs, aggregate(append(spread, errs...)))
	case len(errs) > 0:
		return fmt.Errorf("%w: %s", errInvalidInput, aggregate(errs))
	}
	return nil
}

// validateSpreadArgs is ValidatePodTopologySpreadArgs: the defaulting
// type, and each default constraint as a pod's constraint is validated
// plus "no selector" and no repeated key and action.
func validateSpreadArgs(a SpreadArgs) []string {
	const prefix = "Config.Spread: "
	var errs []string
	switch a.DefaultingType {
	case "", SpreadDefaultingSystem:
		if len(a.DefaultConstraints) > 0 {
			errs = append(errs, prefix+`defaultingType: Invalid value: "System": when .defaultConstraints are not empty`)
		}
	case SpreadDefaultingList:
	default:
		errs = append(errs, fmt.Sprintf(prefix+`defaultingType: Unsupported value: %q: supported values: "System", "List"`, a.DefaultingType))
	}
	for i, c := range a.DefaultConstraints {
		p := prefix + "defaultConstraints[" + strconv.Itoa(i) + "]"
		if c.MaxSkew <= 0 {
			errs = append(errs, fmt.Sprintf("%s.maxSkew: Invalid value: %d: not in valid range (0, inf)", p, c.MaxSkew))
		}
		if c.TopologyKey == "" {
			errs = append(errs, p+".topologyKey: Required value: can not be empty")
		} else {
			errs = appendLabelNameErrs(errs, p+".topologyKey", c.TopologyKey)
		}
		switch c.WhenUnsatisfiable {
		case api.DoNotSchedule, api.ScheduleAnyway:
		case "":
			errs = append(errs, p+".whenUnsatisfiable: Required value: can not be empty")
		default:
			errs = append(errs, fmt.Sprintf(`%s.whenUnsatisfiable: Unsupported value: %q: supported values: "DoNotSchedule", "ScheduleAnyway"`, p, c.WhenUnsatisfiable))
		}
		if c.LabelSelector != nil {
			errs = append(errs, p+".labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod")
		}
		for j := range a.DefaultConstraints[:i] {
			o := &a.DefaultConstraints[j]
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, fmt.Sprintf("%s: Duplicate value: %q", p, "{"+c.TopologyKey+", "+string(c.WhenUnsatisfiable)+"}"))
				break
			}
		}
	}
	return errs
}

// appendLabelNameErrs is metav1validation.ValidateLabelName: one Invalid
// value error per problem of name as a qualified name.
func appendLabelNameErrs(errs []string, path, name string) []string {
	for _, msg := range api.IsQualifiedName(name) {
		errs = append(errs, fmt.Sprintf("%s: Invalid value: %q: %s", path, name, msg))
	}
	return errs
}

// aggregate joins errors the way utilerrors.NewAggregate prints them: the
// error alone, or "[a, b]".
func aggregate(errs []string) string {
	if len(errs) == 1 {
		return errs[0]
	}
	return "[" + strings.Join(errs, ", ") + "]"
}
