package preemption_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/benchdata"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// BenchmarkLoop times the whole scheduling loop of the default profile
// (preemption.NewLoop: DefaultPreemption wired as the PostFilter) on the
// cluster in the file named by PODSEM_BENCH_CLUSTER (skipped when unset):
// 1,000 copies of the file's pod are added (PodAdded) and ticked through
// one by one (Tick), each popped, decided by ScheduleOne, then bound into
// the loop's snapshot or, when it fits nowhere, handed to DefaultPreemption
// and requeued with its actions. The snapshot is rebuilt outside the timer
// for every run of the batch. On spread-5k every copy is bound (compare
// with the scheduling package's ScheduleBatch/file, the same batch without
// the loop); on preempt-5k every copy preempts. It reports pods/s.
func BenchmarkLoop(b *testing.B) {
	f, ok, err := benchdata.FromEnv()
	if !ok {
		b.Skip(benchdata.EnvVar + " is not set")
	}
	if err != nil {
		b.Fatal(err)
	}
	const batch = 1000
	copies := make([]*api.Pod, batch)
	for i := range copies {
		p := *f.Pod
		p.Name = fmt.Sprintf("batch-%d", i)
		p.UID = fmt.Sprintf("batch-%d", i)
		copies[i] = &p
	}
	b.Run("file", func(b *testing.B) {
		b.ReportAllocs()
		tried, bound := 0, 0
		for b.Loop() {
			b.StopTimer()
			c, err := scheduling.NewCluster(f.Nodes, f.Pods, scheduling.Config{})
			if err != nil {
				b.Fatal(err)
			}
			for _, pdb := range f.PDBs {
				if err := c.SetPodDisruptionBudget(pdb); err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			b.StartTimer()
			l, err := preemption.NewLoop(c, benchNow)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range copies {
				if _, err := l.Step(scheduling.PodAdded(p), benchNow); err != nil {
					b.Fatal(err)
				}
			}
			for range copies {
				res, err := l.Step(scheduling.Tick(), benchNow)
				if err != nil || res.Pod == nil {
					b.Fatal("nothing popped:", err)
				}
				tried++
				if res.Node != "" {
					bound++
				}
			}
		}
		b.ReportMetric(float64(tried)/b.Elapsed().Seconds(), "pods/s")
		b.ReportMetric(float64(bound)/float64(max(tried, 1)), "bound/pod")
	})
}
