package api

import (
	"sort"
	"strings"
)

// ResourceName names a compute resource: cpu, memory, ephemeral-storage,
// pods, hugepages-<size>, or an extended resource such as
// example.com/gpu.
type ResourceName string

// The resource names the pod rules treat specially.
const (
	ResourceCPU              ResourceName = "cpu"
	ResourceMemory           ResourceName = "memory"
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
	ResourcePods             ResourceName = "pods"
	ResourceStorage          ResourceName = "storage"
	// ResourceHugePagesPrefix starts every huge page resource name.
	ResourceHugePagesPrefix = "hugepages-"
)

// IsHugePages reports whether n is a huge page resource (hugepages-2Mi...).
func (n ResourceName) IsHugePages() bool {
	return strings.HasPrefix(string(n), ResourceHugePagesPrefix)
}

// IsNative reports whether n belongs to the kubernetes.io namespace: it has
// no domain prefix, or it contains "kubernetes.io/" (core/v1 helper
// IsNativeResource, which matches the text anywhere in the name).
func (n ResourceName) IsNative() bool {
	s := string(n)
	return !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/")
}

// IsPrefixedNative reports whether n is a native resource written with a
// domain prefix, such as kubernetes.io/something (core/v1 helper
// IsPrefixedNativeResource).
func (n ResourceName) IsPrefixedNative() bool {
	return strings.Contains(string(n), "/") && n.IsNative()
}

// IsExtended reports whether n is an extended resource: outside the
// kubernetes.io namespace, not prefixed "requests.", and a valid qualified
// name once prefixed with "requests." as quota would (core/v1 helper
// IsExtendedResourceName).
func (n ResourceName) IsExtended() bool {
	if n.IsNative() || strings.HasPrefix(string(n), "requests.") {
		return false
	}
	return len(IsQualifiedName("requests."+string(n))) == 0
}

// IsScalar reports whether the scheduler accounts n as a scalar resource:
// extended resources, huge pages, prefixed native resources and attachable
// volumes (core/v1 helper IsScalarResourceName).
func (n ResourceName) IsScalar() bool {
	return n.IsExtended() || n.IsHugePages() || n.IsPrefixedNative() ||
		strings.HasPrefix(string(n), ResourceAttachableVolumesPrefix)
}

// ResourceList maps resource names to quantities (requests, limits,
// allocatable, capacity, overhead).
type ResourceList map[ResourceName]Quantity

// Get returns the quantity of name and whether it is present.
func (l ResourceList) Get(name ResourceName) (Quantity, bool) {
	q, ok := l[name]
	return q, ok
}

// Cpu returns the cpu quantity, zero when absent.
func (l ResourceList) Cpu() Quantity { return l[ResourceCPU] }

// Memory returns the memory quantity, zero when absent.
func (l ResourceList) Memory() Quantity { return l[ResourceMemory] }

// Clone returns a copy of l (nil stays nil).
func (l ResourceList) Clone() ResourceList {
	if l == nil {
		return nil
	}
	out := make(ResourceList, len(l))
	for k, v := range l {
		out[k] = v
	}
	return out
}

// Names returns the resource names of l, sorted.
func (l ResourceList) Names() []ResourceName {
	out := make([]ResourceName, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Equal reports whether l and o hold the same names with equal values.
func (l ResourceList) Equal(o ResourceList) bool {
	if len(l) != len(o) {
		return false
	}
	for k, v := range l {
		w, ok := o[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}
