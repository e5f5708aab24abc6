package validation

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// ValidatePriorityClass returns the field errors of the API server's
// registry validation of a PriorityClass being created
// (pkg/apis/scheduling/validation.ValidatePriorityClass), run on the
// defaulted object (see api.DefaultPriorityClass), or nil when it is
// accepted:
//
//   - metadata: a name (or generateName) is required and a name must be
//     an RFC 1123 subdomain; a namespace is not allowed (the object is
//     cluster-scoped); labels and annotations must be valid;
//   - a name starting with "system-" must be one of the built-in classes
//     (api.SystemPriorityClasses), with exactly its value and
//     globalDefault false; any other class may not exceed
//     api.HighestUserDefinablePriority;
//   - preemptionPolicy, when set, must be PreemptLowerPriority or Never.
//
// A nil class gives a single Required error at metadata.
func ValidatePriorityClass(pc *api.PriorityClass) api.FieldErrors {
	meta := api.NewPath("metadata")
	if pc == nil {
		return api.FieldErrors{api.Required(meta, "a PriorityClass is required")}
	}
	var errs api.FieldErrors
	switch {
	case pc.Name == "" && pc.GenerateName == "":
		errs = append(errs, api.Required(meta.Child("name"), "name or generateName is required"))
	case pc.Name != "":
		for _, msg := range api.IsDNS1123Subdomain(pc.Name) {
			errs = append(errs, api.Invalid(meta.Child("name"), pc.Name, msg))
		}
	}
	if pc.Namespace != "" {
		errs = append(errs, api.Forbidden(meta.Child("namespace"), "not allowed on this type"))
	}
	errs = append(errs, validateLabels(pc.Labels, meta.Child("labels"))...)
	errs = append(errs, validateAnnotations(pc.Annotations, meta.Child("annotations"))...)
	if strings.HasPrefix(pc.Name, api.SystemPriorityClassPrefix) {
		if why := knownSystemClass(pc.Name, pc.Value, pc.GlobalDefault); why != "" {
			errs = append(errs, api.Forbidden(meta.Child("name"),
				"priority class names with '"+api.SystemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+why))
		}
	} else if pc.Value > api.HighestUserDefinablePriority {
		errs = append(errs, api.Forbidden(api.NewPath("value"),
			fmt.Sprintf("maximum allowed value of a user defined priority is %d", api.HighestUserDefinablePriority)))
	}
	if pp := pc.PreemptionPolicy; pp != nil {
		switch *pp {
		case api.PreemptLowerPriority, api.PreemptNever:
		case "":
			errs = append(errs, api.Required(api.NewPath("preemptionPolicy"), ""))
		default:
			errs = append(errs, api.NotSupported(api.NewPath("preemptionPolicy"), string(*pp),
				[]string{string(api.PreemptLowerPriority), string(api.PreemptNever)}))
		}
	}
	return errs
}

// knownSystemClass explains why name/value/globalDefault is not one of the
// built-in classes, or returns "" when it is.
func knownSystemClass(name string, value int32, globalDefault bool) string {
	for _, sc := range api.SystemPriorityClasses() {
		if sc.Name != name {
			continue
		}
		if sc.Value != value {
			return fmt.Sprintf("value of %s PriorityClass must be %d", sc.Name, sc.Value)
		}
		if sc.GlobalDefault != globalDefault {
			return fmt.Sprintf("globalDefault of %s PriorityClass must be %t", sc.Name, sc.GlobalDefault)
		}
		return ""
	}
	return name + " is not a known system priority class"
}

// ValidatePriorityClassUpdate returns the field errors of the API server's
// registry validation of an update of the PriorityClass old to pc
// (pkg/apis/scheduling/validation.ValidatePriorityClassUpdate), or nil when
// it is accepted: the object metadata rules of every update (a
// resourceVersion, identity and deletion fields unchanged, valid labels,
// annotations, owners and finalizers, no new finalizer once deleting), and
// value and preemptionPolicy, which may not change. Upstream runs no other
// check on an update: a class whose value was valid when created stays
// valid. A nil pc or old gives a single Required error at metadata.
func ValidatePriorityClassUpdate(pc, old *api.PriorityClass) api.FieldErrors {
	meta := api.NewPath("metadata")
	if pc == nil || old == nil {
		return api.FieldErrors{api.Required(meta, "a PriorityClass and the stored one are required")}
	}
	errs := validateObjectMetaUpdate(&pc.ObjectMeta, &old.ObjectMeta, meta)
	if pc.Value != old.Value {
		errs = append(errs, api.Forbidden(api.NewPath("value"), "may not be changed in an update."))
	}
	if !semanticEqual(pc.PreemptionPolicy, old.PreemptionPolicy) {
		errs = append(errs, api.Invalid(api.NewPath("preemptionPolicy"), pc.PreemptionPolicy, "field is immutable"))
	}
	return errs
}
