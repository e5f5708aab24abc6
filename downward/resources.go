package downward

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// The resources a resourceFieldRef may name besides
// requests.hugepages-<size> and limits.hugepages-<size>.
const (
	LimitsCPU                = "limits.cpu"
	LimitsMemory             = "limits.memory"
	LimitsEphemeralStorage   = "limits.ephemeral-storage"
	RequestsCPU              = "requests.cpu"
	RequestsMemory           = "requests.memory"
	RequestsEphemeralStorage = "requests.ephemeral-storage"
)

// defaultedLimits are the limits the kubelet fills in from the node's
// allocatable when a container leaves them unset or zero; huge pages are
// never overcommitted, so they are not among them.
var defaultedLimits = [...]api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage}

// ContainerResource returns the value the downward API gives for one
// resource of a container as written (pkg/api/v1/resource
// ExtractContainerResourceValue): the container's request or limit
// divided by divisor and rounded up to a whole number, as a decimal
// string. An unset resource counts as 0. cpu is divided in millicores
// (250m with divisor 1 gives "1", with divisor 1m "250"); memory,
// ephemeral-storage and huge pages in whole units, each side rounded up
// to a whole byte first. The division is done in float64 exactly as
// upstream does, so values beyond 2^53 round as upstream's do; a
// quotient past the int64 range, which upstream converts in a way that
// depends on the CPU (an 8Ei memory limit gives -9223372036854775808 on
// amd64), saturates to 9223372036854775807 (or -9223372036854775808 for
// a negative one) on every platform. A zero divisor means 1. resource is one of limits.cpu, limits.memory,
// limits.ephemeral-storage, requests.cpu, requests.memory,
// requests.ephemeral-storage, limits.hugepages-<size> or
// requests.hugepages-<size>; anything else is an error wrapping
// ErrUnsupportedResource. A nil container is an error wrapping
// api.ErrInvalidInput.
func ContainerResource(c *api.Container, resource string, divisor api.Quantity) (string, error) {
	if c == nil {
		return "", fmt.Errorf("%w: container: nil", errInvalidInput)
	}
	return extractResource(c.Resources.Limits, c.Resources.Requests, resource, divisor)
}

