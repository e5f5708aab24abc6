package api

// VolumeAttachment is a storage.k8s.io/v1 VolumeAttachment (cluster-scoped):
// the attach-detach controller's request, through a CSI driver's
// external-attacher, that a volume be attached to a node. The controller's
// CSI attacher names it "csi-" and the hex SHA-256 of the volume handle,
// driver and node name (VolumeAttachmentName); the external-attacher sets
// status.attached once the volume is attached; the controller detaches by
// deleting it.
type VolumeAttachment struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	Spec       VolumeAttachmentSpec   `json:"spec,omitzero"`
	Status     VolumeAttachmentStatus `json:"status"`
}

// VolumeAttachmentSpec is what is attached where: attacher is the CSI
// driver's name, source the PersistentVolume (or an inline volume
// migrated to CSI), nodeName the node.
type VolumeAttachmentSpec struct {
	Attacher string                 `json:"attacher"`
	Source   VolumeAttachmentSource `json:"source"`
	NodeName string                 `json:"nodeName"`
}

// VolumeAttachmentSource names the volume to attach: a PersistentVolume by
// name, or the spec of an in-tree inline volume translated to CSI; exactly
// one is set.
type VolumeAttachmentSource struct {
	PersistentVolumeName *string               `json:"persistentVolumeName,omitempty"`
	InlineVolumeSpec     *PersistentVolumeSpec `json:"inlineVolumeSpec,omitempty"`
}

// VolumeAttachmentStatus is what the external-attacher reports: whether
// the volume is attached, the driver's attachment metadata, and the last
// attach or detach error.
type VolumeAttachmentStatus struct {
	Attached           bool              `json:"attached"`
	AttachmentMetadata map[string]string `json:"attachmentMetadata,omitempty"`
	AttachError        *VolumeError      `json:"attachError,omitempty"`
	DetachError        *VolumeError      `json:"detachError,omitempty"`
}

// VolumeError is an attach or detach error the external-attacher reports:
// when it happened, its message and the CSI error code.
type VolumeError struct {
	Time      Time   `json:"time,omitzero"`
	Message   string `json:"message,omitempty"`
	ErrorCode *int32 `json:"errorCode,omitempty"`
}

// PersistentVolumeName is the name of the PersistentVolume the attachment
// is for, "" for an inline volume (or a nil attachment).
func (va *VolumeAttachment) PersistentVolumeName() string {
	if va == nil || va.Spec.Source.PersistentVolumeName == nil {
		return ""
	}
	return *va.Spec.Source.PersistentVolumeName
}

// The annotations of dynamic provisioning and controller-managed attach and
// detach (k8s.io/component-helpers storage/volume, the persistent volume
// controller and the kubelet).
const (
	// AnnStorageProvisioner is set on a claim by the persistent volume
	// controller when it hands the claim to an external provisioner: its
	// value is the provisioner's name, which that provisioner watches for.
	AnnStorageProvisioner = "volume.kubernetes.io/storage-provisioner"
	// AnnBetaStorageProvisioner is the deprecated form of
	// AnnStorageProvisioner, still set alongside it.
	AnnBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	// AnnDynamicallyProvisioned is set on a PersistentVolume by the
	// provisioner that created it, naming that provisioner.
	AnnDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
	// AnnControllerManagedAttachDetach on a Node says that the
	// attach-detach controller, not the kubelet, attaches and detaches its
	// volumes: a kubelet with the default enableControllerAttachDetach
	// sets it "true" when it registers the node.
	AnnControllerManagedAttachDetach = "volumes.kubernetes.io/controller-managed-attach-detach"
)
