package api

// Affinity groups a pod's scheduling constraints against nodes and other pods
// (core/v1 Affinity), evaluated by kube-scheduler's NodeAffinity and
// InterPodAffinity plugins.
type Affinity struct {
	NodeAffinity    *NodeAffinity    `json:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity     `json:"podAffinity,omitempty"`
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty"`
}

// NodeAffinity holds the required (hard) and preferred (soft) node affinity
// terms of a pod.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is a disjunction of node selector terms: a node matches when
// any term matches. An empty term list matches no node.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm is a conjunction of requirements over node labels
// (matchExpressions) and node fields (matchFields; only metadata.name is
// supported). A term with neither list matches no node.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorOperator is the operator of a NodeSelectorRequirement: the
// label-selector operators plus Gt and Lt, which compare a label value parsed
// as an integer.
type NodeSelectorOperator string

// The operators a NodeSelectorRequirement may use.
const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// NodeSelectorRequirement is one requirement of a NodeSelectorTerm.
type NodeSelectorRequirement struct {
	Key      string               `json:"key"`
	Operator NodeSelectorOperator `json:"operator"`
	Values   []string             `json:"values,omitempty"`
}

// PreferredSchedulingTerm is a weighted (1-100) node selector term used by
// NodeAffinity scoring.
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight"`
	Preference NodeSelectorTerm `json:"preference"`
}

// PodAffinity holds terms that attract the pod to domains running matching
// pods.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAntiAffinity holds terms that repel the pod from domains running
// matching pods.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm selects pods (labelSelector, in the namespaces named or
// matched by namespaceSelector, else the owning pod's namespace) that must or
// must not run in the same topology domain (nodes sharing the value of
// topologyKey). matchLabelKeys / mismatchLabelKeys add the incoming pod's own
// label values to the selector as In / NotIn requirements.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector,omitempty"`
	Namespaces        []string       `json:"namespaces,omitempty"`
	TopologyKey       string         `json:"topologyKey"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	MatchLabelKeys    []string       `json:"matchLabelKeys,omitempty"`
	MismatchLabelKeys []string       `json:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTerm is a preferred pod (anti-)affinity term with its
// weight (1-100), used by InterPodAffinity scoring.
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}
