package termination

import (
	"fmt"
	"math"
	"time"

	"github.com/podsem/podsem/api"
)

// PodWorkerState is what the kubelet's pod worker knows when a kill of the
// pod is requested.
type PodWorkerState struct {
	// RecordedGracePeriodSeconds is the grace period the pod worker already
	// settled on for this pod in an earlier kill request; 0 means none yet
	// (the first request, or the kubelet restarted and forgot it).
	RecordedGracePeriodSeconds int64
	// Override is the KillPodOptions' grace-period override (set by
	// eviction, node shutdown and other kubelet-internal kills); nil when the
	// kill carries none, as for an API deletion.
	Override *int64
}

// PodGrace is the pod-level grace period the kubelet's pod worker uses to
// terminate a pod.
type PodGrace struct {
	// GracePeriodSeconds is the grace period, at least
	// MinimumPodGracePeriodSeconds.
	GracePeriodSeconds int64
	// Changed reports that a previously recorded, non-zero grace period was
	// replaced (it can only have been shortened, or raised to the floor).
	Changed bool
	// Source is the input that decided the value.
	Source GraceSource
	// Reason explains the decision.
	Reason string
}

// KubeletPodGrace computes the grace period the kubelet's pod worker uses
// for a kill of pod, as calculateEffectiveGracePeriod in
// pkg/kubelet/pod_workers.go does in v1.36.3. Starting from the recorded
// value, metadata.deletionGracePeriodSeconds (the API server's word) and
// then the kill's override each replace it when nothing is recorded yet or
// when they are shorter; only when neither applied and nothing is recorded
// does spec.terminationGracePeriodSeconds fill in. The result is at least
// one second. A grace period therefore never lengthens across repeated
// kills, with one upstream exception kept as is: a
// deletionGracePeriodSeconds of 0 (a force deletion) counts as "nothing
// recorded", so an override in the same kill replaces the 1 s floor. A nil
// pod has no grace: the result is the zero PodGrace.
func KubeletPodGrace(pod *api.Pod, st PodWorkerState) PodGrace {
	if pod == nil {
		return PodGrace{}
	}
	grace := st.RecordedGracePeriodSeconds
	src := SourceRecorded
	if grace == 0 {
		src = SourceUnset
	}
	overridden := false
	if pod.DeletionGracePeriodSeconds != nil {
		if v := *pod.DeletionGracePeriodSeconds; grace == 0 || v < grace {
			grace, src, overridden = v, SourceDeletionGracePeriod, true
		}
	}
	if st.Override != nil {
		if v := *st.Override; grace == 0 || v < grace {
			grace, src, overridden = v, SourceKillOverride, true
		}
	}
	if !overridden && grace == 0 && pod != nil && pod.Spec.TerminationGracePeriodSeconds != nil {
		grace, src = *pod.Spec.TerminationGracePeriodSeconds, SourcePodSpec
	}
	decidedBy := src
	if grace < MinimumPodGracePeriodSeconds {
		grace, src = MinimumPodGracePeriodSeconds, SourceMinimum
	}
	g := PodGrace{
		GracePeriodSeconds: grace,
		Changed:            st.RecordedGracePeriodSeconds != 0 && st.RecordedGracePeriodSeconds != grace,
		Source:             src,
	}
	switch {
	case src == SourceMinimum:
		g.Reason = fmt.Sprintf("%s gave less than %ds; the pod worker always allows at least %ds", decidedBy, MinimumPodGracePeriodSeconds, MinimumPodGracePeriodSeconds)
	case src == SourceRecorded:
		g.Reason = fmt.Sprintf("the pod worker keeps its recorded %ds: no input is shorter, and a grace period only shortens", grace)
	default:
		g.Reason = fmt.Sprintf("%ds from %s", grace, src)
		if g.Changed {
			g.Reason += fmt.Sprintf(", shortening the recorded %ds", st.RecordedGracePeriodSeconds)
		}
	}
	return g
}

// EvictionConfig holds the kubelet settings that shape eviction grace
// periods. The zero value is the kubelet's v1.36.3 default.
type EvictionConfig struct {
	// MaxPodGracePeriodSeconds is --eviction-max-pod-grace-period
	// (evictionMaxPodGracePeriod): the longest grace period a soft eviction
	// grants. The kubelet's default is 0, which the pod worker turns into 1 s.
	MaxPodGracePeriodSeconds int64
}

// EvictionOverride is the grace-period override the kubelet's eviction
// manager attaches to an eviction.
type EvictionOverride struct {
	GracePeriodSeconds int64
	Source             GraceSource
	Reason             string
}

// EvictionGraceOverride returns the override the eviction manager
// (pkg/kubelet/eviction) passes when it evicts pod: for a hard threshold
// HardEvictionGracePeriodSeconds; for a soft threshold
// evictionMaxPodGracePeriod, capped by spec.terminationGracePeriodSeconds
// when the pod sets one. Feed the value to KubeletPodGrace as the
// PodWorkerState override to get the grace the pod actually receives. A
// nil pod has no override: the result is the zero EvictionOverride.
func EvictionGraceOverride(pod *api.Pod, hard bool, cfg EvictionConfig) EvictionOverride {
	if pod == nil {
		return EvictionOverride{}
	}
	if hard {
		return EvictionOverride{
			GracePeriodSeconds: HardEvictionGracePeriodSeconds,
			Source:             SourceHardEviction,
			Reason:             fmt.Sprintf("hard eviction threshold: the kubelet allows only %ds", HardEvictionGracePeriodSeconds),
		}
	}
	max := cfg.MaxPodGracePeriodSeconds
	if pod.Spec.TerminationGracePeriodSeconds != nil && *pod.Spec.TerminationGracePeriodSeconds < max {
		v := *pod.Spec.TerminationGracePeriodSeconds
		return EvictionOverride{
			GracePeriodSeconds: v,
			Source:             SourcePodSpec,
			Reason:             fmt.Sprintf("soft eviction: the pod's own %ds is below evictionMaxPodGracePeriod (%ds)", v, max),
		}
	}
	return EvictionOverride{
		GracePeriodSeconds: max,
		Source:             SourceEvictionMaxPodGrace,
		Reason:             fmt.Sprintf("soft eviction: evictionMaxPodGracePeriod is %ds", max),
	}
}

// KillTimeout is how long the kubelet waits for a kill it requested itself
// (eviction, node-pressure or shutdown) to complete before it records an
// ExceededGracePeriod event and gives up waiting: one and a half times the
// grace period (integer seconds: g + g/2), at least
// MinimumKillTimeoutSeconds. The grace period is the override when one is
// given, else spec.terminationGracePeriodSeconds, else 0. Upstream's int64
// sum and Duration product both wrap for huge grace periods (a negative or
// zero timeout); podsem saturates at the largest Duration (about 292 years,
// see GraceDuration), so the result is never below 10 s. A nil override is
// none; a nil pod has no kill to time: the result is zero.
func KillTimeout(pod *api.Pod, override *int64) time.Duration {
	if pod == nil {
		return 0
	}
	var g int64
	switch {
	case override != nil:
		g = *override
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		g = *pod.Spec.TerminationGracePeriodSeconds
	}
	if g < 0 {
		// g + g/2 is negative too (and for the most negative values it
		// would wrap positive): the floor applies.
		return GraceDuration(MinimumKillTimeoutSeconds)
	}
	t := g + g/2
	if t < g {
		t = math.MaxInt64 // g + g/2 wrapped: saturate
	}
	t = max(t, MinimumKillTimeoutSeconds)
	return GraceDuration(t)
}