// ResourceFieldRef returns the string the kubelet puts in an environment
// variable whose valueFrom is ref, for the named container of pod (the
// container being started, which may be an init or ephemeral container).
//
// The container the value is read from is ref.ContainerName, or the
// starting container itself when that is empty; a named one is searched
// among the pod's containers, then its init containers.
//
// allocatable is the node's status.allocatable. When it is non-nil, the
// kubelet's defaulting (Kubelet.defaultPodLimitsForDownwardAPI) comes
// first: every regular container, and the starting container, that has
// no limit or a zero limit for cpu, memory or ephemeral-storage gets the
// node's allocatable amount as its limit, and when the pod sets a
// non-zero pod-level limit (spec.resources.limits) for cpu or memory
// that the node also reports, the pod-level limit is used instead. A
// named init container is read as written. A resource the node does not
// report stays unset (0). With a nil allocatable nothing is defaulted and
// the answer is the API helper's (ExtractResourceValueByContainerName) on
// the pod as written.
//
// The value is then computed as ContainerResource does, with ref.Divisor
// (nil or zero means 1). A nil pod is an error wrapping api.ErrInvalidInput.
func ResourceFieldRef(pod *api.Pod, container string, ref api.ResourceFieldSelector, allocatable api.ResourceList) (string, error) {
	if pod == nil {
		return "", fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	divisor := divisorOf(ref)
	if allocatable != nil {
		allocatable = podLevelAllocatable(pod, allocatable)
	}
	if ref.ContainerName == "" {
		own, ok := pod.Spec.FindContainer(container)
		if !ok {
			return "", fmt.Errorf("%w: container %q (the container whose environment is built) is not in pod %q", ErrContainerNotFound, container, pod.Name)
		}
		c := own.Container
		return extractResource(mergeLimits(c.Resources.Limits, allocatable), c.Resources.Requests, ref.Resource, divisor)
	}
	named, err := namedContainer(pod, ref.ContainerName)
	if err != nil {
		return "", err
	}
	c := named.Container
	limits := c.Resources.Limits
	if named.Kind == api.ContainerKindRegular {
		// The kubelet fills in node allocatable for the app containers of
		// its pod copy only; an init container's unset limits stay unset.
		limits = mergeLimits(limits, allocatable)
	}
	return extractResource(limits, c.Resources.Requests, ref.Resource, divisor)
}

// volumeResource resolves a downwardAPI volume file's resourceFieldRef
// as the volume plugin does (ExtractResourceValueByContainerNameAndNode
// Allocatable): the named container or init container, its unset or
// zero cpu, memory and ephemeral-storage limits filled from the node's
// allocatable alone (pod-level limits play no part here).
func volumeResource(pod *api.Pod, ref api.ResourceFieldSelector, allocatable api.ResourceList) (string, error) {
	named, err := namedContainer(pod, ref.ContainerName)
	if err != nil {
		return "", err
	}
	c := named.Container
	return extractResource(mergeLimits(c.Resources.Limits, allocatable), c.Resources.Requests, ref.Resource, divisorOf(ref))
}

// divisorOf is ref's divisor; nil (and zero, see extractResource)
// means 1.
func divisorOf(ref api.ResourceFieldSelector) api.Quantity {
	if ref.Divisor == nil {
		return api.Quantity{}
	}
	return *ref.Divisor
}

// namedContainer is the container a resourceFieldRef's containerName
// names: an app or init container (sidecars included) of the pod, as
// upstream's ExtractResourceValueByContainerName accepts; an ephemeral
// container cannot be named. (Upstream searches the app containers before
// the init containers, api.PodSpec.FindContainer the other way round: the
// two differ only for a pod repeating a name, which validation rejects.)
func namedContainer(pod *api.Pod, name string) (api.ContainerRef, error) {
	c, ok := pod.Spec.FindContainer(name)
	if !ok || c.Kind == api.ContainerKindEphemeral {
		return api.ContainerRef{}, fmt.Errorf("%w: resourceFieldRef.containerName %q is not a container or init container of pod %q", ErrContainerNotFound, name, pod.Name)
	}
	return c, nil
}

// podLevelAllocatable returns allocatable with the pod's non-zero
// pod-level cpu and memory limits in place of the node's amounts, for the
// resources the node reports; allocatable itself is not modified.
func podLevelAllocatable(pod *api.Pod, allocatable api.ResourceList) api.ResourceList {
	if !api.IsPodLevelLimitsSet(pod) {
		return allocatable
	}
	var out api.ResourceList
	for _, name := range defaultedLimits {
		if !api.IsSupportedPodLevelResource(name) {
			continue
		}
		v, ok := pod.Spec.Resources.Limits[name]
		if !ok || v.IsZero() {
			continue
		}
		if _, ok := allocatable[name]; !ok {
			continue
		}
		if out == nil {
			out = allocatable.Clone()
		}
		out[name] = v
	}
	if out == nil {
		return allocatable
	}
	return out
}

// mergeLimits returns limits with unset or zero cpu, memory and
// ephemeral-storage limits taken from allocatable where it has them
// (resource.MergeContainerResourceLimits). limits is not modified.
func mergeLimits(limits, allocatable api.ResourceList) api.ResourceList {
	if len(allocatable) == 0 {
		return limits
	}
	out := limits
	copied := false
	for _, name := range defaultedLimits {
		if q, ok := limits[name]; ok && !q.IsZero() {
			continue
		}
		a, ok := allocatable[name]
		if !ok {
			continue
		}
		if !copied {
			out = make(api.ResourceList, len(limits)+len(defaultedLimits))
			for k, v := range limits {
				out[k] = v
			}
			copied = true
		}
		out[name] = a
	}
	return out
}

func extractResource(limits, requests api.ResourceList, resource string, divisor api.Quantity) (string, error) {
	if divisor.IsZero() {
		divisor = api.NewQuantity(1, api.DecimalSI)
	}
	switch resource {
	case LimitsCPU:
		return cpuString(limits[api.ResourceCPU], divisor), nil
	case LimitsMemory:
		return unitString(limits[api.ResourceMemory], divisor), nil
	case LimitsEphemeralStorage:
		return unitString(limits[api.ResourceEphemeralStorage], divisor), nil
	case RequestsCPU:
		return cpuString(requests[api.ResourceCPU], divisor), nil
	case RequestsMemory:
		return unitString(requests[api.ResourceMemory], divisor), nil
	case RequestsEphemeralStorage:
		return unitString(requests[api.ResourceEphemeralStorage], divisor), nil
	}
	if name, ok := strings.CutPrefix(resource, "requests."); ok && api.ResourceName(name).IsHugePages() {
		return unitString(requests[api.ResourceName(name)], divisor), nil
	}
	if name, ok := strings.CutPrefix(resource, "limits."); ok && api.ResourceName(name).IsHugePages() {
		return unitString(limits[api.ResourceName(name)], divisor), nil
	}
	return "", fmt.Errorf("%w: %q", ErrUnsupportedResource, resource)
}

// cpuString is ceil(cpu / divisor) computed in millicores, in float64
// as upstream's convertResourceCPUToString computes it.
func cpuString(cpu, divisor api.Quantity) string {
	return ceilDiv(cpu.MilliValue(), divisor.MilliValue())
}

// unitString is ceil(q / divisor) in whole units, in float64 as
// upstream's memory, ephemeral-storage and huge-page conversions compute
// it.
func unitString(q, divisor api.Quantity) string {
	return ceilDiv(q.Value(), divisor.Value())
}

// ceilDiv is ceil(a/b) in float64, as upstream divides. Upstream then
// converts the float to int64 unguarded, which Go leaves to the platform
// when the quotient is out of range (an 8Ei limit gives
// -9223372036854775808 on amd64 and 9223372036854775807 on arm64); here
// a quotient at or beyond ±2^63 saturates to the nearest int64 and NaN
// (0/0, from a divisor that rounds to zero) gives 0, so the answer is the
// same on every platform, and equals upstream's wherever upstream's is
// defined.
func ceilDiv(a, b int64) string {
	return strconv.FormatInt(api.SaturatingInt64(math.Ceil(float64(a)/float64(b))), 10)
}
