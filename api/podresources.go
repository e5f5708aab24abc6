package api

// PodResourcesOptions tunes PodRequests and PodLimits the way callers of
// component-helpers' resource.PodRequests tune them (kube-scheduler, the
// kubelet's admission and QoS code, the API server's defaulting). The zero
// value is the plain spec computation including overhead.
type PodResourcesOptions struct {
	// UseStatusResources takes in-place resize state into account: each
	// container counts the larger of its spec, allocated and actuated
	// resources (only the allocated/actuated ones when the resize is
	// infeasible). The scheduler sets it; InPlacePodVerticalScaling is on by
	// default in v1.36.3.
	UseStatusResources bool
	// InPlacePodLevelResourcesVerticalScalingEnabled lets status.resources
	// and status.allocatedResources at pod level stand for the container
	// aggregate and for pod-level values.
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
	// status.nodeAllocatableResourceClaimStatuses.
	UseDRANodeAllocatableResourceClaimStatus bool
}

// IsPodLevelRequestsSet reports whether spec.resources.requests names a
// resource supported at pod level.
func IsPodLevelRequestsSet(pod *Pod) bool {
	return pod.Spec.Resources != nil && hasSupported(pod.Spec.Resources.Requests)
}

// IsPodLevelLimitsSet reports whether spec.resources.limits names a
// resource supported at pod level.
func IsPodLevelLimitsSet(pod *Pod) bool {
	return pod.Spec.Resources != nil && hasSupported(pod.Spec.Resources.Limits)
}

// IsPodLevelResourcesSet reports whether spec.resources sets any resource
// supported at pod level.
func IsPodLevelResourcesSet(pod *Pod) bool {
	return IsPodLevelRequestsSet(pod) || IsPodLevelLimitsSet(pod)
}

