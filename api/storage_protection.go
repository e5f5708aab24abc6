package api

// The storage-object-in-use protection finalizers and the default
// StorageClass, shared by kube-apiserver's admission plugins
// (StorageObjectInUseProtection, DefaultStorageClass) and
// kube-controller-manager's storage controllers (pvc-protection,
// pv-protection, the PersistentVolume controller): pkg/volume/util
// (finalizer.go, storageclass.go) and pkg/apis/core/helper in Kubernetes
// v1.36.3.
const (
	// FinalizerPVCProtection keeps a PersistentVolumeClaim in storage,
	// terminating, while a pod may still use it: the
	// StorageObjectInUseProtection admission plugin puts it on every new
	// claim and the pvc-protection controller removes it once the claim
	// is being deleted and no pod uses it.
	FinalizerPVCProtection = "kubernetes.io/pvc-protection"
	// FinalizerPVProtection keeps a PersistentVolume in storage,
	// terminating, while it is bound to a claim: put on every new volume
	// by the StorageObjectInUseProtection admission plugin, removed by the
	// pv-protection controller once the volume is being deleted and its
	// phase is not Bound.
	FinalizerPVProtection = "kubernetes.io/pv-protection"

	// AnnIsDefaultStorageClass set to "true" on a StorageClass makes it a
	// default class: the one a claim naming no class gets, at creation
	// (DefaultStorageClass admission) or later (the PersistentVolume
	// controller's retroactive assignment).
	AnnIsDefaultStorageClass = "storageclass.kubernetes.io/is-default-class"
	// AnnBetaIsDefaultStorageClass is the beta spelling of
	// AnnIsDefaultStorageClass, still honoured.
	AnnBetaIsDefaultStorageClass = "storageclass.beta.kubernetes.io/is-default-class"
)

// IsDefault reports whether the class is marked default: its
// is-default-class annotation (or the beta one) is exactly "true"
// (pkg/volume/util IsDefaultAnnotation). A nil class is not.
func (c *StorageClass) IsDefault() bool {
	if c == nil {
		return false
	}
	return c.Annotations[AnnIsDefaultStorageClass] == "true" || c.Annotations[AnnBetaIsDefaultStorageClass] == "true"
}

// DefaultStorageClassOf is the default StorageClass among classes, as
// pkg/volume/util GetDefaultClass picks it in v1.36.3: of the classes
// marked default (IsDefault), the newest by creationTimestamp, and among
// classes created at the same instant the first by name; nil when none is
// marked. Nil entries are skipped.
func DefaultStorageClassOf(classes []*StorageClass) *StorageClass {
	var best *StorageClass
	for _, c := range classes {
		if !c.IsDefault() {
			continue
		}
		if best == nil {
			best = c
			continue
		}
		bt, ct := best.CreationTimestamp.Time, c.CreationTimestamp.Time
		if ct.After(bt) || (ct.Equal(bt) && c.Name < best.Name) {
			best = c
		}
	}
	return best
}

// HasClass reports whether the claim asks for a class, even the empty
// one: it carries the beta storage-class annotation (any value) or sets
// spec.storageClassName (pkg/apis/core/helper
// PersistentVolumeClaimHasClass). Only a claim without either is given
// the default class. A nil claim has none.
func (c *PersistentVolumeClaim) HasClass() bool {
	if c == nil {
		return false
	}
	if _, ok := c.Annotations[AnnBetaStorageClass]; ok {
		return true
	}
	return c.Spec.StorageClassName != nil
}
