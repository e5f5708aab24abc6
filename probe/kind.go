package probe

import (
	"fmt"

	"github.com/podsem/podsem/lifecycle"
)

// Kind is which of a container's three probes a worker runs: liveness
// (failure kills the container), readiness (gates the Ready condition and
// Service endpoints) or startup (gates the other two until the application
// has started). It is lifecycle.ProbeKind, so a worker's kind is the kind
// the pod state machine's probe events carry; its zero value is no kind.
type Kind = lifecycle.ProbeKind

// The probe kinds.
const (
	Liveness  = lifecycle.Liveness
	Readiness = lifecycle.Readiness
	Startup   = lifecycle.Startup
)

// ParseKind reads "liveness", "readiness" or "startup".
func ParseKind(s string) (Kind, error) {
	if k, ok := lifecycle.ParseProbeKind(s); ok {
		return k, nil
	}
	return 0, fmt.Errorf("%w: probe kind %q (want liveness, readiness or startup)", ErrInvalid, s)
}

// initialResult is the value the kubelet caches for a container the moment
// its worker first sees the container's ID, before any probe has run:
// readiness starts as failure (not ready), liveness as success (alive) and
// startup as unknown (not started yet).
func initialResult(k Kind) Result {
	switch k {
	case Readiness:
		return ResultFailure
	case Liveness:
		return ResultSuccess
	}
	return ResultUnknown
}
