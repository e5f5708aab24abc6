package validation

import (
	"encoding/json"
	"unicode"
	"unicode/utf8"

	"github.com/podsem/podsem/api"
)

// pvcTemplateSpec is the part of a PersistentVolumeClaimSpec that core
// validation checks in a generic ephemeral volume's claim template. The
// api model keeps that spec as raw JSON; it is decoded here on demand.
type pvcTemplateSpec struct {
	AccessModes []string           `json:"accessModes"`
	Selector    *api.LabelSelector `json:"selector"`
	Resources   struct {
		Requests map[string]api.Quantity `json:"requests"`
	} `json:"resources"`
	StorageClassName          *string           `json:"storageClassName"`
	VolumeMode                *string           `json:"volumeMode"`
	DataSource                *pvcDataSourceRef `json:"dataSource"`
	DataSourceRef             *pvcDataSourceRef `json:"dataSourceRef"`
	VolumeAttributesClassName *string           `json:"volumeAttributesClassName"`
}

// pvcDataSourceRef is a claim's dataSource (no namespace) or
// dataSourceRef.
type pvcDataSourceRef struct {
	APIGroup  *string `json:"apiGroup"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Namespace *string `json:"namespace"`
}

// validateClaimTemplate checks an ephemeral volume's volumeClaimTemplate
// as core validation's ValidatePersistentVolumeClaimTemplate does for a
// new template (VolumeAttributesClass on, as in v1.36): metadata may only
// carry valid labels and annotations; the claim spec needs at least one
// supported access mode (ReadWriteOncePod alone), a positive storage
// request, a supported volumeMode, DNS-subdomain class names, a valid
// selector and well-formed dataSource/dataSourceRef that agree.
func validateClaimTemplate(t *api.PersistentVolumeClaimTemplate, p api.Path) api.FieldErrors {
	mp := p.Child("metadata")
	errs := validateAnnotations(t.Annotations, mp.Child("annotations"))
	errs = append(errs, validateLabels(t.Labels, mp.Child("labels"))...)
	errs = append(errs, forbidTemplateMeta(&t.ObjectMeta, mp)...)

	var spec any
	if t.Spec != nil {
		spec = t.Spec
	}
	return append(errs, validateClaimSpec(spec, p.Child("spec"))...)
}

// validateClaimSpec is core validation's ValidatePersistentVolumeClaimSpec
// for a new claim, at sp, of a claim spec given in any form that encodes
// to a PersistentVolumeClaimSpec's JSON (nil: the empty spec).
func validateClaimSpec(claimSpec any, sp api.Path) api.FieldErrors {
	var errs api.FieldErrors
	var spec pvcTemplateSpec
	if claimSpec != nil {
		raw, err := json.Marshal(claimSpec)
		if err == nil {
			err = json.Unmarshal(raw, &spec)
		}
		if err != nil {
			return append(errs, api.Invalid(sp, string(raw), "cannot be read as a PersistentVolumeClaimSpec: "+err.Error()))
		}
	}
	if len(spec.AccessModes) == 0 {
		errs = append(errs, api.Required(sp.Child("accessModes"), "at least 1 access mode is required"))
	}
	errs = append(errs, validateLabelSelector(spec.Selector, sp.Child("selector"))...)
	rwop, other := false, false
	for _, m := range spec.AccessModes {
		switch m {
		case "ReadWriteOncePod":
			rwop = true
		case "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany":
			other = true
		default:
			errs = append(errs, api.NotSupported(sp.Child("accessModes"), m, []string{"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}))
		}
	}
	if rwop && other {
		errs = append(errs, api.Forbidden(sp.Child("accessModes"), "may not use ReadWriteOncePod with other access modes"))
	}
	storagePath := sp.Child("resources").Key("storage")
	if q, ok := spec.Resources.Requests["storage"]; !ok {
		errs = append(errs, api.Required(storagePath, ""))
	} else if q.Sign() <= 0 {
		errs = append(errs, api.Invalid(storagePath, q.String(), "must be greater than zero"))
	}
	for _, c := range []struct {
		name  string
		value *string
	}{{"storageClassName", spec.StorageClassName}, {"volumeAttributesClassName", spec.VolumeAttributesClassName}} {
		if c.value == nil || *c.value == "" {
			continue
		}
		for _, msg := range api.IsDNS1123Subdomain(*c.value) {
			errs = append(errs, api.Invalid(sp.Child(c.name), *c.value, msg))
		}
	}
	if m := spec.VolumeMode; m != nil && *m != "Block" && *m != "Filesystem" {
		errs = append(errs, api.NotSupported(sp.Child("volumeMode"), *m, []string{"Block", "Filesystem"}))
	}
	if ds := spec.DataSource; ds != nil {
		errs = append(errs, validateDataSourceRef(ds, false, sp.Child("dataSource"))...)
	}
	if ref := spec.DataSourceRef; ref != nil {
		errs = append(errs, validateDataSourceRef(ref, true, sp.Child("dataSourceRef"))...)
	}
	ds, ref := spec.DataSource, spec.DataSourceRef
	switch {
	case ref != nil && ref.Namespace != nil && *ref.Namespace != "":
		if ds != nil {
			errs = append(errs, api.Invalid(sp, "dataSource", "may not be specified when dataSourceRef.namespace is specified"))
		}
	case ds != nil && ref != nil:
		sameGroup := (ds.APIGroup == nil) == (ref.APIGroup == nil) && (ds.APIGroup == nil || *ds.APIGroup == *ref.APIGroup)
		if !sameGroup || ds.Kind != ref.Kind || ds.Name != ref.Name {
			errs = append(errs, api.Invalid(sp, "dataSource", "must match dataSourceRef"))
		}
	}
	return errs
}

// validateDataSourceRef checks a claim's dataSource or (withNamespace)
// dataSourceRef: a name and a kind, PersistentVolumeClaim when no API
// group is given, a DNS-subdomain API group otherwise, and for a
// dataSourceRef a DNS-label namespace.
func validateDataSourceRef(r *pvcDataSourceRef, withNamespace bool, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if r.Name == "" {
		errs = append(errs, api.Required(p.Child("name"), ""))
	}
	if r.Kind == "" {
		errs = append(errs, api.Required(p.Child("kind"), ""))
	}
	group := ""
	if r.APIGroup != nil {
		group = *r.APIGroup
	}
	if group == "" && r.Kind != "PersistentVolumeClaim" {
		errs = append(errs, api.Invalid(p, r.Kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" {
		for _, msg := range api.IsDNS1123Subdomain(group) {
			errs = append(errs, api.Invalid(p.Child("apiGroup"), group, msg))
		}
	}
	if withNamespace && r.Namespace != nil && *r.Namespace != "" {
		for _, msg := range api.IsDNS1123Label(*r.Namespace) {
			errs = append(errs, api.Invalid(p.Child("namespace"), *r.Namespace, msg))
		}
	}
	return errs
}

// forbidTemplateMeta reports every metadata field of a claim template
// other than labels and annotations that is set (not its zero value), as
// Forbidden at the field's Go name with a lower-cased first letter, the
// way upstream's allow-list check spells it (UID becomes "uID").
func forbidTemplateMeta(m *api.ObjectMeta, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	forbid := func(set bool, goName string) {
		if !set {
			return
		}
		r, n := utf8.DecodeRuneInString(goName)
		errs = append(errs, api.Forbidden(p.Child(string(unicode.ToLower(r))+goName[n:]), "cannot be set"))
	}
	forbid(m.Name != "", "Name")
	forbid(m.GenerateName != "", "GenerateName")
	forbid(m.Namespace != "", "Namespace")
	forbid(m.UID != "", "UID")
	forbid(m.ResourceVersion != "", "ResourceVersion")
	forbid(m.Generation != 0, "Generation")
	forbid(!m.CreationTimestamp.IsZero(), "CreationTimestamp")
	forbid(m.DeletionTimestamp != nil, "DeletionTimestamp")
	forbid(m.DeletionGracePeriodSeconds != nil, "DeletionGracePeriodSeconds")
	forbid(m.OwnerReferences != nil, "OwnerReferences")
	forbid(m.Finalizers != nil, "Finalizers")
	return errs
}
