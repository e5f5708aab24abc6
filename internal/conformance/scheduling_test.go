package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

func init() {
	register("resources.pod-requests", runPodRequests)
}

// runPodRequests: scheduling.PodRequests and PodLimits on one pod, after
// the API server's defaulting when the case says it was applied.
func runPodRequests(input, want json.RawMessage) error {
	var in struct {
		Pod              api.Pod `json:"pod"`
		ApplyAPIDefaults bool    `json:"apply_api_defaults"`
		Options          struct {
			UseStatusResources                             bool             `json:"use_status_resources"`
			InPlacePodLevelResourcesVerticalScalingEnabled bool             `json:"in_place_pod_level_resources_vertical_scaling_enabled"`
			ExcludeOverhead                                bool             `json:"exclude_overhead"`
			NonMissingContainerRequests                    api.ResourceList `json:"non_missing_container_requests"`
			SkipPodLevelResources                          bool             `json:"skip_pod_level_resources"`
			SkipContainerLevelResources                    bool             `json:"skip_container_level_resources"`
			UseDRANodeAllocatableResourceClaimStatus       bool             `json:"use_dra_node_allocatable_resource_claim_status"`
		} `json:"options"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	if in.ApplyAPIDefaults {
		api.DefaultPod(&in.Pod)
	}
	o := in.Options
	opts := scheduling.RequestOptions{
		UseStatusResources: o.UseStatusResources,
		InPlacePodLevelResourcesVerticalScalingEnabled: o.InPlacePodLevelResourcesVerticalScalingEnabled,
		ExcludeOverhead:                          o.ExcludeOverhead,
		NonMissingContainerRequests:              o.NonMissingContainerRequests,
		SkipPodLevelResources:                    o.SkipPodLevelResources,
		SkipContainerLevelResources:              o.SkipContainerLevelResources,
		UseDRANodeAllocatableResourceClaimStatus: o.UseDRANodeAllocatableResourceClaimStatus,
	}
	reqs := ResourceListStrings(scheduling.PodRequests(&in.Pod, opts))
	lims := ResourceListStrings(scheduling.PodLimits(&in.Pod, opts))
	if !EqualResourceLists(w.Requests, reqs) {
		return Mismatch("requests", w.Requests, reqs)
	}
	if !EqualResourceLists(w.Limits, lims) {
		return Mismatch("limits", w.Limits, lims)
	}
	return nil
}
