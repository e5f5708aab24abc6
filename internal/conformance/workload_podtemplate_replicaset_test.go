package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The ReplicaSet kind of workload.pod-template: the one pod
// manageReplicas creates, through RealPodControl.CreatePods.
func init() {
	podTemplateKinds["ReplicaSet"] = func(input json.RawMessage) ([]*api.Pod, error) {
		var in struct {
			Owner api.ReplicaSet `json:"owner"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("decoding input: %w", err)
		}
		rs := &in.Owner
		ref := workloads.NewControllerRef(&rs.ObjectMeta, "apps/v1", "ReplicaSet")
		pod, err := workloads.CreatePodFromTemplate(&rs.Spec.Template, rs.Name, "", &ref)
		if err != nil {
			return nil, err
		}
		return []*api.Pod{pod}, nil
	}
}
