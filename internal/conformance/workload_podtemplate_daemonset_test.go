package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/workloads"
)

// workload.pod-template, kind DaemonSet: the pod the DaemonSet controller
// creates for one node, with the revision hash the case names.

func init() {
	podTemplateKinds["DaemonSet"] = buildDaemonSetTemplatePods
}

func buildDaemonSetTemplatePods(input json.RawMessage) ([]*api.Pod, error) {
	var in struct {
		Owner        api.DaemonSet `json:"owner"`
		NodeName     string        `json:"nodeName"`
		RevisionHash string        `json:"revisionHash"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, fmt.Errorf("decoding input: %w", err)
	}
	pod, err := workloads.NewDaemonPod(&in.Owner, in.NodeName, in.RevisionHash)
	if err != nil {
		return nil, err
	}
	return []*api.Pod{pod}, nil
}
