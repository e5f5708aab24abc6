package scheduling

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/benchdata"
)

// benchClusterFile reads the cluster named by PODSEM_BENCH_CLUSTER
// (benchdata.FromEnv); ok is false when the variable is unset.
func benchClusterFile(b *testing.B) (nodes []*api.Node, pods []*api.Pod, pod *api.Pod, ok bool) {
	f, ok, err := benchdata.FromEnv()
	if err != nil {
		b.Fatal(err)
	}
	if !ok {
		return nil, nil, nil, false
	}
	return f.Nodes, f.Pods, f.Pod, true
}

// BenchmarkScheduleOne times one full default-profile decision as
// kube-scheduler makes it (Scheduler.ScheduleOne: PreFilter, Filter from
// start index 0 until numFeasibleNodesToFind nodes fit, PreScore, Score,
// NormalizeScore, selectHost) for the pod of the cluster named by
// PODSEM_BENCH_CLUSTER (sub-benchmark "file", skipped when unset), with the
// adaptive percentageOfNodesToScore, into a reused Decision.
func BenchmarkScheduleOne(b *testing.B) {
	nodes, pods, pod, ok := benchClusterFile(b)
	if !ok {
		b.Skip("PODSEM_BENCH_CLUSTER is not set")
	}
	c, err := NewCluster(nodes, pods, Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("file", func(b *testing.B) {
		var d Decision
		s := Scheduler{}
		if _, err := s.ScheduleOne(c.NewCycle(pod), &d); err != nil {
			b.Fatal(err)
		}
		if _, ok := d.Chosen(); !ok {
			b.Fatal("no node chosen:", d.Message())
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			s := Scheduler{}
			s.ScheduleOne(c.NewCycle(pod), &d)
		}
		b.ReportMetric(float64(len(d.Evaluated())), "evaluated")
	})
	b.Run("file-cold", func(b *testing.B) { benchScheduleOneCold(b, nodes, pods, pod) })
}

// BenchmarkScheduleBatch places 1,000 copies of the file's pod (batch-0 …
// batch-999) one after another: each is decided by ScheduleOne, the start
// index rotating as upstream rotates it, and bound into the snapshot
// (AddPod with spec.nodeName) before the next. The snapshot is rebuilt
// outside the timer for every run of the batch. It reports pods/s.
func BenchmarkScheduleBatch(b *testing.B) {
	nodes, pods, pod, ok := benchClusterFile(b)
	if !ok {
		b.Skip("PODSEM_BENCH_CLUSTER is not set")
	}
	const batch = 1000
	copies := make([]*api.Pod, batch)
	for i := range copies {
		p := *pod
		p.Name = fmt.Sprintf("batch-%d", i)
		p.UID = fmt.Sprintf("batch-%d", i)
		copies[i] = &p
	}
	b.Run("file", func(b *testing.B) {
		b.ReportAllocs()
		placed := 0
		for b.Loop() {
			b.StopTimer()
			c, err := NewCluster(nodes, pods, Config{})
			if err != nil {
				b.Fatal(err)
			}
			bound := make([]api.Pod, batch)
			// The garbage of the snapshot built for the previous run is
			// collected now, not charged to this one.
			runtime.GC()
			b.StartTimer()
			var d Decision
			s := Scheduler{}
			for i, p := range copies {
				if _, err := s.ScheduleOne(c.NewCycle(p), &d); err != nil {
					b.Fatal(err)
				}
				n, ok := d.Chosen()
				if !ok {
					continue
				}
				bound[i] = *p
				bound[i].Spec.NodeName = c.NodeAt(n).Name()
				if err := c.AddPod(&bound[i]); err != nil {
					b.Fatal(err)
				}
				placed++
			}
		}
		b.ReportMetric(float64(placed)/b.Elapsed().Seconds(), "pods/s")
	})
}

// benchScheduleOneCold times the first decision a simulation makes: the
// first ScheduleOne on a snapshot just built from the file.
//
// Not timed, in every iteration: NewCluster from the decoded objects (the
// snapshot's build, which a simulation pays once when it starts; the build
// of the first iteration is reported as "build-ms"), then a garbage
// collection, so that the previous snapshot's garbage is not charged to
// this decision.
//
// Timed: NewCycle and ScheduleOne with a new Scheduler into a new
// Decision, everything that first decision needs that the build did not
// make: indexes, caches and per-node precomputation built on first use
// (PodTopologySpread's topology domains and selector counts, the node
// tree's walk order, the Decision's buffers) are inside the timer. The pod
// may fit nowhere (as in preempt-5k): the decision then ends with every
// node rejected, and is timed all the same.
//
// Besides ns/op it reports the fastest iteration ("min-ns") and, where the
// platform tells, the process CPU time per decision ("cpu-ns/op"): a
// decision this short is often interrupted on a shared machine.
func benchScheduleOneCold(b *testing.B, nodes []*api.Node, pods []*api.Pod, pod *api.Pod) {
	b.ReportAllocs()
	var build, cpu, fastest time.Duration
	evaluated := 0
	for b.Loop() {
		b.StopTimer()
		start := time.Now()
		c, err := NewCluster(nodes, pods, Config{})
		if err != nil {
			b.Fatal(err)
		}
		if build == 0 {
			build = time.Since(start)
		}
		runtime.GC()
		cpu0 := processCPUTime()
		start = time.Now()
		b.StartTimer()
		var d Decision
		s := Scheduler{}
		if _, err := s.ScheduleOne(c.NewCycle(pod), &d); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if t := time.Since(start); fastest == 0 || t < fastest {
			fastest = t
		}
		cpu += processCPUTime() - cpu0
		evaluated = len(d.Evaluated())
		b.StartTimer()
	}
	b.ReportMetric(float64(evaluated), "evaluated")
	b.ReportMetric(float64(build.Microseconds())/1000, "build-ms")
	b.ReportMetric(float64(fastest.Nanoseconds()), "min-ns")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
