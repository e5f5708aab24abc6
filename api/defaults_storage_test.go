package api

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sref[T any](v T) *T { return &v }

var exactQuantity = cmp.Comparer(func(a, b Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })

func TestDefaultPersistentVolumeClaim(t *testing.T) {
	c := &PersistentVolumeClaim{Spec: PersistentVolumeClaimSpec{
		AccessModes: []PersistentVolumeAccessMode{ReadWriteOnce},
		Resources:   VolumeResourceRequirements{Requests: ResourceList{ResourceStorage: MustParseQuantity("1.0001")}},
	}}
	DefaultPersistentVolumeClaim(c)
	want := &PersistentVolumeClaim{
		Spec: PersistentVolumeClaimSpec{
			AccessModes: []PersistentVolumeAccessMode{ReadWriteOnce},
			Resources:   VolumeResourceRequirements{Requests: ResourceList{ResourceStorage: MustParseQuantity("1001m")}},
			VolumeMode:  sref(PersistentVolumeFilesystem),
		},
		Status: PersistentVolumeClaimStatus{Phase: ClaimPending},
	}
	if d := cmp.Diff(want, c, exactQuantity); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Set values stay.
	set := &PersistentVolumeClaim{Spec: PersistentVolumeClaimSpec{VolumeMode: sref(PersistentVolumeBlock)}, Status: PersistentVolumeClaimStatus{Phase: ClaimBound}}
	DefaultPersistentVolumeClaim(set)
	if *set.Spec.VolumeMode != PersistentVolumeBlock || set.Status.Phase != ClaimBound {
		t.Errorf("defaulting overwrote set fields: %+v", set)
	}
	DefaultPersistentVolumeClaim(nil)
}

func TestDefaultPersistentVolume(t *testing.T) {
	v := &PersistentVolume{Spec: PersistentVolumeSpec{
		Capacity: ResourceList{ResourceStorage: MustParseQuantity("10Gi")},
		PersistentVolumeSource: PersistentVolumeSource{
			RBD:       &RBDPersistentVolumeSource{Monitors: []string{"m1"}, Image: "img"},
			ISCSI:     &ISCSIPersistentVolumeSource{TargetPortal: "10.0.0.1", IQN: "iqn.x", Lun: 1},
			AzureDisk: &AzureDiskVolumeSource{DiskName: "d", DiskURI: "u"},
			HostPath:  &HostPathVolumeSource{Path: "/data"},
		},
	}}
	DefaultPersistentVolume(v)
	want := &PersistentVolume{
		Spec: PersistentVolumeSpec{
			Capacity: ResourceList{ResourceStorage: MustParseQuantity("10Gi")},
			PersistentVolumeSource: PersistentVolumeSource{
				RBD:   &RBDPersistentVolumeSource{Monitors: []string{"m1"}, Image: "img", Pool: "rbd", User: "admin", Keyring: "/etc/ceph/keyring"},
				ISCSI: &ISCSIPersistentVolumeSource{TargetPortal: "10.0.0.1", IQN: "iqn.x", Lun: 1, ISCSIInterface: "default"},
				AzureDisk: &AzureDiskVolumeSource{DiskName: "d", DiskURI: "u", CachingMode: sref(AzureDataDiskCachingReadWrite),
					Kind: sref(AzureSharedBlobDisk), FSType: sref("ext4"), ReadOnly: sref(false)},
				HostPath: &HostPathVolumeSource{Path: "/data", Type: sref("")},
			},
			PersistentVolumeReclaimPolicy: PersistentVolumeReclaimRetain,
			VolumeMode:                    sref(PersistentVolumeFilesystem),
		},
		Status: PersistentVolumeStatus{Phase: VolumePending},
	}
	if d := cmp.Diff(want, v, exactQuantity); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	DefaultPersistentVolume(nil)
}

func TestDefaultStorageClass(t *testing.T) {
	c := &StorageClass{Provisioner: "csi.example.com"}
	DefaultStorageClass(c)
	want := &StorageClass{Provisioner: "csi.example.com", ReclaimPolicy: sref(PersistentVolumeReclaimDelete), VolumeBindingMode: sref(VolumeBindingImmediate)}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	w := &StorageClass{VolumeBindingMode: sref(VolumeBindingWaitForFirstConsumer), ReclaimPolicy: sref(PersistentVolumeReclaimRetain)}
	DefaultStorageClass(w)
	if w.BindingMode() != VolumeBindingWaitForFirstConsumer || *w.ReclaimPolicy != PersistentVolumeReclaimRetain {
		t.Errorf("defaulting overwrote set fields: %+v", w)
	}
	DefaultStorageClass(nil)
	var nilClass *StorageClass
	if nilClass.BindingMode() != VolumeBindingImmediate {
		t.Error("a missing class binds Immediate")
	}
}

