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
	Spec       DeploymentSpec   `json:"spec,omitzero"`
	Status     DeploymentStatus `json:"status,omitzero"`
}

// DeploymentSpec holds a Deployment's replicas, selector and template and
// how the Deployment controller rolls a template change out.
type DeploymentSpec struct {
	Replicas *int32          `json:"replicas,omitempty"`
	Selector *LabelSelector  `json:"selector,omitempty"`
	Template PodTemplateSpec `json:"template,omitzero"`
	// Strategy is RollingUpdate (the API server's default) or Recreate.
	Strategy DeploymentStrategy `json:"strategy,omitzero"`
	// MinReadySeconds is how long a new pod must be Ready before it counts
	// as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old ReplicaSets are kept (API
	// default 10).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Paused stops the controller from rolling out template changes.
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds is how long a rollout may make no progress
	// before the Progressing condition turns False (API default 600).
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategyType is how a Deployment replaces its pods.
type DeploymentStrategyType string

// The Deployment strategies.
const (
	// RecreateDeploymentStrategyType: every old pod goes before a new one
	// is created.
	RecreateDeploymentStrategyType DeploymentStrategyType = "Recreate"
	// RollingUpdateDeploymentStrategyType: old pods are replaced gradually,
	// bounded by maxUnavailable and maxSurge.
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// DeploymentStrategy is a Deployment's spec.strategy.
type DeploymentStrategy struct {
	Type          DeploymentStrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rolling update: how many pods may be
// unavailable and how many may exist above the desired count, as a number
// or a percentage of it (API default 25% each).
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is what the Deployment controller reports.
type DeploymentStatus struct {
	WorkloadStatus
	// UnavailableReplicas is the desired count less the available pods.
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty"`
	// TerminatingReplicas counts the Deployment's terminating pods.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	// Conditions are Available, Progressing and ReplicaFailure.
	Conditions     []WorkloadCondition `json:"conditions,omitempty"`
	CollisionCount *int32              `json:"collisionCount,omitempty"`
}

// WorkloadCondition is a condition of a Deployment, ReplicaSet,
// StatefulSet, DaemonSet or Job status: the shape apps/v1 and batch/v1
// share (a Deployment's adds lastUpdateTime, a Job's lastProbeTime).
type WorkloadCondition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastUpdateTime     Time            `json:"lastUpdateTime,omitzero"`
	LastProbeTime      Time            `json:"lastProbeTime,omitzero"`
	LastTransitionTime Time            `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// ReplicaSet is an apps/v1 ReplicaSet.
type ReplicaSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ReplicaSetSpec   `json:"spec,omitzero"`
	Status     ReplicaSetStatus `json:"status,omitzero"`
}

// ReplicaSetSpec holds a ReplicaSet's replicas, selector and template.
type ReplicaSetSpec struct {
	Replicas *int32          `json:"replicas,omitempty"`
	Selector *LabelSelector  `json:"selector,omitempty"`
	Template PodTemplateSpec `json:"template,omitzero"`
	// MinReadySeconds is how long a pod must be Ready before it counts as
	// available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
}

// ReplicaSetStatus is what the ReplicaSet controller reports.
type ReplicaSetStatus struct {
	Replicas int32 `json:"replicas"`
	// FullyLabeledReplicas counts the pods whose labels match the
	// template's labels, not just the selector.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32 `json:"availableReplicas,omitempty"`
	// TerminatingReplicas counts the ReplicaSet's terminating pods.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	ObservedGeneration  int64  `json:"observedGeneration,omitempty"`
	// Conditions holds ReplicaFailure when a create or delete failed.
	Conditions []WorkloadCondition `json:"conditions,omitempty"`
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
	// VolumeClaimTemplates are the claims each pod gets one of, named
	// <template>-<set>-<ordinal>.
	VolumeClaimTemplates []PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	// RevisionHistoryLimit is how many ControllerRevisions are kept (API
	// default 10).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// PersistentVolumeClaimRetentionPolicy says whether claims from the
	// templates are deleted with the set or on scale-down (API default
	// Retain for both).
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
}

// PersistentVolumeClaimRetentionPolicyType is Retain or Delete.
type PersistentVolumeClaimRetentionPolicyType string

// The claim retention policies.
const (
	RetainPersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Retain"
	DeletePersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSetPersistentVolumeClaimRetentionPolicy is what happens to a
// StatefulSet's claims when the set is deleted and when it scales down.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty"`
	WhenScaled  PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty"`
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
	Start int32 `json:"start"`
}

// StatefulSetStatus is what the StatefulSet controller reports: the
// replica counts plus the revisions of a rolling update.
//
// Unlike the other workloads' counts, replicas and availableReplicas are
// always printed, 0 included, as apps/v1 tags them.
type StatefulSetStatus struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	Replicas           int32  `json:"replicas"`
	ReadyReplicas      int32  `json:"readyReplicas,omitempty"`
	AvailableReplicas  int32  `json:"availableReplicas"`
	UpdatedReplicas    int32  `json:"updatedReplicas,omitempty"`
	CurrentReplicas    int32  `json:"currentReplicas,omitempty"`
	CurrentRevision    string `json:"currentRevision,omitempty"`
	UpdateRevision     string `json:"updateRevision,omitempty"`
	CollisionCount     *int32 `json:"collisionCount,omitempty"`
	// Conditions are the StatefulSet's status conditions.
	Conditions []WorkloadCondition `json:"conditions,omitempty"`
}

// ReplicationController is a core/v1 ReplicationController; its selector is
// a plain label map.
type ReplicationController struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ReplicationControllerSpec   `json:"spec,omitzero"`
	Status     ReplicationControllerStatus `json:"status,omitzero"`
}

