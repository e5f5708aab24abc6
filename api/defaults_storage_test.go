package api

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
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
	if set.Spec.AttachRequired == nil || *set.Spec.AttachRequired || len(set.Spec.VolumeLifecycleModes) != 1 || set.Spec.VolumeLifecycleModes[0] != VolumeLifecycleEphemeral {
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

func genOptional[T any](t *rapid.T, label string, values ...T) *T {
	i := rapid.IntRange(-1, len(values)-1).Draw(t, label)
	if i < 0 {
		return nil
	}
	v := values[i]
	return &v
}

func genStorageObjects(t *rapid.T) (*PersistentVolumeClaim, *PersistentVolume, *StorageClass, *CSIDriver) {
	quantities := rapid.SampledFrom([]string{"1", "1.0001", "10Gi", "500m", "0.5Ki", "1e3"})
	modes := rapid.SliceOfDistinct(rapid.SampledFrom([]PersistentVolumeAccessMode{ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod}), func(m PersistentVolumeAccessMode) PersistentVolumeAccessMode { return m })
	claim := &PersistentVolumeClaim{
		Spec: PersistentVolumeClaimSpec{
			AccessModes: modes.Draw(t, "claimModes"),
			Resources:   VolumeResourceRequirements{Requests: ResourceList{ResourceStorage: MustParseQuantity(quantities.Draw(t, "request"))}},
			VolumeMode:  genOptional(t, "claimMode", PersistentVolumeBlock, PersistentVolumeFilesystem),
		},
		Status: PersistentVolumeClaimStatus{Phase: rapid.SampledFrom([]PersistentVolumeClaimPhase{"", ClaimPending, ClaimBound}).Draw(t, "claimPhase")},
	}
	vol := &PersistentVolume{Spec: PersistentVolumeSpec{
		Capacity:                      ResourceList{ResourceStorage: MustParseQuantity(quantities.Draw(t, "capacity"))},
		AccessModes:                   modes.Draw(t, "volumeModes"),
		PersistentVolumeReclaimPolicy: rapid.SampledFrom([]PersistentVolumeReclaimPolicy{"", PersistentVolumeReclaimDelete, PersistentVolumeReclaimRetain}).Draw(t, "reclaim"),
		VolumeMode:                    genOptional(t, "volumeMode", PersistentVolumeBlock, PersistentVolumeFilesystem),
	}}
	switch rapid.IntRange(0, 3).Draw(t, "source") {
	case 0:
		vol.Spec.CSI = &CSIPersistentVolumeSource{Driver: "d", VolumeHandle: "h"}
	case 1:
		vol.Spec.RBD = &RBDPersistentVolumeSource{Monitors: []string{"m"}, Image: "i", Pool: rapid.SampledFrom([]string{"", "p"}).Draw(t, "pool")}
	case 2:
		vol.Spec.AzureDisk = &AzureDiskVolumeSource{DiskName: "d", ReadOnly: genOptional(t, "ro", true, false)}
	case 3:
		vol.Spec.HostPath = &HostPathVolumeSource{Path: "/p", Type: genOptional(t, "hostPathType", "", "Directory")}
	}
	class := &StorageClass{
		Provisioner:       "p",
		VolumeBindingMode: genOptional(t, "binding", VolumeBindingImmediate, VolumeBindingWaitForFirstConsumer),
		ReclaimPolicy:     genOptional(t, "classReclaim", PersistentVolumeReclaimDelete, PersistentVolumeReclaimRetain),
	}
	driver := &CSIDriver{Spec: CSIDriverSpec{
		AttachRequired:       genOptional(t, "attach", true, false),
		StorageCapacity:      genOptional(t, "capacityTracking", true, false),
		VolumeLifecycleModes: rapid.SliceOfN(rapid.SampledFrom([]VolumeLifecycleMode{VolumeLifecyclePersistent, VolumeLifecycleEphemeral}), 0, 2).Draw(t, "lifecycle"),
	}}
	return claim, vol, class, driver
}

// TestStorageDefaultingProperties: defaulting fills every defaulted field,
// never changes a field that was set (bar rounding quantities up to milli
// units), is idempotent, and its result survives a JSON round trip.
func TestStorageDefaultingProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		claim, vol, class, driver := genStorageObjects(t)
		before := []Object{deepCopyJSON(t, claim), deepCopyJSON(t, vol), deepCopyJSON(t, class), deepCopyJSON(t, driver)}
		DefaultPersistentVolumeClaim(claim)
		DefaultPersistentVolume(vol)
		DefaultStorageClass(class)
		DefaultCSIDriver(driver)
		after := []Object{claim, vol, class, driver}

		if claim.Spec.VolumeMode == nil || claim.Status.Phase == "" || vol.Spec.VolumeMode == nil || vol.Status.Phase == "" ||
			vol.Spec.PersistentVolumeReclaimPolicy == "" || class.VolumeBindingMode == nil || class.ReclaimPolicy == nil ||
			driver.Spec.AttachRequired == nil || driver.Spec.FSGroupPolicy == nil || len(driver.Spec.VolumeLifecycleModes) == 0 {
			t.Fatalf("a defaulted field is unset: %+v %+v %+v %+v", claim, vol, class, driver)
		}
		b := objectAs[*PersistentVolumeClaim](t, before, 0)
		if b.Spec.VolumeMode != nil && *b.Spec.VolumeMode != *claim.Spec.VolumeMode || b.Status.Phase != "" && b.Status.Phase != claim.Status.Phase {
			t.Fatalf("claim: a set field changed: %+v -> %+v", b, claim)
		}
		if c := objectAs[*StorageClass](t, before, 2); c.VolumeBindingMode != nil && *c.VolumeBindingMode != class.BindingMode() {
			t.Fatalf("class: binding mode changed: %v -> %v", *c.VolumeBindingMode, class.BindingMode())
		}
		if d := objectAs[*CSIDriver](t, before, 3); d.Spec.AttachRequired != nil && *d.Spec.AttachRequired != *driver.Spec.AttachRequired ||
			len(d.Spec.VolumeLifecycleModes) > 0 && !cmp.Equal(d.Spec.VolumeLifecycleModes, driver.Spec.VolumeLifecycleModes) {
			t.Fatalf("driver: a set field changed: %+v -> %+v", d.Spec, driver.Spec)
		}

		for i, o := range after {
			again := deepCopyJSON(t, o)
			switch x := again.(type) {
			case *PersistentVolumeClaim:
				DefaultPersistentVolumeClaim(x)
			case *PersistentVolume:
				DefaultPersistentVolume(x)
			case *StorageClass:
				DefaultStorageClass(x)
			case *CSIDriver:
				DefaultCSIDriver(x)
			}
			if d := cmp.Diff(o, again, exactQuantity, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("object %d: defaulting twice or round-tripping differs (-once +twice):\n%s", i, d)
			}
		}
	})
}

// deepCopyJSON copies o through its kubectl JSON form.
func deepCopyJSON(t *rapid.T, o Object) Object {
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var c Object
	switch o.(type) {
	case *PersistentVolumeClaim:
		c = &PersistentVolumeClaim{}
	case *PersistentVolume:
		c = &PersistentVolume{}
	case *StorageClass:
		c = &StorageClass{}
	case *CSIDriver:
		c = &CSIDriver{}
	}
	if err := json.Unmarshal(b, c); err != nil {
		t.Fatal(err)
	}
	return c
}
