package api

import "strings"

// Node is a Kubernetes core/v1 Node: a machine pods run on.
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       NodeSpec   `json:"spec,omitzero"`
	Status     NodeStatus `json:"status,omitzero"`
}

// NodeSpec holds a node's taints and whether it is cordoned.
type NodeSpec struct {
	PodCIDR       string   `json:"podCIDR,omitempty"`
	PodCIDRs      []string `json:"podCIDRs,omitempty"`
	ProviderID    string   `json:"providerID,omitempty"`
	Unschedulable bool     `json:"unschedulable,omitempty"`
	Taints        []Taint  `json:"taints,omitempty"`
}

// NodeStatus is what the kubelet reports about a node.
type NodeStatus struct {
	Capacity        ResourceList        `json:"capacity,omitempty"`
	Allocatable     ResourceList        `json:"allocatable,omitempty"`
	Phase           string              `json:"phase,omitempty"`
	Conditions      []NodeCondition     `json:"conditions,omitempty"`
	Addresses       []NodeAddress       `json:"addresses,omitempty"`
	DaemonEndpoints NodeDaemonEndpoints `json:"daemonEndpoints,omitzero"`
	NodeInfo        NodeSystemInfo      `json:"nodeInfo,omitzero"`
	// Images are the container images present on the node, which the
	// scheduler's ImageLocality plugin scores.
	Images []ContainerImage `json:"images,omitempty"`
	// DeclaredFeatures are the node features the kubelet declares (sorted,
	// without duplicates), which the scheduler's NodeDeclaredFeatures
	// plugin matches against the features a pod needs.
	DeclaredFeatures []string `json:"declaredFeatures,omitempty"`
	// VolumesInUse are the unique names of the attachable volumes the
	// kubelet has mounted (or is mounting) on the node; the attach-detach
	// controller does not detach them until it forces a detach.
	VolumesInUse []string `json:"volumesInUse,omitempty"`
	// VolumesAttached are the volumes the attach-detach controller has
	// attached to the node and not started to detach (its node status
	// updater writes them), by unique name.
	VolumesAttached []AttachedVolume `json:"volumesAttached,omitempty"`
	// Features are the node's NodeFeatures (supplementalGroupsPolicy: the
	// runtime honours a pod's supplementalGroupsPolicy), which the
	// kubelet's admission consults.
	Features *NodeFeatures `json:"features,omitempty"`
}

// AttachedVolume is one entry of a node's status.volumesAttached: the
// volume's unique name ("kubernetes.io/csi/<driver>^<volumeHandle>") and
// the device path its attach returned ("" for CSI volumes).
type AttachedVolume struct {
	Name       string `json:"name"`
	DevicePath string `json:"devicePath"`
}

// NodeFeatures is a node's status.features.
type NodeFeatures struct {
	SupplementalGroupsPolicy *bool `json:"supplementalGroupsPolicy,omitempty"`
}

// ContainerImage is one image on a node: every name it is known by
// (repository:tag, repository@digest) and its size in bytes.
type ContainerImage struct {
	Names     []string `json:"names"`
	SizeBytes int64    `json:"sizeBytes,omitempty"`
}

// NodeConditionType names a node condition (Ready, MemoryPressure...).
type NodeConditionType string

