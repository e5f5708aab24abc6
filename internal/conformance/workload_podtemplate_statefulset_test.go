package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The StatefulSet kind of workload.pod-template: the pods the first sync
// of a new set (no pods, claims or revisions yet) creates —
// newVersionedStatefulSetPod through CreateStatefulPod — taken from
// ReconcileStatefulSet's create actions, in ordinal order.
func init() {
	podTemplateKinds["StatefulSet"] = func(input json.RawMessage) ([]*api.Pod, error) {
		var in struct {
			Owner api.StatefulSet `json:"owner"`
			Now   api.Time        `json:"now"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("decoding input: %w", err)
		}
		res, err := workloads.ReconcileStatefulSet(workloads.StatefulSetInput{Set: &in.Owner}, workloads.StatefulSetConfig{}, in.Now.Time)
		if err != nil {
			return nil, err
		}
		if res.Err != nil {
			return nil, res.Err
		}
		var pods []*api.Pod
		for _, a := range res.Actions {
			if a.Kind == workloads.StatefulSetCreate {
				pods = append(pods, a.Object)
			}
		}
		return pods, nil
	}
}
