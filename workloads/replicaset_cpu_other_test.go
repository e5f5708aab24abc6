//go:build !unix

package workloads

import (
	"testing"
	"time"
)

// processCPU is not measured here: the benchmarks report 0 CPU ns/op.
func processCPU(testing.TB) time.Duration { return 0 }
