package api

// Pod is a Kubernetes core/v1 Pod: a group of containers scheduled together
// on one node. The JSON form is the API's own, so `kubectl get pod -o json`
// decodes into it.
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PodSpec   `json:"spec,omitzero"`
	Status     PodStatus `json:"status,omitzero"`
}

// RestartPolicy is a pod's (or, since container restart rules, a
// container's) restart policy: Always, OnFailure or Never.
type RestartPolicy string

// The restart policies.
const (
	RestartPolicyAlways    RestartPolicy = "Always"
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	RestartPolicyNever     RestartPolicy = "Never"
)

// DNSPolicy is how a pod's DNS resolution is configured.
type DNSPolicy string

// The DNS policies.
const (
	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	DNSClusterFirst            DNSPolicy = "ClusterFirst"
	DNSDefault                 DNSPolicy = "Default"
	DNSNone                    DNSPolicy = "None"
)

// PreemptionPolicy says whether a pod may preempt lower-priority pods:
// PreemptLowerPriority (the default) or Never.
type PreemptionPolicy string

// The preemption policies.
const (
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	PreemptNever         PreemptionPolicy = "Never"
)

// OSName is the operating system a pod targets (spec.os.name).
type OSName string

// The operating systems a pod may name.
const (
	Linux   OSName = "linux"
	Windows OSName = "windows"
)

// PodOS names the operating system of a pod's containers.
type PodOS struct {
	Name OSName `json:"name"`
}

