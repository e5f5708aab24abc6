package admission

import (
	"slices"

	"github.com/podsem/podsem/api"
)

// ClaimProtectionFinalizers is the StorageObjectInUseProtection admission
// plugin (plugin/pkg/admission/storage/storageobjectinuseprotection) on the
// create of a PersistentVolumeClaim: the finalizers the claim is stored
// with, its own with api.FinalizerPVCProtection appended unless already
// listed. The claim's slice is not modified (the answer is a new one when
// the finalizer is added). The plugin runs on creates only, not on
// updates or subresources: a claim that lost the finalizer later gets it
// back from the pvc-protection controller (volume.SyncClaimProtection). A
// nil claim gets nil.
func ClaimProtectionFinalizers(c *api.PersistentVolumeClaim) []string {
	if c == nil {
		return nil
	}
	return withFinalizer(c.Finalizers, api.FinalizerPVCProtection)
}

// VolumeProtectionFinalizers is the StorageObjectInUseProtection admission
// plugin on the create of a PersistentVolume: its finalizers with
// api.FinalizerPVProtection appended unless already listed (a new slice
// when added; the volume's is not modified). A nil volume gets nil.
func VolumeProtectionFinalizers(v *api.PersistentVolume) []string {
	if v == nil {
		return nil
	}
	return withFinalizer(v.Finalizers, api.FinalizerPVProtection)
}

func withFinalizer(fins []string, f string) []string {
	if slices.Contains(fins, f) {
		return fins
	}
	return append(slices.Clip(fins), f)
}

// DefaultClaimStorageClass is the DefaultStorageClass admission plugin
// (plugin/pkg/admission/storage/storageclass/setdefault) on the create of
// a PersistentVolumeClaim: the class name to write into
// spec.storageClassName, with ok true, when the claim asks for no class at
// all (api.PersistentVolumeClaim.HasClass: neither storageClassName, even
// "", nor the beta storage-class annotation) and one of classes (the
// StorageClasses that exist) is marked default — the one
// api.DefaultStorageClassOf picks: the newest, ties by name. Otherwise ok
// is false and the claim is stored as sent (without a default class it
// stays classless; the PersistentVolume controller may give it one later,
// see volume.SyncClaim). A nil claim gets ok false.
func DefaultClaimStorageClass(c *api.PersistentVolumeClaim, classes []*api.StorageClass) (string, bool) {
	if c == nil || c.HasClass() {
		return "", false
	}
	def := api.DefaultStorageClassOf(classes)
	if def == nil {
		return "", false
	}
	return def.Name, true
}
