package api

import (
	"errors"
	"fmt"
)

// PersistentVolumeClaim is a core/v1 PersistentVolumeClaim: a user's request
// for storage, bound to one PersistentVolume. kube-scheduler's VolumeBinding,
// VolumeRestrictions (ReadWriteOncePod), VolumeZone and NodeVolumeLimits
// plugins look a pod's claims up by namespace and name (for a generic
// ephemeral volume, the name EphemeralVolumeClaimName gives).
type PersistentVolumeClaim struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PersistentVolumeClaimSpec   `json:"spec,omitzero"`
	Status     PersistentVolumeClaimStatus `json:"status,omitzero"`
}

// PersistentVolumeClaimSpec is what a claim asks for. The scheduler reads
// the access modes, the storage request, the class (see ClassName), the
// volume it is bound to (volumeName), the selector and the volume mode. A
// nil volumeMode means Filesystem (the API server's default).
type PersistentVolumeClaimSpec struct {
	AccessModes               []PersistentVolumeAccessMode `json:"accessModes,omitempty"`
	Selector                  *LabelSelector               `json:"selector,omitempty"`
	Resources                 VolumeResourceRequirements   `json:"resources,omitzero"`
	VolumeName                string                       `json:"volumeName,omitempty"`
	StorageClassName          *string                      `json:"storageClassName,omitempty"`
	VolumeMode                *PersistentVolumeMode        `json:"volumeMode,omitempty"`
	DataSource                *TypedLocalObjectReference   `json:"dataSource,omitempty"`
	DataSourceRef             *TypedObjectReference        `json:"dataSourceRef,omitempty"`
	VolumeAttributesClassName *string                      `json:"volumeAttributesClassName,omitempty"`
}

// VolumeResourceRequirements is a claim's storage request and limit
// (core/v1 VolumeResourceRequirements); requests["storage"] is the minimum
// size of a volume that can satisfy the claim.
type VolumeResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// PersistentVolumeClaimPhase is where a claim is in its life: Pending
// (the API server's default), Bound or Lost.
type PersistentVolumeClaimPhase string

// The claim phases.
const (
	ClaimPending PersistentVolumeClaimPhase = "Pending"
	ClaimBound   PersistentVolumeClaimPhase = "Bound"
	ClaimLost    PersistentVolumeClaimPhase = "Lost"
)

// PersistentVolumeClaimStatus is what the persistent volume controller last
// wrote about a claim: its phase and the access modes and capacity of the
// volume it is bound to.
type PersistentVolumeClaimStatus struct {
	Phase                            PersistentVolumeClaimPhase       `json:"phase,omitempty"`
	AccessModes                      []PersistentVolumeAccessMode     `json:"accessModes,omitempty"`
	Capacity                         ResourceList                     `json:"capacity,omitempty"`
	Conditions                       []PersistentVolumeClaimCondition `json:"conditions,omitempty"`
	AllocatedResources               ResourceList                     `json:"allocatedResources,omitempty"`
	AllocatedResourceStatuses        map[ResourceName]string          `json:"allocatedResourceStatuses,omitempty"`
	CurrentVolumeAttributesClassName *string                          `json:"currentVolumeAttributesClassName,omitempty"`
	ModifyVolumeStatus               *ModifyVolumeStatus              `json:"modifyVolumeStatus,omitempty"`
}

