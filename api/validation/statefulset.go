package validation

import (
	"github.com/podsem/podsem/api"
)

// ValidateStatefulSet returns the field errors kube-apiserver v1.36.3
// gives when asked to create the StatefulSet set (apps validation's
// ValidateStatefulSet): the object metadata (a DNS-label name, as the
// pods' hostnames are made from it), then the spec in upstream's order:
// podManagementPolicy OrderedReady or Parallel; updateStrategy OnDelete
// (without rollingUpdate) or RollingUpdate (partition not negative,
// maxUnavailable a non-negative integer or percentage, not 0, at most
// 100%); the PVC retention policy's Retain or Delete; each
// volumeClaimTemplate's claim spec; replicas, minReadySeconds and
// ordinals.start not negative; serviceName a DNS label; the selector
// required, valid and not empty; the template as
// ValidateWorkloadTemplate checks it. set is expected defaulted
// (api.DefaultStatefulSet). A nil set gives a Required error at spec. set
// is not modified.
func ValidateStatefulSet(set *api.StatefulSet) api.FieldErrors {
	return Options{}.ValidateStatefulSet(set)
}

// ValidateStatefulSet is the package's ValidateStatefulSet under these
// kube-apiserver options.
func (o Options) ValidateStatefulSet(set *api.StatefulSet) api.FieldErrors {
	if set == nil {
		return api.FieldErrors{api.Required(api.NewPath("spec"), "a StatefulSet is required")}
	}
	errs := validateObjectMetaNamed(&set.ObjectMeta, api.NewPath("metadata"), api.NameIsDNSLabel)
	return append(errs, o.validateStatefulSetSpec(set, statefulSetChecks{serviceName: true, claimTemplates: true, template: true})...)
}

// ValidateStatefulSetUpdate returns the field errors kube-apiserver
// v1.36.3 gives when asked to update the StatefulSet old to set (apps
// validation's ValidateStatefulSetUpdate): the metadata update rules
// (the name is not checked again), the spec as on create except the
// serviceName and the claim templates (both immutable) and, when the
// stored spec is itself invalid, the template's pod rules; then a
// Forbidden error at spec when anything but replicas, ordinals,
// template, updateStrategy, revisionHistoryLimit,
// persistentVolumeClaimRetentionPolicy and minReadySeconds changed. A
// nil set or old gives a Required error at metadata. Neither is
// modified.
func ValidateStatefulSetUpdate(set, old *api.StatefulSet) api.FieldErrors {
	return Options{}.ValidateStatefulSetUpdate(set, old)
}

// ValidateStatefulSetUpdate is the package's ValidateStatefulSetUpdate
// under these kube-apiserver options.
func (o Options) ValidateStatefulSetUpdate(set, old *api.StatefulSet) api.FieldErrors {
	if set == nil || old == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old StatefulSet are required")}
	}
	errs := validateObjectMetaUpdate(&set.ObjectMeta, &old.ObjectMeta, api.NewPath("metadata"))
	checks := statefulSetChecks{template: true}
	if len(o.validateStatefulSetSpec(old, checks)) > 0 {
		checks.template = false
	}
	errs = append(errs, o.validateStatefulSetSpec(set, checks)...)
	fixed := set.Spec
	fixed.Replicas = old.Spec.Replicas
	fixed.Template = old.Spec.Template
	fixed.UpdateStrategy = old.Spec.UpdateStrategy
	fixed.MinReadySeconds = old.Spec.MinReadySeconds
	fixed.Ordinals = old.Spec.Ordinals
	fixed.RevisionHistoryLimit = old.Spec.RevisionHistoryLimit
	fixed.PersistentVolumeClaimRetentionPolicy = old.Spec.PersistentVolumeClaimRetentionPolicy
	if !semanticEqual(fixed, old.Spec) {
		errs = append(errs, api.Forbidden(api.NewPath("spec"), "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
	}
	return errs
}

// statefulSetChecks are the parts of a StatefulSet's spec validation an
// update may leave out (upstream's StatefulSetValidationOptions).
type statefulSetChecks struct {
	serviceName, claimTemplates, template bool
}

// validateStatefulSetSpec is upstream's ValidateStatefulSetSpec at spec.
func (o Options) validateStatefulSetSpec(set *api.StatefulSet, c statefulSetChecks) api.FieldErrors {
	s := &set.Spec
	spec := api.NewPath("spec")
	var errs api.FieldErrors
	switch pp := spec.Child("podManagementPolicy"); s.PodManagementPolicy {
	case "":
		errs = append(errs, api.Required(pp, ""))
	case api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		errs = append(errs, api.Invalid(pp, string(s.PodManagementPolicy), "must be 'OrderedReady' or 'Parallel'"))
	}
	errs = append(errs, validateStatefulSetUpdateStrategy(&s.UpdateStrategy, spec.Child("updateStrategy"))...)
	if rp := s.PersistentVolumeClaimRetentionPolicy; rp != nil {
		p := spec.Child("persistentVolumeClaimRetentionPolicy")
		errs = append(errs, retentionPolicyType(rp.WhenDeleted, p.Child("whenDeleted"))...)
		errs = append(errs, retentionPolicyType(rp.WhenScaled, p.Child("whenScaled"))...)
	}
	if c.claimTemplates {
		for i := range s.VolumeClaimTemplates {
			errs = append(errs, validateClaimSpec(s.VolumeClaimTemplates[i].Spec, spec.Child("volumeClaimTemplates").Index(i).Child("spec"))...)
		}
	}
	errs = append(errs, nonNegative(int64(deref32(s.Replicas)), spec.Child("replicas"))...)
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), spec.Child("minReadySeconds"))...)
	if s.Ordinals != nil {
		errs = append(errs, nonNegative(int64(s.Ordinals.Start), spec.Child("ordinals.start"))...)
	}
	if c.serviceName && s.ServiceName != "" {
		for _, msg := range api.IsDNS1123Label(s.ServiceName) {
			errs = append(errs, api.Invalid(spec.Child("serviceName"), s.ServiceName, msg))
		}
	}
	sp := spec.Child("selector")
	if s.Selector == nil {
		errs = append(errs, api.Required(sp, ""))
	} else {
		errs = append(errs, validateLabelSelector(s.Selector, sp)...)
		if len(s.Selector.MatchLabels)+len(s.Selector.MatchExpressions) == 0 {
			errs = append(errs, api.Invalid(sp, jsonValue{s.Selector}, "empty selector is invalid for statefulset"))
		}
	}
	return append(errs, o.statefulSetPodTemplate(set, !c.template)...)
}

