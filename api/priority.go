package api

// Priority value limits and the built-in PriorityClasses, as
// pkg/apis/scheduling defines them in Kubernetes v1.36.3.
const (
	// DefaultPriority is the priority a pod gets when it names no
	// PriorityClass and no class is marked globalDefault: zero
	// (pkg/apis/scheduling DefaultPriorityWhenNoDefaultClassExists). The
	// Priority admission plugin writes it; the kubelet's graceful node
	// shutdown uses it as the priority of its regular-pods group.
	DefaultPriority int32 = 0
	// HighestUserDefinablePriority is the largest value a PriorityClass
	// not named system-* may have: one billion.
	HighestUserDefinablePriority int32 = 1000000000
	// SystemCriticalPriority is the floor of the system classes: two
	// billion, the value of system-cluster-critical.
	SystemCriticalPriority int32 = 2 * HighestUserDefinablePriority

	// SystemPriorityClassPrefix reserves class names for the system: a
	// class whose name starts with it must be one of the built-in classes,
	// with exactly their value and globalDefault.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical is the class of add-ons that must run for the
	// cluster to work (value 2,000,000,000).
	SystemClusterCritical = "system-cluster-critical"
	// SystemNodeCritical is the class of pods a node cannot work without,
	// the highest priority there is (value 2,000,001,000).
	SystemNodeCritical = "system-node-critical"
)

// SystemPriorityClasses returns the two classes the API server creates at
// start-up: system-node-critical (2000001000) and system-cluster-critical
// (2000000000), neither globalDefault, both PreemptLowerPriority. A pod can
// name them only once they exist in the cluster, which they normally do.
// Each call returns new objects.
func SystemPriorityClasses() []PriorityClass {
	mk := func(name string, value int32, desc string) PriorityClass {
		p := PreemptLowerPriority
		return PriorityClass{
			TypeMeta:         TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta:       ObjectMeta{Name: name},
			Value:            value,
			Description:      desc,
			PreemptionPolicy: &p,
		}
	}
	return []PriorityClass{
		mk(SystemNodeCritical, SystemCriticalPriority+1000, "Used for system critical pods that must not be moved from their current node."),
		mk(SystemClusterCritical, SystemCriticalPriority, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
	}
}

// DefaultPriorityClass applies the API server's v1 defaulting to a
// PriorityClass in place (pkg/apis/scheduling/v1 defaulting): a missing
// preemptionPolicy becomes PreemptLowerPriority. A nil class is left
// alone.
func DefaultPriorityClass(pc *PriorityClass) {
	if pc != nil && pc.PreemptionPolicy == nil {
		p := PreemptLowerPriority
		pc.PreemptionPolicy = &p
	}
}

// PodPriority is the priority every component reads from a pod:
// spec.priority, or 0 when it is unset (component-helpers'
// corev1.PodPriority, which kube-scheduler and the kubelet's eviction
// manager both call). A nil pod has priority 0.
func PodPriority(pod *Pod) int32 {
	if pod != nil && pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}
