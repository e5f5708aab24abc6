package nodepressure

import "github.com/podsem/podsem/api"

// EventEvictionThresholdMet is the reason of the node event the eviction
// manager records when it sets out to reclaim a resource.
const EventEvictionThresholdMet = "EvictionThresholdMet"

// The annotations the kubelet's eviction manager puts on an Evicted event
// (pkg/kubelet/eviction OffendingContainersKey and the others).
const (
	// AnnotationStarvedResource is the resource being reclaimed.
	AnnotationStarvedResource = "starved_resource"
	// AnnotationOffendingContainers lists, comma-separated, the containers
	// the message names for using more than they request.
	AnnotationOffendingContainers = "offending_containers"
	// AnnotationOffendingContainersUsage is their usage, in the same order.
	AnnotationOffendingContainersUsage = "offending_containers_usage"
	// AnnotationOffendingPod and AnnotationOffendingPodUsage name the pod
	// and its memory usage when its pod-level memory request is exceeded.
	AnnotationOffendingPod      = "offending_pod"
	AnnotationOffendingPodUsage = "offending_pod_usage"
)

// ThresholdMetEvent is the Warning EvictionThresholdMet event the kubelet's
// eviction manager records on its node (named node; the kubelet's node
// reference carries no UID) when a pass sets out to reclaim resource:
// "Attempting to reclaim <resource>", e.g. "Attempting to reclaim memory".
func ThresholdMetEvent(node string, resource api.ResourceName) api.Event {
	return api.Event{
		Type:      api.EventTypeWarning,
		Reason:    EventEvictionThresholdMet,
		Note:      "Attempting to reclaim " + string(resource),
		Regarding: api.NodeReference(node, ""),
		Source:    api.EventSourceKubelet,
	}
}
