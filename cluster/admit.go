package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// admit is the kubelet's node-level admission of a pod newly bound to its
// node (HandlePodAdditions → canAdmitPod): lifecycle.Admit with the
// kubelet's cached Node, the pods it already admitted that are still
// active (in pod key order), the eviction manager's pressure conditions
// and the node shutdown manager's state. The verdict is the pod machine's
// first event: Scheduled, or Rejected with the handler's reason and
// message (the machine then writes the status rejectPod writes and records
// the Warning event).
//
// A pod the kubelet could admit only by preempting others (a critical pod
// short of resources) is admitted without the preemption: the kubelet's
// critical-pod preemption is not modelled (NEXT.md).
func (k *kubelet) admit(c *Machine, pod *api.Pod, now time.Time) (lifecycle.Event, error) {
	node, _ := c.cache.get("Node", k.node).(*api.Node)
	if node == nil {
		// The Node object is gone (deleteNode): the kubelet has no node
		// to check against; it is silent anyway.
		return lifecycle.Scheduled(k.node), nil
	}
	keys := make([]string, 0, len(k.pods))
	for key, r := range k.pods {
		if !r.m.Terminal() && !r.m.Removed() {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	others := make([]*api.Pod, 0, len(keys))
	for _, key := range keys {
		if p, _ := c.cache.get("Pod", key).(*api.Pod); p != nil && p.UID == k.pods[key].uid {
			others = append(others, p)
		}
	}
	res, err := callPure1x2(c, "lifecycle.Admit", lifecycle.Admit, lifecycle.AdmitInput{Node: node, Pod: pod, Pods: others,
		NodeConditions: k.pressure.conditionList(), ShuttingDown: k.shutdown != nil, Now: now})
	if err != nil {
		return lifecycle.Event{}, fmt.Errorf("admission of pod %s: %w", pod.Key(), err)
	}
	return res.MachineEvent(k.node), nil
}
