//go:build !unix

package scheduling

import "time"

// processCPUTime is not measured on this platform (0).
func processCPUTime() time.Duration { return 0 }
