package probe

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// Kind is which of a container's three probes a worker runs: liveness
// (failure kills the container), readiness (gates the Ready condition and
// Service endpoints) or startup (gates the other two until the application
// has started). The names are the kubelet prober's probeType values.
type Kind uint8

// The probe kinds.
const (
	Liveness Kind = iota
	Readiness
	Startup
)

// String returns the kubelet's name for the kind: "liveness", "readiness"
// or "startup".
func (k Kind) String() string {
	switch k {
	case Liveness:
		return "liveness"
	case Readiness:
		return "readiness"
	case Startup:
		return "startup"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind reads "liveness", "readiness" or "startup".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "liveness":
		return Liveness, nil
	case "readiness":
		return Readiness, nil
	case "startup":
		return Startup, nil
	}
	return 0, fmt.Errorf("%w: probe kind %q (want liveness, readiness or startup)", ErrInvalid, s)
}

// Of returns the container's probe of kind k (livenessProbe, readinessProbe
// or startupProbe), or nil when the container has none.
func (k Kind) Of(c *api.Container) *api.Probe {
	if c == nil {
		return nil
	}
	switch k {
	case Liveness:
		return c.LivenessProbe
	case Readiness:
		return c.ReadinessProbe
	case Startup:
		return c.StartupProbe
	}
	return nil
}

// initialResult is the value the kubelet caches for a container the moment
// its worker first sees the container's ID, before any probe has run:
// readiness starts as failure (not ready), liveness as success (alive) and
// startup as unknown (not started yet).
func (k Kind) initialResult() Result {
	switch k {
	case Readiness:
		return ResultFailure
	case Liveness:
		return ResultSuccess
	}
	return ResultUnknown
}
