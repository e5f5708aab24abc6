package api

// PodResourcesOptions tunes PodRequests and PodLimits the way callers of
// component-helpers' resource.PodRequests tune them (kube-scheduler, the
// kubelet's admission and QoS code, the API server's defaulting). The zero
// value is the plain spec computation including overhead.
type PodResourcesOptions struct {
	// UseStatusResources takes in-place resize state into account: a
	// regular container or sidecar whose status reports resources counts,
	// per resource, the larger of its spec, status.resources and
	// status.allocatedResources requests (limits: spec and status.resources);
	// the spec is left out when the PodResizePending condition says
	// Infeasible. Regular init containers always count their spec. The
	// scheduler sets it; InPlacePodVerticalScaling is on by default in
	// v1.36.3.
	UseStatusResources bool
	// InPlacePodLevelResourcesVerticalScalingEnabled, together with
	// UseStatusResources, applies the same rule to pod-level
	// spec.resources when status.resources is reported: each resource the
	// pod-level spec names counts the larger of its spec, status.resources
	// and (requests only) status.allocatedResources value.
	InPlacePodLevelResourcesVerticalScalingEnabled bool
	// ExcludeOverhead leaves spec.overhead out.
	ExcludeOverhead bool
	// NonMissingContainerRequests supplies a value for each named resource a
	// container does not request at all (an explicit 0 is kept); the
	// scheduler's scoring uses 100m cpu and 200Mi memory.
	NonMissingContainerRequests ResourceList
	// SkipPodLevelResources ignores spec.resources.
	SkipPodLevelResources bool
	// SkipContainerLevelResources ignores container resources.
	SkipContainerLevelResources bool
	// UseDRANodeAllocatableResourceClaimStatus adds the node-allocatable
	// resources that DRA claims report in
	// status.nodeAllocatableResourceClaimStatuses to the container aggregate
	// of requests (not limits).
	UseDRANodeAllocatableResourceClaimStatus bool
}

// IsPodLevelRequestsSet reports whether spec.resources.requests names a
// resource supported at pod level. A nil pod sets none.
func IsPodLevelRequestsSet(pod *Pod) bool {
	return pod != nil && pod.Spec.Resources != nil && hasSupported(pod.Spec.Resources.Requests)
}

// IsPodLevelLimitsSet reports whether spec.resources.limits names a
// resource supported at pod level. A nil pod sets none.
func IsPodLevelLimitsSet(pod *Pod) bool {
	return pod != nil && pod.Spec.Resources != nil && hasSupported(pod.Spec.Resources.Limits)
}

// IsPodLevelResourcesSet reports whether spec.resources sets any resource
// supported at pod level. A nil pod sets none.
func IsPodLevelResourcesSet(pod *Pod) bool {
	return IsPodLevelRequestsSet(pod) || IsPodLevelLimitsSet(pod)
}

// IsPodResizeInfeasible reports whether the PodResizePending condition says
// the resize is Infeasible. A nil pod has no resize.
func IsPodResizeInfeasible(pod *Pod) bool {
	if pod == nil {
		return false
	}
	if c := FindCondition(pod.Status.Conditions, PodResizePending); c != nil {
		return c.Reason == "Infeasible"
	}
	return false
}

// PodRequests is the pod's effective resource requests, as
// component-helpers' resource.PodRequests computes them for the scheduler
// and the kubelet: the aggregate of its containers (regular containers and
// sidecars summed; each regular init container, plus the sidecars declared
// before it, as a floor), replaced resource by resource by pod-level
// spec.resources.requests (cpu, memory, hugepages-*), plus overhead.
// A nil pod has no requests: the result is empty.
func PodRequests(pod *Pod, opts PodResourcesOptions) ResourceList {
	if pod == nil {
		return ResourceList{}
	}
	var reqs ResourceList
	if opts.SkipContainerLevelResources {
		reqs = ResourceList{}
	} else {
		reqs = AggregateContainerRequests(pod, opts)
	}
	if !opts.SkipPodLevelResources && IsPodLevelRequestsSet(pod) {
		eff := pod.Spec.Resources.Requests
		if opts.InPlacePodLevelResourcesVerticalScalingEnabled && opts.UseStatusResources && pod.Status.Resources != nil {
			eff = podLevelWithStatus(pod, eff, pod.Status.Resources.Requests, pod.Status.AllocatedResources)
		}
		applyPodLevel(reqs, eff)
	}
	if !opts.ExcludeOverhead {
		addResources(reqs, pod.Spec.Overhead)
	}
	return reqs
}

