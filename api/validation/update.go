package validation

import (
	"math"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// ValidatePodUpdate returns the field errors the Kubernetes API server gives
// for a PUT of newPod over the stored oldPod, or nil when the update is
// accepted (the pod registry strategy's ValidateUpdate, i.e. core
// validation's ValidatePodUpdate, under v1.36.3's default feature gates).
// Both pods are expected v1-defaulted; neither is modified. Both are
// taken as the v1-to-internal conversion leaves them: a negative
// terminationGracePeriodSeconds counts as 1 (so a pod stored with -5 may
// be sent back with -1 or 1), legacy init container annotations dropped.
//
// Metadata: name, namespace, uid, creationTimestamp, deletionTimestamp and
// deletionGracePeriodSeconds are immutable, generation may not go down, a
// resourceVersion is required, no finalizer may be added once the pod is
// being deleted. The new pod must itself be valid. In the spec only these
// may change: container and init container images (not to empty),
// activeDeadlineSeconds (from unset to positive, or down to a smaller
// non-negative value), tolerations (additions, and tolerationSeconds of
// existing ones), scheduling gates (removals), terminationGracePeriodSeconds
// (from negative to 1), and for a pod still gated, additions to nodeSelector
// and to required node affinity. Anything else is the generic
// "pod updates may not change fields other than ..." Forbidden at spec.
// Adding or removing containers stops the checks at that error. A nil new
// or old pod gives a single Required error at metadata.
//
// It validates as a kube-apiserver started with default flags; Options
// holds the flags that change the answer.
func ValidatePodUpdate(newPod, oldPod *api.Pod) api.FieldErrors {
	return Options{}.ValidatePodUpdate(newPod, oldPod)
}

// ValidatePodUpdate is the package's ValidatePodUpdate under these
// kube-apiserver options.
func (o Options) ValidatePodUpdate(newPod, oldPod *api.Pod) api.FieldErrors {
	if newPod == nil || oldPod == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old pod are required")}
	}
	newPod, oldPod = asConverted(newPod), asConverted(oldPod)
	meta, spec := api.NewPath("metadata"), api.NewPath("spec")
	errs := validateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, meta)
	errs = append(errs, validatePodMetadataAndSpec(newPod, o.updateValidationOptions(oldPod))...)
	errs = append(errs, validatePodAnnotationUpdates(newPod, oldPod, meta.Child("annotations"))...)

	cerrs, stop := validateContainerUpdates(newPod.Spec.Containers, oldPod.Spec.Containers, spec.Child("containers"))
	errs = append(errs, cerrs...)
	if stop {
		return errs
	}
	cerrs, stop = validateContainerUpdates(newPod.Spec.InitContainers, oldPod.Spec.InitContainers, spec.Child("initContainers"))
	errs = append(errs, cerrs...)
	if stop {
		return errs
	}

	adsPath := spec.Child("activeDeadlineSeconds")
	if n := newPod.Spec.ActiveDeadlineSeconds; n != nil {
		if *n < 0 || *n > math.MaxInt32 {
			return append(errs, api.Invalid(adsPath, *n, "must be between 0 and 2147483647, inclusive"))
		}
		if o := oldPod.Spec.ActiveDeadlineSeconds; o != nil && *o < *n {
			return append(errs, api.Invalid(adsPath, *n, "must be less than or equal to previous value"))
		}
	} else if oldPod.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, api.Invalid(adsPath, nil, "must not update from a positive integer to nil value"))
	}

	errs = append(errs, validateOnlyAddedTolerations(newPod.Spec.Tolerations, oldPod.Spec.Tolerations, spec.Child("tolerations"))...)
	errs = append(errs, validateOnlyDeletedSchedulingGates(newPod.Spec.SchedulingGates, oldPod.Spec.SchedulingGates, spec.Child("schedulingGates"))...)

	if semanticEqual(newPod.Spec, oldPod.Spec) {
		return errs
	}
	munged, merrs := mungeUpdatableFields(&newPod.Spec, &oldPod.Spec, spec)
	errs = append(errs, merrs...)
	if !semanticEqual(*munged, oldPod.Spec) {
		errs = append(errs, api.Forbidden(spec, "pod updates may not change fields other than "+strings.Join(updatablePodSpecFields, ",")))
	}
	return errs
}

var updatablePodSpecFields = []string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}

