package api

// Container is one container of a pod (core/v1 Container). The same type
// serves app containers, init containers (where RestartPolicy Always makes a
// sidecar) and, embedded, ephemeral containers.
type Container struct {
	Name                     string                  `json:"name"`
	Image                    string                  `json:"image,omitempty"`
	Command                  []string                `json:"command,omitempty"`
	Args                     []string                `json:"args,omitempty"`
	WorkingDir               string                  `json:"workingDir,omitempty"`
	Ports                    []ContainerPort         `json:"ports,omitempty"`
	EnvFrom                  []EnvFromSource         `json:"envFrom,omitempty"`
	Env                      []EnvVar                `json:"env,omitempty"`
	Resources                ResourceRequirements    `json:"resources,omitzero"`
	ResizePolicy             []ContainerResizePolicy `json:"resizePolicy,omitempty"`
	RestartPolicy            *RestartPolicy          `json:"restartPolicy,omitempty"`
	RestartPolicyRules       []ContainerRestartRule  `json:"restartPolicyRules,omitempty"`
	VolumeMounts             []VolumeMount           `json:"volumeMounts,omitempty"`
	VolumeDevices            []VolumeDevice          `json:"volumeDevices,omitempty"`
	LivenessProbe            *Probe                  `json:"livenessProbe,omitempty"`
	ReadinessProbe           *Probe                  `json:"readinessProbe,omitempty"`
	StartupProbe             *Probe                  `json:"startupProbe,omitempty"`
	Lifecycle                *Lifecycle              `json:"lifecycle,omitempty"`
	TerminationMessagePath   string                  `json:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy string                  `json:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          PullPolicy              `json:"imagePullPolicy,omitempty"`
	SecurityContext          *SecurityContext        `json:"securityContext,omitempty"`
	Stdin                    bool                    `json:"stdin,omitempty"`
	StdinOnce                bool                    `json:"stdinOnce,omitempty"`
	TTY                      bool                    `json:"tty,omitempty"`
}

// EphemeralContainer is a debugging container added to a running pod through
// the ephemeralcontainers subresource. It has a container's fields (most of
// which validation forbids) plus the container whose namespaces it targets.
type EphemeralContainer struct {
	Container           `json:",inline"`
	TargetContainerName string `json:"targetContainerName,omitempty"`
}

// PullPolicy is a container's imagePullPolicy: Always, Never or IfNotPresent.
type PullPolicy string

// The image pull policies.
const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// Protocol is a port's network protocol: TCP, UDP or SCTP.
type Protocol string

// The port protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// ContainerPort is a port a container exposes; a non-zero HostPort claims
// (hostIP, protocol, hostPort) on the node, checked by the NodePorts filter.
type ContainerPort struct {
	Name          string   `json:"name,omitempty"`
	HostPort      int32    `json:"hostPort,omitempty"`
	ContainerPort int32    `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
	HostIP        string   `json:"hostIP,omitempty"`
}

// ContainerRestartRule is one entry of a container's restartPolicyRules: when
// the container exits with a code the rule matches, Action applies
// (Restart or RestartAllContainers). Rules are evaluated in order; the
// first match wins, else the container's restartPolicy decides.
type ContainerRestartRule struct {
	Action    ContainerRestartRuleAction       `json:"action"`
	ExitCodes *ContainerRestartRuleOnExitCodes `json:"exitCodes,omitempty"`
}

// ContainerRestartRuleAction is what a matching restart rule does.
type ContainerRestartRuleAction string

// The restart rule actions.
const (
	RestartRuleActionRestart              ContainerRestartRuleAction = "Restart"
	RestartRuleActionRestartAllContainers ContainerRestartRuleAction = "RestartAllContainers"
)

// ContainerRestartRuleOnExitCodes matches exit codes In or NotIn a set.
type ContainerRestartRuleOnExitCodes struct {
	Operator string  `json:"operator"`
	Values   []int32 `json:"values,omitempty"`
}

// The exit-code operators of a restart rule.
const (
	ExitCodesOpIn    = "In"
	ExitCodesOpNotIn = "NotIn"
)

// ContainerResizePolicy says whether resizing a resource restarts the
// container.
type ContainerResizePolicy struct {
	ResourceName  ResourceName `json:"resourceName"`
	RestartPolicy string       `json:"restartPolicy"`
}

// EnvVar is one environment variable: a literal value (with $(VAR)
// references to earlier variables) or a value taken from a source.
type EnvVar struct {
	Name      string        `json:"name"`
	Value     string        `json:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty"`
}

// EnvVarSource is where an environment variable's value comes from.
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty"`
	FileKeyRef       *FileKeySelector       `json:"fileKeyRef,omitempty"`
}

// ObjectFieldSelector selects a field of the pod for the downward API.
// APIVersion defaults to "v1".
type ObjectFieldSelector struct {
	APIVersion string `json:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath"`
}

// ResourceFieldSelector selects a container's resource limit or request for
// the downward API, scaled by Divisor (default 1).
type ResourceFieldSelector struct {
	ContainerName string    `json:"containerName,omitempty"`
	Resource      string    `json:"resource"`
	Divisor       *Quantity `json:"divisor,omitempty"`
}

// ConfigMapKeySelector selects one key of a ConfigMap.
type ConfigMapKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// SecretKeySelector selects one key of a Secret.
type SecretKeySelector struct {
	LocalObjectReference `json:",inline"`
	Key                  string `json:"key"`
	Optional             *bool  `json:"optional,omitempty"`
}

// FileKeySelector selects one key of an env file in a volume.
type FileKeySelector struct {
	VolumeName string `json:"volumeName"`
	Path       string `json:"path"`
	Key        string `json:"key"`
	Optional   *bool  `json:"optional,omitempty"`
}

