package lifecycle

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
	"github.com/podsem/podsem/scheduling"
)

// The kubelet's pod admission. A pod the scheduler (or a static pod
// manifest) binds to a node is not run at once: the kubelet first asks its
// admit handlers, in order, whether it may (pkg/kubelet
// canAdmitPod/HandlePodAdditions), and the first one that refuses decides.
// A refused pod never starts: the kubelet writes it phase Failed with the
// handler's reason (rejectPod). Admit is that decision for a linux kubelet
// of v1.36.3 with its default configuration.

// AdmitHandler names one of the kubelet's admit handlers, in the order
// the kubelet runs them.
type AdmitHandler string

// The admit handlers a default-config linux kubelet runs that need no
// container runtime, in order.
const (
	// AdmitHandlerEviction is the eviction manager (pkg/kubelet/eviction
	// managerImpl.Admit): no new pods under node pressure.
	AdmitHandlerEviction AdmitHandler = "eviction"
	// AdmitHandlerSysctl is the sysctl allowlist (pkg/kubelet/sysctl).
	AdmitHandlerSysctl AdmitHandler = "sysctl"
	// AdmitHandlerPredicate is the predicate handler
	// (pkg/kubelet/lifecycle/predicate.go): the OS checks,
	// SupplementalGroupsPolicy, kube-scheduler's GeneralPredicates and
	// NoExecute taints, with critical-pod preemption
	// (pkg/kubelet/preemption) when only resources are short.
	AdmitHandlerPredicate AdmitHandler = "predicate"
	// AdmitHandlerPodFeatures is the pod features handler
	// (pkg/kubelet/lifecycle NewPodFeaturesAdmitHandler): it refuses
	// pod-level resources when the PodLevelResources feature gate is off,
	// which in v1.36.3 it is not, so it admits every pod.
	AdmitHandlerPodFeatures AdmitHandler = "pod-features"
	// AdmitHandlerNodeShutdown is the node shutdown manager
	// (pkg/kubelet/nodeshutdown managerImpl.Admit), the kubelet's last
	// admit handler: no new pod while the node shuts down.
	AdmitHandlerNodeShutdown AdmitHandler = "nodeshutdown"
)

// ReasonNodeShutdownNotAdmitted and NodeShutdownNotAdmittedMessage are the
// reason and message the node shutdown manager refuses a pod with while
// the node is shutting down (pkg/kubelet/nodeshutdown).
const (
	ReasonNodeShutdownNotAdmitted  = "NodeShutdown"
	NodeShutdownNotAdmittedMessage = "Pod was rejected as the node is shutting down."
)

// The reasons the kubelet's admit handlers give a refused pod (the
// rejected pod's status.reason). The eviction manager's is
// api.PodStatusReasonEvicted.
const (
	// ReasonSysctlForbidden: a sysctl of the pod is not on the
	// allowlist, or is a namespaced one the pod shares with the host.
	ReasonSysctlForbidden = "SysctlForbidden"
	// ReasonPodOSSelectorNodeLabelDoesNotMatch: the pod's own
	// kubernetes.io/os label names another OS than the kubelet's.
	ReasonPodOSSelectorNodeLabelDoesNotMatch = "PodOSSelectorNodeLabelDoesNotMatch"
	// ReasonPodOSNotSupported: spec.os.name is not the kubelet's OS.
	ReasonPodOSNotSupported = "PodOSNotSupported"
	// ReasonSupplementalGroupsPolicyNotSupported: the pod asks for
	// supplementalGroupsPolicy Strict and the node does not report
	// supporting it.
	ReasonSupplementalGroupsPolicyNotSupported = "SupplementalGroupsPolicyNotSupported"
	// ReasonUnexpectedAdmissionError: a critical pod short of resources
	// could not be admitted by preempting other pods.
	ReasonUnexpectedAdmissionError = "UnexpectedAdmissionError"
	// ReasonOutOfPrefix starts the reason of a pod refused for a resource:
	// OutOfcpu, OutOfmemory, OutOfephemeral-storage, OutOfpods,
	// OutOfexample.com/gpu.
	ReasonOutOfPrefix = "OutOf"
	// ReasonPreempting is the reason written on the pods the kubelet
	// preempts to admit a critical pod (events.PreemptContainer).
	ReasonPreempting = "Preempting"
)

// PreemptedMessage is the status message written on the pods the kubelet
// preempts to admit a critical pod; PreemptedConditionMessage is the
// message of their DisruptionTarget condition.
const (
	PreemptedMessage          = "Preempted in order to admit critical pod"
	PreemptedConditionMessage = "Pod was preempted by Kubelet to accommodate a critical pod."
)

// rejectedMessagePrefix starts the message of a rejected pod's status.
const rejectedMessagePrefix = "Pod was rejected: "

