package probe

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context: every
// error this package returns for input it cannot interpret (an unknown kind
// or outcome name, a worker whose container or probe is missing, a port
// that does not resolve) wraps it.
var errInvalidInput = fmt.Errorf("probe: %w", api.ErrInvalidInput)

// Outcome is what one probe attempt reports before the kubelet's worker
// interprets it: the raw result of a mechanism (pkg/probe's Success,
// Warning, Failure, Unknown) plus Error for an attempt that could not be
// run at all (the prober returned an error, e.g. the exec session could not
// be opened).
type Outcome uint8

// The raw outcomes. The zero value is OutcomeUnknown.
const (
	// OutcomeUnknown: the mechanism answered without a verdict and without
	// an error (e.g. an exec probe whose command could not be started).
	// The kubelet's prober counts it as a failure.
	OutcomeUnknown Outcome = iota
	// OutcomeSuccess: the check passed.
	OutcomeSuccess
	// OutcomeWarning: passed with a caveat (an httpGet redirect that was
	// not followed). The prober records an event and counts it as success.
	OutcomeWarning
	// OutcomeFailure: the check failed.
	OutcomeFailure
	// OutcomeError: the probe could not be run. The prober tries it
	// maxProbeRetries (3) times; if all fail the worker discards the
	// attempt, leaving its counters and the cached result untouched.
	OutcomeError
)

// String returns the outcome's name as the conformance vectors spell it.
func (o Outcome) String() string {
	switch o {
	case OutcomeUnknown:
		return "unknown"
	case OutcomeSuccess:
		return "success"
	case OutcomeWarning:
		return "warning"
	case OutcomeFailure:
		return "failure"
	case OutcomeError:
		return "error"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// ParseOutcome reads "success", "warning", "failure", "unknown" or "error".
func ParseOutcome(s string) (Outcome, error) {
	switch s {
	case "unknown":
		return OutcomeUnknown, nil
	case "success":
		return OutcomeSuccess, nil
	case "warning":
		return OutcomeWarning, nil
	case "failure":
		return OutcomeFailure, nil
	case "error":
		return OutcomeError, nil
	}
	return 0, fmt.Errorf("%w: probe outcome %q", errInvalidInput, s)
}

// Result folds an outcome into the verdict the kubelet's prober hands to
// its worker (pkg/kubelet/prober prober.probe): success and warning are
// success, failure and unknown are failure. ok is false for OutcomeError,
// whose attempt the worker throws away.
func (o Outcome) Result() (r Result, ok bool) {
	switch o {
	case OutcomeSuccess, OutcomeWarning:
		return ResultSuccess, true
	case OutcomeFailure, OutcomeUnknown:
		return ResultFailure, true
	}
	return ResultNone, false
}

// Result is a value in the kubelet's probe results cache
// (pkg/kubelet/prober/results) for one container: what liveness,
// readiness or startup currently says about it.
type Result uint8

// The cached results. The zero value, ResultNone, means nothing is cached
// for the container.
const (
	// ResultNone: no cached value (the worker has not seen the container,
	// or skipped the initial value for a container that was already running
	// before the kubelet restarted).
	ResultNone Result = iota
	// ResultUnknown: not decided yet (the startup probe's initial value).
	ResultUnknown
	// ResultSuccess: alive, ready or started.
	ResultSuccess
	// ResultFailure: dead, not ready or failed to start.
	ResultFailure
)

// String returns "success", "failure", "unknown", or "" for ResultNone.
func (r Result) String() string {
	switch r {
	case ResultNone:
		return ""
	case ResultUnknown:
		return "unknown"
	case ResultSuccess:
		return "success"
	case ResultFailure:
		return "failure"
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}
