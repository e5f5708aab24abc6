package probe

// MaxExecOutputBytes is how much of an exec probe's combined stdout and
// stderr the kubelet keeps (10 KiB).
const MaxExecOutputBytes = 10 << 10

// ExecAnswer is what running an exec probe's command in the container gave.
type ExecAnswer struct {
	// Output is the command's combined stdout and stderr.
	Output []byte
	// Exited reports that the command ran to its end; ExitCode is then its
	// exit status.
	Exited   bool
	ExitCode int
	// TimedOut reports that the command outlived the probe's
	// timeoutSeconds.
	TimedOut bool
	// Err is why the command could not be run (when neither Exited nor
	// TimedOut).
	Err error
}

// ExecOutcome interprets an exec probe (pkg/probe/exec): exit status 0 is
// success and any other status failure, both with the output (at most
// MaxExecOutputBytes); a timeout is failure (the ExecProbeTimeout
// behaviour, on in v1.36.3); a command that could not be run is unknown,
// with its error, which the kubelet's prober counts as failure.
func ExecOutcome(a ExecAnswer) (Outcome, string, error) {
	out := a.Output
	if len(out) > MaxExecOutputBytes {
		out = out[:MaxExecOutputBytes]
	}
	switch {
	case a.Exited && a.ExitCode == 0:
		return OutcomeSuccess, string(out), nil
	case a.Exited:
		return OutcomeFailure, string(out), nil
	case a.TimedOut:
		return OutcomeFailure, string(out), nil
	case a.Err != nil:
		return OutcomeUnknown, "", a.Err
	}
	return OutcomeSuccess, string(out), nil
}