// PodSpec is the desired state of a pod (core/v1 PodSpec), with the fields
// the kubelet, API server and scheduler rules in this library read.
type PodSpec struct {
	Volumes                       []Volume                   `json:"volumes,omitempty"`
	InitContainers                []Container                `json:"initContainers,omitempty"`
	Containers                    []Container                `json:"containers,omitempty"`
	EphemeralContainers           []EphemeralContainer       `json:"ephemeralContainers,omitempty"`
	RestartPolicy                 RestartPolicy              `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64                     `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64                     `json:"activeDeadlineSeconds,omitempty"`
	DNSPolicy                     DNSPolicy                  `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string          `json:"nodeSelector,omitempty"`
	ServiceAccountName            string                     `json:"serviceAccountName,omitempty"`
	DeprecatedServiceAccount      string                     `json:"serviceAccount,omitempty"`
	AutomountServiceAccountToken  *bool                      `json:"automountServiceAccountToken,omitempty"`
	NodeName                      string                     `json:"nodeName,omitempty"`
	HostNetwork                   bool                       `json:"hostNetwork,omitempty"`
	HostPID                       bool                       `json:"hostPID,omitempty"`
	HostIPC                       bool                       `json:"hostIPC,omitempty"`
	ShareProcessNamespace         *bool                      `json:"shareProcessNamespace,omitempty"`
	SecurityContext               *PodSecurityContext        `json:"securityContext,omitempty"`
	ImagePullSecrets              []LocalObjectReference     `json:"imagePullSecrets,omitempty"`
	Hostname                      string                     `json:"hostname,omitempty"`
	Subdomain                     string                     `json:"subdomain,omitempty"`
	Affinity                      *Affinity                  `json:"affinity,omitempty"`
	SchedulerName                 string                     `json:"schedulerName,omitempty"`
	Tolerations                   []Toleration               `json:"tolerations,omitempty"`
	PriorityClassName             string                     `json:"priorityClassName,omitempty"`
	Priority                      *int32                     `json:"priority,omitempty"`
	ReadinessGates                []PodReadinessGate         `json:"readinessGates,omitempty"`
	RuntimeClassName              *string                    `json:"runtimeClassName,omitempty"`
	EnableServiceLinks            *bool                      `json:"enableServiceLinks,omitempty"`
	PreemptionPolicy              *PreemptionPolicy          `json:"preemptionPolicy,omitempty"`
	Overhead                      ResourceList               `json:"overhead,omitempty"`
	TopologySpreadConstraints     []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	SetHostnameAsFQDN             *bool                      `json:"setHostnameAsFQDN,omitempty"`
	OS                            *PodOS                     `json:"os,omitempty"`
	HostUsers                     *bool                      `json:"hostUsers,omitempty"`
	SchedulingGates               []PodSchedulingGate        `json:"schedulingGates,omitempty"`
	Resources                     *ResourceRequirements      `json:"resources,omitempty"`
	DNSConfig                     *PodDNSConfig              `json:"dnsConfig,omitempty"`
	HostAliases                   []HostAlias                `json:"hostAliases,omitempty"`
	ResourceClaims                []PodResourceClaim         `json:"resourceClaims,omitempty"`
	HostnameOverride              *string                    `json:"hostnameOverride,omitempty"`
}

// PodDNSConfig adds to (or, with dnsPolicy None, replaces) the DNS
// configuration the kubelet generates for a pod.
type PodDNSConfig struct {
	Nameservers []string             `json:"nameservers,omitempty"`
	Searches    []string             `json:"searches,omitempty"`
	Options     []PodDNSConfigOption `json:"options,omitempty"`
}

// PodDNSConfigOption is one resolver option (e.g. ndots:5).
type PodDNSConfigOption struct {
	Name  string  `json:"name,omitempty"`
	Value *string `json:"value,omitempty"`
}

// HostAlias is an /etc/hosts entry the kubelet writes into the pod.
type HostAlias struct {
	IP        string   `json:"ip"`
	Hostnames []string `json:"hostnames,omitempty"`
}

// PodResourceClaim names a dynamic resource claim (or a template for one)
// the pod's containers may use.
type PodResourceClaim struct {
	Name                      string  `json:"name"`
	ResourceClaimName         *string `json:"resourceClaimName,omitempty"`
	ResourceClaimTemplateName *string `json:"resourceClaimTemplateName,omitempty"`
}

// LocalObjectReference names an object in the same namespace.
type LocalObjectReference struct {
	Name string `json:"name,omitempty"`
}

// PodReadinessGate names an extra pod condition that must be True for the
// pod to be Ready (the kubelet's readiness gates).
type PodReadinessGate struct {
	ConditionType PodConditionType `json:"conditionType"`
}

// PodSchedulingGate holds a pod back from scheduling while present.
type PodSchedulingGate struct {
	Name string `json:"name"`
}

// PodSecurityContext holds pod-wide security settings.
type PodSecurityContext struct {
	SELinuxOptions      *SELinuxOptions                `json:"seLinuxOptions,omitempty"`
	WindowsOptions      *WindowsSecurityContextOptions `json:"windowsOptions,omitempty"`
	RunAsUser           *int64                         `json:"runAsUser,omitempty"`
	RunAsGroup          *int64                         `json:"runAsGroup,omitempty"`
	RunAsNonRoot        *bool                          `json:"runAsNonRoot,omitempty"`
	SupplementalGroups  []int64                        `json:"supplementalGroups,omitempty"`
	FSGroup             *int64                         `json:"fsGroup,omitempty"`
	FSGroupChangePolicy *string                        `json:"fsGroupChangePolicy,omitempty"`
	Sysctls             []Sysctl                       `json:"sysctls,omitempty"`
	SeccompProfile      *SeccompProfile                `json:"seccompProfile,omitempty"`
	AppArmorProfile     *AppArmorProfile               `json:"appArmorProfile,omitempty"`
	// SupplementalGroupsPolicy is Merge (the default) or Strict.
	SupplementalGroupsPolicy *string `json:"supplementalGroupsPolicy,omitempty"`
	// SELinuxChangePolicy is Recursive or MountOption.
	SELinuxChangePolicy *string `json:"seLinuxChangePolicy,omitempty"`
}

// SELinuxOptions are the SELinux labels applied to a container.
type SELinuxOptions struct {
	User  string `json:"user,omitempty"`
	Role  string `json:"role,omitempty"`
	Type  string `json:"type,omitempty"`
	Level string `json:"level,omitempty"`
}

// WindowsSecurityContextOptions are Windows-specific security settings.
type WindowsSecurityContextOptions struct {
	GMSACredentialSpecName *string `json:"gmsaCredentialSpecName,omitempty"`
	GMSACredentialSpec     *string `json:"gmsaCredentialSpec,omitempty"`
	RunAsUserName          *string `json:"runAsUserName,omitempty"`
	HostProcess            *bool   `json:"hostProcess,omitempty"`
}

// Sysctl is a namespaced kernel parameter set for the pod.
type Sysctl struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SeccompProfile selects a seccomp profile.
type SeccompProfile struct {
	Type             string  `json:"type"`
	LocalhostProfile *string `json:"localhostProfile,omitempty"`
}

// AppArmorProfile selects an AppArmor profile.
type AppArmorProfile struct {
	Type             string  `json:"type"`
	LocalhostProfile *string `json:"localhostProfile,omitempty"`
}

// IsSidecar reports whether the init container c is a sidecar: an init
// container with restartPolicy Always, which keeps running beside the app
// containers (KEP-753). A nil container is not a sidecar.
func (c *Container) IsSidecar() bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == RestartPolicyAlways
}

// Key returns "namespace/name", the key the API server and controllers use.
// A nil pod has no key: the result is "".
func (p *Pod) Key() string {
	if p == nil {
		return ""
	}
	return p.Namespace + "/" + p.Name
}

// IsTerminating reports whether the pod has a deletionTimestamp. A nil pod
// is not terminating.
func (p *Pod) IsTerminating() bool { return p != nil && p.DeletionTimestamp != nil }