// AdmitInput is what the kubelet's admit handlers see of a pod bound to
// its node.
type AdmitInput struct {
	// Node is the kubelet's cached Node object: labels, spec.taints,
	// status.allocatable, status.features. It is not modified.
	Node *api.Node
	// Pod is the pod asked about, as the API server stores it (no API
	// defaulting is applied here).
	Pod *api.Pod
	// Pods are the other pods the kubelet already admitted and that are
	// still active on the node (not terminal), in the order the kubelet
	// lists them; preemption breaks ties by that order.
	Pods []*api.Pod
	// NodeConditions are the pressure conditions the eviction manager
	// currently reports (MemoryPressure, DiskPressure, PIDPressure), as
	// nodepressure.Admit takes them; none means no pressure.
	NodeConditions []api.NodeConditionType
	// Config is the kubelet's configuration and host facts the handlers
	// read; its zero value is a default-config kubelet on a kernel of
	// unknown version.
	Config AdmitConfig
	// ShuttingDown reports that the kubelet's node shutdown manager has
	// seen the node's shutdown begin (graceful node shutdown): its admit
	// handler then refuses every pod.
	ShuttingDown bool
	// Now is when the kubelet admits the pod: the lastTransitionTime of
	// the DisruptionTarget condition it writes on pods it preempts.
	Now time.Time
}

// AdmitConfig holds what of the kubelet's configuration and host the
// admit handlers read.
type AdmitConfig struct {
	// AllowedUnsafeSysctls is the kubelet's --allowed-unsafe-sysctls: sysctl
	// names and patterns ending in '*' (kernel.msg*, net.*), in either
	// separator spelling, each known to be namespaced. Empty (the default)
	// allows only the safe sysctls.
	AllowedUnsafeSysctls []string
	// KernelVersion is the node's kernel release (uname -r, e.g.
	// "6.8.0-45-generic"), which decides which safe sysctls exist there.
	// Empty or unparsable means unknown: the kubelet then allows only the
	// safe sysctls that need no particular kernel.
	KernelVersion string
}

// AdmitResult is the kubelet's verdict on a pod.
type AdmitResult struct {
	// Admit says the pod may run.
	Admit bool
	// Handler is the admit handler that refused the pod ("" when admitted).
	Handler AdmitHandler
	// Reason and Message are the refusing handler's, exactly as upstream
	// words them (e.g. OutOfmemory, "Node didn't have enough resource:
	// memory, requested: 536870912, used: 5368709120, capacity:
	// 4294967296").
	Reason  string
	Message string
	// Status is the status the kubelet writes for a refused pod
	// (rejectPod): phase Failed, the reason, the message prefixed with
	// "Pod was rejected: ", and the pod's QoS class. Zero when admitted.
	Status api.PodStatus
	// Preempted lists the pods the kubelet preempted to admit a critical
	// pod, in the order it kills them; empty otherwise.
	Preempted []Preemption
	// Insufficient lists every resource the node was short of for the pod
	// (kube-scheduler's NodeResourcesFit numbers: requested, used,
	// capacity = allocatable) when the predicate handler found any: the
	// first is the one Reason names, or, for a critical pod, those the
	// preemption had to free. Upstream reports the first short extended
	// resource in Go map order, which is random; Admit reports the first
	// by name, and Insufficient shows the others.
	Insufficient []scheduling.InsufficientResource
}

// Preemption is one pod the kubelet kills to admit a critical pod, and the
// status it writes for it.
type Preemption struct {
	// Pod is one of AdmitInput.Pods.
	Pod *api.Pod
	// Status is the pod's status with phase Failed, reason
	// ReasonPreempting and message PreemptedMessage, and a DisruptionTarget
	// condition (True, TerminationByKubelet, PreemptedConditionMessage),
	// as termination.KubeletKillStatus writes it at AdmitInput.Now.
	Status api.PodStatus
	// Event is the Warning event the kubelet records on Pod before it
	// kills it: reason ReasonPreempting, note PreemptedMessage, source
	// kubelet.
	Event api.Event
	// Kill is the event that has Pod's machine carry the kill out
	// (KilledForCriticalPod): no grace-period override, and from then on
	// Status's phase, reason, message and DisruptionTarget condition.
	Kill Event
}

