package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/downward"
)

func init() {
	register("downward.fieldref", runDownwardFieldRef)
	register("downward.resourcefieldref", runDownwardResourceFieldRef)
}

// downwardAnswer is one {value} or {error: true} answer.
type downwardAnswer struct {
	Value *string `json:"value,omitempty"`
	Error bool    `json:"error,omitempty"`
}

func (a downwardAnswer) check(what string, got string, err error) error {
	switch {
	case a.Error && err == nil:
		return Mismatch(what, map[string]any{"error": true}, map[string]any{"value": got})
	case !a.Error && err != nil:
		return Mismatch(what, a, map[string]any{"error": err.Error()})
	case !a.Error && a.Value == nil:
		return fmt.Errorf("%s: want holds neither value nor error", what)
	case !a.Error && *a.Value != got:
		return Mismatch(what, a, map[string]any{"value": got})
	}
	return nil
}

func runDownwardFieldRef(input, want json.RawMessage) error {
	var in struct {
		Pod           api.Pod   `json:"pod"`
		FieldPath     string    `json:"fieldPath"`
		APIVersion    string    `json:"apiVersion"`
		Mode          string    `json:"mode"`
		Node          *api.Node `json:"node"`
		KubeletNodeIP []string  `json:"kubelet_node_ips"`
		PodIP         string    `json:"runtime_pod_ip"`
		PodIPs        []string  `json:"runtime_pod_ips"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w downwardAnswer
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	var mode downward.Mode
	switch in.Mode {
	case "env":
		mode = downward.Env
	case "volume":
		mode = downward.Volume
	default:
		return fmt.Errorf("unknown mode %q", in.Mode)
	}
	ctx := &downward.Context{Node: in.Node, NodeIPs: in.KubeletNodeIP, PodIP: in.PodIP, PodIPs: in.PodIPs}
	ref := api.ObjectFieldSelector{APIVersion: in.APIVersion, FieldPath: in.FieldPath}
	got, err := downward.FieldRef(&in.Pod, ref, mode, ctx)
	return w.check("value", got, err)
}

func runDownwardResourceFieldRef(input, want json.RawMessage) error {
	var in struct {
		Pod             api.Pod          `json:"pod"`
		Container       string           `json:"container"`
		Resource        string           `json:"resource"`
		ContainerName   string           `json:"containerName"`
		Divisor         *api.Quantity    `json:"divisor"`
		NodeAllocatable api.ResourceList `json:"node_allocatable"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Direct  downwardAnswer `json:"direct"`
		Kubelet downwardAnswer `json:"kubelet"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	ref := api.ResourceFieldSelector{ContainerName: in.ContainerName, Resource: in.Resource, Divisor: in.Divisor}
	got, err := downward.ResourceFieldRef(&in.Pod, in.Container, ref, nil)
	if e := w.Direct.check("direct", got, err); e != nil {
		return e
	}
	alloc := in.NodeAllocatable
	if alloc == nil {
		alloc = api.ResourceList{}
	}
	got, err = downward.ResourceFieldRef(&in.Pod, in.Container, ref, alloc)
	return w.Kubelet.check("kubelet", got, err)
}
