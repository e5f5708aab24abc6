package api

import "strconv"

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

// ContainerKind says which list of the pod spec a container comes from and,
// for an init container, whether it is a sidecar. The kind decides how the
// kubelet starts, restarts and stops the container.
type ContainerKind uint8

// The container kinds.
const (
	// ContainerKindRegular is an entry of spec.containers (an app
	// container).
	ContainerKindRegular ContainerKind = iota
	// ContainerKindInit is an entry of spec.initContainers without
	// restartPolicy Always: it runs to completion before the next one
	// starts.
	ContainerKindInit
	// ContainerKindSidecar is an entry of spec.initContainers with
	// restartPolicy Always (a restartable init container, KEP-753): it is
	// started in init order and keeps running beside the app containers.
	ContainerKindSidecar
	// ContainerKindEphemeral is an entry of spec.ephemeralContainers, a
	// debugging container the kubelet never restarts.
	ContainerKindEphemeral
)

// String returns "container", "init container", "sidecar container" or
// "ephemeral container".
func (k ContainerKind) String() string {
	switch k {
	case ContainerKindRegular:
		return "container"
	case ContainerKindInit:
		return "init container"
	case ContainerKindSidecar:
		return "sidecar container"
	case ContainerKindEphemeral:
		return "ephemeral container"
	}
	return "ContainerKind(" + strconv.Itoa(int(k)) + ")"
}

// InitContainerKind is the kind of c as an entry of spec.initContainers:
// ContainerKindSidecar when its restartPolicy is Always, else
// ContainerKindInit. A nil c is a plain init container.
func InitContainerKind(c *Container) ContainerKind {
	if c != nil && c.IsSidecar() {
		return ContainerKindSidecar
	}
	return ContainerKindInit
}

// ContainerRef is where a container sits in its pod's spec: the container,
// its kind and its index in its list (spec.initContainers for init and
// sidecar containers).
type ContainerRef struct {
	Container *Container
	Kind      ContainerKind
	Index     int
}

// Path is the field path of the container, e.g. spec.initContainers[1].
// The zero ContainerRef gives spec.containers[0].
func (r ContainerRef) Path() Path {
	list := "containers"
	switch r.Kind {
	case ContainerKindInit, ContainerKindSidecar:
		list = "initContainers"
	case ContainerKindEphemeral:
		list = "ephemeralContainers"
	}
	return NewPath("spec", list).Index(r.Index)
}

// FindContainer looks the container name up in the spec, in the order of
// the kubelet's GetContainerSpec (pkg/kubelet/container, which visits
// spec.initContainers, then spec.containers, then spec.ephemeralContainers):
// the first match wins. It is the one container lookup of podsem; it says
// which kind of container it found and where.
//
// API validation rejects a pod that repeats a container name across the
// three lists, so the order decides something only for a pod that would
// not have been admitted. ok is false when no container has that name or s
// is nil.
func (s *PodSpec) FindContainer(name string) (ref ContainerRef, ok bool) {
	if s == nil {
		return ContainerRef{}, false
	}
	for i := range s.InitContainers {
		if c := &s.InitContainers[i]; c.Name == name {
			return ContainerRef{Container: c, Kind: InitContainerKind(c), Index: i}, true
		}
	}
	for i := range s.Containers {
		if c := &s.Containers[i]; c.Name == name {
			return ContainerRef{Container: c, Kind: ContainerKindRegular, Index: i}, true
		}
	}
	for i := range s.EphemeralContainers {
		if c := &s.EphemeralContainers[i].Container; c.Name == name {
			return ContainerRef{Container: c, Kind: ContainerKindEphemeral, Index: i}, true
		}
	}
	return ContainerRef{}, false
}
