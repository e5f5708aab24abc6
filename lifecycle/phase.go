package lifecycle

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// PhaseOptions are the facts the kubelet knows besides the pod when it
// computes a phase.
type PhaseOptions struct {
	// PodIsTerminal: the kubelet has decided the pod is terminal (it was
	// deleted, evicted, hit activeDeadlineSeconds, or its containers will
	// not be restarted), so stopped containers settle the phase to
	// Succeeded or Failed whatever the restart policy. Static pods are
	// excepted.
	PodIsTerminal bool
	// PodHasInitialized: some regular container of the pod's current
	// sandbox has already been started by the runtime. A pod whose
	// sidecars are restarting after that is not put back to Pending.
	PodHasInitialized bool
}

// PhaseCounts is the tally behind a phase: how the kubelet classified each
// container of the pod. Regular init containers are counted apart; sidecars
// count with the regular containers except that terminated sidecars are
// ignored.
type PhaseCounts struct {
	// PendingInit counts regular init containers not yet completed
	// (no status, no state, running, or waiting without a previous
	// termination).
	PendingInit int
	// FailedInit counts regular init containers whose current or last run
	// exited non-zero; FailedInitFinal those of them that will not be
	// restarted.
	FailedInit, FailedInitFinal int
	// PendingSidecars counts sidecars not yet started (waiting for their
	// first run, no state, or running without having passed startup).
	PendingSidecars int
	// Running, Waiting, Stopped and Unknown tally sidecars and regular
	// containers by state (waiting with a previous termination counts as
	// Stopped; missing status or state as Unknown).
	Running, Waiting, Stopped, Unknown int
	// StoppedFinal counts stopped regular containers that will not be
	// restarted; Succeeded those that exited 0.
	StoppedFinal, Succeeded int
}

// PhaseResult is a phase with the counts and the rule that produced it.
type PhaseResult struct {
	Phase  api.PodPhase
	Counts PhaseCounts
	// Why is a short English explanation naming the deciding rule.
	Why string
}

// Phase computes the pod phase exactly as the kubelet's getPhase does in
// Kubernetes v1.36.3 (pkg/kubelet/kubelet_pods.go, default feature gates:
// ContainerRestartRules and RestartAllContainersOnContainerExits on), from
// the pod spec and status.containerStatuses + status.initContainerStatuses
// (matched by container name, regular statuses searched first):
//
//   - a regular init container that failed and will not be restarted (its
//     effective restart policy, restartPolicyRules included) fails the pod;
//   - while a regular init container is unfinished, or a sidecar has not
//     started and no regular container has ever started, or any container
//     waits for its first run, the pod is Pending;
//   - with every container known and one running, it is Running;
//   - with every container known and all stopped (terminated sidecars are
//     ignored): when the kubelet has decided the pod is terminal (and it is
//     not a static pod) it is Succeeded if all exited 0 else Failed;
//     otherwise it is Running while any stopped container will restart,
//     Succeeded when all exited 0, else Failed;
//   - anything else is Pending.
//
// The result is the phase before the kubelet's merge with a terminal phase
// reported earlier; ReportedPhase does that merge, and ValidPhaseTransition
// states the rule it upholds.
//
// A nil pod has no phase: the result is "".
func Phase(pod *api.Pod, opts PhaseOptions) api.PodPhase {
	if pod == nil {
		return ""
	}
	var c PhaseCounts
	return phase(pod, opts, &c, nil)
}

// ExplainPhase is Phase with the container tally and the deciding rule.
// A nil pod has no phase: the result is the zero PhaseResult.
func ExplainPhase(pod *api.Pod, opts PhaseOptions) PhaseResult {
	if pod == nil {
		return PhaseResult{}
	}
	var r PhaseResult
	r.Phase = phase(pod, opts, &r.Counts, nil)
	r.Why = explainPhase(r.Phase, &r.Counts, opts, pod)
	return r
}

// phaseStatuses finds the status of a spec container as getPhase does:
// regular statuses first, then init statuses.
type phaseStatuses struct{ regular, init statusIndex }

func (x *phaseStatuses) find(name string) *api.ContainerStatus {
	if cs := x.regular.find(name); cs != nil {
		return cs
	}
	return x.init.find(name)
}

// exitRestartable is whether a container that exited with t will be run
// again as far as the phase is concerned. A matching RestartAllContainers
// rule counts as a restart whatever the container's own restartPolicy says
// (RestartAllContainersOnContainerExits is on in v1.36.3), and so does a
// termination the kubelet caused while restarting all containers.
func exitRestartable(spec *api.PodSpec, c *api.Container, t *api.ContainerStateTerminated) bool {
	return ContainerShouldRestart(spec, c, t.ExitCode).Restart || t.Reason == RestartingAllContainers
}

