package probe

import (
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// MachineEvent turns the effect of a worker's tick into the event the pod
// state machine (lifecycle.Machine) consumes, so a node agent wires the two
// together without translating by hand: the worker settles raw outcomes
// into results with the kubelet's thresholds, holds and startup gating, and
// the machine acts on the settled result (kill a container that failed
// liveness or startup, mark a container ready or started). It reports false
// when the tick has no effect for the machine.
//
// kind is the worker's probe kind and container the probed container's
// name, the two values the worker was created with.
func (r Report) MachineEvent(kind api.ProbeKind, container string) (lifecycle.Event, bool) {
	switch r.Effect {
	case EffectKillContainer:
		return lifecycle.ProbeResult(container, kind, false), true
	case EffectMarkReady:
		return lifecycle.ProbeResult(container, api.ProbeReadiness, true), true
	case EffectMarkNotReady:
		return lifecycle.ProbeResult(container, api.ProbeReadiness, false), true
	case EffectMarkStarted:
		return lifecycle.ProbeResult(container, api.ProbeStartup, true), true
	}
	return lifecycle.Event{}, false
}
