package api

import "time"

// EarliestDeadline is the sooner of two next deadlines as podsem's state
// machines report them (NextDeadline: the zero time means none): the
// zero time only when both are zero. A composition that drives several
// machines, or a machine with several timers, wakes at it.
func EarliestDeadline(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}
