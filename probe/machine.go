package probe

import "github.com/podsem/podsem/lifecycle"

// MachineEvent turns the effect of a worker step into the event the pod
// state machine (lifecycle.Machine) consumes, so a node agent wires the two
// together without translating by hand: the worker settles raw outcomes
// into results with the kubelet's thresholds, holds and startup gating, and
// the machine acts on the settled result (kill a container that failed
// liveness or startup, mark a container ready or started). It reports false
// when the step has no effect for the machine.
//
// kind is the worker's probe kind and container the probed container's
// name, the two values the worker was created with.
func (s Step) MachineEvent(kind Kind, container string) (lifecycle.Event, bool) {
	switch s.Effect {
	case EffectKillContainer:
		if kind == Startup {
			return lifecycle.ProbeResult(container, lifecycle.Startup, false), true
		}
		return lifecycle.ProbeResult(container, lifecycle.Liveness, false), true
	case EffectMarkReady:
		return lifecycle.ProbeResult(container, lifecycle.Readiness, true), true
	case EffectMarkNotReady:
		return lifecycle.ProbeResult(container, lifecycle.Readiness, false), true
	case EffectMarkStarted:
		return lifecycle.ProbeResult(container, lifecycle.Startup, true), true
	}
	return lifecycle.Event{}, false
}