// TestDefaultCSIDriver: a driver created with an empty spec reads back
// as the v1.36.3 API server stores it (the form every CSIDriver in the
// scheduling vectors has).
func TestDefaultCSIDriver(t *testing.T) {
	d := &CSIDriver{}
	DefaultCSIDriver(d)
	want := CSIDriverSpec{
		AttachRequired:       sref(true),
		PodInfoOnMount:       sref(false),
		VolumeLifecycleModes: []VolumeLifecycleMode{VolumeLifecyclePersistent},
		StorageCapacity:      sref(false),
		FSGroupPolicy:        sref(ReadWriteOnceWithFSTypeFSGroupPolicy),
		RequiresRepublish:    sref(false),
		SELinuxMount:         sref(false),
	}
	if diff := cmp.Diff(want, d.Spec); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	set := &CSIDriver{Spec: CSIDriverSpec{AttachRequired: sref(false), VolumeLifecycleModes: []VolumeLifecycleMode{VolumeLifecycleEphemeral}}}
	DefaultCSIDriver(set)
	if *set.Spec.AttachRequired || set.Spec.VolumeLifecycleModes[0] != VolumeLifecycleEphemeral || len(set.Spec.VolumeLifecycleModes) != 1 {
		t.Errorf("defaulting overwrote set fields: %+v", set.Spec)
	}
	DefaultCSIDriver(nil)
}

func TestDefaultPodInTreeVolumes(t *testing.T) {
	pod := &Pod{Spec: PodSpec{Volumes: []Volume{
		{Name: "rbd", VolumeSource: VolumeSource{RBD: &RBDVolumeSource{Monitors: []string{"m"}, Image: "i", Pool: "mine"}}},
		{Name: "iscsi", VolumeSource: VolumeSource{ISCSI: &ISCSIVolumeSource{IQN: "iqn.x", ISCSIInterface: "iface"}}},
		{Name: "azure", VolumeSource: VolumeSource{AzureDisk: &AzureDiskVolumeSource{DiskName: "d", ReadOnly: sref(true)}}},
		{Name: "gce", VolumeSource: VolumeSource{GCEPersistentDisk: &GCEPersistentDiskVolumeSource{PDName: "pd"}}},
		{Name: "eph", VolumeSource: VolumeSource{Ephemeral: &EphemeralVolumeSource{VolumeClaimTemplate: &PersistentVolumeClaimTemplate{
			Spec: map[string]any{"accessModes": []any{"ReadWriteOnce"}},
		}}}},
		{Name: "eph-block", VolumeSource: VolumeSource{Ephemeral: &EphemeralVolumeSource{VolumeClaimTemplate: &PersistentVolumeClaimTemplate{
			Spec: map[string]any{"volumeMode": "Block"},
		}}}},
	}}}
	DefaultPod(pod)
	want := []VolumeSource{
		{RBD: &RBDVolumeSource{Monitors: []string{"m"}, Image: "i", Pool: "mine", User: "admin", Keyring: "/etc/ceph/keyring"}},
		{ISCSI: &ISCSIVolumeSource{IQN: "iqn.x", ISCSIInterface: "iface"}},
		{AzureDisk: &AzureDiskVolumeSource{DiskName: "d", ReadOnly: sref(true), CachingMode: sref(AzureDataDiskCachingReadWrite), Kind: sref(AzureSharedBlobDisk), FSType: sref("ext4")}},
		// An attachable disk is a source: no emptyDir is added.
		{GCEPersistentDisk: &GCEPersistentDiskVolumeSource{PDName: "pd"}},
		{Ephemeral: &EphemeralVolumeSource{VolumeClaimTemplate: &PersistentVolumeClaimTemplate{
			Spec: map[string]any{"accessModes": []any{"ReadWriteOnce"}, "volumeMode": "Filesystem"},
		}}},
		{Ephemeral: &EphemeralVolumeSource{VolumeClaimTemplate: &PersistentVolumeClaimTemplate{
			Spec: map[string]any{"volumeMode": "Block"},
		}}},
	}
	var got []VolumeSource
	for _, v := range pod.Spec.Volumes {
		got = append(got, v.VolumeSource)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
