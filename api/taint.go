package api

// TaintEffect is what a taint does to pods that do not tolerate it:
// NoSchedule and NoExecute keep them off (NoExecute also evicts running
// ones); PreferNoSchedule only lowers the node's score.
type TaintEffect string

// The taint effects.
const (
	TaintEffectNoSchedule       TaintEffect = "NoSchedule"
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	TaintEffectNoExecute        TaintEffect = "NoExecute"
)

// Well-known labels the pod rules consult. The well-known taint keys are in
// wellknown_taints.go.
const (
	LabelHostname = "kubernetes.io/hostname"
	// LabelOS is the operating system label (kubernetes.io/os, "linux" or
	// "windows") that the kubelet sets on its node and compares with a
	// pod's own label of that key on admission.
	LabelOS             = "kubernetes.io/os"
	LabelTopologyZone   = "topology.kubernetes.io/zone"
	LabelTopologyRegion = "topology.kubernetes.io/region"
	// LabelFailureDomainBetaZone and LabelFailureDomainBetaRegion are the
	// deprecated zone and region labels, still read where the GA ones are
	// absent (the scheduler's node tree, VolumeZone).
	LabelFailureDomainBetaZone   = "failure-domain.beta.kubernetes.io/zone"
	LabelFailureDomainBetaRegion = "failure-domain.beta.kubernetes.io/region"
)

// Taint marks a node so that only pods tolerating it run there.
type Taint struct {
	Key       string      `json:"key"`
	Value     string      `json:"value,omitempty"`
	Effect    TaintEffect `json:"effect"`
	TimeAdded *Time       `json:"timeAdded,omitempty"`
}

// TolerationOperator is Exists or Equal (the default when empty).
type TolerationOperator string

// The toleration operators.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
)

// Toleration lets a pod run on nodes with a matching taint. An empty key
// with operator Exists tolerates every taint; an empty effect matches every
// effect; tolerationSeconds bounds how long a NoExecute taint is tolerated.
type Toleration struct {
	Key               string             `json:"key,omitempty"`
	Operator          TolerationOperator `json:"operator,omitempty"`
	Value             string             `json:"value,omitempty"`
	Effect            TaintEffect        `json:"effect,omitempty"`
	TolerationSeconds *int64             `json:"tolerationSeconds,omitempty"`
}

// ToleratesTaint reports whether t tolerates taint, with the API's matching
// rule (core/v1 helper ToleratesTaint): effects must match unless the
// toleration's is empty; keys must match unless the toleration's key is
// empty with Exists; Equal (or empty) operators compare values. A nil
// toleration tolerates nothing, and nothing tolerates a nil taint.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t == nil || taint == nil {
		return false
	}
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	default:
		return false
	}
}

// UnsatisfiableConstraintAction is what topology spread does when a
// constraint cannot be met: DoNotSchedule (filter) or ScheduleAnyway (score).
type UnsatisfiableConstraintAction string

// The actions of a topology spread constraint.
const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// NodeInclusionPolicy says whether node affinity or taints decide which
// nodes count when computing spread skew: Honor or Ignore.
type NodeInclusionPolicy string

// The node inclusion policies.
const (
	NodeInclusionPolicyIgnore NodeInclusionPolicy = "Ignore"
	NodeInclusionPolicyHonor  NodeInclusionPolicy = "Honor"
)

// TopologySpreadConstraint spreads matching pods across the domains of a
// topology key (kube-scheduler's PodTopologySpread plugin).
type TopologySpreadConstraint struct {
	MaxSkew            int32                         `json:"maxSkew"`
	TopologyKey        string                        `json:"topologyKey"`
	WhenUnsatisfiable  UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector                `json:"labelSelector,omitempty"`
	MinDomains         *int32                        `json:"minDomains,omitempty"`
	NodeAffinityPolicy *NodeInclusionPolicy          `json:"nodeAffinityPolicy,omitempty"`
	NodeTaintsPolicy   *NodeInclusionPolicy          `json:"nodeTaintsPolicy,omitempty"`
	MatchLabelKeys     []string                      `json:"matchLabelKeys,omitempty"`
}
