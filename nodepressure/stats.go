package nodepressure

import "github.com/podsem/podsem/api"

// PodStats is one pod's entry of the kubelet Summary API
// (stats/v1alpha1 PodStats), with the fields the eviction manager reads.
// It decodes from the Summary API's JSON.
type PodStats struct {
	PodRef       PodReference     `json:"podRef"`
	Containers   []ContainerStats `json:"containers,omitempty"`
	Memory       *MemoryStats     `json:"memory,omitempty"`
	VolumeStats  []VolumeStats    `json:"volume,omitempty"`
	ProcessStats *ProcessStats    `json:"process_stats,omitempty"`
}

// PodReference identifies the pod a PodStats entry belongs to; the
// eviction manager matches entries to pods by UID only.
type PodReference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	UID       string `json:"uid"`
}

// ContainerStats is one container's usage: its writable layer (rootfs)
// and its logs.
type ContainerStats struct {
	Name   string       `json:"name"`
	Rootfs *FsStats     `json:"rootfs,omitempty"`
	Logs   *FsStats     `json:"logs,omitempty"`
	Memory *MemoryStats `json:"memory,omitempty"`
}

// FsStats is filesystem usage in bytes and inodes; a nil field is
// unknown and counts as 0. Time is when the numbers were read.
type FsStats struct {
	Time           api.Time `json:"time,omitzero"`
	AvailableBytes *uint64  `json:"availableBytes,omitempty"`
	CapacityBytes  *uint64  `json:"capacityBytes,omitempty"`
	UsedBytes      *uint64  `json:"usedBytes,omitempty"`
	InodesFree     *uint64  `json:"inodesFree,omitempty"`
	Inodes         *uint64  `json:"inodes,omitempty"`
	InodesUsed     *uint64  `json:"inodesUsed,omitempty"`
}

// MemoryStats is memory usage; the eviction manager ranks by the working
// set. Time is when the numbers were read.
type MemoryStats struct {
	Time            api.Time `json:"time,omitzero"`
	AvailableBytes  *uint64  `json:"availableBytes,omitempty"`
	UsageBytes      *uint64  `json:"usageBytes,omitempty"`
	WorkingSetBytes *uint64  `json:"workingSetBytes,omitempty"`
	RSSBytes        *uint64  `json:"rssBytes,omitempty"`
}

// ProcessStats is the pod's process count.
type ProcessStats struct {
	ProcessCount *uint64 `json:"process_count,omitempty"`
}

// VolumeStats is one volume's usage, named as in the pod's spec.volumes.
type VolumeStats struct {
	FsStats
	Name string `json:"name,omitempty"`
}

// StatsByUID indexes Summary API entries by podRef.uid, as the eviction
// manager's cachedStatsFunc does (a later entry with the same UID wins). A
// nil list gives an empty map.
func StatsByUID(stats []PodStats) map[string]PodStats {
	m := make(map[string]PodStats, len(stats))
	for _, s := range stats {
		m[s.PodRef.UID] = s
	}
	return m
}

func u64(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}