// ReplicationControllerStatus is what the replication manager reports;
// replicas is always printed, 0 included, as core/v1 tags it.
type ReplicationControllerStatus struct {
	Replicas             int32 `json:"replicas"`
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32 `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64 `json:"observedGeneration,omitempty"`
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

// DaemonSetSpec holds a DaemonSet's selector and template and how the
// DaemonSet controller rolls a template change out.
type DaemonSetSpec struct {
	Selector *LabelSelector  `json:"selector,omitempty"`
	Template PodTemplateSpec `json:"template,omitzero"`
	// UpdateStrategy is RollingUpdate (the API server's default) or
	// OnDelete.
	UpdateStrategy DaemonSetUpdateStrategy `json:"updateStrategy,omitzero"`
	// MinReadySeconds is how long a new pod must be Ready before it counts
	// as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many ControllerRevisions are kept (API
	// default 10).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategyType is RollingUpdate or OnDelete.
type DaemonSetUpdateStrategyType string

// The DaemonSet update strategies.
const (
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      DaemonSetUpdateStrategyType = "OnDelete"
)

// DaemonSetUpdateStrategy is a DaemonSet's spec.updateStrategy.
type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet     `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet bounds a DaemonSet's rolling update (API default
// maxUnavailable 1, maxSurge 0).
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus is what the DaemonSet controller reports.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32               `json:"currentNumberScheduled"`
	NumberMisscheduled     int32               `json:"numberMisscheduled"`
	DesiredNumberScheduled int32               `json:"desiredNumberScheduled"`
	NumberReady            int32               `json:"numberReady"`
	ObservedGeneration     int64               `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32               `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32               `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32               `json:"numberUnavailable,omitempty"`
	CollisionCount         *int32              `json:"collisionCount,omitempty"`
	Conditions             []WorkloadCondition `json:"conditions,omitempty"`
}

// Job is a batch/v1 Job.
type Job struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       JobSpec   `json:"spec,omitzero"`
	Status     JobStatus `json:"status,omitzero"`
}

// JobSpec holds a Job's parallelism, completions, selector and template
// and the rules by which the Job controller counts and retries failures.
type JobSpec struct {
	Parallelism *int32 `json:"parallelism,omitempty"`
	Completions *int32 `json:"completions,omitempty"`
	// ActiveDeadlineSeconds bounds the Job's run from its start time.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// PodFailurePolicy decides, per failed pod, whether it fails the Job,
	// is ignored, or counts against the backoff limit.
	PodFailurePolicy *PodFailurePolicy `json:"podFailurePolicy,omitempty"`
	// SuccessPolicy lets an Indexed Job succeed before every index has.
	SuccessPolicy *SuccessPolicy `json:"successPolicy,omitempty"`
	// BackoffLimit is how many failed pods the Job tolerates (API default 6).
	BackoffLimit *int32 `json:"backoffLimit,omitempty"`
	// BackoffLimitPerIndex is the limit per index of an Indexed Job.
	BackoffLimitPerIndex *int32 `json:"backoffLimitPerIndex,omitempty"`
	// MaxFailedIndexes bounds the failed indexes of an Indexed Job.
	MaxFailedIndexes *int32          `json:"maxFailedIndexes,omitempty"`
	Selector         *LabelSelector  `json:"selector,omitempty"`
	ManualSelector   *bool           `json:"manualSelector,omitempty"`
	Template         PodTemplateSpec `json:"template,omitzero"`
	// TTLSecondsAfterFinished deletes a finished Job after that long.
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty"`
	// CompletionMode is NonIndexed (API default) or Indexed.
	CompletionMode *string `json:"completionMode,omitempty"`
	Suspend        *bool   `json:"suspend,omitempty"`
	// PodReplacementPolicy is TerminatingOrFailed (API default) or Failed:
	// when a replacement pod may be created.
	PodReplacementPolicy *string `json:"podReplacementPolicy,omitempty"`
	ManagedBy            *string `json:"managedBy,omitempty"`
}

