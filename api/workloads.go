package api

// PodTemplateSpec is the pod a workload controller creates.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PodSpec `json:"spec,omitzero"`
}

// Deployment is an apps/v1 Deployment (the fields pod rules consult).
type Deployment struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       DeploymentSpec `json:"spec,omitzero"`
	Status     WorkloadStatus `json:"status,omitzero"`
}

// DeploymentSpec holds a Deployment's replicas, selector and template.
type DeploymentSpec struct {
	Replicas *int32          `json:"replicas,omitempty"`
	Selector *LabelSelector  `json:"selector,omitempty"`
	Template PodTemplateSpec `json:"template,omitzero"`
}

// ReplicaSet is an apps/v1 ReplicaSet.
type ReplicaSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ReplicaSetSpec `json:"spec,omitzero"`
	Status     WorkloadStatus `json:"status,omitzero"`
}

// ReplicaSetSpec holds a ReplicaSet's replicas, selector and template.
type ReplicaSetSpec struct {
	Replicas *int32          `json:"replicas,omitempty"`
	Selector *LabelSelector  `json:"selector,omitempty"`
	Template PodTemplateSpec `json:"template,omitzero"`
}

// StatefulSet is an apps/v1 StatefulSet.
type StatefulSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       StatefulSetSpec   `json:"spec,omitzero"`
	Status     StatefulSetStatus `json:"status,omitzero"`
}

// StatefulSetSpec holds a StatefulSet's replicas, selector, template and
// the rules by which its controller creates, replaces and updates pods.
type StatefulSetSpec struct {
	Replicas    *int32          `json:"replicas,omitempty"`
	Selector    *LabelSelector  `json:"selector,omitempty"`
	Template    PodTemplateSpec `json:"template,omitzero"`
	ServiceName string          `json:"serviceName,omitempty"`
	// PodManagementPolicy is OrderedReady (the default when empty: one
	// pod at a time, in ordinal order) or Parallel.
	PodManagementPolicy PodManagementPolicyType   `json:"podManagementPolicy,omitempty"`
	UpdateStrategy      StatefulSetUpdateStrategy `json:"updateStrategy,omitzero"`
	MinReadySeconds     int32                     `json:"minReadySeconds,omitempty"`
	// Ordinals, when set, moves the first ordinal from 0 to Start.
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty"`
}

// PodManagementPolicyType is how a StatefulSet's pods are created and
// deleted: OrderedReady or Parallel.
type PodManagementPolicyType string

// The pod management policies.
const (
	OrderedReadyPodManagement PodManagementPolicyType = "OrderedReady"
	ParallelPodManagement     PodManagementPolicyType = "Parallel"
)

// StatefulSetUpdateStrategyType is RollingUpdate (the default) or OnDelete.
type StatefulSetUpdateStrategyType string

// The StatefulSet update strategies.
const (
	RollingUpdateStatefulSetStrategyType StatefulSetUpdateStrategyType = "RollingUpdate"
	OnDeleteStatefulSetStrategyType      StatefulSetUpdateStrategyType = "OnDelete"
)

