package cluster_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/cluster"
)

var update = flag.Bool("update", false, "rewrite the golden event logs in testdata/")

var t0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// runFile runs testdata/<name>.json and returns its event log as JSON
// lines.
func runFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := cluster.ParseScenario(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cluster.Run(sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := cluster.WriteJSON(&buf, res.Records); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGolden replays each scenario of testdata/ and compares its event log
// with testdata/<name>.golden.jsonl (rewritten with -update; read the diff
// before committing it).
//
// deployment-replace: a Deployment of 3 replicas on 2 nodes. At t=0 the
// Deployment controller creates its ReplicaSet (ScalingReplicaSet), the
// ReplicaSet controller 3 pods (SuccessfulCreate), kube-scheduler binds
// them (Scheduled: node-1, node-2, node-1, NodeResourcesFit's
// LeastAllocated spreading them); each kubelet reports ContainerCreating,
// and at 1 s the runtime model starts the containers (Pulled, Created,
// Started), ready at once (no readiness probe): Running, 3/3 available.
// At 30 s `delete` of one pod: the API server marks it (grace 30 s), the
// ReplicaSet controller sees it terminating and creates a replacement at
// once, the kubelet kills the container (Killing), which exits 143: the pod
// is Failed and the kubelet deletes it with grace 0. The replacement runs
// at 31 s.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			got := runFile(t, name)
			golden := filepath.Join("testdata", name+".golden.jsonl")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("line %d:\n got  %s\n want %s\n(go test -run TestGolden -update rewrites it)", i+1, g, w)
					}
				}
			}
		})
	}
}

// TestDeterministic runs each scenario several times: the same input gives
// a byte-identical event log (Go's map order changes from run to run, so a
// map walked in its own order would show here).
func TestDeterministic(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		first := runFile(t, name)
		for i := 0; i < 5; i++ {
			if got := runFile(t, name); !bytes.Equal(got, first) {
				t.Fatalf("%s: run %d differs from the first", name, i+2)
			}
		}
	}
}
