package nodepressure_test

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
	"pgregory.net/rapid"
)

// oracleLess restates the eviction manager's ranking over the explained
// numbers: negative when a goes first.
func oracleCompare(a, b nodepressure.EvictionRank) int {
	stats := func() int {
		if a.HasStats == b.HasStats {
			return 0
		}
		if !a.HasStats {
			return -1
		}
		return 1
	}
	prio := func() int {
		if a.Priority == b.Priority {
			return 0
		}
		if a.Priority < b.Priority {
			return -1
		}
		return 1
	}
	if a.Measure == nodepressure.MeasureProcesses {
		if c := prio(); c != 0 {
			return c
		}
		if c := stats(); c != 0 || !a.HasStats {
			return c
		}
		return b.Usage.Cmp(a.Usage)
	}
	if c := stats(); c != 0 {
		return c
	}
	if a.HasStats && a.ExceedsRequests != b.ExceedsRequests {
		if a.ExceedsRequests {
			return -1
		}
		return 1
	}
	if c := prio(); c != 0 || !a.HasStats {
		return c
	}
	return b.Overage.Cmp(a.Overage)
}

var allSignals = []nodepressure.Signal{
	nodepressure.SignalMemoryAvailable, nodepressure.SignalAllocatableMemoryAvailable, nodepressure.SignalPIDAvailable,
	nodepressure.SignalNodeFsAvailable, nodepressure.SignalNodeFsInodesFree, nodepressure.SignalImageFsAvailable,
	nodepressure.SignalImageFsInodesFree, nodepressure.SignalContainerFsAvailable, nodepressure.SignalContainerFsInodesFree,
}

// TestEvictionOrderProperty: the ranking is a total preorder (every
// adjacent pair is in order by the stated rules), the sequence of ranks
// does not depend on the input order, and pods the rules cannot tell
// apart keep their input order (up to 12 pods, where the kubelet's sort is
// an insertion sort).
func TestEvictionOrderProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 14).Draw(t, "pods")
		var pods []*api.Pod
		var stats []nodepressure.PodStats
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("p%d", i)
			mem := rapid.SampledFrom([]string{"", "64Mi", "256Mi", "1Gi"}).Draw(t, "mem")
			disk := rapid.SampledFrom([]string{"", "100Mi", "1Gi"}).Draw(t, "disk")
			p := epod(name, rapid.SampledFrom([]int32{-1, 0, 0, 100}).Draw(t, "prio"), mem, disk,
				api.Volume{Name: "v", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}})
			pods = append(pods, p)
			if rapid.IntRange(0, 5).Draw(t, "stats?") == 0 {
				continue
			}
			s := diskStats(name, uint64(rapid.IntRange(0, 4).Draw(t, "rootfs"))*256*mi, uint64(rapid.IntRange(0, 2).Draw(t, "logs"))*mi,
				map[string]uint64{"v": uint64(rapid.IntRange(0, 2).Draw(t, "vol")) * 512 * mi})
			s.Memory = &nodepressure.MemoryStats{WorkingSetBytes: u(uint64(rapid.IntRange(0, 8).Draw(t, "ws")) * 128 * mi)}
			s.ProcessStats = &nodepressure.ProcessStats{ProcessCount: u(uint64(rapid.IntRange(0, 5).Draw(t, "procs")))}
			stats = append(stats, s)
		}
		signal := rapid.SampledFrom(allSignals).Draw(t, "signal")
		layout := rapid.SampledFrom([]nodepressure.FilesystemLayout{nodepressure.LayoutShared, nodepressure.LayoutDedicatedImageFs, nodepressure.LayoutSplitImageFs}).Draw(t, "layout")
		byUID := nodepressure.StatsByUID(stats)
		a, err := nodepressure.RankForEviction(pods, byUID, signal, layout)
		if err != nil {
			t.Fatal(err)
		}
		shuffled := rapid.Permutation(pods).Draw(t, "permutation")
		b, err := nodepressure.RankForEviction(shuffled, byUID, signal, layout)
		if err != nil {
			t.Fatal(err)
		}
		inputPos := map[*api.Pod]int{}
		for i, p := range shuffled {
			inputPos[p] = i
		}
		for i := 1; i < len(b); i++ {
			c := oracleCompare(b[i-1], b[i])
			if c > 0 {
				t.Fatalf("%s ranked before %s: %s / %s", b[i-1].Pod.Name, b[i].Pod.Name, b[i-1].Reason(), b[i].Reason())
			}
			if c == 0 && len(b) <= 12 && inputPos[b[i-1].Pod] > inputPos[b[i].Pod] {
				t.Fatalf("equal pods %s and %s swapped", b[i-1].Pod.Name, b[i].Pod.Name)
			}
		}
		for i := range a {
			if oracleCompare(a[i], b[i]) != 0 {
				t.Fatalf("position %d depends on input order: %s (%s) vs %s (%s)", i, a[i].Pod.Name, a[i].Reason(), b[i].Pod.Name, b[i].Reason())
			}
		}
	})
}
