package preemption_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/internal/benchdata"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// benchNow is the time pods without status.startTime count as started in
// the file benchmarks.
var benchNow = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// BenchmarkPreempt times the DefaultPreemption PostFilter alone on the
// cluster in the file named by PODSEM_BENCH_CLUSTER (skipped when unset),
// as upstream's harness times RunPostFilterPlugins: the scheduling cycle
// that finds no node for the pod (NewCycle, Decide) runs once, untimed,
// and every iteration is one Preempt on it with the file's budgets.
//
//   - file: the default configuration (the dry run stops after 10% of the
//     potential nodes, at least 100), starting at the first potential node;
//   - file-exhaustive: every potential node is dry-run
//     (MinCandidateNodesPercentage 100).
//
// Besides wall time each reports cpu-ns/op, the process's CPU time per
// iteration (getrusage), which a loaded machine swells far less.
func BenchmarkPreempt(b *testing.B) {
	f, ok, err := benchdata.FromEnv()
	if !ok {
		b.Skip(benchdata.EnvVar + " is not set")
	}
	if err != nil {
		b.Fatal(err)
	}
	c, err := scheduling.NewCluster(f.Nodes, f.Pods, scheduling.Config{})
	if err != nil {
		b.Fatal(err)
	}
	cy := c.NewCycle(f.Pod)
	var d scheduling.Decision
	if len(cy.Decide(&d).Feasible()) != 0 {
		b.Fatalf("the pod fits on %d nodes: nothing to preempt", len(d.Feasible()))
	}
	run := func(cfg preemption.Config) func(b *testing.B) {
		return func(b *testing.B) {
			r := preemption.Preempt(cy, &d, f.PDBs, cfg, benchNow)
			if r.Node == "" {
				b.Fatalf("no node chosen: %s", r.Message)
			}
			evaluated := 0
			for _, n := range r.Nodes {
				if n.Evaluated {
					evaluated++
				}
			}
			b.Logf("%d nodes dry-run, %d candidates, nominated %s, %d victims", evaluated, len(r.Candidates), r.Node, len(r.Victims))
			b.ReportAllocs()
			b.ResetTimer()
			start := cpuTime()
			for b.Loop() {
				preemption.Preempt(cy, &d, f.PDBs, cfg, benchNow)
			}
			reportCPU(b, start)
		}
	}
	b.Run("file", run(preemption.Config{}))
	b.Run("file-exhaustive", run(preemption.Config{MinCandidateNodesPercentage: 100}))
}
