package api

// API server defaulting of the storage objects (pkg/apis/core/v1 and
// pkg/apis/storage/v1 defaulting in Kubernetes v1.36.3, default feature
// gates). As with DefaultPod, nothing in podsem applies these implicitly:
// conformance inputs are written as `kubectl get -o json` prints them, and
// callers holding undefaulted objects opt in.

// DefaultPersistentVolumeClaim applies the API server's v1 defaulting to
// claim in place: status.phase Pending, spec.volumeMode Filesystem, and the
// claim's quantities (requests, limits, capacity, allocated resources)
// rounded up to milli units. A nil claim is left alone.
func DefaultPersistentVolumeClaim(claim *PersistentVolumeClaim) {
	if claim == nil {
		return
	}
	if claim.Status.Phase == "" {
		claim.Status.Phase = ClaimPending
	}
	defaultClaimSpec(&claim.Spec)
	roundUpToMilli(claim.Status.Capacity)
	roundUpToMilli(claim.Status.AllocatedResources)
}

func defaultClaimSpec(s *PersistentVolumeClaimSpec) {
	if s.VolumeMode == nil {
		m := PersistentVolumeFilesystem
		s.VolumeMode = &m
	}
	roundUpToMilli(s.Resources.Limits)
	roundUpToMilli(s.Resources.Requests)
}

// DefaultPersistentVolume applies the API server's v1 defaulting to vol in
// place: status.phase Pending, persistentVolumeReclaimPolicy Retain,
// spec.volumeMode Filesystem, capacity rounded up to milli units, and the
// source defaults (hostPath type "", rbd pool/user/keyring, iscsi
// interface, azureDisk caching/kind/fsType/readOnly). A nil volume is left
// alone.
func DefaultPersistentVolume(vol *PersistentVolume) {
	if vol == nil {
		return
	}
	if vol.Status.Phase == "" {
		vol.Status.Phase = VolumePending
	}
	s := &vol.Spec
	if s.PersistentVolumeReclaimPolicy == "" {
		s.PersistentVolumeReclaimPolicy = PersistentVolumeReclaimRetain
	}
	if s.VolumeMode == nil {
		m := PersistentVolumeFilesystem
		s.VolumeMode = &m
	}
	roundUpToMilli(s.Capacity)
	src := &s.PersistentVolumeSource
	if src.HostPath != nil && src.HostPath.Type == nil {
		t := ""
		src.HostPath.Type = &t
	}
	if r := src.RBD; r != nil {
		defaultRBD(&r.Pool, &r.User, &r.Keyring)
	}
	if i := src.ISCSI; i != nil && i.ISCSIInterface == "" {
		i.ISCSIInterface = defaultISCSIInterface
	}
	defaultAzureDisk(src.AzureDisk)
}

// The in-tree volume source defaults the API server applies.
const (
	defaultISCSIInterface = "default"
	defaultRBDPool        = "rbd"
	defaultRBDUser        = "admin"
	defaultRBDKeyring     = "/etc/ceph/keyring"
	defaultAzureDiskFS    = "ext4"
)

func defaultRBD(pool, user, keyring *string) {
	if *pool == "" {
		*pool = defaultRBDPool
	}
	if *user == "" {
		*user = defaultRBDUser
	}
	if *keyring == "" {
		*keyring = defaultRBDKeyring
	}
}

func defaultAzureDisk(d *AzureDiskVolumeSource) {
	if d == nil {
		return
	}
	if d.CachingMode == nil {
		m := AzureDataDiskCachingReadWrite
		d.CachingMode = &m
	}
	if d.Kind == nil {
		k := AzureSharedBlobDisk
		d.Kind = &k
	}
	if d.FSType == nil {
		fs := defaultAzureDiskFS
		d.FSType = &fs
	}
	if d.ReadOnly == nil {
		ro := false
		d.ReadOnly = &ro
	}
}

// defaultInTreeVolume applies the source defaults of a pod volume's
// attachable disks, as DefaultPersistentVolume does for a volume's.
func defaultInTreeVolume(vs *VolumeSource) {
	if r := vs.RBD; r != nil {
		defaultRBD(&r.Pool, &r.User, &r.Keyring)
	}
	if i := vs.ISCSI; i != nil && i.ISCSIInterface == "" {
		i.ISCSIInterface = defaultISCSIInterface
	}
	defaultAzureDisk(vs.AzureDisk)
	if e := vs.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		// The template's spec is kept as raw JSON; its volumeMode defaults
		// as a claim's does.
		t := e.VolumeClaimTemplate
		if t.Spec == nil {
			t.Spec = map[string]any{}
		}
		if m, ok := t.Spec["volumeMode"]; !ok || m == nil {
			t.Spec["volumeMode"] = string(PersistentVolumeFilesystem)
		}
	}
}

// DefaultStorageClass applies the API server's storage.k8s.io/v1
// defaulting to class in place: reclaimPolicy Delete and volumeBindingMode
// Immediate. A nil class is left alone.
func DefaultStorageClass(class *StorageClass) {
	if class == nil {
		return
	}
	if class.ReclaimPolicy == nil {
		p := PersistentVolumeReclaimDelete
		class.ReclaimPolicy = &p
	}
	if class.VolumeBindingMode == nil {
		m := VolumeBindingImmediate
		class.VolumeBindingMode = &m
	}
}

// DefaultCSIDriver applies the API server's storage.k8s.io/v1 defaulting
// to driver in place: attachRequired true; podInfoOnMount,
// storageCapacity, requiresRepublish and seLinuxMount false; fsGroupPolicy
// ReadWriteOnceWithFSType; volumeLifecycleModes [Persistent] when empty. A
// nil driver is left alone.
func DefaultCSIDriver(driver *CSIDriver) {
	if driver == nil {
		return
	}
	s := &driver.Spec
	setBool := func(p **bool, v bool) {
		if *p == nil {
			*p = &v
		}
	}
	setBool(&s.AttachRequired, true)
	setBool(&s.PodInfoOnMount, false)
	setBool(&s.StorageCapacity, false)
	setBool(&s.RequiresRepublish, false)
	setBool(&s.SELinuxMount, false)
	if s.FSGroupPolicy == nil {
		p := ReadWriteOnceWithFSTypeFSGroupPolicy
		s.FSGroupPolicy = &p
	}
	if len(s.VolumeLifecycleModes) == 0 {
		s.VolumeLifecycleModes = []VolumeLifecycleMode{VolumeLifecyclePersistent}
	}
}
