package termination

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// ForceDeleteWarning is the warning kubectl prints (as "Warning: ...") for a
// delete with --force --grace-period=0. A client offering force deletion
// should show it, or its equivalent, before proceeding.
const ForceDeleteWarning = "Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely."

// IsForceDeletion reports whether a DELETE with these options is a force
// deletion: gracePeriodSeconds is 0, so the API server removes the object at
// once without waiting for the kubelet to confirm that the pod's processes
// have stopped. Nil options (a DELETE without a body) are not.
func IsForceDeletion(opts *api.DeleteOptions) bool {
	return opts != nil && opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds == 0
}

// Actor is who issues a DELETE of a pod. Pod safety (the design proposal
// "Pod Safety, Consistency Guarantees, and Storage Implications",
// community/contributors/design-proposals/storage/pod-safety.md) limits which actors may force-delete.
type Actor string

// The actors of pod deletion.
const (
	// ActorKubelet is the kubelet of the pod's node: in normal operation the
	// only component that removes a pod from storage, and only after it
	// confirmed that every process of the pod has terminated.
	ActorKubelet Actor = "Kubelet"
	// ActorPodGC is the pod garbage collector, which force-deletes pods on
	// nodes that no longer exist (node deletion is the signal of a
	// permanent partition), pods on nodes an administrator marked
	// out-of-service, terminated pods and unscheduled terminating pods.
	ActorPodGC Actor = "PodGC"
	// ActorUser is a person or tool acting for one: allowed to force-delete,
	// but only knowingly.
	ActorUser Actor = "User"
	// ActorController is any other controller (node lifecycle, namespace,
	// garbage collector, workload controllers, eviction): limited to
	// starting a graceful deletion.
	ActorController Actor = "Controller"
)

// ForceDeleteRequest describes a proposed force deletion of a pod.
type ForceDeleteRequest struct {
	Actor Actor
	// TerminationConfirmed: every container of the pod is known to have
	// terminated (what the kubelet waits for before its final delete).
	TerminationConfirmed bool
	// NodeExists: the Node object the pod is bound to still exists.
	NodeExists bool
	// NodeOutOfService: the pod's node is not Ready and tainted
	// node.kubernetes.io/out-of-service by an administrator who asserts it
	// is shut down.
	NodeOutOfService bool
	// Acknowledged: a user has been shown ForceDeleteWarning and insists
	// (kubectl's --force --grace-period=0).
	Acknowledged bool
}

// ForceDecision says whether an actor may force-delete a pod and what it
// risks.
type ForceDecision struct {
	Allowed bool
	// AtMostOneAtRisk reports that the pod's processes may still be running
	// when the object disappears, so a replacement with the same identity
	// (a StatefulSet pod) could run beside them: the at-most-one guarantee
	// is given up.
	AtMostOneAtRisk bool
	// Warning is what a client should show before proceeding, or "".
	Warning string
	// Reason explains the decision.
	Reason string
}

