package validation

import (
	"slices"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// Limits and well-known keys the API server's metadata rules use
// (apimachinery pkg/api/validation and core's pod annotation checks).
const (
	// totalAnnotationSizeLimit is the most bytes the keys and values of
	// an object's annotations may add up to.
	totalAnnotationSizeLimit = 256 * 1024

	annotationDeletionCost    = "controller.kubernetes.io/pod-deletion-cost"
	generatedNameSuffixLength = 5
	maxGeneratedNameBase      = api.DNS1123SubdomainMaxLength - generatedNameSuffixLength
)

// validateObjectMeta is apimachinery's ValidateObjectMeta for a namespaced
// object whose names are DNS subdomains (pods), plus core's finalizer-name
// rule.
func validateObjectMeta(m *api.ObjectMeta, p api.Path) api.FieldErrors {
	return validateObjectMetaNamed(m, p, api.NameIsDNSSubdomain)
}

// validateObjectMetaNamed is validateObjectMeta for a kind whose names
// nameOK checks (prefix: a generateName).
func validateObjectMetaNamed(m *api.ObjectMeta, p api.Path, nameOK func(name string, prefix bool) []string) api.FieldErrors {
	var errs api.FieldErrors
	if m.GenerateName != "" {
		for _, msg := range nameOK(m.GenerateName, true) {
			errs = append(errs, api.Invalid(p.Child("generateName"), m.GenerateName, msg))
		}
	}
	if m.Name == "" {
		errs = append(errs, api.Required(p.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameOK(m.Name, false) {
			errs = append(errs, api.Invalid(p.Child("name"), m.Name, msg))
		}
	}
	if m.Namespace == "" {
		errs = append(errs, api.Required(p.Child("namespace"), ""))
	} else {
		for _, msg := range api.IsDNS1123Label(m.Namespace) {
			errs = append(errs, api.Invalid(p.Child("namespace"), m.Namespace, msg))
		}
	}
	if m.Generation < 0 {
		errs = append(errs, api.Invalid(p.Child("generation"), m.Generation, "must be greater than or equal to 0"))
	}
	errs = append(errs, validateLabels(m.Labels, p.Child("labels"))...)
	errs = append(errs, validateAnnotations(m.Annotations, p.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(m.OwnerReferences, p.Child("ownerReferences"))...)
	errs = append(errs, validateFinalizers(m.Finalizers, p.Child("finalizers"))...)
	return errs
}

// validateLabels checks label keys (qualified names) and values; every
// failure is reported at the labels map itself, as upstream does.
func validateLabels(labels map[string]string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, k := range sortedMapKeys(labels) {
		for _, msg := range api.ValidateLabelKey(k) {
			errs = append(errs, api.Invalid(p, k, msg))
		}
		for _, msg := range api.ValidateLabelValue(labels[k]) {
			errs = append(errs, api.Invalid(p, labels[k], msg))
		}
	}
	return errs
}

// validateAnnotations checks annotation keys (qualified names, compared in
// lower case) and the total size.
func validateAnnotations(annotations map[string]string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	total := 0
	for _, k := range sortedMapKeys(annotations) {
		for _, msg := range api.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, api.Invalid(p, k, msg))
		}
		total += len(k) + len(annotations[k])
	}
	if total > totalAnnotationSizeLimit {
		errs = append(errs, api.TooLong(p, "", totalAnnotationSizeLimit))
	}
	return errs
}

// validateOwnerReferences checks that each owner reference names its
// owner completely and that at most one is the controller.
func validateOwnerReferences(refs []api.OwnerReference, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	controllers := 0
	for i := range refs {
		r := &refs[i]
		if r.APIVersion == "" {
			errs = append(errs, api.Invalid(p.Child("apiVersion"), r.APIVersion, "version must not be empty"))
		}
		if r.Kind == "" {
			errs = append(errs, api.Invalid(p.Child("kind"), r.Kind, "must not be empty"))
		}
		if r.Name == "" {
			errs = append(errs, api.Invalid(p.Child("name"), r.Name, "must not be empty"))
		}
		if r.UID == "" {
			errs = append(errs, api.Invalid(p.Child("uid"), r.UID, "must not be empty"))
		}
		if r.Controller != nil && *r.Controller {
			controllers++
		}
	}
	if controllers > 1 {
		errs = append(errs, api.Invalid(p, refs, "Only one reference can have Controller set to true"))
	}
	return errs
}

// The finalizers Kubernetes itself defines, which need no domain prefix.
var standardFinalizers = map[string]bool{
	"kubernetes":                  true,
	api.FinalizerOrphanDependents: true,
	api.FinalizerDeleteDependents: true,
}

// validateFinalizers checks each finalizer name: a qualified name (its
// errors reported at the list itself, metadata.finalizers, as the generic
// object-meta check does), and either one of the standard names or
// containing a slash (reported at the element, metadata.finalizers[i], by
// core's own check, which runs whatever the first one found).
func validateFinalizers(finalizers []string, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	hasOrphan, hasForeground := false, false
	for i, f := range finalizers {
		for _, msg := range api.IsQualifiedName(f) {
			errs = append(errs, api.Invalid(p, f, msg))
		}
		if !strings.Contains(f, "/") && !standardFinalizers[f] {
			errs = append(errs, api.Invalid(p.Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
		hasOrphan = hasOrphan || f == api.FinalizerOrphanDependents
		hasForeground = hasForeground || f == api.FinalizerDeleteDependents
	}
	if hasOrphan && hasForeground {
		errs = append(errs, api.Invalid(p, finalizers, "finalizer orphan and foregroundDeletion cannot be both set"))
	}
	return errs
}

// validatePodAnnotations holds the pod-specific annotation rules of
// core's ValidatePodSpecificAnnotations: the mirror-pod annotation needs a
// node, the pod deletion cost is a 32-bit integer, and the deprecated
// AppArmor annotations name a container of the pod and a known profile.
func validatePodAnnotations(annotations map[string]string, spec *api.PodSpec, p api.Path, allowInvalidDeletionCost bool) api.FieldErrors {
	var errs api.FieldErrors
	if v, ok := annotations[api.ConfigMirrorAnnotationKey]; ok && spec.NodeName == "" {
		errs = append(errs, api.Invalid(p.Key(api.ConfigMirrorAnnotationKey), v, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if !allowInvalidDeletionCost && !validDeletionCost(annotations) {
		errs = append(errs, api.Invalid(p.Key(annotationDeletionCost), annotations[annotationDeletionCost], "must be a 32bit integer"))
	}
	for _, k := range sortedMapKeys(annotations) {
		name, ok := strings.CutPrefix(k, api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix)
		if !ok {
			continue
		}
		if !specHasContainer(spec, name) {
			errs = append(errs, api.Invalid(p.Key(k), name, "container not found"))
		}
		v := annotations[k]
		if v != "" && v != api.DeprecatedAppArmorBetaProfileRuntimeDefault && v != api.DeprecatedAppArmorBetaProfileNameUnconfined && !strings.HasPrefix(v, api.DeprecatedAppArmorBetaProfileNamePrefix) {
			errs = append(errs, api.Invalid(p.Key(k), v, "invalid AppArmor profile name: "+strconv.Quote(v)))
		}
	}
	return errs
}

// validDeletionCost reports whether the pod-deletion-cost annotation is
// absent or a base-10 int32.
func validDeletionCost(annotations map[string]string) bool {
	v, ok := annotations[annotationDeletionCost]
	if !ok {
		return true
	}
	_, err := strconv.ParseInt(v, 10, 32)
	return err == nil
}

// validatePodAnnotationUpdates forbids adding, changing or removing the
// AppArmor and mirror-pod annotations on update, then applies the create
// rules to the new annotations.
func validatePodAnnotationUpdates(newPod, oldPod *api.Pod, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, k := range sortedMapKeys(oldPod.Annotations) {
		if nv, ok := newPod.Annotations[k]; ok && nv == oldPod.Annotations[k] {
			continue
		}
		if strings.HasPrefix(k, api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) {
			errs = append(errs, api.Forbidden(p.Key(k), "may not remove or update AppArmor annotations"))
		}
		if k == api.ConfigMirrorAnnotationKey {
			errs = append(errs, api.Forbidden(p.Key(k), "may not remove or update mirror pod annotation"))
		}
	}
	for _, k := range sortedMapKeys(newPod.Annotations) {
		if _, ok := oldPod.Annotations[k]; ok {
			continue
		}
		if strings.HasPrefix(k, api.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix) {
			errs = append(errs, api.Forbidden(p.Key(k), "may not add AppArmor annotations"))
		}
		if k == api.ConfigMirrorAnnotationKey {
			errs = append(errs, api.Forbidden(p.Key(k), "may not add mirror pod annotation"))
		}
	}
	return append(errs, validatePodAnnotations(newPod.Annotations, &newPod.Spec, p, !validDeletionCost(oldPod.Annotations))...)
}

// validateObjectMetaUpdate is apimachinery's ValidateObjectMetaUpdate: no
// new finalizers once deletion started, a resourceVersion is required,
// generation never goes down, identity and deletion fields are immutable,
// and the new labels, annotations and owners must be valid.
func validateObjectMetaUpdate(newMeta, oldMeta *api.ObjectMeta, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if oldMeta.DeletionTimestamp != nil {
		old := make(map[string]bool, len(oldMeta.Finalizers))
		for _, f := range oldMeta.Finalizers {
			old[f] = true
		}
		var added []string
		for _, f := range newMeta.Finalizers {
			if !old[f] && !slices.Contains(added, f) {
				added = append(added, f)
			}
		}
		if len(added) > 0 {
			// Upstream lists them sorted, as Go syntax (%#v of a []string).
			slices.Sort(added)
			quoted := make([]string, len(added))
			for i, f := range added {
				quoted[i] = strconv.Quote(f)
			}
			errs = append(errs, api.Forbidden(p.Child("finalizers"), "no new finalizers can be added if the object is being deleted, found new finalizers []string{"+strings.Join(quoted, ", ")+"}"))
		}
	}
	if newMeta.ResourceVersion == "" {
		errs = append(errs, api.Invalid(p.Child("resourceVersion"), newMeta.ResourceVersion, "must be specified for an update"))
	}
	if newMeta.Generation < oldMeta.Generation {
		errs = append(errs, api.Invalid(p.Child("generation"), newMeta.Generation, "must not be decremented"))
	}
	const immutable = "field is immutable"
	if newMeta.Name != oldMeta.Name {
		errs = append(errs, api.Invalid(p.Child("name"), newMeta.Name, immutable))
	}
	if newMeta.Namespace != oldMeta.Namespace {
		errs = append(errs, api.Invalid(p.Child("namespace"), newMeta.Namespace, immutable))
	}
	if newMeta.UID != oldMeta.UID {
		errs = append(errs, api.Invalid(p.Child("uid"), newMeta.UID, immutable))
	}
	if !newMeta.CreationTimestamp.Equal(oldMeta.CreationTimestamp.Time) {
		errs = append(errs, api.Invalid(p.Child("creationTimestamp"), newMeta.CreationTimestamp.String(), immutable))
	}
	if !semanticEqual(newMeta.DeletionTimestamp, oldMeta.DeletionTimestamp) {
		errs = append(errs, api.Invalid(p.Child("deletionTimestamp"), newMeta.DeletionTimestamp, immutable))
	}
	if !semanticEqual(newMeta.DeletionGracePeriodSeconds, oldMeta.DeletionGracePeriodSeconds) {
		errs = append(errs, api.Invalid(p.Child("deletionGracePeriodSeconds"), newMeta.DeletionGracePeriodSeconds, immutable))
	}
	errs = append(errs, validateLabels(newMeta.Labels, p.Child("labels"))...)
	errs = append(errs, validateAnnotations(newMeta.Annotations, p.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(newMeta.OwnerReferences, p.Child("ownerReferences"))...)
	return append(errs, validateFinalizers(newMeta.Finalizers, p.Child("finalizers"))...)
}