// The node conditions the pod rules read.
const (
	NodeReady              NodeConditionType = "Ready"
	NodeMemoryPressure     NodeConditionType = "MemoryPressure"
	NodeDiskPressure       NodeConditionType = "DiskPressure"
	NodePIDPressure        NodeConditionType = "PIDPressure"
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeCondition is one entry of a node's status.conditions.
type NodeCondition struct {
	Type               NodeConditionType `json:"type"`
	Status             ConditionStatus   `json:"status"`
	LastHeartbeatTime  Time              `json:"lastHeartbeatTime,omitzero"`
	LastTransitionTime Time              `json:"lastTransitionTime,omitzero"`
	Reason             string            `json:"reason,omitempty"`
	Message            string            `json:"message,omitempty"`
}

// NodeAddressType is the kind of a node address.
type NodeAddressType string

// The node address kinds.
const (
	NodeHostName    NodeAddressType = "Hostname"
	NodeInternalIP  NodeAddressType = "InternalIP"
	NodeExternalIP  NodeAddressType = "ExternalIP"
	NodeInternalDNS NodeAddressType = "InternalDNS"
	NodeExternalDNS NodeAddressType = "ExternalDNS"
)

// NodeAddress is one address of a node.
type NodeAddress struct {
	Type    NodeAddressType `json:"type"`
	Address string          `json:"address"`
}

// NodeDaemonEndpoints lists the ports daemons on the node listen on.
type NodeDaemonEndpoints struct {
	KubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitzero"`
}

// DaemonEndpoint is one daemon port. (The API spells its field "Port".)
type DaemonEndpoint struct {
	Port int32 `json:"Port"`
}

// NodeSystemInfo describes the node's software.
type NodeSystemInfo struct {
	MachineID               string `json:"machineID,omitempty"`
	SystemUUID              string `json:"systemUUID,omitempty"`
	BootID                  string `json:"bootID,omitempty"`
	KernelVersion           string `json:"kernelVersion,omitempty"`
	OSImage                 string `json:"osImage,omitempty"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion,omitempty"`
	KubeletVersion          string `json:"kubeletVersion,omitempty"`
	KubeProxyVersion        string `json:"kubeProxyVersion,omitempty"`
	OperatingSystem         string `json:"operatingSystem,omitempty"`
	Architecture            string `json:"architecture,omitempty"`
}

// Namespace is a core/v1 Namespace; its labels feed namespaceSelector,
// and its phase decides whether the API server's NamespaceLifecycle
// admission plugin admits new objects in it.
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       NamespaceSpec   `json:"spec,omitzero"`
	Status     NamespaceStatus `json:"status,omitzero"`
}

// NamespaceSpec is a Namespace's spec: the finalizers that must be
// removed (through the finalize subresource) before a deleted namespace
// leaves storage. The API server adds FinalizerKubernetes on create.
type NamespaceSpec struct {
	Finalizers []string `json:"finalizers,omitempty"`
}

// NamespaceStatus is a Namespace's phase and the namespace controller's
// conditions about its deletion.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty"`
}

// NamespacePhase is a Namespace's lifecycle phase.
type NamespacePhase string

// The namespace phases: Active on create; Terminating from the DELETE
// that sets deletionTimestamp until the namespace is gone.
const (
	NamespaceActive      NamespacePhase = "Active"
	NamespaceTerminating NamespacePhase = "Terminating"
)

// FinalizerKubernetes is the spec finalizer the namespace registry puts on
// every Namespace and the namespace controller removes once the
// namespace's content is gone.
const FinalizerKubernetes = "kubernetes"

// LabelMetadataName is the label the namespace registry keeps on every
// Namespace, with the namespace's name as its value.
const LabelMetadataName = "kubernetes.io/metadata.name"

// NamespaceCondition is one of the namespace controller's conditions on a
// namespace being deleted (NamespaceContentRemaining, ...).
type NamespaceCondition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastTransitionTime Time            `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// Terminating reports whether ns is being deleted: its phase is
// Terminating, as the NamespaceLifecycle admission plugin reads it.
func (ns *Namespace) Terminating() bool { return ns != nil && ns.Status.Phase == NamespaceTerminating }

// ZoneKey is the failure zone a node belongs to, as component-helpers'
// node/topology GetZoneKey builds it for kube-scheduler's node tree and the
// node lifecycle controller's zones: the region and zone labels — the
// deprecated failure-domain.beta.kubernetes.io ones when present, else
// topology.kubernetes.io/region and /zone — joined as region + ":\x00:" +
// zone, or "" when the node has neither. A nil node has no zone.
func ZoneKey(n *Node) string { return JoinZoneKey(NodeZone(n)) }

// NodeZone is the region and zone ZoneKey joins: the deprecated
// failure-domain.beta.kubernetes.io labels when present, else
// topology.kubernetes.io/region and /zone ("" for a label the node lacks,
// and for a nil node).
func NodeZone(n *Node) (region, zone string) {
	if n == nil || n.Labels == nil {
		return "", ""
	}
	zone, ok := n.Labels[LabelFailureDomainBetaZone]
	if !ok {
		zone = n.Labels[LabelTopologyZone]
	}
	region, ok = n.Labels[LabelFailureDomainBetaRegion]
	if !ok {
		region = n.Labels[LabelTopologyRegion]
	}
	return region, zone
}

// JoinZoneKey is the ZoneKey of a region and a zone: region + ":\x00:" +
// zone, or "" when both are empty (SplitZoneKey is its inverse).
func JoinZoneKey(region, zone string) string {
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// SplitZoneKey returns the region and zone a ZoneKey joined ("", "" for
// the empty key).
func SplitZoneKey(key string) (region, zone string) {
	region, zone, _ = strings.Cut(key, ":\x00:")
	return region, zone
}
