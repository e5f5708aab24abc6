package validation

import (
	"strings"

	"github.com/podsem/podsem/api"
)

// validateTopologySpreadConstraints checks spec.topologySpreadConstraints
// as core validation does in v1.36: a positive maxSkew, a topologyKey, a
// known whenUnsatisfiable, no two constraints with the same {topologyKey,
// whenUnsatisfiable} (each constraint is compared with the ones after it),
// minDomains positive and only with DoNotSchedule, known node inclusion
// policies, valid matchLabelKeys that need a labelSelector, and a valid
// labelSelector.
func validateTopologySpreadConstraints(cs []api.TopologySpreadConstraint, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i := range cs {
		c := &cs[i]
		ip := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, api.Invalid(ip.Child("maxSkew"), c.MaxSkew, "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, api.Required(ip.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != api.DoNotSchedule && c.WhenUnsatisfiable != api.ScheduleAnyway {
			errs = append(errs, api.NotSupported(ip.Child("whenUnsatisfiable"), string(c.WhenUnsatisfiable), []string{"DoNotSchedule", "ScheduleAnyway"}))
		}
		for j := i + 1; j < len(cs); j++ {
			if cs[j].TopologyKey == c.TopologyKey && cs[j].WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, api.Duplicate(ip.Child("{topologyKey, whenUnsatisfiable}"), "{"+c.TopologyKey+", "+string(c.WhenUnsatisfiable)+"}"))
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, api.Invalid(ip.Child("minDomains"), *c.MinDomains, "must be greater than zero"))
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				errs = append(errs, api.Invalid(ip.Child("minDomains"), *c.MinDomains, "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "+string(c.WhenUnsatisfiable)))
			}
		}
		errs = append(errs, validateNodeInclusionPolicy(c.NodeAffinityPolicy, ip.Child("nodeAffinityPolicy"))...)
		errs = append(errs, validateNodeInclusionPolicy(c.NodeTaintsPolicy, ip.Child("nodeTaintsPolicy"))...)
		errs = append(errs, validateSpreadMatchLabelKeys(c, ip)...)
		errs = append(errs, validateLabelSelector(c.LabelSelector, ip.Child("labelSelector"))...)
	}
	return errs
}

func validateNodeInclusionPolicy(pol *api.NodeInclusionPolicy, p api.Path) api.FieldErrors {
	if pol == nil || *pol == api.NodeInclusionPolicyHonor || *pol == api.NodeInclusionPolicyIgnore {
		return nil
	}
	return api.FieldErrors{api.NotSupported(p, string(*pol), []string{"Honor", "Ignore"})}
}

// validateSpreadMatchLabelKeys checks matchLabelKeys after the create path
// has merged them into the selector: they need a labelSelector, must be
// valid label keys, and a key whose merged `In` requirement meets the same
// key already in the selector is reported at the constraint's own path
// indexed by the key's position (spec.topologySpreadConstraints[i][j]),
// which is where v1.36 puts it.
func validateSpreadMatchLabelKeys(c *api.TopologySpreadConstraint, p api.Path) api.FieldErrors {
	if len(c.MatchLabelKeys) == 0 {
		return nil
	}
	kp := p.Child("matchLabelKeys")
	if c.LabelSelector == nil {
		return api.FieldErrors{api.Forbidden(kp, "must not be specified when labelSelector is not set")}
	}
	var errs api.FieldErrors
	index := make(map[string]int, len(c.MatchLabelKeys))
	for i, k := range c.MatchLabelKeys {
		for _, msg := range api.ValidateLabelKey(k) {
			errs = append(errs, api.Invalid(kp.Index(i), k, msg))
		}
		index[k] = i
	}
	seen := make(map[string]bool, len(c.LabelSelector.MatchLabels)+len(c.LabelSelector.MatchExpressions))
	for k := range c.LabelSelector.MatchLabels {
		seen[k] = true
	}
	for _, e := range c.LabelSelector.MatchExpressions {
		if i, ok := index[e.Key]; ok && seen[e.Key] {
			errs = append(errs, api.Invalid(p.Index(i), e.Key, "exists in both matchLabelKeys and labelSelector"))
		}
		seen[e.Key] = true
	}
	return errs
}

// validateLabelSelector is apimachinery's ValidateLabelSelector: valid
// operators with the right number of values, valid keys and values.
func validateLabelSelector(s *api.LabelSelector, p api.Path) api.FieldErrors {
	return validateLabelSelectorValues(s, p, false)
}

// validateLabelSelectorValues is validateLabelSelector, with the
// matchExpressions' values left unchecked when allowInvalidValues (an
// update whose stored selector already has an invalid one: apimachinery's
// AllowInvalidLabelValueInSelector).
func validateLabelSelectorValues(s *api.LabelSelector, p api.Path, allowInvalidValues bool) api.FieldErrors {
	if s == nil {
		return nil
	}
	var errs api.FieldErrors
	for i, e := range s.MatchExpressions {
		ip := p.Child("matchExpressions").Index(i)
		switch e.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(e.Values) == 0 {
				errs = append(errs, api.Required(ip.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(e.Values) > 0 {
				errs = append(errs, api.Forbidden(ip.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, api.Invalid(ip.Child("operator"), string(e.Operator), "not a valid selector operator"))
		}
		for _, msg := range api.ValidateLabelKey(e.Key) {
			errs = append(errs, api.Invalid(ip.Child("key"), e.Key, msg))
		}
		for j, v := range e.Values {
			if allowInvalidValues {
				break
			}
			for _, msg := range api.ValidateLabelValue(v) {
				errs = append(errs, api.Invalid(ip.Child("values").Index(j), v, msg))
			}
		}
	}
	errs = append(errs, validateLabels(s.MatchLabels, p.Child("matchLabels"))...)
	return errs
}

// validateTolerations checks tolerations (core validation's
// ValidateTolerations): a qualified-name key, operator Exists when the key
// is empty, tolerationSeconds only with NoExecute, Equal (or empty) with a
// valid label value, Exists without a value, and a known effect.
func validateTolerations(ts []api.Toleration, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for i, t := range ts {
		ip := p.Index(i)
		if t.Key != "" {
			for _, msg := range api.ValidateLabelKey(t.Key) {
				errs = append(errs, api.Invalid(ip.Child("key"), t.Key, msg))
			}
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			errs = append(errs, api.Invalid(ip.Child("operator"), string(t.Operator), "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, api.Invalid(ip.Child("effect"), string(t.Effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if msgs := api.ValidateLabelValue(t.Value); len(msgs) > 0 {
				errs = append(errs, api.Invalid(ip.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, api.Invalid(ip.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, api.NotSupported(ip.Child("operator"), string(t.Operator), []string{"Equal", "Exists"}))
		}
		if t.Effect != "" {
			switch t.Effect {
			case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
			default:
				errs = append(errs, api.NotSupported(ip.Child("effect"), string(t.Effect), []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
			}
		}
	}
	return errs
}