// PersistentVolumeClaimCondition is one entry of a claim's
// status.conditions (Resizing, FileSystemResizePending, ...).
type PersistentVolumeClaimCondition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastProbeTime      Time            `json:"lastProbeTime,omitzero"`
	LastTransitionTime Time            `json:"lastTransitionTime,omitzero"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// ModifyVolumeStatus reports a claim's pending change of
// VolumeAttributesClass.
type ModifyVolumeStatus struct {
	TargetVolumeAttributesClassName string `json:"targetVolumeAttributesClassName,omitempty"`
	Status                          string `json:"status"`
}

// PersistentVolumeAccessMode is a way a volume can be mounted.
type PersistentVolumeAccessMode string

// The access modes. ReadWriteOncePod may not be combined with another mode;
// the scheduler's VolumeRestrictions plugin keeps a second pod using a
// ReadWriteOncePod claim off every node.
const (
	ReadWriteOnce    PersistentVolumeAccessMode = "ReadWriteOnce"
	ReadOnlyMany     PersistentVolumeAccessMode = "ReadOnlyMany"
	ReadWriteMany    PersistentVolumeAccessMode = "ReadWriteMany"
	ReadWriteOncePod PersistentVolumeAccessMode = "ReadWriteOncePod"
)

// PersistentVolumeMode says whether a volume holds a filesystem or is a raw
// block device. A nil mode in a claim or volume spec means Filesystem.
type PersistentVolumeMode string

// The volume modes.
const (
	PersistentVolumeBlock      PersistentVolumeMode = "Block"
	PersistentVolumeFilesystem PersistentVolumeMode = "Filesystem"
)

// Storage annotations and names of the persistent volume controller and the
// scheduler's volume binder (k8s.io/component-helpers storage/volume and
// core/v1).
const (
	// AnnBetaStorageClass names a claim's or volume's class; it takes
	// precedence over spec.storageClassName (see ClassName).
	AnnBetaStorageClass = "volume.beta.kubernetes.io/storage-class"
	// AnnBindCompleted marks a claim whose binding the controller finished.
	AnnBindCompleted = "pv.kubernetes.io/bind-completed"
	// AnnBoundByController marks a binding made by the controller rather
	// than pre-bound by a user.
	AnnBoundByController = "pv.kubernetes.io/bound-by-controller"
	// AnnSelectedNode is the node the scheduler chose for provisioning a
	// WaitForFirstConsumer claim.
	AnnSelectedNode = "volume.kubernetes.io/selected-node"
	// AnnMigratedPlugins on a CSINode lists, comma-separated, the in-tree
	// plugins (kubernetes.io/gce-pd, ...) whose volumes the node handles
	// through their CSI drivers.
	AnnMigratedPlugins = "storage.alpha.kubernetes.io/migrated-plugins"
	// NotSupportedProvisioner is the provisioner of a StorageClass whose
	// volumes cannot be dynamically provisioned (local volumes).
	NotSupportedProvisioner = "kubernetes.io/no-provisioner"
)

// ClassName is the claim's StorageClass name as the persistent volume
// controller and scheduler read it (component-helpers
// GetPersistentVolumeClaimClass): the beta annotation when present, else
// spec.storageClassName, else "" (no class). A nil claim has no class.
func (c *PersistentVolumeClaim) ClassName() string {
	if c == nil {
		return ""
	}
	if class, ok := c.Annotations[AnnBetaStorageClass]; ok {
		return class
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// IsReadWriteOncePod reports whether the claim asks for the
// ReadWriteOncePod access mode, which the scheduler's VolumeRestrictions
// plugin enforces cluster-wide. A nil claim does not.
func (c *PersistentVolumeClaim) IsReadWriteOncePod() bool {
	return c != nil && ContainsAccessMode(c.Spec.AccessModes, ReadWriteOncePod)
}

// ContainsAccessMode reports whether modes includes mode (the API's
// v1helper.ContainsAccessMode).
func ContainsAccessMode(modes []PersistentVolumeAccessMode, mode PersistentVolumeAccessMode) bool {
	for _, m := range modes {
		if m == mode {
			return true
		}
	}
	return false
}

// EffectiveVolumeMode is the volume mode a claim or volume spec's
// volumeMode field means: Filesystem when nil, as the API server defaults
// it and component-helpers' CheckVolumeModeMismatches reads it.
func EffectiveVolumeMode(m *PersistentVolumeMode) PersistentVolumeMode {
	if m == nil {
		return PersistentVolumeFilesystem
	}
	return *m
}

// EphemeralVolumeClaimName is the name of the PersistentVolumeClaim the
// ephemeral volume controller creates for a pod's generic ephemeral volume:
// the pod's name, "-", the volume's name (component-helpers
// ephemeral.VolumeClaimName). The claim lives in the pod's namespace; it is
// the pod's only if VolumeClaimIsForPod says so. A nil pod or volume gives "".
func EphemeralVolumeClaimName(pod *Pod, vol *Volume) string {
	if pod == nil || vol == nil {
		return ""
	}
	return pod.Name + "-" + vol.Name
}

// PodVolumeClaimName is the name of the PersistentVolumeClaim a pod's
// volume uses: a persistentVolumeClaim volume's claimName, or a generic
// ephemeral volume's EphemeralVolumeClaimName (ephemeral true); ok is false
// for a volume of another kind, and for a nil pod or volume.
func PodVolumeClaimName(pod *Pod, vol *Volume) (name string, ephemeral, ok bool) {
	switch {
	case pod == nil || vol == nil:
		return "", false, false
	case vol.PersistentVolumeClaim != nil:
		return vol.PersistentVolumeClaim.ClaimName, false, true
	case vol.Ephemeral != nil:
		return EphemeralVolumeClaimName(pod, vol), true, true
	}
	return "", false, false
}

// ErrClaimNotForPod is wrapped by VolumeClaimIsForPod's error.
var ErrClaimNotForPod = errors.New("claim not created for pod")

// VolumeClaimIsForPod checks that claim is the one created for one of pod's
// generic ephemeral volumes: same namespace and controlled by the pod (its
// controller owner reference carries the pod's UID), as component-helpers'
// ephemeral.VolumeIsForPod checks before the scheduler and kubelet use it.
// The error wraps ErrClaimNotForPod and reads as upstream's ("PVC ns/name
// was not created for pod ns/name (pod is not owner)"); a nil pod or claim
// is bad input: the error wraps ErrInvalidInput (and ErrClaimNotForPod) and
// names it.
func VolumeClaimIsForPod(pod *Pod, claim *PersistentVolumeClaim) error {
	switch {
	case pod == nil:
		return fmt.Errorf("%w (%w): pod: nil", errInvalidInput, ErrClaimNotForPod)
	case claim == nil:
		return fmt.Errorf("%w (%w): claim: nil", errInvalidInput, ErrClaimNotForPod)
	}
	ref := claim.ControllerRef()
	if claim.Namespace != pod.Namespace || ref == nil || ref.UID != pod.UID {
		return &claimNotForPodError{fmt.Sprintf("PVC %s/%s was not created for pod %s/%s (pod is not owner)", claim.Namespace, claim.Name, pod.Namespace, pod.Name)}
	}
	return nil
}

// claimNotForPodError carries upstream's message verbatim while still
// matching ErrClaimNotForPod.
type claimNotForPodError struct{ msg string }

func (e *claimNotForPodError) Error() string        { return e.msg }
func (e *claimNotForPodError) Is(target error) bool { return target == ErrClaimNotForPod }

// PersistentVolume is a core/v1 PersistentVolume: a piece of storage in the
// cluster (cluster-scoped). The scheduler reads its capacity, access modes,
// class, claimRef, node affinity (VolumeBinding), zone and region labels
// (VolumeZone) and its CSI driver and handle, or those of the CSI driver an
// in-tree source migrates to (NodeVolumeLimits).
type PersistentVolume struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       PersistentVolumeSpec   `json:"spec,omitzero"`
	Status     PersistentVolumeStatus `json:"status,omitzero"`
}

// PersistentVolumeSpec describes a volume: its size, source, access modes,
// the claim it is (pre-)bound to, reclaim policy, class, volume mode (nil
// means Filesystem) and the nodes it can be reached from.
type PersistentVolumeSpec struct {
	Capacity                      ResourceList `json:"capacity,omitempty"`
	PersistentVolumeSource        `json:",inline"`
	AccessModes                   []PersistentVolumeAccessMode  `json:"accessModes,omitempty"`
	ClaimRef                      *ObjectReference              `json:"claimRef,omitempty"`
	PersistentVolumeReclaimPolicy PersistentVolumeReclaimPolicy `json:"persistentVolumeReclaimPolicy,omitempty"`
	StorageClassName              string                        `json:"storageClassName,omitempty"`
	MountOptions                  []string                      `json:"mountOptions,omitempty"`
	VolumeMode                    *PersistentVolumeMode         `json:"volumeMode,omitempty"`
	NodeAffinity                  *VolumeNodeAffinity           `json:"nodeAffinity,omitempty"`
	VolumeAttributesClassName     *string                       `json:"volumeAttributesClassName,omitempty"`
}

// PersistentVolumeSource is the storage behind a PersistentVolume; exactly
// one field is set. The sources modelled are CSI, local, hostPath and NFS,
// and the in-tree sources the scheduler translates to their CSI drivers when
// it counts attached volumes.
type PersistentVolumeSource struct {
	GCEPersistentDisk    *GCEPersistentDiskVolumeSource    `json:"gcePersistentDisk,omitempty"`
	AWSElasticBlockStore *AWSElasticBlockStoreVolumeSource `json:"awsElasticBlockStore,omitempty"`
	HostPath             *HostPathVolumeSource             `json:"hostPath,omitempty"`
	NFS                  *NFSVolumeSource                  `json:"nfs,omitempty"`
	RBD                  *RBDPersistentVolumeSource        `json:"rbd,omitempty"`
	ISCSI                *ISCSIPersistentVolumeSource      `json:"iscsi,omitempty"`
	Cinder               *CinderPersistentVolumeSource     `json:"cinder,omitempty"`
	AzureFile            *AzureFilePersistentVolumeSource  `json:"azureFile,omitempty"`
	VsphereVolume        *VsphereVirtualDiskVolumeSource   `json:"vsphereVolume,omitempty"`
	AzureDisk            *AzureDiskVolumeSource            `json:"azureDisk,omitempty"`
	PortworxVolume       *PortworxVolumeSource             `json:"portworxVolume,omitempty"`
	Local                *LocalVolumeSource                `json:"local,omitempty"`
	CSI                  *CSIPersistentVolumeSource        `json:"csi,omitempty"`
}

// CSIPersistentVolumeSource is a volume managed by an external CSI driver.
// NodeVolumeLimits counts a volume once per driver/volumeHandle pair on a
// node.
type CSIPersistentVolumeSource struct {
	Driver                     string            `json:"driver"`
	VolumeHandle               string            `json:"volumeHandle"`
	ReadOnly                   bool              `json:"readOnly,omitempty"`
	FSType                     string            `json:"fsType,omitempty"`
	VolumeAttributes           map[string]string `json:"volumeAttributes,omitempty"`
	ControllerPublishSecretRef *SecretReference  `json:"controllerPublishSecretRef,omitempty"`
	NodeStageSecretRef         *SecretReference  `json:"nodeStageSecretRef,omitempty"`
	NodePublishSecretRef       *SecretReference  `json:"nodePublishSecretRef,omitempty"`
	ControllerExpandSecretRef  *SecretReference  `json:"controllerExpandSecretRef,omitempty"`
	NodeExpandSecretRef        *SecretReference  `json:"nodeExpandSecretRef,omitempty"`
}

// LocalVolumeSource is a disk, partition or directory of one node; its
// volume's node affinity pins it there.
type LocalVolumeSource struct {
	Path   string  `json:"path"`
	FSType *string `json:"fsType,omitempty"`
}

// RBDPersistentVolumeSource is a Ceph RBD image behind a PersistentVolume;
// as RBDVolumeSource but its secret may live in another namespace.
type RBDPersistentVolumeSource struct {
	Monitors  []string         `json:"monitors"`
	Image     string           `json:"image"`
	FSType    string           `json:"fsType,omitempty"`
	Pool      string           `json:"pool,omitempty"`
	User      string           `json:"user,omitempty"`
	Keyring   string           `json:"keyring,omitempty"`
	SecretRef *SecretReference `json:"secretRef,omitempty"`
	ReadOnly  bool             `json:"readOnly,omitempty"`
}

// ISCSIPersistentVolumeSource is an iSCSI disk behind a PersistentVolume;
// as ISCSIVolumeSource but its secret may live in another namespace.
type ISCSIPersistentVolumeSource struct {
	TargetPortal      string           `json:"targetPortal"`
	IQN               string           `json:"iqn"`
	Lun               int32            `json:"lun"`
	ISCSIInterface    string           `json:"iscsiInterface,omitempty"`
	FSType            string           `json:"fsType,omitempty"`
	ReadOnly          bool             `json:"readOnly,omitempty"`
	Portals           []string         `json:"portals,omitempty"`
	CHAPAuthDiscovery bool             `json:"chapAuthDiscovery,omitempty"`
	CHAPAuthSession   bool             `json:"chapAuthSession,omitempty"`
	SecretRef         *SecretReference `json:"secretRef,omitempty"`
	InitiatorName     *string          `json:"initiatorName,omitempty"`
}

// CinderPersistentVolumeSource is a Cinder volume behind a PersistentVolume;
// as CinderVolumeSource but its secret may live in another namespace.
type CinderPersistentVolumeSource struct {
	VolumeID  string           `json:"volumeID"`
	FSType    string           `json:"fsType,omitempty"`
	ReadOnly  bool             `json:"readOnly,omitempty"`
	SecretRef *SecretReference `json:"secretRef,omitempty"`
}

// AzureFilePersistentVolumeSource is an Azure Files share behind a
// PersistentVolume; SecretNamespace nil means the pod's namespace.
type AzureFilePersistentVolumeSource struct {
	SecretName      string  `json:"secretName"`
	ShareName       string  `json:"shareName"`
	ReadOnly        bool    `json:"readOnly,omitempty"`
	SecretNamespace *string `json:"secretNamespace"`
}

// SecretReference names a Secret in any namespace (core/v1).
type SecretReference struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

// ObjectReference points at another object (core/v1); a bound volume's
// claimRef names its claim by namespace, name and UID.
type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}

// TypedLocalObjectReference names an object in the same namespace by API
// group (nil for the core group), kind and name: a claim's dataSource.
type TypedLocalObjectReference struct {
	APIGroup *string `json:"apiGroup"`
	Kind     string  `json:"kind"`
	Name     string  `json:"name"`
}

// TypedObjectReference is a claim's dataSourceRef: as
// TypedLocalObjectReference, optionally in another namespace.
type TypedObjectReference struct {
	APIGroup  *string `json:"apiGroup"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Namespace *string `json:"namespace,omitempty"`
}

