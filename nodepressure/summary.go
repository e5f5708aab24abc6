package nodepressure

import "github.com/podsem/podsem/api"

// Summary is the kubelet Summary API's answer (stats/v1alpha1 Summary,
// GET /stats/summary) with the fields the eviction manager reads: the
// node's own statistics and one entry per pod. It decodes from the
// Summary API's JSON.
type Summary struct {
	Node NodeStats  `json:"node"`
	Pods []PodStats `json:"pods,omitempty"`
}

// NodeStats is the node part of a Summary.
type NodeStats struct {
	NodeName string `json:"nodeName"`
	// SystemContainers are the node's system cgroups; the one named
	// SystemContainerPods (the cgroup all pods run under) gives
	// allocatableMemory.available.
	SystemContainers []ContainerStats `json:"systemContainers,omitempty"`
	// Memory gives memory.available.
	Memory *MemoryStats `json:"memory,omitempty"`
	// Fs is the node (root) filesystem: nodefs.available and
	// nodefs.inodesFree.
	Fs *FsStats `json:"fs,omitempty"`
	// Runtime holds the container runtime's filesystems.
	Runtime *RuntimeStats `json:"runtime,omitempty"`
	// Rlimit gives pid.available.
	Rlimit *RlimitStats `json:"rlimit,omitempty"`
}

// SystemContainerPods is the name of the system container whose memory
// statistics are those of the pods' cgroup (stats/v1alpha1).
const SystemContainerPods = "pods"

// RuntimeStats is the container runtime's filesystems: ImageFs holds the
// images (imagefs.*), ContainerFs the writable layers (containerfs.*) when
// the runtime reports it separately.
type RuntimeStats struct {
	ImageFs     *FsStats `json:"imageFs,omitempty"`
	ContainerFs *FsStats `json:"containerFs,omitempty"`
}

// RlimitStats is the node's process-ID limit and use: pid.available is
// MaxPID minus NumOfRunningProcesses.
type RlimitStats struct {
	Time                  api.Time `json:"time,omitzero"`
	MaxPID                *int64   `json:"maxpid,omitempty"`
	NumOfRunningProcesses *int64   `json:"curproc,omitempty"`
}
