package probe

import (
	"github.com/podsem/podsem/api"
)

// The reasons of the events the kubelet's prober records
// (pkg/kubelet/events ContainerUnhealthy and ContainerProbeWarning).
const (
	EventUnhealthy    = "Unhealthy"
	EventProbeWarning = "ProbeWarning"
)

// event is the event the kubelet's prober records for a probe run with
// in's outcome (pkg/kubelet/prober prober.probe), nil for none.
func (w *Worker) event(in Input) *api.Event {
	kind := kindTitle(w.kind)
	var reason, note string
	switch in.Outcome {
	case OutcomeFailure:
		reason, note = EventUnhealthy, kind+" probe failed: "+in.Output
	case OutcomeWarning:
		reason, note = EventProbeWarning, kind+" probe warning: "+in.Output
	case OutcomeError:
		state := in.ErroredAs
		if state == OutcomeError {
			state = OutcomeUnknown
		}
		reason, note = EventUnhealthy, kind+" probe errored and resulted in "+state.String()+" state: "+in.Output
	default:
		return nil
	}
	return &api.Event{Type: api.EventTypeWarning, Reason: reason, Note: note, Regarding: w.ref, Source: api.EventSourceKubelet}
}

// kindTitle is the probe kind as the kubelet's prober names it in events.
func kindTitle(k api.ProbeKind) string {
	switch k {
	case api.ProbeLiveness:
		return "Liveness"
	case api.ProbeReadiness:
		return "Readiness"
	case api.ProbeStartup:
		return "Startup"
	}
	return "UNKNOWN"
}
