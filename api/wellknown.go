package api

// Well-known names that several components (and several podsem packages)
// read or write: the reasons of the DisruptionTarget pod condition and the
// kubelet's pod-source annotations. Each string lives here once; packages
// refer to these constants instead of spelling it again.

// The reasons of a pod's DisruptionTarget condition (k8s.io/api/core/v1),
// one per component that disrupts pods.
const (
	// PodReasonPreemptionByScheduler: kube-scheduler preempts the pod to
	// make room for a higher-priority one.
	PodReasonPreemptionByScheduler = "PreemptionByScheduler"
	// PodReasonDeletionByTaintManager: the NoExecute taint eviction
	// controller deletes the pod for a taint it does not tolerate.
	PodReasonDeletionByTaintManager = "DeletionByTaintManager"
	// PodReasonEvictionByEvictionAPI: the pods/eviction subresource evicts
	// the pod (kubectl drain, the descheduler, ...).
	PodReasonEvictionByEvictionAPI = "EvictionByEvictionAPI"
	// PodReasonDeletionByPodGC: the pod garbage collector deletes the pod
	// because its node is gone.
	PodReasonDeletionByPodGC = "DeletionByPodGC"
	// PodReasonTerminationByKubelet: the kubelet itself terminates the pod
	// (node-pressure eviction, graceful node shutdown).
	PodReasonTerminationByKubelet = "TerminationByKubelet"
)

// The reasons of a pod's PodScheduled=False condition (k8s.io/api/core/v1).
const (
	// PodReasonUnschedulable: kube-scheduler found no node for the pod;
	// the condition's message is the FitError ("0/N nodes are
	// available: ...").
	PodReasonUnschedulable = "Unschedulable"
	// PodReasonSchedulerError: a scheduling attempt failed with an error
	// (a plugin error, no nodes at all) rather than a rejection.
	PodReasonSchedulerError = "SchedulerError"
	// PodReasonSchedulingGated: the pod still has scheduling gates, so the
	// scheduler does not try it; the API server sets it on create and
	// kubectl shows it as the pod's STATUS.
	PodReasonSchedulingGated = "SchedulingGated"
	// MessageSchedulingGated is the message of the SchedulingGated
	// condition the API server writes on create.
	MessageSchedulingGated = "Scheduling is blocked due to non-empty scheduling gates"
)

// PodStatusReasonEvicted is status.reason of a pod the kubelet evicted
// under node pressure (pkg/kubelet/eviction, phase Failed); pod GC deletes
// such pods first and kubectl shows the reason as the pod's STATUS.
const PodStatusReasonEvicted = "Evicted"

// The annotations the kubelet uses to tell where a pod came from
// (pkg/kubelet/types).
const (
	// ConfigSourceAnnotationKey is set by the kubelet on every pod it runs:
	// "api" for a pod from the API server, a file path or an HTTP URL for a
	// static pod.
	ConfigSourceAnnotationKey = "kubernetes.io/config.source"
	// ConfigSourceAPI is the ConfigSourceAnnotationKey value of pods from
	// the API server.
	ConfigSourceAPI = "api"
	// ConfigMirrorAnnotationKey marks a mirror pod: the API object the
	// kubelet creates to show one of its static pods. kubectl drain skips
	// such pods, and the API server forbids changing the annotation.
	ConfigMirrorAnnotationKey = "kubernetes.io/config.mirror"
)

// IsMirrorPod reports whether pod is a mirror pod (it carries
// ConfigMirrorAnnotationKey, whatever the value). A nil pod is not.
func IsMirrorPod(pod *Pod) bool {
	if pod == nil {
		return false
	}
	_, ok := pod.Annotations[ConfigMirrorAnnotationKey]
	return ok
}

// IsStaticPod reports whether the kubelet treats pod as a static pod
// (pkg/kubelet/types IsStaticPod): its ConfigSourceAnnotationKey is present
// and is not ConfigSourceAPI (a file or an HTTP URL). A nil pod is not.
func IsStaticPod(pod *Pod) bool {
	if pod == nil {
		return false
	}
	src, ok := pod.Annotations[ConfigSourceAnnotationKey]
	return ok && src != ConfigSourceAPI
}

// IsCriticalPod reports whether the kubelet treats pod as critical
// (pkg/kubelet/types IsCriticalPod): a static pod, a mirror pod, or a pod
// whose spec.priority is at least SystemCriticalPriority. The kubelet's
// eviction manager never evicts a critical pod and admits one even under
// pressure. A nil pod is not critical.
func IsCriticalPod(pod *Pod) bool {
	if pod == nil {
		return false
	}
	return IsStaticPod(pod) || IsMirrorPod(pod) ||
		(pod.Spec.Priority != nil && *pod.Spec.Priority >= SystemCriticalPriority)
}
