package api

// Volume is a named volume of a pod with exactly one source. The sources
// modelled are those the pod rules inspect: the downward API (directly or
// projected), emptyDir (local storage for eviction and drain), hostPath and
// the other kinds user-namespace and eviction rules look at, and the
// attachable disks kube-scheduler's volume plugins read (VolumeRestrictions'
// disk conflicts, NodeVolumeLimits' counting of in-tree volumes migrated to
// CSI drivers).
type Volume struct {
	Name         string `json:"name"`
	VolumeSource `json:",inline"`
}

// VolumeSource is the source of a Volume; exactly one field is set.
type VolumeSource struct {
	HostPath              *HostPathVolumeSource              `json:"hostPath,omitempty"`
	EmptyDir              *EmptyDirVolumeSource              `json:"emptyDir,omitempty"`
	GitRepo               *GitRepoVolumeSource               `json:"gitRepo,omitempty"`
	Secret                *SecretVolumeSource                `json:"secret,omitempty"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty"`
	DownwardAPI           *DownwardAPIVolumeSource           `json:"downwardAPI,omitempty"`
	ConfigMap             *ConfigMapVolumeSource             `json:"configMap,omitempty"`
	Projected             *ProjectedVolumeSource             `json:"projected,omitempty"`
	Ephemeral             *EphemeralVolumeSource             `json:"ephemeral,omitempty"`
	CSI                   *CSIVolumeSource                   `json:"csi,omitempty"`
	NFS                   *NFSVolumeSource                   `json:"nfs,omitempty"`
	Image                 *ImageVolumeSource                 `json:"image,omitempty"`

	GCEPersistentDisk    *GCEPersistentDiskVolumeSource    `json:"gcePersistentDisk,omitempty"`
	AWSElasticBlockStore *AWSElasticBlockStoreVolumeSource `json:"awsElasticBlockStore,omitempty"`
	ISCSI                *ISCSIVolumeSource                `json:"iscsi,omitempty"`
	RBD                  *RBDVolumeSource                  `json:"rbd,omitempty"`
	Cinder               *CinderVolumeSource               `json:"cinder,omitempty"`
	AzureDisk            *AzureDiskVolumeSource            `json:"azureDisk,omitempty"`
	AzureFile            *AzureFileVolumeSource            `json:"azureFile,omitempty"`
	VsphereVolume        *VsphereVirtualDiskVolumeSource   `json:"vsphereVolume,omitempty"`
	PortworxVolume       *PortworxVolumeSource             `json:"portworxVolume,omitempty"`
}

// HostPathVolumeSource mounts a path of the node.
type HostPathVolumeSource struct {
	Path string  `json:"path"`
	Type *string `json:"type,omitempty"`
}

// StorageMedium is where an emptyDir lives: "" (node disk) or Memory.
type StorageMedium string

// The emptyDir media.
const (
	StorageMediumDefault StorageMedium = ""
	StorageMediumMemory  StorageMedium = "Memory"
)

// EmptyDirVolumeSource is scratch space that lives as long as the pod.
type EmptyDirVolumeSource struct {
	Medium    StorageMedium `json:"medium,omitempty"`
	SizeLimit *Quantity     `json:"sizeLimit,omitempty"`
}

// GitRepoVolumeSource is the deprecated git checkout volume.
type GitRepoVolumeSource struct {
	Repository string `json:"repository"`
	Revision   string `json:"revision,omitempty"`
	Directory  string `json:"directory,omitempty"`
}

// SecretVolumeSource projects a Secret's keys as files.
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty"`
}

// ConfigMapVolumeSource projects a ConfigMap's keys as files.
type ConfigMapVolumeSource struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	DefaultMode          *int32      `json:"defaultMode,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// KeyToPath maps one key to a file path and mode.
type KeyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
	Mode *int32 `json:"mode,omitempty"`
}

// PersistentVolumeClaimVolumeSource mounts a PersistentVolumeClaim.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// DownwardAPIVolumeSource shows pod fields and container resources as files.
// DefaultMode applies to items without a mode (0644 when unset).
type DownwardAPIVolumeSource struct {
	Items       []DownwardAPIVolumeFile `json:"items,omitempty"`
	DefaultMode *int32                  `json:"defaultMode,omitempty"`
}

// DownwardAPIVolumeFile is one file of a downward API volume: its relative
// path and either a fieldRef or a resourceFieldRef.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty"`
	Mode             *int32                 `json:"mode,omitempty"`
}