// MayForceDelete applies the pod-safety rules (the pod-safety design
// proposal, as the components of v1.36.3 follow them): removing a pod object with grace 0
// releases its name at once while its processes may keep running, so only
// the kubelet (after confirming termination), the pod garbage collector (for
// pods whose node is gone or out of service, or that never ran or already
// finished) and a user who knowingly accepts the risk may do it. Other
// controllers may only start a graceful deletion. A pod that was never
// scheduled or is already Succeeded or Failed has no processes, so removing
// it is safe for anyone. A nil pod decides nothing: the result is the zero
// ForceDecision (not allowed).
func MayForceDelete(pod *api.Pod, req ForceDeleteRequest) ForceDecision {
	if pod == nil {
		return ForceDecision{}
	}
	if pod.Spec.NodeName == "" {
		return ForceDecision{Allowed: true, Reason: "the pod was never scheduled: no process can be running"}
	}
	if pod.Status.Phase.IsTerminal() {
		return ForceDecision{Allowed: true, Reason: fmt.Sprintf("the pod is %s: its containers have stopped", pod.Status.Phase)}
	}
	switch req.Actor {
	case ActorKubelet:
		if req.TerminationConfirmed {
			return ForceDecision{Allowed: true, Reason: "the kubelet confirmed every container terminated; deleting with grace 0 is its normal last step"}
		}
		return ForceDecision{Reason: "the kubelet must not remove the pod until all of its processes are confirmed terminated"}
	case ActorPodGC:
		switch {
		case !req.NodeExists:
			return ForceDecision{Allowed: true, Reason: "the pod's node no longer exists; node deletion is taken as proof of a permanent partition"}
		case req.NodeOutOfService:
			return ForceDecision{Allowed: true, Reason: "the pod's node is not Ready and tainted out-of-service: an administrator asserts it is shut down"}
		case req.TerminationConfirmed:
			return ForceDecision{Allowed: true, Reason: "the pod's processes are confirmed terminated"}
		}
		return ForceDecision{Reason: "the pod garbage collector force-deletes only pods whose node is gone or out of service, or whose processes are known to have stopped"}
	case ActorUser:
		if req.TerminationConfirmed {
			return ForceDecision{Allowed: true, Reason: "the pod's processes are confirmed terminated"}
		}
		if req.Acknowledged {
			return ForceDecision{Allowed: true, AtMostOneAtRisk: true, Warning: ForceDeleteWarning,
				Reason: "a user may force-delete knowingly; the pod's processes may keep running and a replacement may start beside them"}
		}
		return ForceDecision{AtMostOneAtRisk: true, Warning: ForceDeleteWarning,
			Reason: "a user must acknowledge that force deletion does not wait for the pod's processes to stop"}
	}
	return ForceDecision{Reason: fmt.Sprintf("%s may only request a graceful deletion; force deletion is reserved to the kubelet, the pod garbage collector and users", actorName(req.Actor))}
}

func actorName(a Actor) string {
	if a == "" {
		return "an unnamed actor"
	}
	return string(a)
}

// KubectlDeleteFlags are the kubectl delete flags that shape the request.
type KubectlDeleteFlags struct {
	// GracePeriod is --grace-period; nil means the flag was not given (the
	// pod's own terminationGracePeriodSeconds applies).
	GracePeriod *int64
	// Force is --force.
	Force bool
	// Now is --now (grace period 1).
	Now bool
}

// ErrKubectlFlags is wrapped by KubectlDeleteOptions errors for flag
// combinations kubectl rejects.
var ErrKubectlFlags = errors.New("kubectl delete: invalid flags")

// KubectlDeleteOptions returns the DeleteOptions kubectl delete sends for
// these flags, and the warning it prints, as kubectl v1.36 does: --now means
// grace 1; --grace-period=0 without --force becomes 1; --force without a
// grace period becomes 0 and prints ForceDeleteWarning; --force with a
// positive grace period, or --now with --grace-period, is an error. Without
// flags the options carry no grace period and propagation Background.
func KubectlDeleteOptions(f KubectlDeleteFlags) (api.DeleteOptions, string, error) {
	grace := int64(-1)
	if f.GracePeriod != nil {
		grace = *f.GracePeriod
	}
	if f.Now {
		if f.GracePeriod != nil {
			return api.DeleteOptions{}, "", fmt.Errorf("%w: --now and --grace-period cannot be specified together", ErrKubectlFlags)
		}
		grace = 1
	}
	if grace == 0 && !f.Force {
		grace = 1
	}
	if f.Force && grace < 0 {
		grace = 0
	}
	var warning string
	switch {
	case grace == 0 && f.Force:
		warning = ForceDeleteWarning
	case grace > 0 && f.Force:
		return api.DeleteOptions{}, "", fmt.Errorf("%w: --force and --grace-period greater than 0 cannot be specified together", ErrKubectlFlags)
	}
	opts := api.DeleteOptions{PropagationPolicy: ptr("Background")}
	if grace >= 0 {
		opts.GracePeriodSeconds = ptr(grace)
	}
	return opts, warning, nil
}