// PodFailurePolicy is a Job's spec.podFailurePolicy: rules evaluated in
// order against each failed pod.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules"`
}

// PodFailurePolicyRule is one rule: its action (FailJob, FailIndex,
// Ignore, Count) applies when the pod's exit codes or conditions match.
type PodFailurePolicyRule struct {
	Action          string                                   `json:"action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes,omitempty"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty"`
}

// PodFailurePolicyOnExitCodesRequirement matches a container's exit code
// In or NotIn Values (of the named container, or of any).
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string `json:"containerName,omitempty"`
	Operator      string  `json:"operator"`
	Values        []int32 `json:"values"`
}

// PodFailurePolicyOnPodConditionsPattern matches a pod condition of a
// type and status (e.g. DisruptionTarget True).
type PodFailurePolicyOnPodConditionsPattern struct {
	Type   PodConditionType `json:"type"`
	Status ConditionStatus  `json:"status,omitempty"`
}

// SuccessPolicy is an Indexed Job's spec.successPolicy.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules"`
}

// SuccessPolicyRule declares the Job succeeded once the given indexes, or
// that many of them, have.
type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty"`
	SucceededCount   *int32  `json:"succeededCount,omitempty"`
}

// JobStatus is what the Job controller reports.
type JobStatus struct {
	Conditions     []WorkloadCondition `json:"conditions,omitempty"`
	StartTime      *Time               `json:"startTime,omitempty"`
	CompletionTime *Time               `json:"completionTime,omitempty"`
	Active         int32               `json:"active,omitempty"`
	Succeeded      int32               `json:"succeeded,omitempty"`
	Failed         int32               `json:"failed,omitempty"`
	Terminating    *int32              `json:"terminating,omitempty"`
	// CompletedIndexes and FailedIndexes are an Indexed Job's index
	// ranges ("1,3-5").
	CompletedIndexes        string                   `json:"completedIndexes,omitempty"`
	FailedIndexes           *string                  `json:"failedIndexes,omitempty"`
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty"`
	Ready                   *int32                   `json:"ready,omitempty"`
}

// UncountedTerminatedPods are the UIDs of finished pods the Job controller
// has not yet counted in its status.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty"`
	Failed    []string `json:"failed,omitempty"`
}

// Service is a core/v1 Service; its selector picks the pods it routes to,
// and topology spread's System defaulting uses it.
type Service struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ServiceSpec `json:"spec,omitzero"`
}