// ProjectedVolumeSource merges several sources into one directory.
type ProjectedVolumeSource struct {
	Sources     []VolumeProjection `json:"sources"`
	DefaultMode *int32             `json:"defaultMode,omitempty"`
}

// VolumeProjection is one source of a projected volume.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty"`
}

// SecretProjection projects a Secret into a projected volume.
type SecretProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// ConfigMapProjection projects a ConfigMap into a projected volume.
type ConfigMapProjection struct {
	LocalObjectReference `json:",inline"`
	Items                []KeyToPath `json:"items,omitempty"`
	Optional             *bool       `json:"optional,omitempty"`
}

// DownwardAPIProjection projects downward API files into a projected volume.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty"`
}

// ServiceAccountTokenProjection projects a service account token.
type ServiceAccountTokenProjection struct {
	Audience          string `json:"audience,omitempty"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty"`
	Path              string `json:"path"`
}

// EphemeralVolumeSource is a generic ephemeral volume backed by a PVC the pod
// owns.
type EphemeralVolumeSource struct {
	VolumeClaimTemplate *PersistentVolumeClaimTemplate `json:"volumeClaimTemplate,omitempty"`
}

// PersistentVolumeClaimTemplate is kept opaque apart from its metadata.
type PersistentVolumeClaimTemplate struct {
	ObjectMeta `json:"metadata,omitzero"`
	Spec       map[string]any `json:"spec,omitempty"`
}

// CSIVolumeSource is an inline (ephemeral) CSI volume: the named driver
// creates it for the pod. NodeVolumeLimits does not count these against a
// node's attach limit; only claims and migrated in-tree volumes count.
type CSIVolumeSource struct {
	Driver               string                `json:"driver"`
	ReadOnly             *bool                 `json:"readOnly,omitempty"`
	FSType               *string               `json:"fsType,omitempty"`
	VolumeAttributes     map[string]string     `json:"volumeAttributes,omitempty"`
	NodePublishSecretRef *LocalObjectReference `json:"nodePublishSecretRef,omitempty"`
}

// NFSVolumeSource is an NFS mount.
type NFSVolumeSource struct {
	Server   string `json:"server"`
	Path     string `json:"path"`
	ReadOnly bool   `json:"readOnly,omitempty"`
}

// ImageVolumeSource mounts an OCI image or artifact.
type ImageVolumeSource struct {
	Reference  string     `json:"reference,omitempty"`
	PullPolicy PullPolicy `json:"pullPolicy,omitempty"`
}

