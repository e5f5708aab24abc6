package admission_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// Every claim and volume the API server creates carries its protection
// finalizer: kubectl get -o yaml shows it under metadata.finalizers.
func ExampleClaimProtectionFinalizers() {
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "shop"}}
	fmt.Println(admission.ClaimProtectionFinalizers(claim))
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-nfs", Finalizers: []string{"example.com/backup"}}}
	fmt.Println(admission.VolumeProtectionFinalizers(pv))
	// Output:
	// [kubernetes.io/pvc-protection]
	// [example.com/backup kubernetes.io/pv-protection]
}

// The storage documentation's default StorageClass: a claim that names no
// class gets the default one; a claim asking for storageClassName: ""
// (no class: a pre-provisioned volume without class) keeps it. With two
// classes marked default (while an administrator switches them), the
// newer wins.
func ExampleDefaultClaimStorageClass() {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	isDefault := map[string]string{api.AnnIsDefaultStorageClass: "true"}
	classes := []*api.StorageClass{
		{ObjectMeta: api.ObjectMeta{Name: "standard", Annotations: isDefault, CreationTimestamp: api.NewTime(t0)}},
		{ObjectMeta: api.ObjectMeta{Name: "premium-rwo", Annotations: isDefault, CreationTimestamp: api.NewTime(t0.Add(time.Hour))}},
		{ObjectMeta: api.ObjectMeta{Name: "standard-rwx", CreationTimestamp: api.NewTime(t0.Add(2 * time.Hour))}},
	}
	none := ""
	for _, c := range []*api.PersistentVolumeClaim{
		{ObjectMeta: api.ObjectMeta{Name: "data"}},
		{ObjectMeta: api.ObjectMeta{Name: "static"}, Spec: api.PersistentVolumeClaimSpec{StorageClassName: &none}},
	} {
		name, ok := admission.DefaultClaimStorageClass(c, classes)
		fmt.Printf("%s: %q %v\n", c.Name, name, ok)
	}
	// Output:
	// data: "premium-rwo" true
	// static: "" false
}