// PodLimits is the pod's effective resource limits, as component-helpers'
// resource.PodLimits computes them: the container aggregate, replaced by
// pod-level limits where set, plus overhead only for resources that already
// have a non-zero limit. A nil pod has no limits: the result is empty.
func PodLimits(pod *Pod, opts PodResourcesOptions) ResourceList {
	if pod == nil {
		return ResourceList{}
	}
	lims := AggregateContainerLimits(pod, opts)
	if !opts.SkipPodLevelResources && IsPodLevelResourcesSet(pod) {
		eff := pod.Spec.Resources.Limits
		if opts.InPlacePodLevelResourcesVerticalScalingEnabled && opts.UseStatusResources && pod.Status.Resources != nil &&
			!(IsPodResizeInfeasible(pod) && pod.Status.Resources.Limits == nil) {
			// An infeasible resize counts only status.resources.limits;
			// when that list is absent (nil, as opposed to an empty {}),
			// component-helpers finds no effective limits at all and
			// keeps the pod-level spec limits.
			eff = podLevelWithStatus(pod, eff, pod.Status.Resources.Limits)
		}
		applyPodLevel(lims, eff)
	}
	if !opts.ExcludeOverhead {
		for name, q := range pod.Spec.Overhead {
			if v, ok := lims[name]; ok && !v.IsZero() {
				lims[name] = v.Add(q)
			}
		}
	}
	return lims
}

// podLevelWithStatus is the in-place resize rule at pod level: each
// resource the pod-level spec names counts the largest of its spec value
// and the values the status reports (absent counts as zero); the spec value
// is left out when the pending resize is infeasible. Resources the status
// reports but the spec does not name are not added.
func podLevelWithStatus(pod *Pod, spec ResourceList, statuses ...ResourceList) ResourceList {
	infeasible := IsPodResizeInfeasible(pod)
	out := make(ResourceList, len(spec))
	for name, q := range spec {
		if infeasible {
			q = Quantity{}
		}
		for _, st := range statuses {
			if v, ok := st[name]; ok && v.Cmp(q) > 0 {
				q = v
			}
		}
		out[name] = q
	}
	return out
}

func applyPodLevel(result, eff ResourceList) {
	for name, q := range eff {
		if IsSupportedPodLevelResource(name) {
			result[name] = q
		}
	}
}

// containerResourcesFn picks one container's requests or limits; cs is the
// container's status when in-place resize state is to be considered and the
// status reports resources, else nil.
type containerResourcesFn func(c *Container, cs *ContainerStatus, infeasible bool) ResourceList

// requestsOf: with resize state, a container counts the larger of its spec,
// actuated (status.resources) and allocated requests; the spec is left out
// when the pending resize is infeasible.
func requestsOf(c *Container, cs *ContainerStatus, infeasible bool) ResourceList {
	if cs == nil {
		return c.Resources.Requests
	}
	if infeasible {
		return maxOf(cs.Resources.Requests, cs.AllocatedResources)
	}
	return maxOf(c.Resources.Requests, cs.Resources.Requests, cs.AllocatedResources)
}

// limitsOf: with resize state, the larger of spec and actuated limits, or
// the actuated limits alone when the resize is infeasible.
func limitsOf(c *Container, cs *ContainerStatus, infeasible bool) ResourceList {
	if cs == nil {
		return c.Resources.Limits
	}
	if infeasible {
		return cs.Resources.Limits.Clone()
	}
	return maxOf(c.Resources.Limits, cs.Resources.Limits)
}

