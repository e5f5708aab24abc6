package api

import (
	"crypto/sha1"
	"encoding/hex"
)

// StorageClass is a storage.k8s.io/v1 StorageClass (cluster-scoped): how
// volumes of a class are provisioned. The scheduler's VolumeBinding plugin
// reads volumeBindingMode (WaitForFirstConsumer claims are bound or
// provisioned only once a pod using them is scheduled), provisioner and
// allowedTopologies; NodeVolumeLimits reads the provisioner of an unbound
// claim's class. The API server defaults volumeBindingMode to Immediate and
// reclaimPolicy to Delete (DefaultStorageClass); BindingMode reads the
// binding mode of undefaulted input.
type StorageClass struct {
	TypeMeta             `json:",inline"`
	ObjectMeta           `json:"metadata,omitzero"`
	Provisioner          string                         `json:"provisioner"`
	Parameters           map[string]string              `json:"parameters,omitempty"`
	ReclaimPolicy        *PersistentVolumeReclaimPolicy `json:"reclaimPolicy,omitempty"`
	MountOptions         []string                       `json:"mountOptions,omitempty"`
	AllowVolumeExpansion *bool                          `json:"allowVolumeExpansion,omitempty"`
	VolumeBindingMode    *VolumeBindingMode             `json:"volumeBindingMode,omitempty"`
	AllowedTopologies    []TopologySelectorTerm         `json:"allowedTopologies,omitempty"`
}

// VolumeBindingMode says when a class's claims are bound: Immediate (the
// default) or WaitForFirstConsumer.
type VolumeBindingMode string

// The volume binding modes.
const (
	VolumeBindingImmediate            VolumeBindingMode = "Immediate"
	VolumeBindingWaitForFirstConsumer VolumeBindingMode = "WaitForFirstConsumer"
)

// BindingMode is the class's volumeBindingMode with the API server's
// default applied: Immediate when unset. A nil class gives Immediate (a
// claim whose class does not exist is treated as immediately bound).
func (c *StorageClass) BindingMode() VolumeBindingMode {
	if c == nil || c.VolumeBindingMode == nil {
		return VolumeBindingImmediate
	}
	return *c.VolumeBindingMode
}

// TopologySelectorTerm is one term of a StorageClass's allowedTopologies
// (core/v1): every label requirement must hold; the terms are ORed. An
// empty list of terms places no restriction.
type TopologySelectorTerm struct {
	MatchLabelExpressions []TopologySelectorLabelRequirement `json:"matchLabelExpressions,omitempty"`
}

// TopologySelectorLabelRequirement requires a node label (key) to have one
// of values.
type TopologySelectorLabelRequirement struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// CSINode is a storage.k8s.io/v1 CSINode (cluster-scoped, named after its
// Node): the CSI drivers the kubelet registered on that node. The
// scheduler's NodeVolumeLimits plugin reads each driver's allocatable
// count as the node's attach limit for that driver (a node without a
// CSINode, or a driver without allocatable.count, has no limit);
// NodeVolumeLimits and VolumeBinding read the AnnMigratedPlugins annotation
// to treat in-tree volumes as their CSI drivers' volumes on that node.
type CSINode struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       CSINodeSpec `json:"spec,omitzero"`
}

// CSINodeSpec lists the drivers installed on the node.
type CSINodeSpec struct {
	Drivers []CSINodeDriver `json:"drivers"`
}

// CSINodeDriver is one driver on a node: its name, the node's ID for the
// driver, the topology label keys it reports and its volume limits.
type CSINodeDriver struct {
	Name         string               `json:"name"`
	NodeID       string               `json:"nodeID"`
	TopologyKeys []string             `json:"topologyKeys"`
	Allocatable  *VolumeNodeResources `json:"allocatable,omitempty"`
}

// VolumeNodeResources is a driver's volume limit on a node: at most Count
// unique volumes of the driver may be used there; nil means no limit.
type VolumeNodeResources struct {
	Count *int32 `json:"count,omitempty"`
}