// VolumeNodeAffinity limits the nodes a volume can be used from.
type VolumeNodeAffinity struct {
	Required *NodeSelector `json:"required,omitempty"`
}

// PersistentVolumeReclaimPolicy is what happens to a volume released by its
// claim: Retain (the API server's default for a PersistentVolume), Delete
// (the default for dynamically provisioned ones, via their StorageClass) or
// the deprecated Recycle.
type PersistentVolumeReclaimPolicy string

// The reclaim policies.
const (
	PersistentVolumeReclaimRecycle PersistentVolumeReclaimPolicy = "Recycle"
	PersistentVolumeReclaimDelete  PersistentVolumeReclaimPolicy = "Delete"
	PersistentVolumeReclaimRetain  PersistentVolumeReclaimPolicy = "Retain"
)

// PersistentVolumePhase is where a volume is in its life: Pending (the API
// server's default), Available (free to bind), Bound, Released or Failed.
// The scheduler's volume binder matches a claim only with an Available
// volume, unless the volume's claimRef already names the claim.
type PersistentVolumePhase string

// The volume phases.
const (
	VolumePending   PersistentVolumePhase = "Pending"
	VolumeAvailable PersistentVolumePhase = "Available"
	VolumeBound     PersistentVolumePhase = "Bound"
	VolumeReleased  PersistentVolumePhase = "Released"
	VolumeFailed    PersistentVolumePhase = "Failed"
)

