package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// The Job kind of workload.pod-template: the pods the first sync of a new
// Job (no pods yet) creates, ordered by completion index.
func init() {
	podTemplateKinds["Job"] = func(input json.RawMessage) ([]*api.Pod, error) {
		var in struct {
			Owner api.Job `json:"owner"`
		}
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("decoding input: %w", err)
		}
		now := in.Owner.CreationTimestamp.Time
		if in.Owner.Status.StartTime != nil {
			now = in.Owner.Status.StartTime.Time
		}
		res, err := workloads.SyncJob(&in.Owner, nil, workloads.JobConfig{}, now)
		if err != nil {
			return nil, err
		}
		if res.Err != nil {
			return nil, res.Err
		}
		pods := res.Created()
		index := func(p *api.Pod) int {
			i, err := strconv.Atoi(p.Annotations[workloads.JobCompletionIndexAnnotation])
			if err != nil {
				return -1
			}
			return i
		}
		sort.SliceStable(pods, func(i, j int) bool { return index(pods[i]) < index(pods[j]) })
		return pods, nil
	}
}
