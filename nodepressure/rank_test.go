package nodepressure_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

func u(v uint64) *uint64 { return &v }

// epod is a pod with one container requesting memory and
// ephemeral-storage ("" for none) and the given volumes.
func epod(name string, prio int32, mem, disk string, vols ...api.Volume) *api.Pod {
	p := &api.Pod{}
	p.Name, p.Namespace, p.UID = name, "default", "uid-"+name
	p.Spec.Priority = &prio
	req := api.ResourceList{}
	if mem != "" {
		req[api.ResourceMemory] = api.MustParseQuantity(mem)
	}
	if disk != "" {
		req[api.ResourceEphemeralStorage] = api.MustParseQuantity(disk)
	}
	p.Spec.Containers = []api.Container{{Name: "app", Image: "busybox", Resources: api.ResourceRequirements{Requests: req}}}
	p.Spec.Volumes = vols
	return p
}

func memStats(name string, ws uint64) nodepressure.PodStats {
	return nodepressure.PodStats{PodRef: nodepressure.PodReference{Name: name, Namespace: "default", UID: "uid-" + name},
		Memory: &nodepressure.MemoryStats{WorkingSetBytes: u(ws)}}
}

func diskStats(name string, rootfs, logs uint64, vols map[string]uint64) nodepressure.PodStats {
	s := nodepressure.PodStats{PodRef: nodepressure.PodReference{Name: name, Namespace: "default", UID: "uid-" + name},
		Containers: []nodepressure.ContainerStats{{Name: "app",
			Rootfs: &nodepressure.FsStats{UsedBytes: u(rootfs), InodesUsed: u(rootfs / 1000)},
			Logs:   &nodepressure.FsStats{UsedBytes: u(logs), InodesUsed: u(logs / 1000)}}}}
	for n, b := range vols {
		s.VolumeStats = append(s.VolumeStats, nodepressure.VolumeStats{Name: n, FsStats: nodepressure.FsStats{UsedBytes: u(b), InodesUsed: u(b / 1000)}})
	}
	return s
}

const mi = 1 << 20

