package api

// The values of a container's security settings that more than one
// component reads: the API server's validation accepts them and Pod
// Security admission (k8s.io/pod-security-admission) judges them. Their
// spelling is k8s.io/api core/v1's.

// The seccompProfile.type values of a pod or container security context.
const (
	// SeccompProfileTypeRuntimeDefault: the container runtime's default
	// profile.
	SeccompProfileTypeRuntimeDefault = "RuntimeDefault"
	// SeccompProfileTypeLocalhost: a profile file on the node, named by
	// localhostProfile.
	SeccompProfileTypeLocalhost = "Localhost"
	// SeccompProfileTypeUnconfined: no seccomp filtering.
	SeccompProfileTypeUnconfined = "Unconfined"
)

// The appArmorProfile.type values of a pod or container security context.
const (
	// AppArmorProfileTypeRuntimeDefault: the container runtime's default
	// profile.
	AppArmorProfileTypeRuntimeDefault = "RuntimeDefault"
	// AppArmorProfileTypeLocalhost: a profile loaded on the node, named by
	// localhostProfile.
	AppArmorProfileTypeLocalhost = "Localhost"
	// AppArmorProfileTypeUnconfined: no AppArmor confinement.
	AppArmorProfileTypeUnconfined = "Unconfined"
)

// The securityContext.procMount values.
const (
	// DefaultProcMount: the runtime's default /proc mount, with the usual
	// paths masked and read-only.
	DefaultProcMount = "Default"
	// UnmaskedProcMount: /proc with nothing masked; validation accepts it
	// only in a user namespace (hostUsers: false).
	UnmaskedProcMount = "Unmasked"
)

// The AppArmor annotations that preceded the appArmorProfile fields
// (deprecated since v1.30; still validated on pods and still judged by Pod
// Security admission).
const (
	// DeprecatedAppArmorBetaContainerAnnotationKeyPrefix, followed by a
	// container's name, sets that container's profile.
	DeprecatedAppArmorBetaContainerAnnotationKeyPrefix = "container.apparmor.security.beta.kubernetes.io/"
	// DeprecatedAppArmorBetaProfileRuntimeDefault is the annotation value
	// for the runtime's default profile.
	DeprecatedAppArmorBetaProfileRuntimeDefault = "runtime/default"
	// DeprecatedAppArmorBetaProfileNameUnconfined is the annotation value
	// for no confinement.
	DeprecatedAppArmorBetaProfileNameUnconfined = "unconfined"
	// DeprecatedAppArmorBetaProfileNamePrefix, followed by a profile name,
	// selects a profile loaded on the node.
	DeprecatedAppArmorBetaProfileNamePrefix = "localhost/"
)

// The alpha seccomp annotations that preceded the seccompProfile fields
// (v1.19); Pod Security admission judges them at policy versions before
// v1.19.
const (
	// SeccompPodAnnotationKey sets the seccomp profile of the whole pod.
	SeccompPodAnnotationKey = "seccomp.security.alpha.kubernetes.io/pod"
	// SeccompContainerAnnotationKeyPrefix, followed by a container's name,
	// sets that container's profile.
	SeccompContainerAnnotationKeyPrefix = "container.seccomp.security.alpha.kubernetes.io/"
	// SeccompProfileRuntimeDefault is the annotation value for the
	// runtime's default profile.
	SeccompProfileRuntimeDefault = "runtime/default"
	// DeprecatedSeccompProfileDockerDefault is the older annotation value
	// for the runtime's default profile.
	DeprecatedSeccompProfileDockerDefault = "docker/default"
	// SeccompLocalhostProfileNamePrefix, followed by a file name, selects a
	// profile file on the node.
	SeccompLocalhostProfileNamePrefix = "localhost/"
)