// EnvFromSource imports every key of a ConfigMap or Secret as variables.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty"`
}

// ConfigMapEnvSource names a ConfigMap for envFrom.
type ConfigMapEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// SecretEnvSource names a Secret for envFrom.
type SecretEnvSource struct {
	LocalObjectReference `json:",inline"`
	Optional             *bool `json:"optional,omitempty"`
}

// VolumeMount mounts a pod volume into a container.
type VolumeMount struct {
	Name             string  `json:"name"`
	ReadOnly         bool    `json:"readOnly,omitempty"`
	MountPath        string  `json:"mountPath"`
	SubPath          string  `json:"subPath,omitempty"`
	MountPropagation *string `json:"mountPropagation,omitempty"`
	SubPathExpr      string  `json:"subPathExpr,omitempty"`
	// RecursiveReadOnly is Disabled, IfPossible or Enabled.
	RecursiveReadOnly *string `json:"recursiveReadOnly,omitempty"`
}

// VolumeDevice maps a raw block volume to a device path in the container.
type VolumeDevice struct {
	Name       string `json:"name"`
	DevicePath string `json:"devicePath"`
}

// ResourceRequirements are a container's (or, at pod level, the pod's)
// resource requests and limits.
type ResourceRequirements struct {
	Limits   ResourceList    `json:"limits,omitempty"`
	Requests ResourceList    `json:"requests,omitempty"`
	Claims   []ResourceClaim `json:"claims,omitempty"`
}

// ResourceClaim names a dynamic resource claim a container uses.
type ResourceClaim struct {
	Name    string `json:"name"`
	Request string `json:"request,omitempty"`
}

// SecurityContext holds container-level security settings.
type SecurityContext struct {
	Capabilities             *Capabilities                  `json:"capabilities,omitempty"`
	Privileged               *bool                          `json:"privileged,omitempty"`
	SELinuxOptions           *SELinuxOptions                `json:"seLinuxOptions,omitempty"`
	WindowsOptions           *WindowsSecurityContextOptions `json:"windowsOptions,omitempty"`
	RunAsUser                *int64                         `json:"runAsUser,omitempty"`
	RunAsGroup               *int64                         `json:"runAsGroup,omitempty"`
	RunAsNonRoot             *bool                          `json:"runAsNonRoot,omitempty"`
	ReadOnlyRootFilesystem   *bool                          `json:"readOnlyRootFilesystem,omitempty"`
	AllowPrivilegeEscalation *bool                          `json:"allowPrivilegeEscalation,omitempty"`
	ProcMount                *string                        `json:"procMount,omitempty"`
	SeccompProfile           *SeccompProfile                `json:"seccompProfile,omitempty"`
	AppArmorProfile          *AppArmorProfile               `json:"appArmorProfile,omitempty"`
}

// Capabilities adds and drops Linux capabilities.
type Capabilities struct {
	Add  []string `json:"add,omitempty"`
	Drop []string `json:"drop,omitempty"`
}

// Probe is a container health check: a handler plus timing. Zero timing
// fields mean "not set"; DefaultPod fills them as the API server does.
type Probe struct {
	ProbeHandler                  `json:",inline"`
	InitialDelaySeconds           int32  `json:"initialDelaySeconds,omitempty"`
	TimeoutSeconds                int32  `json:"timeoutSeconds,omitempty"`
	PeriodSeconds                 int32  `json:"periodSeconds,omitempty"`
	SuccessThreshold              int32  `json:"successThreshold,omitempty"`
	FailureThreshold              int32  `json:"failureThreshold,omitempty"`
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
}

// ProbeHandler is the mechanism of a probe: exactly one of exec, httpGet,
// tcpSocket or grpc.
type ProbeHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
	GRPC      *GRPCAction      `json:"grpc,omitempty"`
}

// ExecAction runs a command in the container; exit 0 is success.
type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

// URIScheme is HTTP or HTTPS.
type URIScheme string

// The URI schemes of an httpGet action.
const (
	URISchemeHTTP  URIScheme = "HTTP"
	URISchemeHTTPS URIScheme = "HTTPS"
)

// HTTPGetAction is an HTTP GET against the container; 200-399 is success.
type HTTPGetAction struct {
	Path        string       `json:"path,omitempty"`
	Port        IntOrString  `json:"port"`
	Host        string       `json:"host,omitempty"`
	Scheme      URIScheme    `json:"scheme,omitempty"`
	HTTPHeaders []HTTPHeader `json:"httpHeaders,omitempty"`
}

// HTTPHeader is one custom header of an httpGet action.
type HTTPHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// TCPSocketAction opens a TCP connection; connecting is success.
type TCPSocketAction struct {
	Port IntOrString `json:"port"`
	Host string      `json:"host,omitempty"`
}

// GRPCAction calls the gRPC health checking protocol on a port.
type GRPCAction struct {
	Port    int32   `json:"port"`
	Service *string `json:"service,omitempty"`
}

// Lifecycle holds a container's postStart and preStop hooks and the signal
// the runtime sends to stop it.
type Lifecycle struct {
	PostStart  *LifecycleHandler `json:"postStart,omitempty"`
	PreStop    *LifecycleHandler `json:"preStop,omitempty"`
	StopSignal *string           `json:"stopSignal,omitempty"`
}

// LifecycleHandler is one hook: exactly one of exec, httpGet, tcpSocket
// (deprecated, accepted but not run) or sleep.
type LifecycleHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
	Sleep     *SleepAction     `json:"sleep,omitempty"`
}

// SleepAction pauses for Seconds.
type SleepAction struct {
	Seconds int64 `json:"seconds"`
}
