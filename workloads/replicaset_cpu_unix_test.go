//go:build unix

package workloads

import (
	"syscall"
	"testing"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used
// so far, every thread counted: on a loaded machine it measures a
// benchmark's work where the wall clock also counts the waits for a core.
func processCPU(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
