package proptest

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// CheckPhaseSequence checks the guarantee that a pod's phase never moves
// backwards: statuses are successive statuses of one pod, oldest first, as
// a component reported or stored them, and every step from one phase to
// the next must be one lifecycle.ValidPhaseTransition allows — forward
// along Pending, Running, Succeeded or Failed, through Unknown only
// forward, never out of Succeeded or Failed (the pod lifecycle's rule,
// which the kubelet's status manager and the API server's status
// validation enforce).
//
// The error wraps ErrViolation and lifecycle's error (ErrPhaseRegression,
// ErrTerminalPhase, ErrInvalidPhase) and names the step. Fewer than two
// statuses cannot break it.
func CheckPhaseSequence(statuses []api.PodStatus) error {
	for i := 1; i < len(statuses); i++ {
		if err := lifecycle.ValidPhaseTransition(statuses[i-1].Phase, statuses[i].Phase); err != nil {
			return fmt.Errorf("%w: status %d to %d: %w", ErrViolation, i-1, i, err)
		}
	}
	return nil
}
