// Package probe will own container probes as the kubelet runs them: probe
// defaults and validation, how each mechanism's outcome is interpreted
// (exec, httpGet, tcpSocket, grpc), the per-probe worker state machine
// (initial delay, period, success and failure thresholds, startup gating),
// and the Runner interface callers implement to actually probe.
package probe
