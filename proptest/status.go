package proptest

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// unschedulableStatus is a new pod's status once kube-scheduler found no
// node for it: PodScheduled False, reason Unschedulable, its message.
func unschedulableStatus(p *api.Pod, message string, now time.Time) api.PodStatus {
	st := api.InitialPodStatus(p)
	st.Conditions = []api.PodCondition{{
		Type: api.PodScheduled, Status: api.ConditionFalse, Reason: api.PodReasonUnschedulable,
		Message: message, LastTransitionTime: api.NewTime(now),
	}}
	return st
}

// runningStatus draws what the kubelet on node reports for p, bound there
// and started: init containers completed, sidecars and regular containers
// running (a few not ready, a few restarted), or, for a Job pod that
// restarts never or on failure, now and then every container completed.
// The phase and the kubelet's conditions come from lifecycle.Phase and
// lifecycle.Conditions, so they agree with the container statuses the way
// the kubelet makes them agree.
func runningStatus(d *drawer, p *api.Pod, node *api.Node, podIP string, now time.Time) api.PodStatus {
	started := p.CreationTimestamp.Add(time.Duration(intIn(d, "start-delay", 1, 30)) * time.Second)
	if started.After(now) {
		started = now
	}
	ref := p.ControllerRef()
	completed := ref != nil && ref.Kind == kindJob && p.Spec.RestartPolicy != api.RestartPolicyAlways && chance(d, "job-completed", 3)
	finished := started.Add(time.Duration(intIn(d, "run-seconds", 1, 600)) * time.Second)
	if finished.After(now) {
		finished = now
	}
	id := func(c *api.Container) (string, string) {
		h := hashOf("container", p.Namespace, p.Name, c.Name)
		image := c.Image
		if i := strings.IndexByte(image, '@'); i >= 0 {
			image = image[:i]
		}
		return fmt.Sprintf("containerd://%016x%016x%016x%016x", h, h^1, h^2, h^3),
			fmt.Sprintf("%s@sha256:%016x%016x%016x%016x", image, h^4, h^5, h^6, h^7)
	}
	exited := func(c *api.Container, from, to time.Time) api.ContainerState {
		cid, _ := id(c)
		return api.ContainerState{Terminated: &api.ContainerStateTerminated{
			ExitCode: 0, Reason: lifecycle.TerminatedReason(0, false), StartedAt: api.NewTime(from), FinishedAt: api.NewTime(to), ContainerID: cid,
		}}
	}
	var st api.PodStatus
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		cid, iid := id(c)
		cs := api.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: iid, ContainerID: cid}
		switch {
		case !c.IsSidecar():
			cs.State, cs.Ready, cs.Started = exited(c, started, started), true, ptr(false)
		case completed:
			cs.State, cs.Started = exited(c, started, finished), ptr(false)
		default:
			cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(started)}}
			cs.Started, cs.Ready = ptr(true), !chance(d, "sidecar-unready", 10)
		}
		st.InitContainerStatuses = append(st.InitContainerStatuses, cs)
	}
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		cid, iid := id(c)
		cs := api.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: iid, ContainerID: cid}
		if completed {
			cs.State, cs.Started = exited(c, started, finished), ptr(false)
		} else {
			cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(started)}}
			cs.Started, cs.Ready = ptr(true), !chance(d, "container-unready", 10)
			if chance(d, "restarted", 10) {
				cs.RestartCount = int32(intIn(d, "restarts", 1, 5))
				code := pick(d, "last-exit-code", []int32{1, 137, 2})
				cs.LastTerminationState = api.ContainerState{Terminated: &api.ContainerStateTerminated{
					ExitCode: code, Reason: lifecycle.TerminatedReason(code, false),
					StartedAt: api.NewTime(started), FinishedAt: api.NewTime(started), ContainerID: cid,
				}}
			}
		}
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
	for _, g := range p.Spec.ReadinessGates {
		st.Conditions = append(st.Conditions, api.PodCondition{Type: g.ConditionType, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(started)})
	}
	p.Status = st
	phase := lifecycle.Phase(p, lifecycle.PhaseOptions{PodHasInitialized: true})
	kc := lifecycle.Conditions(p, lifecycle.ConditionsInput{
		Phase:     phase,
		Previous:  &api.PodStatus{},
		Sandboxes: []lifecycle.Sandbox{{Ready: !completed, HasNetworkStatus: true, IP: podIP}},
	}, now)
	st.Conditions = append(st.Conditions, kc.List()...)
	st.Conditions = append(st.Conditions, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: p.CreationTimestamp})
	st.Phase = phase
	st.QOSClass = api.ComputePodQOS(p)
	if ip := nodeInternalIP(node); ip != "" {
		st.HostIP, st.HostIPs = ip, []api.HostIP{{IP: ip}}
	}
	st.PodIP, st.PodIPs = podIP, []api.PodIP{{IP: podIP}}
	st.StartTime = api.NewTimePtr(p.CreationTimestamp.Time)
	st.ObservedGeneration = p.Generation
	return st
}

func nodeInternalIP(n *api.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == api.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}