// Admit runs the kubelet's admit handlers on in.Pod, as a linux kubelet of
// v1.36.3 with default feature gates runs those that need no container
// runtime, in its order; the first refusal decides:
//
//  1. the eviction manager (nodepressure.Admit): under DiskPressure or
//     PIDPressure no pod but a critical one, under MemoryPressure alone no
//     BestEffort pod that does not tolerate the memory-pressure taint;
//  2. the sysctl allowlist: every sysctl of the pod must be a safe sysctl
//     for the kernel or match in.Config.AllowedUnsafeSysctls, and a
//     network (IPC) sysctl is refused to a pod on the host network (IPC
//     namespace);
//  3. the predicate handler: the pod's kubernetes.io/os label and
//     spec.os must say linux; supplementalGroupsPolicy Strict needs the
//     node's support; then kube-scheduler's GeneralPredicates
//     (scheduling.AdmissionCheck: resources including the pod count and
//     extended resources the node lists, node affinity and nodeSelector,
//     spec.nodeName, host ports) and the node's NoExecute taints (not for
//     static pods). Only the first failure is reported. A critical pod
//     (api.IsCriticalPod) short only of resources is admitted after the
//     kubelet preempts other pods (AdmitResult.Preempted), or refused with
//     UnexpectedAdmissionError when no set of pods frees enough;
//  4. the pod features handler, which admits every pod in v1.36.3;
//  5. the node shutdown manager: while in.ShuttingDown, every pod is
//     refused with ReasonNodeShutdownNotAdmitted.
//
// Where several extended resources fall short, the kubelet meets them in
// Go map order, which is random; Admit takes them by name, both for the
// resource Reason names and in a failed preemption's message
// (AdmitResult.Insufficient lists them all). Extended resources backed by
// DRA claims (DRAExtendedResource) are not modelled, nor is the
// NotEvictPodOnKubeletRestart feature gate's skipping of checks for pods
// that already started.
//
// Like the kubelet, Admit compares the pod's OS with its own (linux), not
// with the node's kubernetes.io/os label: the kubelet overwrites that
// label in its cached node with linux before the node-affinity check, and
// when node affinity is the only failure it re-reads the node (in.Node
// unchanged) and checks again.
//
// A nil node or pod, a node without a name, or a nil element of in.Pods is
// an error wrapping api.ErrInvalidInput; so is an entry of
// in.Config.AllowedUnsafeSysctls the kubelet refuses at start-up (not a
// valid sysctl pattern, or not known to be namespaced), with the kubelet's
// message.
func Admit(in AdmitInput) (AdmitResult, error) {
	if err := in.validate(); err != nil {
		return AdmitResult{}, err
	}
	sc := in.Pod.Spec.SecurityContext
	allow, err := newSysctlAllowlist(in.Config, sc != nil && len(sc.Sysctls) > 0)
	if err != nil {
		return AdmitResult{}, err
	}
	pod := in.Pod

	if a := nodepressure.Admit(pod, in.NodeConditions); !a.Admit {
		return rejected(pod, AdmitHandlerEviction, a.Reason, a.Message), nil
	}
	if msg, ok := allow.admit(pod); !ok {
		return rejected(pod, AdmitHandlerSysctl, ReasonSysctlForbidden, msg), nil
	}
	v, err := admitPredicates(in)
	if err != nil {
		return AdmitResult{}, err
	}
	if !v.admit {
		r := rejected(pod, AdmitHandlerPredicate, v.reason, v.message)
		r.Insufficient = v.insufficient
		return r, nil
	}
	// The pod features handler admits every pod: PodLevelResources is on
	// by default in v1.36.3.
	if in.ShuttingDown {
		r := rejected(pod, AdmitHandlerNodeShutdown, ReasonNodeShutdownNotAdmitted, NodeShutdownNotAdmittedMessage)
		r.Preempted, r.Insufficient = v.preempted, v.insufficient
		return r, nil
	}
	return AdmitResult{Admit: true, Preempted: v.preempted, Insufficient: v.insufficient}, nil
}

// validate checks the objects Admit reads.
func (in *AdmitInput) validate() error {
	switch {
	case in.Node == nil:
		return fmt.Errorf("%w: admit: node: nil", api.ErrInvalidInput)
	case in.Node.Name == "":
		return fmt.Errorf("%w: admit: node: metadata.name: empty", api.ErrInvalidInput)
	case in.Pod == nil:
		return fmt.Errorf("%w: admit: pod: nil", api.ErrInvalidInput)
	}
	for i, p := range in.Pods {
		if p == nil {
			return fmt.Errorf("%w: admit: pods[%d]: nil", api.ErrInvalidInput, i)
		}
	}
	return nil
}

// rejected is the kubelet's rejectPod: the verdict and the status it
// writes, phase Failed with the pod's QoS class.
func rejected(pod *api.Pod, h AdmitHandler, reason, message string) AdmitResult {
	return AdmitResult{
		Handler: h,
		Reason:  reason,
		Message: message,
		Status: api.PodStatus{
			Phase:    api.PodFailed,
			Reason:   reason,
			Message:  rejectedMessagePrefix + message,
			QOSClass: api.PodQOS(pod),
		},
	}
}

// MachineEvent is the event that hands this verdict to the pod's Machine
// on node: Scheduled(node) when the pod is admitted, Rejected(node, reason,
// message) when the kubelet refuses it, after which the Machine reports the
// status rejectPod writes and runs nothing.
func (r AdmitResult) MachineEvent(node string) Event {
	return Admission(node, r.Admit, r.Reason, r.Message)
}