// mungeUpdatableFields returns a copy of the new spec with every field an
// update may change set back to the old value, so that what is left to
// compare is what may not change. For gated pods it also checks the
// nodeSelector and node affinity changes it puts back.
func mungeUpdatableFields(newSpec, oldSpec *api.PodSpec, p api.Path) (*api.PodSpec, api.FieldErrors) {
	var errs api.FieldErrors
	m := *newSpec
	m.Containers = append([]api.Container(nil), newSpec.Containers...)
	for i := range m.Containers {
		m.Containers[i].Image = oldSpec.Containers[i].Image
	}
	m.InitContainers = append([]api.Container(nil), newSpec.InitContainers...)
	for i := range m.InitContainers {
		m.InitContainers[i].Image = oldSpec.InitContainers[i].Image
	}
	m.ActiveDeadlineSeconds = oldSpec.ActiveDeadlineSeconds
	m.SchedulingGates = oldSpec.SchedulingGates
	m.Tolerations = oldSpec.Tolerations
	if o, n := oldSpec.TerminationGracePeriodSeconds, m.TerminationGracePeriodSeconds; o != nil && *o < 0 && n != nil && *n == 1 {
		m.TerminationGracePeriodSeconds = o
	}
	if len(oldSpec.SchedulingGates) > 0 {
		if !semanticEqual(m.NodeSelector, oldSpec.NodeSelector) {
			errs = append(errs, validateNodeSelectorMutation(m.NodeSelector, oldSpec.NodeSelector, p.Child("nodeSelector"))...)
			m.NodeSelector = oldSpec.NodeSelector
		}
		var oldNA, newNA *api.NodeAffinity
		if oldSpec.Affinity != nil {
			oldNA = oldSpec.Affinity.NodeAffinity
		}
		if m.Affinity != nil {
			newNA = m.Affinity.NodeAffinity
		}
		if !semanticEqual(oldNA, newNA) {
			errs = append(errs, validateNodeAffinityMutation(newNA, oldNA, p.Child("affinity").Child("nodeAffinity"))...)
			switch {
			case m.Affinity == nil && oldNA == nil:
			case m.Affinity == nil:
				m.Affinity = &api.Affinity{NodeAffinity: oldNA}
			case oldSpec.Affinity == nil && m.Affinity.PodAffinity == nil && m.Affinity.PodAntiAffinity == nil:
				m.Affinity = nil
			default:
				a := *m.Affinity
				a.NodeAffinity = oldNA
				m.Affinity = &a
			}
		}
	}
	return &m, errs
}

// validateContainerUpdates stops the update checks when containers were
// added or removed, and otherwise requires every image to be set and
// without surrounding whitespace.
func validateContainerUpdates(newCs, oldCs []api.Container, p api.Path) (api.FieldErrors, bool) {
	if len(newCs) != len(oldCs) {
		return api.FieldErrors{api.Forbidden(p, "pod updates may not add or remove containers")}, true
	}
	var errs api.FieldErrors
	for i, c := range newCs {
		if c.Image == "" {
			errs = append(errs, api.Required(p.Index(i).Child("image"), ""))
		}
		if len(strings.TrimSpace(c.Image)) != len(c.Image) {
			errs = append(errs, api.Invalid(p.Index(i).Child("image"), c.Image, "must not have leading or trailing whitespace"))
		}
	}
	return errs, false
}

