package lifecycle

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// Errors returned by ValidPhaseTransition; test with errors.Is.
var (
	// ErrPhaseRegression: the new phase comes before the current one.
	ErrPhaseRegression = errors.New("pod phase may not move backwards")
	// ErrTerminalPhase: the current phase is Succeeded or Failed, which a
	// pod never leaves.
	ErrTerminalPhase = errors.New("pod phase is terminal")
	// ErrInvalidPhase: a phase value Kubernetes does not define.
	ErrInvalidPhase = errors.New("invalid pod phase")
)

// phaseRank orders the phases along a pod's life: not yet reported (""),
// Pending, Running, then the terminal Succeeded and Failed. Unknown (the
// state of a pod whose node stopped reporting) has no rank.
func phaseRank(p api.PodPhase) (rank int, ok bool) {
	switch p {
	case "":
		return 0, true
	case api.PodPending:
		return 1, true
	case api.PodRunning:
		return 2, true
	case api.PodSucceeded, api.PodFailed:
		return 3, true
	case api.PodUnknown:
		return -1, true
	}
	return 0, false
}

// ValidPhaseTransition reports whether a pod's status may go from phase from
// to phase to, following the guarantee of the pod-safety design (a pod moves
// through its phases in order and never returns to an earlier one) and the
// kubelet and API server rule that a terminal phase is never left:
//
//   - staying in the same phase is always allowed;
//   - Succeeded and Failed absorb: nothing else may follow them;
//   - otherwise the phase may only move forward along
//     "" (unreported) → Pending → Running → Succeeded | Failed, skipping
//     steps if need be;
//   - Unknown (the node stopped reporting) may follow any non-terminal
//     phase, and may be followed by Running, Succeeded or Failed, never by
//     Pending or "" — so along any chain of allowed transitions the known
//     phases never go backwards.
//
// The error wraps ErrTerminalPhase, ErrPhaseRegression or ErrInvalidPhase
// and names both phases.
func ValidPhaseTransition(from, to api.PodPhase) error {
	fr, ok := phaseRank(from)
	if !ok {
		return fmt.Errorf("%w %q (current phase)", ErrInvalidPhase, from)
	}
	tr, ok := phaseRank(to)
	if !ok {
		return fmt.Errorf("%w %q (new phase)", ErrInvalidPhase, to)
	}
	if from == to {
		return nil
	}
	if from.IsTerminal() {
		return fmt.Errorf("%w: %s is final, cannot become %s", ErrTerminalPhase, phaseName(from), phaseName(to))
	}
	switch {
	case to == api.PodUnknown:
		return nil
	case from == api.PodUnknown:
		if tr >= 2 {
			return nil
		}
	case tr > fr:
		return nil
	}
	return fmt.Errorf("%w: %s cannot go back to %s", ErrPhaseRegression, phaseName(from), phaseName(to))
}

func phaseName(p api.PodPhase) string {
	if p == "" {
		return `"" (not yet reported)`
	}
	return string(p)
}

// ReportedPhase is the phase the kubelet writes to the pod status after
// merging the phase it just computed (Phase) with the phases already
// reported (pkg/kubelet generateAPIPodStatus): a computed phase that is not
// terminal gives way to a terminal phase held by the kubelet's status cache
// (cached) or, failing that, by the API server (apiPhase); and a terminal
// phase the API server holds is never changed. So once Succeeded or Failed
// has been reported, every later report repeats it.
func ReportedPhase(computed, cached, apiPhase api.PodPhase) api.PodPhase {
	p := computed
	if !p.IsTerminal() {
		switch {
		case cached.IsTerminal():
			p = cached
		case apiPhase.IsTerminal():
			p = apiPhase
		}
	}
	if apiPhase.IsTerminal() {
		p = apiPhase
	}
	return p
}
