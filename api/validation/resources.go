package validation

import (
	"strings"

	"github.com/podsem/podsem/api"
)

// validateResourceRequirements checks a container's requests and limits
// as core validation's ValidateContainerResourceRequirements does: names
// are standard container resources or well-formed extended resources,
// quantities are non-negative (whole numbers for extended resources), a
// request never exceeds its limit, resources that cannot be overcommitted
// (extended resources, huge pages) have equal request and limit, and huge
// pages come with cpu or memory.
//
// podClaims are the names of spec.resourceClaims, which entries of
// resources.claims must refer to.
func validateResourceRequirements(r *api.ResourceRequirements, podClaims map[string]bool, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	limPath, reqPath := p.Child("limits"), p.Child("requests")
	limHuge, limCPUMem := false, false
	for _, name := range r.Limits.Names() {
		q := r.Limits[name]
		fp := limPath.Key(string(name))
		errs = append(errs, validateContainerResourceName(name, fp)...)
		errs = append(errs, validateResourceQuantity(name, q, fp)...)
		if name.IsHugePages() {
			limHuge = true
			errs = append(errs, validateHugePageValue(name, q, fp)...)
		}
		if name == api.ResourceCPU || name == api.ResourceMemory {
			limCPUMem = true
		}
	}
	reqHuge, reqCPUMem := false, false
	for _, name := range r.Requests.Names() {
		q := r.Requests[name]
		fp := reqPath.Key(string(name))
		errs = append(errs, validateContainerResourceName(name, fp)...)
		errs = append(errs, validateResourceQuantity(name, q, fp)...)
		if lim, ok := r.Limits[name]; ok {
			switch {
			case q.Cmp(lim) != 0 && !overcommitAllowed(name):
				errs = append(errs, api.Invalid(reqPath, q.String(), "must be equal to "+string(name)+" limit of "+lim.String()))
			case q.Cmp(lim) > 0:
				errs = append(errs, api.Invalid(reqPath, q.String(), "must be less than or equal to "+string(name)+" limit of "+lim.String()))
			}
		} else if !overcommitAllowed(name) {
			errs = append(errs, api.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
		if name.IsHugePages() {
			reqHuge = true
			errs = append(errs, validateHugePageValue(name, q, fp)...)
		}
		if name == api.ResourceCPU || name == api.ResourceMemory {
			reqCPUMem = true
		}
	}
	if !limCPUMem && !reqCPUMem && (limHuge || reqHuge) {
		errs = append(errs, api.Forbidden(p, "HugePages require cpu or memory"))
	}
	if len(r.Claims) > 0 {
		errs = append(errs, validateResourceClaimRefs(r.Claims, podClaims, p.Child("claims"))...)
	}
	return errs
}

// overcommitAllowed reports whether requests may be below limits for a
// resource: native resources other than huge pages.
func overcommitAllowed(name api.ResourceName) bool {
	return name.IsNative() && !name.IsHugePages()
}

// validateContainerResourceName accepts cpu, memory, ephemeral-storage,
// hugepages-<size> and qualified extended resource names.
func validateContainerResourceName(name api.ResourceName, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	for _, msg := range api.IsQualifiedName(string(name)) {
		errs = append(errs, api.Invalid(p, string(name), msg))
	}
	if !strings.Contains(string(name), "/") {
		switch {
		case name == api.ResourceCPU, name == api.ResourceMemory, name == api.ResourceEphemeralStorage, name.IsHugePages():
		default:
			errs = append(errs, api.Invalid(p, string(name), "must be a standard resource for containers"))
		}
	} else if !name.IsNative() && !name.IsExtended() {
		errs = append(errs, api.Invalid(p, string(name), "doesn't follow extended resource name standard"))
	}
	return errs
}

// validateResourceQuantity requires a non-negative quantity, and a whole
// number for resources counted in units (extended resources, pods).
func validateResourceQuantity(name api.ResourceName, q api.Quantity, p api.Path) api.FieldErrors {
	var errs api.FieldErrors
	if q.Sign() < 0 {
		errs = append(errs, api.Invalid(p, q.String(), "must be greater than or equal to 0"))
	}
	integer := name.IsExtended() || name == api.ResourcePods
	if integer && q.MilliValue()%1000 != 0 {
		errs = append(errs, api.Invalid(p, q.String(), "must be an integer"))
	}
	return errs
}

// validateHugePageValue requires a huge page amount to be a whole number
// of pages of the size the resource name gives (hugepages-2Mi: 2Mi pages).
func validateHugePageValue(name api.ResourceName, q api.Quantity, p api.Path) api.FieldErrors {
	size, err := api.ParseQuantity(strings.TrimPrefix(string(name), api.ResourceHugePagesPrefix))
	if err != nil || size.Sign() <= 0 || size.Value() <= 0 || q.Value()%size.Value() != 0 {
		return api.FieldErrors{api.Invalid(p, q.String(), q.String()+" is not positive integer multiple of "+string(name))}
	}
	return nil
}

// validatePodResources checks pod-level resources (PodLevelResources, on
// by default): only cpu, memory and huge pages, no claims, the container
// rules for quantities, requests covering the containers' aggregate
// requests and limits covering each container's limit.
func validatePodResources(pod *api.Pod, p api.Path) api.FieldErrors {
	r := pod.Spec.Resources
	if r == nil {
		return nil
	}
	if os := pod.Spec.OS; os != nil && os.Name == api.Windows {
		// Windows pods take no pod-level resources; nothing more is said
		// about the values then.
		return api.FieldErrors{api.Forbidden(p, "may not be set for a windows pod")}
	}
	var errs api.FieldErrors
	if r.Claims != nil {
		errs = append(errs, api.Forbidden(p.Child("claims"), "claims cannot be set for Resources at pod-level"))
	}
	for _, part := range []struct {
		name string
		list api.ResourceList
	}{{"limits", r.Limits}, {"requests", r.Requests}} {
		for _, name := range part.list.Names() {
			if name != api.ResourceCPU && name != api.ResourceMemory && !name.IsHugePages() {
				errs = append(errs, api.NotSupported(p.Child(part.name).Key(string(name)), string(name), []string{"cpu", "memory", "hugepages-*"}))
			}
		}
	}
	errs = append(errs, validateResourceRequirements(&api.ResourceRequirements{Limits: r.Limits, Requests: r.Requests, Claims: r.Claims}, podClaimNames(pod.Spec.ResourceClaims), p)...)
	// The consistency checks below run whatever the checks above found.
	agg := api.AggregateContainerRequests(pod, api.PodResourcesOptions{SkipPodLevelResources: true})
	for _, name := range agg.Names() {
		want, ok := r.Requests[name]
		if !ok {
			continue
		}
		if got := agg[name]; got.Cmp(want) > 0 {
			errs = append(errs, api.Invalid(p.Child("requests").Key(string(name)), want.String(), "must be greater than or equal to aggregate container requests of "+got.String()))
		}
	}
	// Huge pages are never overcommitted: the pod's limit must cover the
	// containers' aggregate limit.
	aggLim := api.AggregateContainerLimits(pod, api.PodResourcesOptions{SkipPodLevelResources: true})
	for _, name := range aggLim.Names() {
		if !name.IsHugePages() {
			continue
		}
		podLim, ok := r.Limits[name]
		if !ok {
			continue
		}
		if got := aggLim[name]; got.Cmp(podLim) > 0 {
			errs = append(errs, api.Invalid(p.Child("limits").Key(string(name)), podLim.String(), "must be greater than or equal to aggregate container limits of "+got.String()))
		}
	}
	for i := range pod.Spec.Containers {
		lims := pod.Spec.Containers[i].Resources.Limits
		for _, name := range lims.Names() {
			podLim, ok := r.Limits[name]
			if !ok {
				continue
			}
			if l := lims[name]; l.Cmp(podLim) > 0 {
				errs = append(errs, api.Invalid(p.Child("containers").Index(i).Key(string(name)).Child("limits"), l.String(), "must be less than or equal to pod limits of "+podLim.String()))
			}
		}
	}
	return errs
}