// GCEPersistentDiskVolumeSource is a Google Compute Engine persistent disk
// (core/v1; in-tree plugin kubernetes.io/gce-pd, migrated to the
// pd.csi.storage.gke.io driver). VolumeRestrictions lets two pods on a node
// use the same pdName only when both mount it read-only.
type GCEPersistentDiskVolumeSource struct {
	PDName    string `json:"pdName"`
	FSType    string `json:"fsType,omitempty"`
	Partition int32  `json:"partition,omitempty"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// AWSElasticBlockStoreVolumeSource is an Amazon EBS volume (core/v1; in-tree
// plugin kubernetes.io/aws-ebs, migrated to ebs.csi.aws.com).
// VolumeRestrictions never lets two pods on a node use the same volumeID,
// read-only or not.
type AWSElasticBlockStoreVolumeSource struct {
	VolumeID  string `json:"volumeID"`
	FSType    string `json:"fsType,omitempty"`
	Partition int32  `json:"partition,omitempty"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// ISCSIVolumeSource is an iSCSI disk mounted by a pod (core/v1).
// VolumeRestrictions treats two iSCSI volumes with the same iqn as one disk,
// which pods may share only when all mount it read-only. The API server
// defaults iscsiInterface to "default".
type ISCSIVolumeSource struct {
	TargetPortal      string                `json:"targetPortal"`
	IQN               string                `json:"iqn"`
	Lun               int32                 `json:"lun"`
	ISCSIInterface    string                `json:"iscsiInterface,omitempty"`
	FSType            string                `json:"fsType,omitempty"`
	ReadOnly          bool                  `json:"readOnly,omitempty"`
	Portals           []string              `json:"portals,omitempty"`
	CHAPAuthDiscovery bool                  `json:"chapAuthDiscovery,omitempty"`
	CHAPAuthSession   bool                  `json:"chapAuthSession,omitempty"`
	SecretRef         *LocalObjectReference `json:"secretRef,omitempty"`
	InitiatorName     *string               `json:"initiatorName,omitempty"`
}

// RBDVolumeSource is a Ceph RADOS block device mounted by a pod (core/v1).
// VolumeRestrictions treats two RBD volumes as one image when they share a
// monitor and have the same pool and image; pods may share it only when all
// mount it read-only. The API server defaults pool "rbd", user "admin" and
// keyring "/etc/ceph/keyring".
type RBDVolumeSource struct {
	Monitors  []string              `json:"monitors"`
	Image     string                `json:"image"`
	FSType    string                `json:"fsType,omitempty"`
	Pool      string                `json:"pool,omitempty"`
	User      string                `json:"user,omitempty"`
	Keyring   string                `json:"keyring,omitempty"`
	SecretRef *LocalObjectReference `json:"secretRef,omitempty"`
	ReadOnly  bool                  `json:"readOnly,omitempty"`
}

// CinderVolumeSource is an OpenStack Cinder volume (core/v1; in-tree plugin
// kubernetes.io/cinder, migrated to cinder.csi.openstack.org).
type CinderVolumeSource struct {
	VolumeID  string                `json:"volumeID"`
	FSType    string                `json:"fsType,omitempty"`
	ReadOnly  bool                  `json:"readOnly,omitempty"`
	SecretRef *LocalObjectReference `json:"secretRef,omitempty"`
}

// AzureDataDiskCachingMode is an Azure data disk's host caching: None,
// ReadOnly or ReadWrite (the API server's default).
type AzureDataDiskCachingMode string

// The Azure data disk caching modes.
const (
	AzureDataDiskCachingNone      AzureDataDiskCachingMode = "None"
	AzureDataDiskCachingReadOnly  AzureDataDiskCachingMode = "ReadOnly"
	AzureDataDiskCachingReadWrite AzureDataDiskCachingMode = "ReadWrite"
)

// AzureDataDiskKind is how an Azure data disk is stored: Shared (the API
// server's default), Dedicated or Managed.
type AzureDataDiskKind string

// The Azure data disk kinds.
const (
	AzureSharedBlobDisk    AzureDataDiskKind = "Shared"
	AzureDedicatedBlobDisk AzureDataDiskKind = "Dedicated"
	AzureManagedDisk       AzureDataDiskKind = "Managed"
)

// AzureDiskVolumeSource is an Azure data disk (core/v1; in-tree plugin
// kubernetes.io/azure-disk, migrated to disk.csi.azure.com). The API server
// defaults cachingMode ReadWrite, kind Shared, fsType "ext4" and readOnly
// false.
type AzureDiskVolumeSource struct {
	DiskName    string                    `json:"diskName"`
	DiskURI     string                    `json:"diskURI"`
	CachingMode *AzureDataDiskCachingMode `json:"cachingMode,omitempty"`
	FSType      *string                   `json:"fsType,omitempty"`
	ReadOnly    *bool                     `json:"readOnly,omitempty"`
	Kind        *AzureDataDiskKind        `json:"kind,omitempty"`
}

// AzureFileVolumeSource is an Azure Files share mounted by a pod (core/v1;
// in-tree plugin kubernetes.io/azure-file, migrated to file.csi.azure.com).
type AzureFileVolumeSource struct {
	SecretName string `json:"secretName"`
	ShareName  string `json:"shareName"`
	ReadOnly   bool   `json:"readOnly,omitempty"`
}

// VsphereVirtualDiskVolumeSource is a vSphere VMDK (core/v1; in-tree plugin
// kubernetes.io/vsphere-volume, migrated to csi.vsphere.vmware.com).
type VsphereVirtualDiskVolumeSource struct {
	VolumePath        string `json:"volumePath"`
	FSType            string `json:"fsType,omitempty"`
	StoragePolicyName string `json:"storagePolicyName,omitempty"`
	StoragePolicyID   string `json:"storagePolicyID,omitempty"`
}

// PortworxVolumeSource is a Portworx volume (core/v1; in-tree plugin
// kubernetes.io/portworx-volume, migrated to pxd.portworx.com).
type PortworxVolumeSource struct {
	VolumeID string `json:"volumeID"`
	FSType   string `json:"fsType,omitempty"`
	ReadOnly bool   `json:"readOnly,omitempty"`
}
