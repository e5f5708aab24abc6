package validation

import (
	"slices"

	"github.com/podsem/podsem/api"
)

// Deletion propagation policies a DeleteOptions may name, as
// apimachinery's metav1 defines them.
var propagationPolicies = []string{api.DeletePropagationForeground, api.DeletePropagationBackground, api.DeletePropagationOrphan}

// ValidateDeleteOptions returns the field errors the API server gives for
// the DeleteOptions of any DELETE before it looks at the object
// (apimachinery's metav1 validation.ValidateDeleteOptions), or nil when
// they are accepted: orphanDependents and propagationPolicy are mutually
// exclusive, propagationPolicy must be Foreground, Background or Orphan,
// and dryRun may only hold "All". Field paths are relative to the
// options ("propagationPolicy", "dryRun[0]"). Nil options are the empty
// options and are accepted.
func ValidateDeleteOptions(o *api.DeleteOptions) api.FieldErrors {
	if o == nil {
		return nil
	}
	var errs api.FieldErrors
	policy := api.NewPath("propagationPolicy")
	if o.OrphanDependents != nil && o.PropagationPolicy != nil {
		errs = append(errs, api.Invalid(policy, nil, "orphanDependents and propagationPolicy cannot both be set"))
	}
	if p := o.PropagationPolicy; p != nil && !slices.Contains(propagationPolicies, *p) {
		errs = append(errs, api.NotSupported(policy, *p, propagationPolicies))
	}
	for i, v := range o.DryRun {
		if v != "All" {
			errs = append(errs, api.NotSupported(api.NewPath("dryRun").Index(i), v, []string{"All"}))
		}
	}
	return errs
}