// IsPodResizeInfeasible reports whether the PodResizePending condition says
// the resize is Infeasible.
func IsPodResizeInfeasible(pod *Pod) bool {
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
func PodRequests(pod *Pod, opts PodResourcesOptions) ResourceList {
	reqs := ResourceList{}
	if !opts.SkipContainerLevelResources {
		reqs = AggregateContainerRequests(pod, opts)
	}
	if !opts.SkipPodLevelResources && IsPodLevelRequestsSet(pod) {
		eff := pod.Spec.Resources.Requests
		if opts.InPlacePodLevelResourcesVerticalScalingEnabled && opts.UseStatusResources &&
			(pod.Status.Resources != nil || pod.Status.AllocatedResources != nil) {
			var st, alloc ResourceList
			if pod.Status.Resources != nil {
				st = pod.Status.Resources.Requests.Clone()
			}
			alloc = pod.Status.AllocatedResources.Clone()
			subtractFloorZero(st, pod.Spec.Overhead)
			subtractFloorZero(alloc, pod.Spec.Overhead)
			eff = effectivePodLevel(pod, eff, st, alloc)
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
// have a non-zero limit.
func PodLimits(pod *Pod, opts PodResourcesOptions) ResourceList {
	lims := AggregateContainerLimits(pod, opts)
	if !opts.SkipPodLevelResources && IsPodLevelResourcesSet(pod) {
		eff := pod.Spec.Resources.Limits
		if opts.InPlacePodLevelResourcesVerticalScalingEnabled && opts.UseStatusResources && pod.Status.Resources != nil {
			st := pod.Status.Resources.Limits.Clone()
			subtractFloorZero(st, pod.Spec.Overhead)
			eff = effectivePodLevel(pod, eff, st)
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

func applyPodLevel(result, eff ResourceList) {
	for name, q := range eff {
		if IsSupportedPodLevelResource(name) {
			result[name] = q
		}
	}
}

func effectivePodLevel(pod *Pod, spec ResourceList, statuses ...ResourceList) ResourceList {
	if IsPodResizeInfeasible(pod) {
		spec = nil
	}
	return maxOf(spec, statuses...)
}

type containerResourcesFn func(c *Container, cs *ContainerStatus, infeasible bool) ResourceList

func specRequests(c *Container, _ *ContainerStatus, _ bool) ResourceList { return c.Resources.Requests }

func specLimits(c *Container, _ *ContainerStatus, _ bool) ResourceList { return c.Resources.Limits }

func allocatedRequests(c *Container, cs *ContainerStatus, infeasible bool) ResourceList {
	if cs != nil && cs.AllocatedResources != nil {
		return cs.AllocatedResources
	}
	if infeasible {
		return nil
	}
	return c.Resources.Requests
}

func actuatedRequests(c *Container, cs *ContainerStatus, infeasible bool) ResourceList {
	if cs != nil && cs.Resources != nil && cs.Resources.Requests != nil {
		return cs.Resources.Requests
	}
	if cs != nil && cs.AllocatedResources != nil {
		return cs.AllocatedResources
	}
	if infeasible {
		return nil
	}
	return c.Resources.Requests
}

func actuatedLimits(c *Container, cs *ContainerStatus, infeasible bool) ResourceList {
	if cs != nil && cs.Resources != nil && cs.Resources.Limits != nil {
		return cs.Resources.Limits
	}
	if infeasible {
		return nil
	}
	return c.Resources.Limits
}

func findContainerStatus(pod *Pod, name string) *ContainerStatus {
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == name {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	for i := range pod.Status.InitContainerStatuses {
		if pod.Status.InitContainerStatuses[i].Name == name {
			return &pod.Status.InitContainerStatuses[i]
		}
	}
	return nil
}

// aggregateContainers applies the sidecar-aware formula (KEP-753): regular
// containers and sidecars add up; every regular init container, together
// with the sidecars started before it, is a floor.
func aggregateContainers(pod *Pod, opts PodResourcesOptions, fn containerResourcesFn) ResourceList {
	infeasible := opts.UseStatusResources && IsPodResizeInfeasible(pod)
	get := func(c *Container) ResourceList {
		var cs *ContainerStatus
		if opts.UseStatusResources {
			cs = findContainerStatus(pod, c.Name)
		}
		r := fn(c, cs, infeasible)
		if len(opts.NonMissingContainerRequests) > 0 {
			r = withNonMissing(r, opts.NonMissingContainerRequests)
		}
		return r
	}
	result := ResourceList{}
	for i := range pod.Spec.Containers {
		addResources(result, get(&pod.Spec.Containers[i]))
	}
	sidecars := ResourceList{}
	initFloor := ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		r := get(c)
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

// AggregateContainerRequests is the requests of the pod's containers alone
// (no pod-level resources, no overhead), by the sidecar-aware formula of
// KEP-753, as component-helpers' resource.AggregateContainerRequests
// computes it.
func AggregateContainerRequests(pod *Pod, opts PodResourcesOptions) ResourceList {
	reqs := ResourceList{}
	if !opts.UseStatusResources {
		addResources(reqs, aggregateContainers(pod, opts, specRequests))
		addDRAResources(reqs, pod, opts)
		return reqs
	}
	infeasible := IsPodResizeInfeasible(pod)
	spec := aggregateContainers(pod, opts, specRequests)
	addDRAResources(spec, pod, opts)
	var alloc, act ResourceList
	if opts.InPlacePodLevelResourcesVerticalScalingEnabled && pod.Status.AllocatedResources != nil &&
		pod.Status.Resources != nil && pod.Status.Resources.Requests != nil {
		alloc = pod.Status.AllocatedResources
		act = pod.Status.Resources.Requests
	} else {
		alloc = aggregateContainers(pod, opts, allocatedRequests)
		addDRAResources(alloc, pod, opts)
		act = aggregateContainers(pod, opts, actuatedRequests)
	}
	if infeasible {
		addResources(reqs, maxOf(act, alloc))
	} else {
		addResources(reqs, maxOf(spec, act, alloc))
	}
	return reqs
}

// AggregateContainerLimits is the limits of the pod's containers alone, by
// the same formula as AggregateContainerRequests.
func AggregateContainerLimits(pod *Pod, opts PodResourcesOptions) ResourceList {
	opts.NonMissingContainerRequests = nil
	lims := ResourceList{}
	if !opts.UseStatusResources {
		addResources(lims, aggregateContainers(pod, opts, specLimits))
		addDRALimits(lims, pod, opts)
		return lims
	}
	infeasible := IsPodResizeInfeasible(pod)
	spec := aggregateContainers(pod, opts, specLimits)
	addDRALimits(spec, pod, opts)
	var act ResourceList
	if opts.InPlacePodLevelResourcesVerticalScalingEnabled && pod.Status.Resources != nil && pod.Status.Resources.Limits != nil {
		act = pod.Status.Resources.Limits
	} else {
		act = aggregateContainers(pod, opts, actuatedLimits)
	}
	if infeasible {
		addResources(lims, act)
	} else {
		addResources(lims, maxOf(spec, act))
	}
	return lims
}

func draResources(pod *Pod, opts PodResourcesOptions) ResourceList {
	if !opts.UseDRANodeAllocatableResourceClaimStatus {
		return nil
	}
	out := ResourceList{}
	for _, st := range pod.Status.NodeAllocatableResourceClaimStatuses {
		addResources(out, st.Resources)
	}
	return out
}

func addDRAResources(l ResourceList, pod *Pod, opts PodResourcesOptions) {
	addResources(l, draResources(pod, opts))
}

// addDRALimits adds DRA allocations to limits only where the containers
// declare a limit (the kubelet leaves undeclared limits unbounded), except
// for huge pages, which are never overcommitted.
func addDRALimits(l ResourceList, pod *Pod, opts PodResourcesOptions) {
	for name, q := range draResources(pod, opts) {
		if v, ok := l[name]; ok || name.IsHugePages() {
			l[name] = v.Add(q)
		}
	}
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

func subtractFloorZero(l, sub ResourceList) {
	for k, v := range sub {
		if cur, ok := l[k]; ok {
			d := cur.Sub(v)
			if d.Sign() < 0 {
				d = Quantity{}
			}
			l[k] = d
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
