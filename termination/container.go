package termination

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// KillReason is why the kubelet kills a container; it decides whether a
// probe-level terminationGracePeriodSeconds applies.
type KillReason string

// The kill reasons of kuberuntime.
const (
	// KillReasonUnknown is used for pod termination and every kill without a
	// more specific cause.
	KillReasonUnknown KillReason = "Unknown"
	// KillReasonLivenessProbe: the container failed its liveness probe.
	KillReasonLivenessProbe KillReason = "LivenessProbe"
	// KillReasonStartupProbe: the container failed its startup probe.
	KillReasonStartupProbe KillReason = "StartupProbe"
	// KillReasonFailedPostStartHook: the postStart hook failed.
	KillReasonFailedPostStartHook KillReason = "FailedPostStartHook"
	// KillReasonRestartAllContainers: a restart rule asked for every
	// container of the pod to restart.
	KillReasonRestartAllContainers KillReason = "RestartAllContainers"
)

// ContainerKill describes one kill of one container.
type ContainerKill struct {
	// ContainerName names a regular, init or ephemeral container of the pod.
	ContainerName string
	// Reason is why the container is killed; empty means KillReasonUnknown.
	Reason KillReason
	// GracePeriodOverride replaces the container's own grace period when
	// set. During pod termination the kubelet passes the pod worker's grace
	// period (KubeletPodGrace) here.
	GracePeriodOverride *int64
	// PreStopDuration is how long the container's preStop hook would run if
	// nothing cut it short. Nil estimates it from the spec: a sleep hook runs
	// for sleep.seconds; exec and httpGet hooks are taken to finish at once.
	// The kubelet stops waiting for the hook at the grace period.
	PreStopDuration *time.Duration
	// OrderingWait is how long the container waited, after its preStop hook,
	// for its turn to stop (sidecars wait for the main containers and for
	// sidecars started after them). Zero for pods without sidecars.
	OrderingWait time.Duration
}

// ContainerGraceResult is the stop timeout the kubelet hands the container
// runtime for one container, with the steps that produced it.
type ContainerGraceResult struct {
	// BaseGracePeriodSeconds is the container's own grace period before any
	// override, preStop time or minimum: deletionGracePeriodSeconds if set,
	// else the probe-level value for a liveness/startup kill, else
	// spec.terminationGracePeriodSeconds, else 2.
	BaseGracePeriodSeconds int64
	BaseSource             GraceSource
	// OverrideApplied reports that GracePeriodOverride replaced the base.
	OverrideApplied bool
	// PreStopRan reports that a preStop hook ran (it runs only when the
	// container has one and the grace period is positive).
	PreStopRan bool
	// PreStopElapsed is how long the kubelet waited for the hook (bounded by
	// the grace period); PreStopSeconds is the whole seconds of it that were
	// subtracted.
	PreStopElapsed time.Duration
	PreStopSeconds int64
	// OrderingWaitSeconds is the whole seconds of OrderingWait subtracted.
	OrderingWaitSeconds int64
	// GracePeriodSeconds is the timeout given to the runtime's StopContainer:
	// the time between the stop signal and SIGKILL. At least
	// MinimumContainerGracePeriodSeconds.
	GracePeriodSeconds int64
	// Source is the input that decided GracePeriodSeconds.
	Source GraceSource
	// Reason explains the steps.
	Reason string
}

