package scheduling

import "github.com/podsem/podsem/api"

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
func FitRequestOptions() api.PodResourcesOptions {
	return api.PodResourcesOptions{
		UseStatusResources: true,
		InPlacePodLevelResourcesVerticalScalingEnabled: true,
	}
}

// ScoreRequestOptions returns FitRequestOptions plus the non-zero defaults
// (DefaultMilliCPURequest, DefaultMemoryRequest) that kube-scheduler's
// resource-allocation scorers use for containers that leave cpu or memory
// unrequested, so that best-effort pods still weigh something.
func ScoreRequestOptions() api.PodResourcesOptions {
	o := FitRequestOptions()
	o.NonMissingContainerRequests = api.ResourceList{
		api.ResourceCPU:    api.NewMilliQuantity(DefaultMilliCPURequest, api.DecimalSI),
		api.ResourceMemory: api.NewQuantity(DefaultMemoryRequest, api.BinarySI),
	}
	return o
}
