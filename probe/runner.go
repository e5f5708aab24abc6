package probe

import (
	"context"
	"fmt"

	"github.com/podsem/podsem/api"
)

// MaxProbeRetries is how many times the kubelet's prober runs a probe
// whose mechanism returns an error before giving up on the attempt
// (maxProbeRetries in pkg/kubelet/prober).
const MaxProbeRetries = 3

// Runner actually runs one probe attempt: it executes the command, sends
// the HTTP request, dials the socket or calls the gRPC health service for
// probe p of container c (instance containerID) in pod, whose current
// status is status. It reports the mechanism's outcome and output (see
// ExecOutcome, DoHTTP, TCPOutcome and GRPCOutcome for how each mechanism's
// answer becomes one), or an error when the attempt could not be made at
// all. Callers implement it over their own runtime; the probe package only
// calls it through RunWithRetries.
type Runner interface {
	RunProbe(ctx context.Context, kind api.ProbeKind, p *api.Probe, pod *api.Pod, status *api.PodStatus, c *api.Container, containerID string) (Outcome, string, error)
}

// RunWithRetries runs a probe as the kubelet's prober does: up to
// MaxProbeRetries attempts while the runner returns an error. It returns
// the first attempt's outcome that came without an error, or OutcomeError
// with the last error when every attempt failed to run. Feed the outcome
// to Worker.Step as Input.Outcome, with the output as Input.Output (for
// OutcomeError, the error's text). p, pod, status and c go to the runner
// as given; a nil ctx or r runs nothing and is an error wrapping
// api.ErrInvalidInput, with OutcomeUnknown.
func RunWithRetries(ctx context.Context, r Runner, kind api.ProbeKind, p *api.Probe, pod *api.Pod, status *api.PodStatus, c *api.Container, containerID string) (Outcome, string, error) {
	switch {
	case ctx == nil:
		return OutcomeUnknown, "", fmt.Errorf("%w: context: nil", errInvalidInput)
	case r == nil:
		return OutcomeUnknown, "", fmt.Errorf("%w: runner: nil", errInvalidInput)
	}
	var err error
	for range MaxProbeRetries {
		var o Outcome
		var out string
		o, out, err = r.RunProbe(ctx, kind, p, pod, status, c, containerID)
		if err == nil {
			return o, out, nil
		}
		if ctx.Err() != nil {
			break
		}
	}
	return OutcomeError, "", err
}