// PersistentVolumeStatus is what the persistent volume controller last
// wrote about a volume.
type PersistentVolumeStatus struct {
	Phase                   PersistentVolumePhase `json:"phase,omitempty"`
	Message                 string                `json:"message,omitempty"`
	Reason                  string                `json:"reason,omitempty"`
	LastPhaseTransitionTime *Time                 `json:"lastPhaseTransitionTime,omitempty"`
}

// ClassName is the volume's StorageClass name as the persistent volume
// controller and scheduler read it (component-helpers
// GetPersistentVolumeClass): the beta annotation when present, else
// spec.storageClassName. A nil volume has no class.
func (v *PersistentVolume) ClassName() string {
	if v == nil {
		return ""
	}
	if class, ok := v.Annotations[AnnBetaStorageClass]; ok {
		return class
	}
	return v.Spec.StorageClassName
}

// IsBoundToClaim reports whether the volume's claimRef names claim: same
// namespace and name, and the same UID unless the claimRef carries none (a
// volume pre-bound by name), as component-helpers' IsVolumeBoundToClaim
// decides. A nil volume or claim is not bound.
func (v *PersistentVolume) IsBoundToClaim(claim *PersistentVolumeClaim) bool {
	if v == nil || claim == nil || v.Spec.ClaimRef == nil {
		return false
	}
	ref := v.Spec.ClaimRef
	if ref.Name != claim.Name || ref.Namespace != claim.Namespace {
		return false
	}
	return ref.UID == "" || ref.UID == claim.UID
}

