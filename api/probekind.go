package api

import (
	"fmt"
	"strconv"
)

// ProbeKind is which of a container's three probes is meant: its
// livenessProbe, readinessProbe or startupProbe. The kubelet runs one probe
// worker per kind and container (pkg/kubelet/prober's probeType), and the
// pod's state reacts to each kind differently; the zero value is no kind.
type ProbeKind uint8

// The probe kinds.
const (
	// ProbeLiveness: a failure makes the kubelet kill (and per restart
	// policy restart) the container.
	ProbeLiveness ProbeKind = iota + 1
	// ProbeReadiness: decides the container's ready flag, hence the pod's
	// ContainersReady and Ready conditions and its Service endpoints.
	ProbeReadiness
	// ProbeStartup: until it succeeds the container is not started
	// (liveness and readiness wait; a sidecar holds back the next init
	// container); a failure kills the container like liveness.
	ProbeStartup
)

// Of returns the container's probe of kind k (livenessProbe,
// readinessProbe or startupProbe), or nil when the container has none. A
// nil container has no probe: the result is nil.
func (k ProbeKind) Of(c *Container) *Probe {
	if c == nil {
		return nil
	}
	switch k {
	case ProbeLiveness:
		return c.LivenessProbe
	case ProbeReadiness:
		return c.ReadinessProbe
	case ProbeStartup:
		return c.StartupProbe
	}
	return nil
}

// String returns "liveness", "readiness" or "startup", the kubelet
// prober's names for the kinds.
func (k ProbeKind) String() string {
	switch k {
	case ProbeLiveness:
		return "liveness"
	case ProbeReadiness:
		return "readiness"
	case ProbeStartup:
		return "startup"
	}
	return "ProbeKind(" + strconv.Itoa(int(k)) + ")"
}

// ParseProbeKind reads "liveness", "readiness" or "startup", as String
// writes them. Anything else is an error wrapping ErrInvalidInput.
func ParseProbeKind(s string) (ProbeKind, error) {
	switch s {
	case "liveness":
		return ProbeLiveness, nil
	case "readiness":
		return ProbeReadiness, nil
	case "startup":
		return ProbeStartup, nil
	}
	return 0, fmt.Errorf("%w: probe kind %q (want liveness, readiness or startup)", errInvalidInput, s)
}
