package lifecycle

import (
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// Reasons the kubelet gives its pod conditions (pkg/kubelet/status).
const (
	// ReasonUnknownContainerStatuses: the kubelet has no container statuses.
	ReasonUnknownContainerStatuses = "UnknownContainerStatuses"
	// ReasonPodCompleted: the pod Succeeded.
	ReasonPodCompleted = "PodCompleted"
	// ReasonPodFailed: the pod Failed; its containers are not ready even if
	// some are still being stopped.
	ReasonPodFailed = "PodFailed"
	// ReasonContainersNotReady: some container (or sidecar) is not ready or
	// has no status.
	ReasonContainersNotReady = "ContainersNotReady"
	// ReasonContainersNotInitialized: some init container has not completed
	// (or sidecar not started).
	ReasonContainersNotInitialized = "ContainersNotInitialized"
	// ReasonReadinessGatesNotReady: all containers are ready but some
	// readiness gate's condition is missing or not True.
	ReasonReadinessGatesNotReady = "ReadinessGatesNotReady"
)

// NamespaceMode is the mode of a sandbox's network namespace as the
// container runtime reports it (CRI NamespaceMode).
type NamespaceMode uint8

// The network namespace modes that matter to the kubelet.
const (
	// NamespacePod: the sandbox has its own network namespace (CRI POD,
	// also what a runtime reporting no namespace options amounts to).
	NamespacePod NamespaceMode = iota
	// NamespaceNode: the sandbox uses the node's network (hostNetwork).
	NamespaceNode
)

// Sandbox is what the container runtime reports about one pod sandbox (CRI
// PodSandboxStatus): the fields the kubelet consults to decide whether a
// new sandbox is needed.
type Sandbox struct {
	// Ready is the sandbox state SANDBOX_READY (false: SANDBOX_NOTREADY).
	Ready bool
	// Network is the mode of the sandbox's network namespace.
	Network NamespaceMode
	// HasNetworkStatus says the runtime reported a network status at all;
	// IP is the sandbox IP in it.
	HasNetworkStatus bool
	IP               string
	// Attempt is the sandbox's creation attempt number.
	Attempt uint32
}

// SandboxChange is the kubelet's verdict on a pod's sandboxes
// (pkg/kubelet/kuberuntime/util PodSandboxChanged).
type SandboxChange struct {
	// NeedNew is true when a new sandbox has to be created before
	// containers can start.
	NeedNew bool
	// Attempt is the attempt number of the sandbox to use or create.
	Attempt uint32
	// Why explains NeedNew ("" when the newest sandbox is usable).
	Why string
}

// SandboxChanged decides whether the pod needs a new sandbox given the
// runtime's sandboxes, newest first: it does when there is none (attempt
// 0), when more than one is ready, when the newest is not ready, when the
// newest's network mode differs from the pod's (hostNetwork or not), or
// when a pod-network sandbox reports a network status with an empty IP. In
// those cases the new attempt is the newest's plus one. A nil pod has no
// sandbox to judge: the result is the zero SandboxChange.
func SandboxChanged(pod *api.Pod, sandboxes []Sandbox) SandboxChange {
	if pod == nil {
		return SandboxChange{}
	}
	hostNetwork := pod.Spec.HostNetwork
	if len(sandboxes) == 0 {
		return SandboxChange{NeedNew: true, Why: "no sandbox"}
	}
	ready := 0
	for i := range sandboxes {
		if sandboxes[i].Ready {
			ready++
		}
	}
	s := &sandboxes[0]
	next := s.Attempt + 1
	want := NamespacePod
	if hostNetwork {
		want = NamespaceNode
	}
	switch {
	case ready > 1:
		return SandboxChange{NeedNew: true, Attempt: next, Why: "more than one sandbox is ready"}
	case !s.Ready:
		return SandboxChange{NeedNew: true, Attempt: next, Why: "the newest sandbox is not ready"}
	case s.Network != want:
		return SandboxChange{NeedNew: true, Attempt: next, Why: "the sandbox's network namespace mode no longer matches hostNetwork"}
	case !hostNetwork && s.HasNetworkStatus && s.IP == "":
		return SandboxChange{NeedNew: true, Attempt: next, Why: "the sandbox has no IP address"}
	}
	return SandboxChange{Attempt: s.Attempt}
}

// ConditionsInput is what the kubelet knows, besides the pod, when it
// generates the pod's conditions.
type ConditionsInput struct {
	// Phase is the phase just computed for the pod (see Phase).
	Phase api.PodPhase
	// Previous is the status the kubelet last generated for the pod. It
	// keeps Initialized True once it was True and lets unchanged
	// conditions keep their lastTransitionTime. Nil means the pod's own
	// status, which is what the kubelet falls back to.
	Previous *api.PodStatus
	// ContainerStatusesUnknown says the kubelet has no container statuses
	// at all (the pod's status lists are then ignored).
	ContainerStatusesUnknown bool
	// Sandboxes are the runtime's sandboxes for the pod, newest first.
	Sandboxes []Sandbox
}

// KubeletConditions are the four pod conditions the kubelet owns and
// regenerates on every status update.
type KubeletConditions struct {
	// ReadyToStartContainers is PodReadyToStartContainers, called
	// PodHasNetwork before Kubernetes v1.29 (api.PodHasNetwork): True
	// once the pod's sandbox exists with its network configured.
	ReadyToStartContainers api.PodCondition
	// Initialized is True once every init container completed and every
	// sidecar started.
	Initialized api.PodCondition
	// ContainersReady is True when every sidecar and regular container is
	// ready.
	ContainersReady api.PodCondition
	// Ready is ContainersReady plus every readiness gate's condition True.
	Ready api.PodCondition
}

// List returns the conditions in the order the kubelet appends them to the
// pod status: PodReadyToStartContainers, Initialized, Ready,
// ContainersReady. A nil *KubeletConditions lists none.
func (k *KubeletConditions) List() []api.PodCondition {
	if k == nil {
		return nil
	}
	return []api.PodCondition{k.ReadyToStartContainers, k.Initialized, k.Ready, k.ContainersReady}
}

// IsKubeletCondition reports whether the kubelet owns conditions of type t
// and overwrites them on every update (pkg/kubelet/types
// PodConditionByKubelet): PodScheduled, Ready, Initialized, ContainersReady
// and PodReadyToStartContainers; also the resize conditions it manages.
func IsKubeletCondition(t api.PodConditionType) bool {
	switch t {
	case api.PodScheduled, api.PodReady, api.PodInitialized, api.ContainersReady,
		api.PodReadyToStartContainers, api.PodResizePending, api.PodResizeInProgress:
		return true
	}
	return false
}

// statusView is the kubelet's list of container statuses for a pod: init
// container statuses then regular ones, or none at all.
type statusView struct {
	init, regular []api.ContainerStatus
	unknown       bool

	pos     *specPositions
	byName  struct{ init, regular statusIndex } // built by find when first needed
	indexed bool
}

// find returns the first status named name, init statuses first.
func (v *statusView) find(name string) *api.ContainerStatus {
	if !v.indexed {
		v.byName.init, v.byName.regular = v.pos.initIndex(v.init), v.pos.regularIndex(v.regular)
		v.indexed = true
	}
	if cs := v.byName.init.find(name); cs != nil {
		return cs
	}
	return v.byName.regular.find(name)
}

// anyRegularStarted: some status of a regular container shows it running
// or terminated (pkg/kubelet/container HasAnyRegularContainerStarted).
func anyRegularStarted(spec *api.PodSpec, v *statusView) bool {
	for _, list := range [2][]api.ContainerStatus{v.init, v.regular} {
		for i := range list {
			s := &list[i]
			if s.State.Running == nil && s.State.Terminated == nil {
				continue
			}
			for j := range spec.Containers {
				if spec.Containers[j].Name == s.Name {
					return true
				}
			}
		}
	}
	return false
}

// nameList formats names as Go's %s does for a []string: "[a b c]".
func nameList(names []string) string {
	return "[" + strings.Join(names, " ") + "]"
}

// Conditions generates the kubelet-owned pod conditions as the kubelet of
// Kubernetes v1.36.3 does on every status update (pkg/kubelet/status
// GeneratePodReadyToStartContainersCondition, GeneratePodInitializedCondition,
// GenerateContainersReadyCondition, GeneratePodReadyCondition; feature gates
// at their defaults), from the pod's spec and container statuses
// (status.initContainerStatuses then status.containerStatuses, matched by
// name), the phase just computed, the previous status and the runtime's
// sandboxes:
//
//   - PodReadyToStartContainers is True unless SandboxChanged says a new
//     sandbox is needed.
//   - Initialized is False (UnknownContainerStatuses) without statuses when
//     the pod has init containers; True (PodCompleted) when the pod
//     Succeeded with every init container reported; True when it was True
//     in the previous status or some regular container has started; else
//     False (ContainersNotInitialized) listing init containers without
//     status ("containers with unknown status: [...]") and those not done
//     ("containers with incomplete status: [...]": a regular init container
//     not ready, a sidecar not started); True when none.
//   - ContainersReady is False (UnknownContainerStatuses) without
//     statuses; False (PodCompleted) when Succeeded with every sidecar and
//     container reported; False (PodFailed) when Failed; else False
//     (ContainersNotReady) listing unknown and unready sidecars and
//     containers; True when none.
//   - Ready copies ContainersReady's status, reason and message unless that
//     is True; then it is False (ReadinessGatesNotReady) when a readiness
//     gate's condition (looked up in status.conditions) is missing or not
//     True, else True.
//
// Every condition carries observedGeneration = metadata.generation. A
// condition whose status equals the previous one's keeps its
// lastTransitionTime; otherwise it gets now. A nil pod has no conditions:
// the result is the zero KubeletConditions.
func Conditions(pod *api.Pod, in ConditionsInput, now time.Time) KubeletConditions {
	if pod == nil {
		return KubeletConditions{}
	}
	return conditions(pod, in, now, nil)
}

// conditions is Conditions, with the positions of the status lists when
// the caller knows them (see specPositions).
func conditions(pod *api.Pod, in ConditionsInput, now time.Time, pos *specPositions) KubeletConditions {
	prev := in.Previous
	if prev == nil {
		prev = &pod.Status
	}
	v := statusView{init: pod.Status.InitContainerStatuses, regular: pod.Status.ContainerStatuses, unknown: in.ContainerStatusesUnknown, pos: pos}
	if v.unknown {
		v.init, v.regular = nil, nil
	}
	gen := pod.Generation

	var k KubeletConditions
	k.ReadyToStartContainers = api.PodCondition{Type: api.PodReadyToStartContainers, Status: api.ConditionTrue, ObservedGeneration: gen}
	if SandboxChanged(pod, in.Sandboxes).NeedNew {
		k.ReadyToStartContainers.Status = api.ConditionFalse
	}
	k.Initialized = initializedCondition(pod, prev, &v, in.Phase)
	k.ContainersReady = containersReadyCondition(pod, &v, in.Phase)
	k.Ready = readyCondition(pod, &k.ContainersReady)
	k.Initialized.ObservedGeneration = gen
	k.ContainersReady.ObservedGeneration = gen
	k.Ready.ObservedGeneration = gen

	for _, c := range [4]*api.PodCondition{&k.ReadyToStartContainers, &k.Initialized, &k.ContainersReady, &k.Ready} {
		c.LastTransitionTime = transitionTime(prev, c, now)
	}
	return k
}

// transitionTime keeps the previous lastTransitionTime of a condition
// whose status did not change (the kubelet status manager's rule).
func transitionTime(prev *api.PodStatus, c *api.PodCondition, now time.Time) api.Time {
	if old := api.FindCondition(prev.Conditions, c.Type); old != nil && old.Status == c.Status {
		return old.LastTransitionTime
	}
	return api.NewTime(now)
}

func initializedCondition(pod *api.Pod, prev *api.PodStatus, v *statusView, phase api.PodPhase) api.PodCondition {
	c := api.PodCondition{Type: api.PodInitialized, Status: api.ConditionTrue}
	spec := &pod.Spec
	if v.unknown && len(spec.InitContainers) > 0 {
		c.Status, c.Reason = api.ConditionFalse, ReasonUnknownContainerStatuses
		return c
	}
	var unknown, incomplete []string
	for i := range spec.InitContainers {
		ic := &spec.InitContainers[i]
		cs := v.find(ic.Name)
		switch {
		case cs == nil:
			unknown = append(unknown, ic.Name)
		case ic.IsSidecar():
			if cs.Started == nil || !*cs.Started {
				incomplete = append(incomplete, ic.Name)
			}
		case !cs.Ready:
			incomplete = append(incomplete, ic.Name)
		}
	}
	if phase == api.PodSucceeded && len(unknown) == 0 {
		c.Reason = ReasonPodCompleted
		return c
	}
	if wasInitialized(prev) {
		return c
	}
	if anyRegularStarted(spec, v) {
		return c
	}
	if len(unknown) == 0 && len(incomplete) == 0 {
		return c
	}
	c.Status, c.Reason = api.ConditionFalse, ReasonContainersNotInitialized
	c.Message = listMessage("containers with unknown status: ", unknown, "containers with incomplete status: ", incomplete)
	return c
}

func listMessage(p1 string, l1 []string, p2 string, l2 []string) string {
	switch {
	case len(l1) > 0 && len(l2) > 0:
		return p1 + nameList(l1) + ", " + p2 + nameList(l2)
	case len(l1) > 0:
		return p1 + nameList(l1)
	case len(l2) > 0:
		return p2 + nameList(l2)
	}
	return ""
}

func containersReadyCondition(pod *api.Pod, v *statusView, phase api.PodPhase) api.PodCondition {
	c := api.PodCondition{Type: api.ContainersReady, Status: api.ConditionFalse}
	if v.unknown {
		c.Reason = ReasonUnknownContainerStatuses
		return c
	}
	spec := &pod.Spec
	var unknown, unready []string
	check := func(name string) {
		cs := v.find(name)
		switch {
		case cs == nil:
			unknown = append(unknown, name)
		case !cs.Ready:
			unready = append(unready, name)
		}
	}
	for i := range spec.InitContainers {
		if spec.InitContainers[i].IsSidecar() {
			check(spec.InitContainers[i].Name)
		}
	}
	for i := range spec.Containers {
		check(spec.Containers[i].Name)
	}
	switch {
	case phase == api.PodSucceeded && len(unknown) == 0:
		c.Reason = ReasonPodCompleted
		return c
	case phase == api.PodFailed:
		c.Reason = ReasonPodFailed
		return c
	case len(unknown) == 0 && len(unready) == 0:
		c.Status = api.ConditionTrue
		return c
	}
	c.Reason = ReasonContainersNotReady
	c.Message = listMessage("containers with unknown status: ", unknown, "containers with unready status: ", unready)
	return c
}

func readyCondition(pod *api.Pod, containersReady *api.PodCondition) api.PodCondition {
	c := api.PodCondition{Type: api.PodReady, Status: containersReady.Status}
	if containersReady.Status != api.ConditionTrue {
		c.Reason, c.Message = containersReady.Reason, containersReady.Message
		return c
	}
	var msg strings.Builder
	for _, g := range pod.Spec.ReadinessGates {
		gc := api.FindCondition(pod.Status.Conditions, g.ConditionType)
		if gc != nil && gc.Status == api.ConditionTrue {
			continue
		}
		if msg.Len() > 0 {
			msg.WriteString(", ")
		}
		if gc == nil {
			msg.WriteString("corresponding condition of pod readiness gate " + strconv.Quote(string(g.ConditionType)) + " does not exist.")
		} else {
			msg.WriteString("the status of pod readiness gate " + strconv.Quote(string(g.ConditionType)) + ` is not "True", but ` + string(gc.Status))
		}
	}
	if msg.Len() > 0 {
		c.Status, c.Reason, c.Message = api.ConditionFalse, ReasonReadinessGatesNotReady, msg.String()
	}
	return c
}

// wasInitialized reports whether the previous status holds an Initialized
// condition that is True. The kubelet looks at every Initialized entry, not
// just the first, so a duplicate True entry after a False one still counts.
func wasInitialized(prev *api.PodStatus) bool {
	if prev == nil {
		return false
	}
	for i := range prev.Conditions {
		if c := &prev.Conditions[i]; c.Type == api.PodInitialized && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}