// HasAccessModes reports whether the volume offers every mode in modes (a
// claim's spec.accessModes), as component-helpers' CheckAccessModes
// decides. A nil volume offers none.
func (v *PersistentVolume) HasAccessModes(modes []PersistentVolumeAccessMode) bool {
	if v == nil {
		return len(modes) == 0
	}
	for _, m := range modes {
		if !ContainsAccessMode(v.Spec.AccessModes, m) {
			return false
		}
	}
	return true
}

// RequiredNodeAffinity is the volume's spec.nodeAffinity.required, or nil
// when the volume may be used from any node. Compile it once with
// NewNodeSelectorMatcher (nil compiles to "every node") and match each node
// as Match("", node.Labels): component-helpers' CheckNodeAffinity, which
// the scheduler's VolumeBinding plugin calls, matches a node built from
// labels alone, and a node without a name passes every matchFields
// requirement, so metadata.name terms restrict nothing here. A nil volume
// gives nil.
func (v *PersistentVolume) RequiredNodeAffinity() *NodeSelector {
	if v == nil || v.Spec.NodeAffinity == nil {
		return nil
	}
	return v.Spec.NodeAffinity.Required
}

// NodeAffinityMatches reports whether a node with these labels satisfies the
// volume's required node affinity, as CheckNodeAffinity decides (see
// RequiredNodeAffinity for the empty node name). An invalid term never
// matches; the valid terms still can. It compiles the selector on every
// call: a caller matching many nodes compiles RequiredNodeAffinity once
// instead. A nil volume matches no node.
func (v *PersistentVolume) NodeAffinityMatches(nodeLabels map[string]string) bool {
	if v == nil {
		return false
	}
	m, _ := NewNodeSelectorMatcher(v.RequiredNodeAffinity())
	return m.Match("", nodeLabels)
}
