package scheduling

import "github.com/podsem/podsem/api"

// RequestOptions tunes PodRequests and PodLimits. It is the same value as
// api.PodResourcesOptions (component-helpers' resource.PodResourcesOptions
// in Kubernetes); the zero value is the plain spec computation, overhead
// included, with neither in-place resize state nor DRA claims considered.
//
// kube-scheduler v1.36.3 computes a pod's requests for NodeResourcesFit with
// UseStatusResources and InPlacePodLevelResourcesVerticalScalingEnabled set
// (see FitRequestOptions), and for its least/most-allocated scoring with
// NonMissingContainerRequests as well (see ScoreRequestOptions).
type RequestOptions = api.PodResourcesOptions

// Default request values kube-scheduler's resource scorers substitute for a
// container that requests no cpu or memory at all (pkg/scheduler/util's
// DefaultMilliCPURequest and DefaultMemoryRequest): 100m cpu, 200Mi memory.
const (
	DefaultMilliCPURequest int64 = 100
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024
)

// FitRequestOptions returns the options kube-scheduler v1.36.3's
// NodeResourcesFit plugin computes pod requests with: the larger of the
// spec and the in-place resize state (InPlacePodVerticalScaling and
// InPlacePodLevelResourcesVerticalScaling are on by default), overhead
// included.
func FitRequestOptions() RequestOptions {
	return RequestOptions{
		UseStatusResources: true,
		InPlacePodLevelResourcesVerticalScalingEnabled: true,
	}
}

// ScoreRequestOptions returns FitRequestOptions plus the non-zero defaults
// (DefaultMilliCPURequest, DefaultMemoryRequest) that kube-scheduler's
// resource-allocation scorers use for containers that leave cpu or memory
// unrequested, so that best-effort pods still weigh something.
func ScoreRequestOptions() RequestOptions {
	o := FitRequestOptions()
	o.NonMissingContainerRequests = api.ResourceList{
		api.ResourceCPU:    api.NewMilliQuantity(DefaultMilliCPURequest, api.DecimalSI),
		api.ResourceMemory: api.NewQuantity(DefaultMemoryRequest, api.BinarySI),
	}
	return o
}

// PodRequests is the pod's effective resource requests, the amount the
// scheduler reserves on a node and the kubelet admits against, as
// component-helpers' resource.PodRequests computes it in Kubernetes
// v1.36.3:
//
//   - regular containers and sidecars (init containers with restartPolicy
//     Always) add up;
//   - every regular init container, together with the sidecars declared
//     before it, is a floor the result never goes below (init containers
//     run one at a time, while earlier sidecars keep running);
//   - pod-level spec.resources.requests replace the aggregate for the
//     resources they name (cpu, memory and hugepages-* only);
//   - spec.overhead is added for every resource it names, unless
//     opts.ExcludeOverhead.
//
// The input is read as given, not API-defaulted: a container with limits
// but no requests requests nothing. Call api.DefaultPod first to see what
// the API server would store. The result is a fresh list the caller owns;
// a resource nobody mentions is absent, one mentioned with 0 is present.
// A nil pod requests nothing: the result is empty.
func PodRequests(pod *api.Pod, opts RequestOptions) api.ResourceList {
	if pod == nil {
		return api.ResourceList{}
	}
	return api.PodRequests(pod, opts)
}

// PodLimits is the pod's effective resource limits, as component-helpers'
// resource.PodLimits computes them: the same sidecar-aware aggregate as
// PodRequests over container limits, replaced by pod-level
// spec.resources.limits where named, plus overhead only for the resources
// that already have a non-zero limit (an unlimited resource stays
// unlimited). NonMissingContainerRequests and SkipContainerLevelResources
// do not apply to limits. A nil pod has no limits: the result is empty.
func PodLimits(pod *api.Pod, opts RequestOptions) api.ResourceList {
	if pod == nil {
		return api.ResourceList{}
	}
	return api.PodLimits(pod, opts)
}
