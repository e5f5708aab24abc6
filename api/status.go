package api

// PodPhase is the coarse summary of where a pod is in its life, as the
// kubelet reports it: Pending, Running, Succeeded, Failed or Unknown.
type PodPhase string

// The pod phases.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// PodConditionType names a pod condition.
type PodConditionType string

// The pod conditions the kubelet, scheduler and controllers set.
const (
	PodScheduled              PodConditionType = "PodScheduled"
	PodReadyToStartContainers PodConditionType = "PodReadyToStartContainers"
	// PodHasNetwork is the pre-v1.29 name of PodReadyToStartContainers.
	PodHasNetwork       PodConditionType = "PodHasNetwork"
	PodInitialized      PodConditionType = "Initialized"
	ContainersReady     PodConditionType = "ContainersReady"
	PodReady            PodConditionType = "Ready"
	DisruptionTarget    PodConditionType = "DisruptionTarget"
	PodResizePending    PodConditionType = "PodResizePending"
	PodResizeInProgress PodConditionType = "PodResizeInProgress"
	// AllContainersRestarting is the condition the kubelet sets while it
	// restarts every container of a pod in place after a restartPolicyRules
	// entry with action RestartAllContainers fired (KEP-5532).
	AllContainersRestarting PodConditionType = "AllContainersRestarting"
)

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// PodQOSClass is a pod's quality-of-service class.
type PodQOSClass string

// The QoS classes.
const (
	PodQOSGuaranteed PodQOSClass = "Guaranteed"
	PodQOSBurstable  PodQOSClass = "Burstable"
	PodQOSBestEffort PodQOSClass = "BestEffort"
)

// PodStatus is the observed state of a pod (core/v1 PodStatus).
type PodStatus struct {
	ObservedGeneration                   int64                                `json:"observedGeneration,omitempty"`
	Phase                                PodPhase                             `json:"phase,omitempty"`
	Conditions                           []PodCondition                       `json:"conditions,omitempty"`
	Message                              string                               `json:"message,omitempty"`
	Reason                               string                               `json:"reason,omitempty"`
	NominatedNodeName                    string                               `json:"nominatedNodeName,omitempty"`
	HostIP                               string                               `json:"hostIP,omitempty"`
	HostIPs                              []HostIP                             `json:"hostIPs,omitempty"`
	PodIP                                string                               `json:"podIP,omitempty"`
	PodIPs                               []PodIP                              `json:"podIPs,omitempty"`
	StartTime                            *Time                                `json:"startTime,omitempty"`
	InitContainerStatuses                []ContainerStatus                    `json:"initContainerStatuses,omitempty"`
	ContainerStatuses                    []ContainerStatus                    `json:"containerStatuses,omitempty"`
	QOSClass                             PodQOSClass                          `json:"qosClass,omitempty"`
	EphemeralContainerStatuses           []ContainerStatus                    `json:"ephemeralContainerStatuses,omitempty"`
	Resize                               string                               `json:"resize,omitempty"`
	ResourceClaimStatuses                []PodResourceClaimStatus             `json:"resourceClaimStatuses,omitempty"`
	NodeAllocatableResourceClaimStatuses []NodeAllocatableResourceClaimStatus `json:"nodeAllocatableResourceClaimStatuses,omitempty"`
	Resources                            *ResourceRequirements                `json:"resources,omitempty"`
	AllocatedResources                   ResourceList                         `json:"allocatedResources,omitempty"`
}

// PodCondition is one entry of status.conditions.
type PodCondition struct {
	Type               PodConditionType `json:"type"`
	ObservedGeneration int64            `json:"observedGeneration,omitempty"`
	Status             ConditionStatus  `json:"status"`
	LastProbeTime      Time             `json:"lastProbeTime,omitzero"`
	LastTransitionTime Time             `json:"lastTransitionTime,omitzero"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// HostIP is one IP of the node a pod runs on.
type HostIP struct {
	IP string `json:"ip"`
}

// PodIP is one IP of a pod.
type PodIP struct {
	IP string `json:"ip"`
}

// PodResourceClaimStatus links a pod's resource claim to the generated claim
// object.
type PodResourceClaimStatus struct {
	Name              string  `json:"name"`
	ResourceClaimName *string `json:"resourceClaimName,omitempty"`
}

// NodeAllocatableResourceClaimStatus records node-allocatable resources
// (cpu, memory...) a DRA claim allocated to some of the pod's containers;
// the scheduler may count them instead of the containers' own requests.
type NodeAllocatableResourceClaimStatus struct {
	ResourceClaimName string       `json:"resourceClaimName"`
	Containers        []string     `json:"containers,omitempty"`
	Resources         ResourceList `json:"resources,omitempty"`
}

// ContainerStatus is the kubelet's report of one container.
type ContainerStatus struct {
	Name                 string                `json:"name"`
	State                ContainerState        `json:"state,omitzero"`
	LastTerminationState ContainerState        `json:"lastState,omitzero"`
	Ready                bool                  `json:"ready"`
	RestartCount         int32                 `json:"restartCount"`
	Image                string                `json:"image,omitempty"`
	ImageID              string                `json:"imageID,omitempty"`
	ContainerID          string                `json:"containerID,omitempty"`
	Started              *bool                 `json:"started,omitempty"`
	AllocatedResources   ResourceList          `json:"allocatedResources,omitempty"`
	Resources            *ResourceRequirements `json:"resources,omitempty"`
	StopSignal           *string               `json:"stopSignal,omitempty"`
}

// ContainerState is exactly one of waiting, running or terminated (all nil
// means the kubelet has not reported a state; it is shown as Waiting).
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting is a container not yet running, with the kubelet's
// reason (ContainerCreating, PodInitializing, CrashLoopBackOff,
// ImagePullBackOff, ErrImagePull, CreateContainerConfigError...).
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning is a running container and when it started.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt,omitzero"`
}

// ContainerStateTerminated is a container that exited: its exit code,
// signal, reason (Completed, Error, OOMKilled, ContainerCannotRun,
// DeadlineExceeded...) and times.
type ContainerStateTerminated struct {
	ExitCode    int32  `json:"exitCode"`
	Signal      int32  `json:"signal,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Message     string `json:"message,omitempty"`
	StartedAt   Time   `json:"startedAt,omitzero"`
	FinishedAt  Time   `json:"finishedAt,omitzero"`
	ContainerID string `json:"containerID,omitempty"`
}

// IsTerminal reports whether phase is Succeeded or Failed, the phases a pod
// never leaves.
func (p PodPhase) IsTerminal() bool { return p == PodSucceeded || p == PodFailed }
