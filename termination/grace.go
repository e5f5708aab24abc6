package termination

import (
	"errors"
	"math"
	"time"

	"github.com/podsem/podsem/api"
)

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

// GraceDuration converts a grace period in whole seconds, as the API and
// the kubelet carry it, into a time.Duration, saturating instead of
// wrapping: a period longer than the largest Duration (math.MaxInt64 ns,
// about 292 years) becomes that largest Duration, and a negative one past
// the smallest becomes the smallest. Upstream multiplies the seconds by
// time.Second unchecked (the API server's BeforeDelete when it sets
// deletionTimestamp, kuberuntime's executePreStopHook when it bounds the
// wait for the hook, the kubelet's kill timeout), so there a value past
// 2^63 ns wraps around, to a deadline in the past or a wait that ends at
// once; neither the API server nor the kubelet refuses such a value.
// Every calculator in this package converts seconds through this function,
// so a huge grace period means "as long as a Duration can wait" everywhere.
func GraceDuration(seconds int64) time.Duration {
	const maxSeconds = int64(math.MaxInt64 / int64(time.Second))
	switch {
	case seconds > maxSeconds:
		return math.MaxInt64
	case seconds < -maxSeconds:
		return math.MinInt64
	}
	return time.Duration(seconds) * time.Second
}

// StoredGracePeriodSeconds is spec.terminationGracePeriodSeconds of pod as
// the API server stores it: the pod's own value, or
// api.DefaultTerminationGracePeriodSeconds (30) when the field is absent,
// because the API server's v1 defaulting fills it in on create, so every
// pod the API server and the kubelet ever see carries it. It is the one
// answer podsem gives for a pod without the field wherever it follows a
// pod through the cluster (BuildTimeline, lifecycle.Machine, the proptest
// generators' grace model). The calculators that mirror one upstream
// function (CheckGracefulDelete, APIServerGrace, KubeletPodGrace,
// ContainerGrace, KillTimeout, EvictionGraceOverride) read the field as
// given, as that function does: an absent value there is 0 at the API
// server and "no preference" in the kubelet, a case upstream only meets
// for an object that bypassed defaulting. A nil pod has the default.
func StoredGracePeriodSeconds(pod *api.Pod) int64 {
	if pod == nil || pod.Spec.TerminationGracePeriodSeconds == nil {
		return api.DefaultTerminationGracePeriodSeconds
	}
	return *pod.Spec.TerminationGracePeriodSeconds
}
