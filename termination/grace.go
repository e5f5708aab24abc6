package termination

import "errors"

// Grace-period constants of Kubernetes v1.36.3. Each names the component
// whose rule it is.
const (
	// MinimumPodGracePeriodSeconds is the floor the kubelet's pod workers
	// put on the pod-level grace period: whatever the inputs, a pod is given
	// at least one second.
	MinimumPodGracePeriodSeconds int64 = 1

	// MinimumContainerGracePeriodSeconds is the floor kuberuntime puts on the
	// stop timeout handed to the container runtime, so that a container
	// whose preStop hook used up the whole grace period still gets a short
	// window after its stop signal before SIGKILL. The pod-termination
	// documentation calls this the one-time 2 second extension.
	MinimumContainerGracePeriodSeconds int64 = 2

	// HardEvictionGracePeriodSeconds is the grace-period override the
	// kubelet's eviction manager passes when a hard eviction threshold (or a
	// local-storage limit) is exceeded. Releases up to v1.23
	// passed 0; v1.36.3 passes 1, which the pod worker would have
	// raised 0 to anyway.
	HardEvictionGracePeriodSeconds int64 = 1

	// MinimumKillTimeoutSeconds is the shortest time the kubelet waits for a
	// pod kill it requested (eviction, node shutdown) to be confirmed before
	// it reports ExceededGracePeriod.
	MinimumKillTimeoutSeconds int64 = 10
)

// GraceSource names the input that decided a grace period. Every calculator
// in this package reports one, so that a caller can say why a pod got the
// time it got.
type GraceSource string

// The inputs a grace period can come from.
const (
	// SourceDeleteOptions: DeleteOptions.gracePeriodSeconds of the request.
	SourceDeleteOptions GraceSource = "DeleteOptions"
	// SourcePodSpec: spec.terminationGracePeriodSeconds.
	SourcePodSpec GraceSource = "PodSpec"
	// SourceUnset: nothing specified a value; upstream's zero applies.
	SourceUnset GraceSource = "Unset"
	// SourceUnscheduled: the pod has no spec.nodeName, so nothing runs and
	// the API server deletes it at once.
	SourceUnscheduled GraceSource = "Unscheduled"
	// SourceTerminalPhase: the pod is Succeeded or Failed, so nothing runs
	// and the API server deletes it at once.
	SourceTerminalPhase GraceSource = "TerminalPhase"
	// SourceNegativeNormalized: a negative value was raised to 1 s, as the
	// API server does on the delete path.
	SourceNegativeNormalized GraceSource = "NegativeNormalized"
	// SourceDeletionGracePeriod: metadata.deletionGracePeriodSeconds, the
	// value the API server recorded for the deletion in progress.
	SourceDeletionGracePeriod GraceSource = "DeletionGracePeriodSeconds"
	// SourceRecorded: the grace period the kubelet's pod worker had already
	// settled on; it only ever shortens.
	SourceRecorded GraceSource = "RecordedGracePeriod"
	// SourceKillOverride: an override from inside the kubelet (eviction,
	// node shutdown, or the pod worker's grace handed to each container).
	SourceKillOverride GraceSource = "KillOverride"
	// SourceLivenessProbe: livenessProbe.terminationGracePeriodSeconds of the
	// container, used when the kubelet kills it for failing liveness.
	SourceLivenessProbe GraceSource = "LivenessProbe"
	// SourceStartupProbe: startupProbe.terminationGracePeriodSeconds of the
	// container, used when the kubelet kills it for failing startup.
	SourceStartupProbe GraceSource = "StartupProbe"
	// SourceMinimum: a floor raised the value (1 s per pod, 2 s per
	// container).
	SourceMinimum GraceSource = "Minimum"
	// SourcePreStop: the time the preStop hook took was subtracted.
	SourcePreStop GraceSource = "PreStopElapsed"
	// SourceEvictionMaxPodGrace: the kubelet's evictionMaxPodGracePeriod
	// (soft eviction).
	SourceEvictionMaxPodGrace GraceSource = "EvictionMaxPodGracePeriod"
	// SourceHardEviction: the fixed override of hard evictions.
	SourceHardEviction GraceSource = "HardEviction"
)

// Errors the calculators wrap; test with errors.Is.
var (
	// ErrPreconditionFailed is wrapped when a DELETE's preconditions (UID or
	// resourceVersion) do not match the stored pod; the API server answers
	// 409 Conflict.
	ErrPreconditionFailed = errors.New("termination: delete precondition failed")
	// ErrInvalidDeleteOptions is wrapped when DeleteOptions fail the API
	// server's validation; the API server answers 422 Invalid.
	ErrInvalidDeleteOptions = errors.New("termination: invalid delete options")
)

func ptr[T any](v T) *T { return &v }
