package conformance

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// The kubelet's node-pressure eviction order (pkg/kubelet/eviction): the
// family keeps the name it had when the ranking lived in preemption.
func init() {
	register("preemption.eviction-order", runEvictionOrder)
}

func runEvictionOrder(input, want json.RawMessage) error {
	var in struct {
		Signal      string                  `json:"signal"`
		Filesystems string                  `json:"filesystems"`
		Pods        []api.Pod               `json:"pods"`
		Stats       []nodepressure.PodStats `json:"stats"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Order []string `json:"order"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	pods := make([]*api.Pod, len(in.Pods))
	for i := range in.Pods {
		pods[i] = &in.Pods[i]
	}
	order, err := nodepressure.EvictionOrder(pods, nodepressure.StatsByUID(in.Stats),
		nodepressure.Signal(in.Signal), nodepressure.FilesystemLayout(in.Filesystems))
	if err != nil {
		return err
	}
	got := make([]string, len(order))
	for i, p := range order {
		got[i] = p.Name
	}
	if !slices.Equal(got, w.Order) {
		return Mismatch("order", w.Order, got)
	}
	return nil
}
