package api_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
)

// Switching the default StorageClass: while both the old and the new class
// carry storageclass.kubernetes.io/is-default-class: "true", the newer is
// the default; a class annotated "false" is not one.
func ExampleDefaultStorageClassOf() {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	classes := []*api.StorageClass{
		{ObjectMeta: api.ObjectMeta{Name: "gp2", CreationTimestamp: api.NewTime(t0),
			Annotations: map[string]string{api.AnnIsDefaultStorageClass: "true"}}},
		{ObjectMeta: api.ObjectMeta{Name: "gp3", CreationTimestamp: api.NewTime(t0.Add(24 * time.Hour)),
			Annotations: map[string]string{api.AnnIsDefaultStorageClass: "true"}}},
		{ObjectMeta: api.ObjectMeta{Name: "io2", CreationTimestamp: api.NewTime(t0.Add(48 * time.Hour)),
			Annotations: map[string]string{api.AnnIsDefaultStorageClass: "false"}}},
	}
	fmt.Println(api.DefaultStorageClassOf(classes).Name, classes[2].IsDefault())
	// Output: gp3 false
}

// A claim with storageClassName: "" asks for "no class" and is never given
// the default one; a claim without the field is.
func ExamplePersistentVolumeClaim_HasClass() {
	none := ""
	fmt.Println((&api.PersistentVolumeClaim{}).HasClass(),
		(&api.PersistentVolumeClaim{Spec: api.PersistentVolumeClaimSpec{StorageClassName: &none}}).HasClass())
	// Output: false true
}