func TestEvictionOrder(t *testing.T) {
	emptyDir := api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}}
	memDir := api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{Medium: api.StorageMediumMemory}}}
	secret := api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{Secret: &api.SecretVolumeSource{}}}
	configMap := api.Volume{Name: "scratch", VolumeSource: api.VolumeSource{ConfigMap: &api.ConfigMapVolumeSource{}}}

	podLevel := epod("pod-level", 0, "10Mi", "")
	podLevel.Spec.Resources = &api.ResourceRequirements{Requests: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}}
	overhead := epod("overhead", 0, "", "")
	overhead.Spec.Overhead = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}
	withOverhead := epod("with-overhead", 0, "100Mi", "")
	withOverhead.Spec.Overhead = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi")}

	procs := func(name string, n uint64) nodepressure.PodStats {
		return nodepressure.PodStats{PodRef: nodepressure.PodReference{UID: "uid-" + name}, ProcessStats: &nodepressure.ProcessStats{ProcessCount: u(n)}}
	}

	tests := []struct {
		name   string
		signal nodepressure.Signal
		layout nodepressure.FilesystemLayout
		pods   []*api.Pod
		stats  []nodepressure.PodStats
		want   []string
	}{{
		name:   "memory: exceeding requests first, then priority, then overage",
		signal: nodepressure.SignalMemoryAvailable,
		pods: []*api.Pod{epod("guaranteed", 0, "1Gi", ""), epod("burstable-under", 0, "500Mi", ""),
			epod("burstable-over", 1000, "100Mi", ""), epod("besteffort", 0, "", "")},
		stats: []nodepressure.PodStats{memStats("besteffort", 50*mi), memStats("burstable-over", 300*mi),
			memStats("burstable-under", 200*mi), memStats("guaranteed", 900*mi)},
		want: []string{"besteffort", "burstable-over", "guaranteed", "burstable-under"},
	}, {
		name:   "pods without stats go first",
		signal: nodepressure.SignalAllocatableMemoryAvailable,
		pods:   []*api.Pod{epod("measured", 0, "", ""), epod("unmeasured", 1000, "1Gi", "")},
		stats:  []nodepressure.PodStats{memStats("measured", 900*mi)},
		want:   []string{"unmeasured", "measured"},
	}, {
		name:   "pod-level requests replace container requests",
		signal: nodepressure.SignalMemoryAvailable,
		pods:   []*api.Pod{podLevel, epod("plain", 0, "10Mi", "")},
		stats:  []nodepressure.PodStats{memStats("pod-level", 500*mi), memStats("plain", 100*mi)},
		want:   []string{"plain", "pod-level"},
	}, {
		name:   "overhead is added only to a non-zero request",
		signal: nodepressure.SignalMemoryAvailable,
		pods:   []*api.Pod{withOverhead, overhead},
		stats:  []nodepressure.PodStats{memStats("overhead", 500*mi), memStats("with-overhead", 500*mi)},
		want:   []string{"overhead", "with-overhead"},
	}, {
		name:   "pid: priority, then more processes",
		signal: nodepressure.SignalPIDAvailable,
		pods:   []*api.Pod{epod("few", 0, "", ""), epod("many", 0, "", ""), epod("low", -5, "", ""), epod("unknown", 0, "", "")},
		stats:  []nodepressure.PodStats{procs("few", 3), procs("many", 300), procs("low", 1)},
		want:   []string{"low", "unknown", "many", "few"},
	}, {
		name:   "shared nodefs counts writable layers, logs and local volumes",
		signal: nodepressure.SignalNodeFsAvailable,
		pods:   []*api.Pod{epod("rootfs", 0, "", "", emptyDir), epod("logs", 0, "", "", emptyDir), epod("volume", 0, "", "", emptyDir)},
		stats: []nodepressure.PodStats{diskStats("rootfs", 300*mi, 0, nil), diskStats("logs", 0, 200*mi, nil),
			diskStats("volume", 0, 0, map[string]uint64{"scratch": 400 * mi})},
		want: []string{"volume", "rootfs", "logs"},
	}, {
		name:   "dedicated imagefs: nodefs ignores writable layers",
		signal: nodepressure.SignalNodeFsAvailable, layout: nodepressure.LayoutDedicatedImageFs,
		pods:  []*api.Pod{epod("rootfs", 0, "", ""), epod("logs", 0, "", "")},
		stats: []nodepressure.PodStats{diskStats("rootfs", 900*mi, 0, nil), diskStats("logs", 0, 1*mi, nil)},
		want:  []string{"logs", "rootfs"},
	}, {
		name:   "dedicated imagefs: imagefs counts only writable layers",
		signal: nodepressure.SignalImageFsAvailable, layout: nodepressure.LayoutDedicatedImageFs,
		pods:  []*api.Pod{epod("logs", 0, "", ""), epod("rootfs", 0, "", "")},
		stats: []nodepressure.PodStats{diskStats("rootfs", 1*mi, 0, nil), diskStats("logs", 0, 900*mi, nil)},
		want:  []string{"rootfs", "logs"},
	}, {
		name:   "split image and container filesystems: imagefs counts nothing",
		signal: nodepressure.SignalImageFsAvailable, layout: nodepressure.LayoutSplitImageFs,
		pods:  []*api.Pod{epod("big", 0, "", "1Gi"), epod("small", 0, "", "10Mi")},
		stats: []nodepressure.PodStats{diskStats("big", 900*mi, 900*mi, nil), diskStats("small", 0, 0, nil)},
		want:  []string{"small", "big"},
	}, {
		name:   "memory-backed emptyDir and secrets are not local storage, configMaps are",
		signal: nodepressure.SignalNodeFsAvailable,
		pods:   []*api.Pod{epod("memdir", 0, "", "", memDir), epod("secret", 0, "", "", secret), epod("configmap", 0, "", "", configMap)},
		stats: []nodepressure.PodStats{diskStats("memdir", 1*mi, 0, map[string]uint64{"scratch": 900 * mi}),
			diskStats("secret", 2*mi, 0, map[string]uint64{"scratch": 900 * mi}),
			diskStats("configmap", 0, 0, map[string]uint64{"scratch": 10 * mi})},
		want: []string{"configmap", "secret", "memdir"},
	}, {
		name:   "inode signals compare with a zero inode request and subtract the storage request",
		signal: nodepressure.SignalNodeFsInodesFree,
		pods:   []*api.Pod{epod("reserved", 0, "", "1Gi"), epod("unreserved", 0, "", ""), epod("none", 0, "", "")},
		stats:  []nodepressure.PodStats{diskStats("reserved", 100*mi, 0, nil), diskStats("unreserved", 1*mi, 0, nil), diskStats("none", 0, 0, nil)},
		want:   []string{"unreserved", "reserved", "none"},
	}, {
		// Regression (differential test against the kubelet): each reading
		// becomes a signed 64-bit count, but readings add up exactly. Two
		// 2^62 readings make 2^63, larger than anything, not a wrapped
		// negative total; a single 2^64-1 reading counts as -1.
		name:   "disk usage totals do not wrap; a reading past int64 counts as negative",
		signal: nodepressure.SignalNodeFsAvailable,
		pods:   []*api.Pod{epod("minus-one", 0, "", ""), epod("small", 0, "", ""), epod("none", 0, "", ""), epod("huge", 0, "", "")},
		stats: []nodepressure.PodStats{diskStats("minus-one", 1<<64-1, 0, nil), diskStats("small", 1*mi, 0, nil),
			diskStats("none", 0, 0, nil), diskStats("huge", 1<<62, 1<<62, nil)},
		want: []string{"huge", "small", "none", "minus-one"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			order, err := nodepressure.EvictionOrder(tt.pods, nodepressure.StatsByUID(tt.stats), tt.signal, tt.layout)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(order); !slices.Equal(got, tt.want) {
				t.Errorf("order = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEvictionOrderErrors(t *testing.T) {
	if _, err := nodepressure.EvictionOrder(nil, nil, "cpu.available", nodepressure.LayoutShared); !errors.Is(err, nodepressure.ErrUnknownSignal) {
		t.Errorf("unknown signal: err = %v", err)
	}
	if _, err := nodepressure.EvictionOrder(nil, nil, nodepressure.SignalNodeFsAvailable, "raid"); !errors.Is(err, nodepressure.ErrUnknownLayout) {
		t.Errorf("unknown layout: err = %v", err)
	}
	if _, err := nodepressure.EvictionOrder([]*api.Pod{nil}, nil, nodepressure.SignalMemoryAvailable, ""); err == nil {
		t.Error("nil pod accepted")
	}
}
