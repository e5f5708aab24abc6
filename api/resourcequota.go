package api

// ResourceQuota is a core/v1 ResourceQuota: the hard limits on what the
// objects of its namespace may use together (compute resources of pods,
// object counts), enforced by kube-apiserver's ResourceQuota admission
// plugin and tallied in its status by kube-controller-manager's
// resourcequota controller.
type ResourceQuota struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       ResourceQuotaSpec   `json:"spec,omitzero"`
	Status     ResourceQuotaStatus `json:"status,omitzero"`
}

// ResourceQuotaSpec is a quota's hard limits, by resource name (pods,
// requests.cpu, limits.memory, count/deployments.apps, ...), and the
// scopes that narrow which objects it counts.
type ResourceQuotaSpec struct {
	Hard ResourceList `json:"hard,omitempty"`
	// Scopes each narrow the pods counted: Terminating, NotTerminating,
	// BestEffort, NotBestEffort, PriorityClass, CrossNamespacePodAffinity.
	Scopes []string `json:"scopes,omitempty"`
	// ScopeSelector narrows them by expressions over scope names
	// (PriorityClass In [high], ...).
	ScopeSelector *ScopeSelector `json:"scopeSelector,omitempty"`
}

// ScopeSelector is a quota's spec.scopeSelector: all its expressions must
// match.
type ScopeSelector struct {
	MatchExpressions []ScopedResourceSelectorRequirement `json:"matchExpressions,omitempty"`
}

// ScopedResourceSelectorRequirement is one expression of a scope
// selector: the scope name, an operator (In, NotIn, Exists,
// DoesNotExist) and, for In and NotIn, values.
type ScopedResourceSelectorRequirement struct {
	ScopeName string   `json:"scopeName"`
	Operator  string   `json:"operator"`
	Values    []string `json:"values,omitempty"`
}

// ResourceQuotaStatus is the quota's enforced hard limits (the
// resourcequota controller copies spec.hard) and what its namespace uses
// of each (the admission plugin adds each admitted object, the controller
// recalculates).
type ResourceQuotaStatus struct {
	Hard ResourceList `json:"hard,omitempty"`
	Used ResourceList `json:"used,omitempty"`
}

// The quota scopes (k8s.io/api core/v1 ResourceQuotaScope).
const (
	QuotaScopeTerminating               = "Terminating"
	QuotaScopeNotTerminating            = "NotTerminating"
	QuotaScopeBestEffort                = "BestEffort"
	QuotaScopeNotBestEffort             = "NotBestEffort"
	QuotaScopePriorityClass             = "PriorityClass"
	QuotaScopeCrossNamespacePodAffinity = "CrossNamespacePodAffinity"
)

// The scope selector operators (k8s.io/api core/v1 ScopeSelectorOperator).
const (
	ScopeSelectorOpIn           = "In"
	ScopeSelectorOpNotIn        = "NotIn"
	ScopeSelectorOpExists       = "Exists"
	ScopeSelectorOpDoesNotExist = "DoesNotExist"
)
