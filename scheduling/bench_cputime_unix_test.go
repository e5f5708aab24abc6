//go:build unix

package scheduling

import (
	"syscall"
	"time"
)

// processCPUTime returns the CPU time the process has used (user and
// system, all threads), for benchmarks whose timed part is short enough
// that a shared machine's scheduling shows in its wall time.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