func phase(pod *api.Pod, opts PhaseOptions, n *PhaseCounts, pos *specPositions) api.PodPhase {
	spec := &pod.Spec
	st := &pod.Status
	statuses := phaseStatuses{regular: pos.regularIndex(st.ContainerStatuses), init: pos.initIndex(st.InitContainerStatuses)}

	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if c.IsSidecar() {
			continue
		}
		cs := statuses.find(c.Name)
		switch {
		case cs == nil, cs.State.Running != nil:
			n.PendingInit++
		case cs.State.Terminated != nil:
			if t := cs.State.Terminated; t.ExitCode != 0 {
				n.FailedInit++
				if !exitRestartable(spec, c, t) {
					n.FailedInitFinal++
				}
			}
		case cs.State.Waiting != nil:
			if t := cs.LastTerminationState.Terminated; t != nil {
				if t.ExitCode != 0 {
					n.FailedInit++
					if !exitRestartable(spec, c, t) {
						n.FailedInitFinal++
					}
				}
			} else {
				n.PendingInit++
			}
		default:
			n.PendingInit++
		}
	}

	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if !c.IsSidecar() {
			continue
		}
		cs := statuses.find(c.Name)
		switch {
		case cs == nil:
			n.Unknown++
		case cs.State.Running != nil:
			if cs.Started == nil || !*cs.Started {
				n.PendingSidecars++
			}
			n.Running++
		case cs.State.Terminated != nil:
			// A terminated sidecar does not count toward the phase.
		case cs.State.Waiting != nil:
			if cs.LastTerminationState.Terminated == nil {
				n.PendingSidecars++
				n.Waiting++
			}
		default:
			n.PendingSidecars++
			n.Unknown++
		}
	}

	for i := range spec.Containers {
		c := &spec.Containers[i]
		cs := statuses.find(c.Name)
		switch {
		case cs == nil:
			n.Unknown++
		case cs.State.Running != nil:
			n.Running++
		case cs.State.Terminated != nil:
			t := cs.State.Terminated
			n.Stopped++
			if !exitRestartable(spec, c, t) {
				n.StoppedFinal++
			}
			if t.ExitCode == 0 {
				n.Succeeded++
			}
		case cs.State.Waiting != nil:
			if t := cs.LastTerminationState.Terminated; t != nil {
				n.Stopped++
				if !exitRestartable(spec, c, t) {
					n.StoppedFinal++
				}
			} else {
				n.Waiting++
			}
		default:
			n.Unknown++
		}
	}

	if n.FailedInitFinal > 0 {
		return api.PodFailed
	}
	switch {
	case n.PendingInit > 0, n.PendingSidecars > 0 && !opts.PodHasInitialized, n.Waiting > 0:
		return api.PodPending
	case n.Running > 0 && n.Unknown == 0:
		return api.PodRunning
	case n.Running == 0 && n.Stopped > 0 && n.Unknown == 0:
		if opts.PodIsTerminal && !api.IsStaticPod(pod) {
			if n.Stopped == n.Succeeded {
				return api.PodSucceeded
			}
			return api.PodFailed
		}
		if n.Stopped != n.StoppedFinal {
			return api.PodRunning
		}
		if n.Stopped == n.Succeeded {
			return api.PodSucceeded
		}
		return api.PodFailed
	}
	return api.PodPending
}

func explainPhase(p api.PodPhase, n *PhaseCounts, opts PhaseOptions, pod *api.Pod) string {
	switch {
	case n.FailedInitFinal > 0:
		return fmt.Sprintf("%d init container(s) failed and will not be restarted", n.FailedInitFinal)
	case n.PendingInit > 0:
		return fmt.Sprintf("%d init container(s) not yet completed", n.PendingInit)
	case n.PendingSidecars > 0 && !opts.PodHasInitialized:
		return fmt.Sprintf("%d sidecar(s) not yet started", n.PendingSidecars)
	case n.Waiting > 0:
		return fmt.Sprintf("%d container(s) waiting for their first run", n.Waiting)
	case n.Running > 0 && n.Unknown == 0:
		return fmt.Sprintf("%d container(s) running", n.Running)
	case n.Running == 0 && n.Stopped > 0 && n.Unknown == 0:
		switch {
		case opts.PodIsTerminal && !api.IsStaticPod(pod):
			return fmt.Sprintf("pod is terminal: %d of %d stopped container(s) exited 0", n.Succeeded, n.Stopped)
		case p == api.PodRunning:
			return fmt.Sprintf("%d stopped container(s) will be restarted", n.Stopped-n.StoppedFinal)
		}
		return fmt.Sprintf("all containers stopped for good: %d of %d exited 0", n.Succeeded, n.Stopped)
	}
	return fmt.Sprintf("%d container(s) with unknown status", n.Unknown)
}