// validateStatefulSetUpdateStrategy is the updateStrategy part of
// upstream's ValidateStatefulSetSpec.
func validateStatefulSetUpdateStrategy(s *api.StatefulSetUpdateStrategy, p api.Path) api.FieldErrors {
	switch s.Type {
	case "":
		return api.FieldErrors{api.Required(p, "")}
	case api.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return api.FieldErrors{api.Invalid(p.Child("rollingUpdate"), jsonValue{statefulSetRollingValue(s.RollingUpdate)}, "only allowed for updateStrategy 'RollingUpdate'")}
		}
		return nil
	case api.RollingUpdateStatefulSetStrategyType:
		ru := s.RollingUpdate
		if ru == nil {
			return nil
		}
		rp := p.Child("rollingUpdate")
		errs := nonNegative(int64(deref32(ru.Partition)), rp.Child("partition"))
		if ru.MaxUnavailable != nil {
			mp := rp.Child("maxUnavailable")
			errs = append(errs, validatePositiveIntOrPercent(*ru.MaxUnavailable, mp)...)
			if intOrPercentValue(*ru.MaxUnavailable) == 0 {
				errs = append(errs, api.Invalid(mp, jsonValue{*ru.MaxUnavailable}, "cannot be 0"))
			}
			errs = append(errs, notOver100Percent(*ru.MaxUnavailable, mp)...)
		}
		return errs
	}
	v := struct {
		Type          string
		RollingUpdate *statefulSetRolling
	}{Type: string(s.Type)}
	if s.RollingUpdate != nil {
		r := statefulSetRollingValue(s.RollingUpdate)
		v.RollingUpdate = &r
	}
	return api.FieldErrors{api.Invalid(p, jsonValue{v}, "must be 'RollingUpdate' or 'OnDelete'")}
}

// statefulSetRolling is a StatefulSet's rolling update as upstream's
// internal type encodes in an error's value.
type statefulSetRolling struct {
	Partition      int32
	MaxUnavailable *api.IntOrString
}

func statefulSetRollingValue(ru *api.RollingUpdateStatefulSetStrategy) statefulSetRolling {
	return statefulSetRolling{Partition: deref32(ru.Partition), MaxUnavailable: ru.MaxUnavailable}
}

// retentionPolicyType is upstream's
// ValidatePersistentVolumeClaimRetentionPolicyType.
func retentionPolicyType(t api.PersistentVolumeClaimRetentionPolicyType, p api.Path) api.FieldErrors {
	switch t {
	case api.RetainPersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType:
		return nil
	}
	return api.FieldErrors{api.NotSupported(p, string(t), []string{string(api.RetainPersistentVolumeClaimRetentionPolicyType), string(api.DeletePersistentVolumeClaimRetentionPolicyType)})}
}