// validateOnlyAddedTolerations requires every old toleration to be still
// there, up to its tolerationSeconds, and the new list to be valid.
func validateOnlyAddedTolerations(newTs, oldTs []api.Toleration, p api.Path) api.FieldErrors {
	for _, o := range oldTs {
		found := false
		for _, n := range newTs {
			if o.Key == n.Key && o.Operator == n.Operator && o.Value == n.Value && o.Effect == n.Effect {
				found = true
				break
			}
		}
		if !found {
			return api.FieldErrors{api.Forbidden(p, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return validateTolerations(newTs, p)
}

// validateOnlyDeletedSchedulingGates forbids scheduling gates the old pod
// did not have.
func validateOnlyDeletedSchedulingGates(newGates, oldGates []api.PodSchedulingGate, p api.Path) api.FieldErrors {
	old := make(map[string]bool, len(oldGates))
	for _, g := range oldGates {
		old[g.Name] = true
	}
	// A new gate named more than once is reported once, at its last index.
	last := make(map[string]int, len(newGates))
	for i, g := range newGates {
		last[g.Name] = i
	}
	var errs api.FieldErrors
	for i, g := range newGates {
		if !old[g.Name] && last[g.Name] == i {
			errs = append(errs, api.Forbidden(p.Index(i).Child("name"), "only deletion is allowed, but found new scheduling gate '"+g.Name+"'"))
		}
	}
	return errs
}

// validateNodeSelectorMutation allows a gated pod only to add nodeSelector
// entries.
func validateNodeSelectorMutation(newSel, oldSel map[string]string, p api.Path) api.FieldErrors {
	for k, v := range oldSel {
		if nv, ok := newSel[k]; !ok || nv != v {
			return api.FieldErrors{api.Invalid(p, newSel, "only additions to spec.nodeSelector are allowed (no mutations or deletions)")}
		}
	}
	return nil
}

// validateNodeAffinityMutation allows a gated pod to set required node
// affinity when it had none, and otherwise only to append requirements to
// its existing terms. Preferred terms may change freely.
func validateNodeAffinityMutation(newNA, oldNA *api.NodeAffinity, p api.Path) api.FieldErrors {
	if oldNA == nil || oldNA.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	oldTerms := oldNA.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	var newTerms []api.NodeSelectorTerm
	if newNA != nil && newNA.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		newTerms = newNA.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	}
	tp := p.Child("requiredDuringSchedulingIgnoredDuringExecution").Child("nodeSelectorTerms")
	if len(oldTerms) > 0 && len(oldTerms) != len(newTerms) {
		return api.FieldErrors{api.Invalid(tp, newTerms, "no additions/deletions to non-empty NodeSelectorTerms list are allowed")}
	}
	var errs api.FieldErrors
	for i := range oldTerms {
		if !termOnlyAdds(newTerms[i], oldTerms[i]) {
			errs = append(errs, api.Invalid(tp.Index(i), newTerms[i], "only additions are allowed (no mutations or deletions)"))
		}
	}
	return errs
}

func termOnlyAdds(n, o api.NodeSelectorTerm) bool {
	if len(o.MatchExpressions) > len(n.MatchExpressions) || len(o.MatchFields) > len(n.MatchFields) {
		return false
	}
	for i := range o.MatchExpressions {
		if !semanticEqual(o.MatchExpressions[i], n.MatchExpressions[i]) {
			return false
		}
	}
	for i := range o.MatchFields {
		if !semanticEqual(o.MatchFields[i], n.MatchFields[i]) {
			return false
		}
	}
	return true
}

// ValidatePodEphemeralContainersUpdate returns the field errors the API
// server gives for an update through the pods/ephemeralcontainers
// subresource (core validation's ValidatePodEphemeralContainersUpdate):
// the metadata update rules, a valid new pod, and no existing ephemeral
// container removed or changed (both reported as Forbidden at
// spec.ephemeralContainers). New ephemeral containers may be added; they
// may not have ports, probes, lifecycle hooks or resources. Static
// (mirror) pods take no ephemeral containers at all. Other spec changes are
// not checked here: the subresource's strategy only ever applies the
// ephemeral containers of the request. A nil new or old pod gives a single
// Required error at metadata.
//
// It validates as a kube-apiserver started with default flags; Options
// holds the flags that change the answer.
func ValidatePodEphemeralContainersUpdate(newPod, oldPod *api.Pod) api.FieldErrors {
	return Options{}.ValidatePodEphemeralContainersUpdate(newPod, oldPod)
}

// ValidatePodEphemeralContainersUpdate is the package's
// ValidatePodEphemeralContainersUpdate under these kube-apiserver options.
func (o Options) ValidatePodEphemeralContainersUpdate(newPod, oldPod *api.Pod) api.FieldErrors {
	if newPod == nil || oldPod == nil {
		return api.FieldErrors{api.Required(api.NewPath("metadata"), "both the new and the old pod are required")}
	}
	newPod, oldPod = asConverted(newPod), asConverted(oldPod)
	meta := api.NewPath("metadata")
	errs := validateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, meta)
	errs = append(errs, validatePodMetadataAndSpec(newPod, o.updateValidationOptions(oldPod))...)
	errs = append(errs, validatePodAnnotationUpdates(newPod, oldPod, meta.Child("annotations"))...)
	if _, mirror := oldPod.Annotations[api.ConfigMirrorAnnotationKey]; mirror {
		// Upstream reports this at a path made of one empty field name,
		// which renders as "[]".
		return api.FieldErrors{api.Forbidden(api.Path{}.Key(""), "static pods do not support ephemeral containers")}
	}
	p := api.NewPath("spec").Child("ephemeralContainers")
	byName := make(map[string]*api.EphemeralContainer, len(newPod.Spec.EphemeralContainers))
	for i := range newPod.Spec.EphemeralContainers {
		byName[newPod.Spec.EphemeralContainers[i].Name] = &newPod.Spec.EphemeralContainers[i]
	}
	for i := range oldPod.Spec.EphemeralContainers {
		o := &oldPod.Spec.EphemeralContainers[i]
		n, ok := byName[o.Name]
		switch {
		case !ok:
			errs = append(errs, api.Forbidden(p, "existing ephemeral containers "+strconv.Quote(o.Name)+" may not be removed"))
		case !semanticEqual(*o, *n):
			errs = append(errs, api.Forbidden(p, "existing ephemeral containers "+strconv.Quote(o.Name)+" may not be changed"))
		}
	}
	return errs
}
