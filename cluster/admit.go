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
// A critical pod short only of resources is admitted after the kubelet's
// critical pod admission handler preempts others (pkg/kubelet/preemption):
// the preemptions are returned in the order the kubelet carries them out.
func (k *kubelet) admit(c *Machine, pod *api.Pod, now time.Time) (lifecycle.Event, []lifecycle.Preemption, error) {
	node, _ := c.cache.get("Node", k.node).(*api.Node)
	if node == nil {
		// The Node object is gone (deleteNode): the kubelet has no node
		// to check against; it is silent anyway.
		return lifecycle.Scheduled(k.node), nil, nil
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
		return lifecycle.Event{}, nil, fmt.Errorf("admission of pod %s: %w", pod.Key(), err)
	}
	return res.MachineEvent(k.node), res.Preempted, nil
}

// preempt carries out the critical pod admission handler's preemptions
// before the critical pod is admitted: for each pod, in order, the
// kubelet's Warning event Preempting and the kill through the pod's
// machine (lifecycle.Preemption's Event and Kill). Upstream's kill blocks
// admission until the pod's containers have stopped (at most 1.5 times its
// grace period, 10 s at least); under the runtime model containers stop
// at once on SIGTERM, so they are gone in the same instant and the
// critical pod's sandbox still starts PodStartLatency later.
func (k *kubelet) preempt(c *Machine, victims []lifecycle.Preemption, now time.Time) error {
	for i := range victims {
		v := &victims[i]
		c.rec.event(now, &v.Event)
		if r := k.pods[v.Pod.Key()]; r != nil && r.uid == v.Pod.UID {
			if err := k.step(c, r, v.Kill, now); err != nil {
				return err
			}
		}
	}
	return nil
}