// ServiceSpec holds a Service's pod selector and ports, and what the
// EndpointSlice controller reads to publish its endpoints: its cluster IP
// ("None" for a headless Service), IP families and
// publishNotReadyAddresses.
type ServiceSpec struct {
	// Selector picks the pods the Service routes to. A nil selector means
	// the Service's endpoints are managed by someone else; an empty one
	// selects every pod of the namespace.
	Selector map[string]string `json:"selector,omitempty"`
	Ports    []ServicePort     `json:"ports,omitempty"`
	// Type is ClusterIP (the default), NodePort, LoadBalancer or
	// ExternalName (ServiceType constants).
	Type string `json:"type,omitempty"`
	// ClusterIP is the Service's virtual IP; ClusterIPNone ("None") makes
	// it headless, "" means not yet allocated.
	ClusterIP  string     `json:"clusterIP,omitempty"`
	ClusterIPs []string   `json:"clusterIPs,omitempty"`
	IPFamilies []IPFamily `json:"ipFamilies,omitempty"`
	// ExternalName is the DNS name an ExternalName Service aliases.
	ExternalName string `json:"externalName,omitempty"`
	// PublishNotReadyAddresses publishes every endpoint as ready, whatever
	// its pod's readiness (used by StatefulSets' peer discovery).
	PublishNotReadyAddresses bool `json:"publishNotReadyAddresses,omitempty"`
	// SessionAffinity is None (the default) or ClientIP, whose timeout
	// SessionAffinityConfig holds (10800 s by default).
	SessionAffinity       string                 `json:"sessionAffinity,omitempty"`
	SessionAffinityConfig *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty"`
	// IPFamilyPolicy is SingleStack, PreferDualStack or RequireDualStack;
	// the API server sets it on create.
	IPFamilyPolicy *string `json:"ipFamilyPolicy,omitempty"`
	// ExternalTrafficPolicy (an externally reachable Service's) and
	// InternalTrafficPolicy are Cluster or Local.
	ExternalTrafficPolicy string  `json:"externalTrafficPolicy,omitempty"`
	InternalTrafficPolicy *string `json:"internalTrafficPolicy,omitempty"`
	// AllocateLoadBalancerNodePorts says whether a LoadBalancer Service
	// gets node ports (true by default).
	AllocateLoadBalancerNodePorts *bool `json:"allocateLoadBalancerNodePorts,omitempty"`
	// ExternalIPs and LoadBalancerIP are addresses the Service is reached
	// at from outside the cluster.
	ExternalIPs    []string `json:"externalIPs,omitempty"`
	LoadBalancerIP string   `json:"loadBalancerIP,omitempty"`
}

// SessionAffinityConfig is a Service's session affinity settings.
type SessionAffinityConfig struct {
	ClientIP *ClientIPConfig `json:"clientIP,omitempty"`
}

// ClientIPConfig is the ClientIP session affinity's timeout.
type ClientIPConfig struct {
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
}

// The Service types (core/v1 ServiceType).
const (
	ServiceTypeClusterIP    = "ClusterIP"
	ServiceTypeNodePort     = "NodePort"
	ServiceTypeLoadBalancer = "LoadBalancer"
	ServiceTypeExternalName = "ExternalName"
)

// The Service field values defaulting and the API server write.
const (
	ServiceAffinityNone                = "None"
	ServiceAffinityClientIP            = "ClientIP"
	DefaultClientIPServiceAffinitySecs = int32(10800)
	ServiceTrafficPolicyCluster        = "Cluster"
	IPFamilyPolicySingleStack          = "SingleStack"
	IPFamilyPolicyRequireDualStack     = "RequireDualStack"
)

// ClusterIPNone is the clusterIP of a headless Service (core/v1
// ClusterIPNone).
const ClusterIPNone = "None"

// IPFamily is an IP family a Service or pod uses (core/v1 IPFamily).
type IPFamily string

// The IP families.
const (
	IPv4Protocol IPFamily = "IPv4"
	IPv6Protocol IPFamily = "IPv6"
)

// ServicePort is one port a Service exposes and where it sends traffic.
type ServicePort struct {
	Name       string      `json:"name,omitempty"`
	Protocol   Protocol    `json:"protocol,omitempty"`
	Port       int32       `json:"port"`
	TargetPort IntOrString `json:"targetPort,omitzero"`
	NodePort   int32       `json:"nodePort,omitempty"`
	// AppProtocol is the application protocol of the port ("http",
	// "kubernetes.io/h2c", ...), copied to the EndpointSlice's ports.
	AppProtocol *string `json:"appProtocol,omitempty"`
}