// aggregateContainers applies the sidecar-aware formula (KEP-753): regular
// containers and sidecars add up; every regular init container, together
// with the sidecars started before it, is a floor. In-place resize state is
// consulted for regular containers and sidecars only (a regular init
// container has finished before any resize can happen).
func aggregateContainers(pod *Pod, opts PodResourcesOptions, fn containerResourcesFn, nonMissing ResourceList) ResourceList {
	infeasible := opts.UseStatusResources && IsPodResizeInfeasible(pod)
	get := func(c *Container, statusApplies bool) ResourceList {
		var cs *ContainerStatus
		if opts.UseStatusResources && statusApplies {
			if s := resizeStatusFor(&pod.Status, c.Name); s != nil && s.Resources != nil {
				cs = s
			}
		}
		r := fn(c, cs, infeasible)
		if len(nonMissing) > 0 {
			r = withNonMissing(r, nonMissing)
		}
		return r
	}
	result := ResourceList{}
	for i := range pod.Spec.Containers {
		addResources(result, get(&pod.Spec.Containers[i], true))
	}
	sidecars := ResourceList{}
	initFloor := ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		r := get(c, c.IsSidecar())
		if c.IsSidecar() {
			addResources(result, r)
			addResources(sidecars, r)
			r = sidecars
		} else {
			combined := ResourceList{}
			addResources(combined, r)
			addResources(combined, sidecars)
			r = combined
		}
		maxInto(initFloor, r)
	}
	maxInto(result, initFloor)
	return result
}

// resizeStatusFor finds the status that component-helpers consults for a
// container's in-place resize state. It indexes the statuses by name,
// regular ones first and then init ones, so a later entry replaces an
// earlier one: the last init container status of that name wins, else the
// last regular container status of that name. Only that status counts,
// even when it reports no resources and another one does.
func resizeStatusFor(st *PodStatus, name string) *ContainerStatus {
	for _, list := range [2][]ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// AggregateContainerRequests is the requests of the pod's containers alone
// (no pod-level resources, no overhead), by the sidecar-aware formula of
// KEP-753, as component-helpers' resource.AggregateContainerRequests
// computes it, plus the node-allocatable resources of DRA claims when
// opts.UseDRANodeAllocatableResourceClaimStatus is set. A nil pod has no
// containers: the result is empty.
func AggregateContainerRequests(pod *Pod, opts PodResourcesOptions) ResourceList {
	if pod == nil {
		return ResourceList{}
	}
	reqs := aggregateContainers(pod, opts, requestsOf, opts.NonMissingContainerRequests)
	if opts.UseDRANodeAllocatableResourceClaimStatus {
		for _, st := range pod.Status.NodeAllocatableResourceClaimStatuses {
			addResources(reqs, st.Resources)
		}
	}
	return reqs
}

// AggregateContainerLimits is the limits of the pod's containers alone, by
// the same formula as AggregateContainerRequests (DRA claims and
// NonMissingContainerRequests do not apply to limits). A nil pod has no
// containers: the result is empty.
func AggregateContainerLimits(pod *Pod, opts PodResourcesOptions) ResourceList {
	if pod == nil {
		return ResourceList{}
	}
	return aggregateContainers(pod, opts, limitsOf, nil)
}

func withNonMissing(r, nonMissing ResourceList) ResourceList {
	out := make(ResourceList, len(r)+len(nonMissing))
	for k, v := range r {
		out[k] = v
	}
	for k, v := range nonMissing {
		if _, ok := r[k]; !ok {
			out[k] = out[k].Add(v)
		}
	}
	return out
}

func addResources(l, add ResourceList) {
	for k, v := range add {
		if cur, ok := l[k]; ok {
			l[k] = cur.Add(v)
		} else {
			l[k] = v
		}
	}
}

func maxInto(l, other ResourceList) {
	for k, v := range other {
		if cur, ok := l[k]; !ok || v.Cmp(cur) > 0 {
			l[k] = v
		}
	}
}

func maxOf(a ResourceList, b ...ResourceList) ResourceList {
	out := a.Clone()
	if out == nil {
		out = ResourceList{}
	}
	for _, o := range b {
		maxInto(out, o)
	}
	return out
}