// ContainerGrace computes the stop timeout the kubelet uses when it kills one
// container, as kuberuntime's killContainer does in v1.36.3:
//
//  1. the base: metadata.deletionGracePeriodSeconds if set; else, when
//     spec.terminationGracePeriodSeconds is set, the liveness or startup
//     probe's terminationGracePeriodSeconds for a kill with that reason, or
//     the pod's value; else 2;
//  2. a grace-period override, when given, replaces the base;
//  3. the preStop hook, if any and if the grace period is positive, runs for
//     at most the grace period; its whole elapsed seconds are subtracted;
//  4. the sidecar ordering wait, if any, is subtracted the same way;
//  5. the result is raised to at least 2 s.
//
// A nil pod is an error wrapping api.ErrInvalidInput.
func ContainerGrace(pod *api.Pod, k ContainerKill) (ContainerGraceResult, error) {
	if pod == nil {
		return ContainerGraceResult{}, fmt.Errorf("%w: pod: nil", errInvalidInput)
	}
	ref, ok := pod.Spec.FindContainer(k.ContainerName) // the kubelet's GetContainerSpec order
	if !ok {
		return ContainerGraceResult{}, fmt.Errorf("%w: pod %s has no container %q", errInvalidInput, pod.Key(), k.ContainerName)
	}
	c := ref.Container
	reason := k.Reason
	if reason == "" {
		reason = KillReasonUnknown
	}
	var r ContainerGraceResult
	r.BaseGracePeriodSeconds, r.BaseSource = baseContainerGrace(pod, c, reason)
	grace, src := r.BaseGracePeriodSeconds, r.BaseSource
	var steps []string
	steps = append(steps, fmt.Sprintf("base %ds from %s", grace, src))
	if k.GracePeriodOverride != nil {
		grace, src = *k.GracePeriodOverride, SourceKillOverride
		r.OverrideApplied = true
		steps = append(steps, fmt.Sprintf("override %ds replaces it", grace))
	}
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && grace > 0 {
		r.PreStopRan = true
		d := PreStopRuntime(c)
		if k.PreStopDuration != nil {
			d = *k.PreStopDuration
		}
		if d < 0 {
			d = 0
		}
		// The kubelet waits at most grace seconds. Upstream's Duration
		// product wraps for a grace period past about 292 years and ends the
		// wait at once; GraceDuration saturates, so the wait is as long as
		// a Duration can be.
		if limit := GraceDuration(grace); d > limit {
			d = limit
		}
		r.PreStopElapsed = d
		r.PreStopSeconds = int64(d / time.Second)
		if r.PreStopSeconds > 0 {
			grace -= r.PreStopSeconds
			src = SourcePreStop
			steps = append(steps, fmt.Sprintf("preStop took %ds, leaving %ds", r.PreStopSeconds, grace))
		} else {
			steps = append(steps, "preStop finished within a second")
		}
	}
	if k.OrderingWait > 0 && grace > 0 {
		r.OrderingWaitSeconds = int64(k.OrderingWait / time.Second)
		if r.OrderingWaitSeconds > 0 {
			grace -= r.OrderingWaitSeconds
			steps = append(steps, fmt.Sprintf("waited %ds for its turn to stop, leaving %ds", r.OrderingWaitSeconds, grace))
		}
	}
	if grace < MinimumContainerGracePeriodSeconds {
		steps = append(steps, fmt.Sprintf("raised from %ds to the %ds minimum", grace, MinimumContainerGracePeriodSeconds))
		grace, src = MinimumContainerGracePeriodSeconds, SourceMinimum
	}
	r.GracePeriodSeconds, r.Source = grace, src
	r.Reason = strings.Join(steps, "; ")
	return r, nil
}

func baseContainerGrace(pod *api.Pod, c *api.Container, reason KillReason) (int64, GraceSource) {
	switch {
	case pod.DeletionGracePeriodSeconds != nil:
		return *pod.DeletionGracePeriodSeconds, SourceDeletionGracePeriod
	case pod.Spec.TerminationGracePeriodSeconds != nil:
		switch reason {
		case KillReasonStartupProbe:
			if p := c.StartupProbe; p != nil && p.TerminationGracePeriodSeconds != nil {
				return *p.TerminationGracePeriodSeconds, SourceStartupProbe
			}
		case KillReasonLivenessProbe:
			if p := c.LivenessProbe; p != nil && p.TerminationGracePeriodSeconds != nil {
				return *p.TerminationGracePeriodSeconds, SourceLivenessProbe
			}
		}
		return *pod.Spec.TerminationGracePeriodSeconds, SourcePodSpec
	}
	return MinimumContainerGracePeriodSeconds, SourceMinimum
}

// PreStopRuntime estimates how long a container's preStop hook runs when
// nothing cuts it short: sleep.seconds for a sleep hook, zero for an exec or
// httpGet hook (whose real duration only the caller knows) and for a
// container without a hook. A sleep longer than the largest Duration
// (about 292 years) saturates at it (GraceDuration) where upstream's
// product would wrap. A nil container has no hook: the result is zero.
func PreStopRuntime(c *api.Container) time.Duration {
	if c == nil || c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Sleep == nil {
		return 0
	}
	s := c.Lifecycle.PreStop.Sleep.Seconds
	if s <= 0 {
		return 0
	}
	return GraceDuration(s)
}
