package preemption_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// benchFile is a benchmark cluster read from a file: the bound pods'
// snapshot, the pending pod and the budgets.
type benchFile struct {
	c    *scheduling.Cluster
	pod  *api.Pod
	pdbs []*api.PodDisruptionBudget
}

// loadBenchFile reads {"nodes": [...], "pods": [...], "pdbs": [...],
// "pod": {...}}, plain or gzip-compressed (recognised by gzip's magic
// bytes), and builds the default-profile snapshot.
func loadBenchFile(path string) (*benchFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	var in struct {
		Nodes []*api.Node                `json:"nodes"`
		Pods  []*api.Pod                 `json:"pods"`
		PDBs  []*api.PodDisruptionBudget `json:"pdbs"`
		Pod   *api.Pod                   `json:"pod"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if in.Pod == nil {
		return nil, fmt.Errorf("%s: no \"pod\"", path)
	}
	c, err := scheduling.NewCluster(in.Nodes, in.Pods, scheduling.Config{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &benchFile{c: c, pod: in.Pod, pdbs: in.PDBs}, nil
}

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
	path := os.Getenv("PODSEM_BENCH_CLUSTER")
	if path == "" {
		b.Skip("PODSEM_BENCH_CLUSTER is not set")
	}
	f, err := loadBenchFile(path)
	if err != nil {
		b.Fatal(err)
	}
	cy := f.c.NewCycle(f.pod)
	var d scheduling.Decision
	if len(cy.Decide(&d).Feasible()) != 0 {
		b.Fatalf("the pod fits on %d nodes: nothing to preempt", len(d.Feasible()))
	}
	run := func(cfg preemption.Config) func(b *testing.B) {
		return func(b *testing.B) {
			r := preemption.Preempt(cy, &d, f.pdbs, cfg, benchNow)
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
				preemption.Preempt(cy, &d, f.pdbs, cfg, benchNow)
			}
			reportCPU(b, start)
		}
	}
	b.Run("file", run(preemption.Config{}))
	b.Run("file-exhaustive", run(preemption.Config{MinCandidateNodesPercentage: 100}))
}
