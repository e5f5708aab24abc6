package api

// PodDisruptionBudget limits voluntary disruptions of the pods its selector
// matches (policy/v1; policy/v1beta1 documents decode into it too).
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PodDisruptionBudgetSpec   `json:"spec,omitzero"`
	Status     PodDisruptionBudgetStatus `json:"status,omitzero"`
}

// UnhealthyPodEvictionPolicy says when unhealthy (not Ready) pods guarded by
// a budget may be evicted: IfHealthyBudget (the default) or AlwaysAllow.
type UnhealthyPodEvictionPolicy string

// The unhealthy pod eviction policies.
const (
	IfHealthyBudget UnhealthyPodEvictionPolicy = "IfHealthyBudget"
	AlwaysAllow     UnhealthyPodEvictionPolicy = "AlwaysAllow"
)

// PodDisruptionBudgetSpec holds at most one of minAvailable and
// maxUnavailable (an integer or a percentage) and the pod selector.
type PodDisruptionBudgetSpec struct {
	MinAvailable               *IntOrString                `json:"minAvailable,omitempty"`
	Selector                   *LabelSelector              `json:"selector,omitempty"`
	MaxUnavailable             *IntOrString                `json:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *UnhealthyPodEvictionPolicy `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// PodDisruptionBudgetStatus is what the disruption controller last wrote.
// DisruptedPods maps pod names to the time the Eviction API granted their
// eviction, so that they are not counted healthy before they go.
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty"`
}

// Condition is the generic metav1.Condition used by PodDisruptionBudget
// status (type DisruptionAllowed).
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	LastTransitionTime Time            `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// Eviction asks the API server's pods/eviction subresource to delete a pod
// while respecting disruption budgets.
type Eviction struct {
	TypeMeta      `json:",inline"`
	ObjectMeta    `json:"metadata,omitzero"`
	DeleteOptions *DeleteOptions `json:"deleteOptions,omitempty"`
}

// DeleteOptions are the options of a DELETE request (metav1.DeleteOptions).
type DeleteOptions struct {
	TypeMeta                                         `json:",inline"`
	GracePeriodSeconds                               *int64         `json:"gracePeriodSeconds,omitempty"`
	Preconditions                                    *Preconditions `json:"preconditions,omitempty"`
	OrphanDependents                                 *bool          `json:"orphanDependents,omitempty"`
	PropagationPolicy                                *string        `json:"propagationPolicy,omitempty"`
	DryRun                                           []string       `json:"dryRun,omitempty"`
	IgnoreStoreReadErrorWithClusterBreakingPotential *bool          `json:"ignoreStoreReadErrorWithClusterBreakingPotential,omitempty"`
}

// The deletion propagation policies a DeleteOptions may name
// (apimachinery metav1.DeletionPropagation): what the garbage collector
// does with the object's dependents.
const (
	// DeletePropagationOrphan leaves the dependents, their owner
	// references to the object removed; the object carries the
	// FinalizerOrphanDependents finalizer until that is done.
	DeletePropagationOrphan = "Orphan"
	// DeletePropagationBackground deletes the object at once and its
	// dependents in the background.
	DeletePropagationBackground = "Background"
	// DeletePropagationForeground keeps the object, with the
	// FinalizerDeleteDependents finalizer, until the dependents that block
	// owner deletion are gone.
	DeletePropagationForeground = "Foreground"
)

// The finalizers the garbage collector handles (apimachinery metav1), which
// the API server adds and removes on a DELETE as its propagation policy
// asks.
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// Preconditions must hold for a delete to proceed.
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// PriorityClass maps a class name to a pod priority value
// (scheduling.k8s.io/v1). User classes may not exceed 1,000,000,000; the
// system classes sit above it.
type PriorityClass struct {
	TypeMeta         `json:",inline"`
	ObjectMeta       `json:"metadata,omitzero"`
	Value            int32             `json:"value"`
	GlobalDefault    bool              `json:"globalDefault,omitempty"`
	Description      string            `json:"description,omitempty"`
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}
