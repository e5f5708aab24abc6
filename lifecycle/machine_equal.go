package lifecycle

import (
	"reflect"

	"github.com/podsem/podsem/api"
)

// sameStatus reports whether two pod statuses are equal exactly as
// reflect.DeepEqual says (nil and empty slices differ, pointers are
// followed), but compares the fields the Machine rewrites on every step —
// phase, conditions, container statuses — directly, so that the usual
// case, a step that changes nothing or one field, does not walk the whole
// status by reflection. Comparable values equal under == are DeepEqual;
// when == says they differ, DeepEqual has the last word.
func sameStatus(a, b *api.PodStatus) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Phase != b.Phase || a.Message != b.Message ||
		a.Reason != b.Reason || a.NominatedNodeName != b.NominatedNodeName || a.HostIP != b.HostIP ||
		a.PodIP != b.PodIP || a.QOSClass != b.QOSClass || a.Resize != b.Resize {
		return false
	}
	if !sameConditions(a.Conditions, b.Conditions) ||
		!sameContainerStatuses(a.InitContainerStatuses, b.InitContainerStatuses) ||
		!sameContainerStatuses(a.ContainerStatuses, b.ContainerStatuses) ||
		!sameContainerStatuses(a.EphemeralContainerStatuses, b.EphemeralContainerStatuses) {
		return false
	}
	return reflect.DeepEqual(statusRestOf(a), statusRestOf(b))
}

// statusRest is the part of a status sameStatus leaves to reflection:
// fields the Machine copies from step to step rather than rebuilds.
type statusRest struct {
	HostIPs                              []api.HostIP
	PodIPs                               []api.PodIP
	StartTime                            *api.Time
	ResourceClaimStatuses                []api.PodResourceClaimStatus
	NodeAllocatableResourceClaimStatuses []api.NodeAllocatableResourceClaimStatus
	Resources                            *api.ResourceRequirements
	AllocatedResources                   api.ResourceList
}

func statusRestOf(s *api.PodStatus) statusRest {
	return statusRest{s.HostIPs, s.PodIPs, s.StartTime, s.ResourceClaimStatuses,
		s.NodeAllocatableResourceClaimStatuses, s.Resources, s.AllocatedResources}
}

func sameConditions(a, b []api.PodCondition) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true // one list
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if *x == *y {
			continue
		}
		// A field other than the times differs: not deeply equal either
		// (decided without reflect.DeepEqual's copies of both values).
		if x.Type != y.Type || x.Status != y.Status || x.ObservedGeneration != y.ObservedGeneration ||
			x.Reason != y.Reason || x.Message != y.Message || !reflect.DeepEqual(*x, *y) {
			return false
		}
	}
	return true
}

func sameContainerStatuses(a, b []api.ContainerStatus) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true // one list
	}
	for i := range a {
		if !sameContainerStatus(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// sameContainerStatus is reflect.DeepEqual on two container statuses.
func sameContainerStatus(x, y *api.ContainerStatus) bool {
	{
		if x.Name != y.Name || x.Ready != y.Ready || x.RestartCount != y.RestartCount || x.Image != y.Image ||
			x.ImageID != y.ImageID || x.ContainerID != y.ContainerID ||
			!sameState(&x.State, &y.State) || !sameState(&x.LastTerminationState, &y.LastTerminationState) ||
			!samePtr(x.Started, y.Started) || !samePtr(x.StopSignal, y.StopSignal) {
			return false
		}
		if !(x.AllocatedResources == nil && y.AllocatedResources == nil) && !reflect.DeepEqual(x.AllocatedResources, y.AllocatedResources) ||
			x.Resources != y.Resources && !reflect.DeepEqual(x.Resources, y.Resources) {
			return false
		}
	}
	return true
}

func sameState(a, b *api.ContainerState) bool {
	return samePtr(a.Waiting, b.Waiting) && samePtr(a.Running, b.Running) && samePtr(a.Terminated, b.Terminated)
}

// samePtr compares two pointers to comparable values as DeepEqual does.
func samePtr[T comparable](a, b *T) bool {
	switch {
	case a == b:
		return true
	case a == nil || b == nil:
		return false
	}
	return *a == *b || reflect.DeepEqual(*a, *b)
}
