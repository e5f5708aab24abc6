package api

// ContainerStatusByName returns the entry of list reporting the container
// name, or nil.
func ContainerStatusByName(list []ContainerStatus, name string) *ContainerStatus {
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// FindContainerStatus returns the status the pod reports for the container
// name: status.containerStatuses first, then status.initContainerStatuses,
// then status.ephemeralContainerStatuses (the order the kubelet's status
// lookups use). It returns nil when none is reported or s is nil.
func (s *PodStatus) FindContainerStatus(name string) *ContainerStatus {
	if s == nil {
		return nil
	}
	if cs := ContainerStatusByName(s.ContainerStatuses, name); cs != nil {
		return cs
	}
	if cs := ContainerStatusByName(s.InitContainerStatuses, name); cs != nil {
		return cs
	}
	return ContainerStatusByName(s.EphemeralContainerStatuses, name)
}

// FindContainer returns the container name as the kubelet's
// GetContainerSpec finds it: the init containers first, then the app
// containers, then the ephemeral containers, first match wins (the order
// shows only in a pod that repeats a name, which validation rejects). It
// returns nil when there is none or s is nil.
func (s *PodSpec) FindContainer(name string) *Container {
	if s == nil {
		return nil
	}
	for i := range s.InitContainers {
		if s.InitContainers[i].Name == name {
			return &s.InitContainers[i]
		}
	}
	for i := range s.Containers {
		if s.Containers[i].Name == name {
			return &s.Containers[i]
		}
	}
	for i := range s.EphemeralContainers {
		if s.EphemeralContainers[i].Name == name {
			return &s.EphemeralContainers[i].Container
		}
	}
	return nil
}