// StatefulSetUpdateStrategy says how a template change reaches the pods.
type StatefulSetUpdateStrategy struct {
	Type          StatefulSetUpdateStrategyType     `json:"type,omitempty"`
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy bounds a rolling update: pods with an
// ordinal below Partition keep the old revision; MaxUnavailable (behind
// the MaxUnavailableStatefulSet feature gate) lets several update at once.
type RollingUpdateStatefulSetStrategy struct {
	Partition      *int32       `json:"partition,omitempty"`
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
}

// Labels the StatefulSet controller puts on its pods (k8s.io/api/apps/v1).
const (
	// LabelControllerRevisionHash names the ControllerRevision (the
	// template version) a pod was created from.
	LabelControllerRevisionHash = "controller-revision-hash"
	// LabelStatefulSetPodName holds the pod's own name, its stable
	// identity.
	LabelStatefulSetPodName = "statefulset.kubernetes.io/pod-name"
	// LabelPodIndex holds the pod's ordinal.
	LabelPodIndex = "apps.kubernetes.io/pod-index"
)

// StatefulSetOrdinals holds the first ordinal of a StatefulSet's pods.
type StatefulSetOrdinals struct {
	Start int32 `json:"start,omitempty"`
}

// StatefulSetStatus is what the StatefulSet controller reports: the
// replica counts plus the revisions of a rolling update.
type StatefulSetStatus struct {
	WorkloadStatus
	CurrentReplicas int32  `json:"currentReplicas,omitempty"`
	CurrentRevision string `json:"currentRevision,omitempty"`
	UpdateRevision  string `json:"updateRevision,omitempty"`
	CollisionCount  *int32 `json:"collisionCount,omitempty"`
}

// ReplicationController is a core/v1 ReplicationController; its selector is
// a plain label map.
type ReplicationController struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ReplicationControllerSpec `json:"spec,omitzero"`
	Status     WorkloadStatus            `json:"status,omitzero"`
}

// ReplicationControllerSpec holds an RC's replicas, selector and template.
type ReplicationControllerSpec struct {
	Replicas *int32            `json:"replicas,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Template *PodTemplateSpec  `json:"template,omitempty"`
}

// WorkloadStatus is the replica counts the workload controllers report.
type WorkloadStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	Replicas           int32 `json:"replicas,omitempty"`
	ReadyReplicas      int32 `json:"readyReplicas,omitempty"`
	AvailableReplicas  int32 `json:"availableReplicas,omitempty"`
	UpdatedReplicas    int32 `json:"updatedReplicas,omitempty"`
}

// DaemonSet is an apps/v1 DaemonSet: one pod per eligible node.
type DaemonSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       DaemonSetSpec   `json:"spec,omitzero"`
	Status     DaemonSetStatus `json:"status,omitzero"`
}

// DaemonSetSpec holds a DaemonSet's selector and template.
type DaemonSetSpec struct {
	Selector *LabelSelector  `json:"selector,omitempty"`
	Template PodTemplateSpec `json:"template,omitzero"`
}

// DaemonSetStatus is what the DaemonSet controller reports.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32 `json:"currentNumberScheduled"`
	NumberMisscheduled     int32 `json:"numberMisscheduled"`
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled"`
	NumberReady            int32 `json:"numberReady"`
	ObservedGeneration     int64 `json:"observedGeneration,omitempty"`
}

// Job is a batch/v1 Job.
type Job struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       JobSpec   `json:"spec,omitzero"`
	Status     JobStatus `json:"status,omitzero"`
}

// JobSpec holds a Job's parallelism, completions, selector and template.
type JobSpec struct {
	Parallelism *int32          `json:"parallelism,omitempty"`
	Completions *int32          `json:"completions,omitempty"`
	Selector    *LabelSelector  `json:"selector,omitempty"`
	Template    PodTemplateSpec `json:"template,omitzero"`
}

// JobStatus is what the Job controller reports.
type JobStatus struct {
	Active    int32 `json:"active,omitempty"`
	Succeeded int32 `json:"succeeded,omitempty"`
	Failed    int32 `json:"failed,omitempty"`
}

// Service is a core/v1 Service; its selector picks the pods it routes to,
// and topology spread's System defaulting uses it.
type Service struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ServiceSpec `json:"spec,omitzero"`
}

// ServiceSpec holds a Service's pod selector and ports.
type ServiceSpec struct {
	Selector map[string]string `json:"selector,omitempty"`
	Ports    []ServicePort     `json:"ports,omitempty"`
	Type     string            `json:"type,omitempty"`
}

// ServicePort is one port a Service exposes and where it sends traffic.
type ServicePort struct {
	Name       string      `json:"name,omitempty"`
	Protocol   Protocol    `json:"protocol,omitempty"`
	Port       int32       `json:"port"`
	TargetPort IntOrString `json:"targetPort,omitzero"`
	NodePort   int32       `json:"nodePort,omitempty"`
}
