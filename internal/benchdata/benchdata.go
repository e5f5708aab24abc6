// Package benchdata reads the benchmark cluster files the file benchmarks
// of scheduling and preemption run on (this directory's spread-5k and
// preempt-5k, or any file of the same shape named by PODSEM_BENCH_CLUSTER).
package benchdata

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/podsem/podsem/api"
)

// EnvVar names the environment variable that points the file benchmarks at
// a cluster file; they skip their "file" sub-benchmarks when it is unset.
const EnvVar = "PODSEM_BENCH_CLUSTER"

// Cluster is one benchmark cluster: the bound pods, the nodes, the
// PodDisruptionBudgets (preempt-5k only) and the pending pod the timed
// decision is about.
type Cluster struct {
	Nodes []*api.Node                `json:"nodes"`
	Pods  []*api.Pod                 `json:"pods"`
	PDBs  []*api.PodDisruptionBudget `json:"pdbs"`
	Pod   *api.Pod                   `json:"pod"`
}

// Load reads the cluster file at path, plain JSON or gzip-compressed
// (recognised by gzip's magic bytes). A file without a "pod" is an error.
func Load(path string) (*Cluster, error) {
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
	var c Cluster
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.Pod == nil {
		return nil, fmt.Errorf("%s: no \"pod\"", path)
	}
	return &c, nil
}

// FromEnv loads the file named by EnvVar; ok is false when it is unset.
func FromEnv() (c *Cluster, ok bool, err error) {
	path := os.Getenv(EnvVar)
	if path == "" {
		return nil, false, nil
	}
	c, err = Load(path)
	return c, true, err
}