// Driver returns the node's entry for the named driver, or nil when the
// driver is not installed there (or n is nil).
func (n *CSINode) Driver(name string) *CSINodeDriver {
	if n == nil {
		return nil
	}
	for i := range n.Spec.Drivers {
		if n.Spec.Drivers[i].Name == name {
			return &n.Spec.Drivers[i]
		}
	}
	return nil
}

// CSIDriver is a storage.k8s.io/v1 CSIDriver (cluster-scoped, named after
// the driver): how Kubernetes treats the driver's volumes. The scheduler's
// VolumeBinding plugin reads storageCapacity; the attach/detach controller
// and kubelet read the rest. The API server defaults attachRequired true,
// podInfoOnMount, storageCapacity, requiresRepublish and seLinuxMount
// false, fsGroupPolicy ReadWriteOnceWithFSType and volumeLifecycleModes
// [Persistent] (DefaultCSIDriver).
type CSIDriver struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       CSIDriverSpec `json:"spec,omitzero"`
}

// CSIDriverSpec is a driver's declared behaviour.
type CSIDriverSpec struct {
	AttachRequired                     *bool                 `json:"attachRequired,omitempty"`
	PodInfoOnMount                     *bool                 `json:"podInfoOnMount,omitempty"`
	VolumeLifecycleModes               []VolumeLifecycleMode `json:"volumeLifecycleModes,omitempty"`
	StorageCapacity                    *bool                 `json:"storageCapacity,omitempty"`
	FSGroupPolicy                      *FSGroupPolicy        `json:"fsGroupPolicy,omitempty"`
	TokenRequests                      []TokenRequest        `json:"tokenRequests,omitempty"`
	RequiresRepublish                  *bool                 `json:"requiresRepublish,omitempty"`
	SELinuxMount                       *bool                 `json:"seLinuxMount,omitempty"`
	NodeAllocatableUpdatePeriodSeconds *int64                `json:"nodeAllocatableUpdatePeriodSeconds,omitempty"`
	ServiceAccountTokenInSecrets       *bool                 `json:"serviceAccountTokenInSecrets,omitempty"`
}

// VolumeLifecycleMode is a kind of volume a CSI driver serves: Persistent
// (through claims and volumes) or Ephemeral (inline in a pod).
type VolumeLifecycleMode string

// The volume lifecycle modes.
const (
	VolumeLifecyclePersistent VolumeLifecycleMode = "Persistent"
	VolumeLifecycleEphemeral  VolumeLifecycleMode = "Ephemeral"
)

// FSGroupPolicy says whether the kubelet changes a driver's volumes'
// ownership to the pod's fsGroup.
type FSGroupPolicy string

// The fsGroup policies.
const (
	ReadWriteOnceWithFSTypeFSGroupPolicy FSGroupPolicy = "ReadWriteOnceWithFSType"
	FileFSGroupPolicy                    FSGroupPolicy = "File"
	NoneFSGroupPolicy                    FSGroupPolicy = "None"
)

// TokenRequest is a service account token audience a driver wants passed
// on mount.
type TokenRequest struct {
	Audience          string `json:"audience"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
}

// The node allocatable names of volume attach limits (pkg/volume/util).
const (
	// ResourceAttachableVolumesPrefix starts every attach-limit resource
	// name in a node's allocatable.
	ResourceAttachableVolumesPrefix = "attachable-volumes-"
	// CSIAttachLimitPrefix starts the attach-limit resource name of a CSI
	// driver (see CSIAttachLimitKey).
	CSIAttachLimitPrefix = ResourceAttachableVolumesPrefix + "csi-"
)

// CSIAttachLimitKey is the resource name under which a CSI driver's attach
// limit is keyed (pkg/volume/util GetCSIAttachLimitKey): the prefix
// "attachable-volumes-csi-" and the driver name, or, when that would reach
// 63 characters, the prefix, the driver name's first 23 characters and the
// first 16 hex digits of the SHA-1 of the whole name.
func CSIAttachLimitKey(driver string) ResourceName {
	if len(CSIAttachLimitPrefix)+len(driver) < 63 {
		return ResourceName(CSIAttachLimitPrefix + driver)
	}
	sum := sha1.Sum([]byte(driver))
	return ResourceName(CSIAttachLimitPrefix + driver[:23] + hex.EncodeToString(sum[:])[:16])
}
