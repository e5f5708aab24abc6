package admission_test

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

// TestPropertyProtectionFinalizers: StorageObjectInUseProtection keeps the
// object's own finalizers in order, lists its finalizer exactly once,
// admitting twice is admitting once, and the object is not modified.
func TestPropertyProtectionFinalizers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fins := rapid.SliceOfN(rapid.SampledFrom([]string{"example.com/a", "example.com/b", api.FinalizerPVCProtection, api.FinalizerPVProtection}), 0, 3).Draw(t, "finalizers")
		fins = slices.Compact(fins)
		before := slices.Clone(fins)
		claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Finalizers: fins}}
		pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv", Finalizers: fins}}
		for _, c := range []struct {
			f   string
			got []string
		}{{api.FinalizerPVCProtection, admission.ClaimProtectionFinalizers(claim)}, {api.FinalizerPVProtection, admission.VolumeProtectionFinalizers(pv)}} {
			if n := countOf(c.got, c.f); n != max(1, countOf(before, c.f)) {
				t.Fatalf("%v: %s listed %d times", c.got, c.f, n)
			}
			if len(c.got) < len(before) || !slices.Equal(c.got[:len(before)], before) {
				t.Fatalf("%v does not keep %v first", c.got, before)
			}
		}
		again := *claim
		again.Finalizers = admission.ClaimProtectionFinalizers(claim)
		if !slices.Equal(admission.ClaimProtectionFinalizers(&again), again.Finalizers) {
			t.Fatalf("not idempotent: %v", again.Finalizers)
		}
		if !slices.Equal(claim.Finalizers, before) || !slices.Equal(pv.Finalizers, before) {
			t.Fatal("the object's finalizers were modified")
		}
	})
}

func countOf(s []string, v string) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}

// TestPropertyDefaultStorageClass: DefaultStorageClass gives a class only
// to a claim that asks for none, and then a class marked default that no
// other default class is newer than (ties: the first name); the answer
// does not depend on the order of the classes.
func TestPropertyDefaultStorageClass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		var classes []*api.StorageClass
		for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "c", "d"}), 0, 4, rapid.ID[string]).Draw(t, "classes") {
			c := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name,
				CreationTimestamp: api.NewTime(t0.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, "age")) * time.Second))}}
			switch rapid.IntRange(0, 3).Draw(t, "mark") {
			case 1:
				c.Annotations = map[string]string{api.AnnIsDefaultStorageClass: "true"}
			case 2:
				c.Annotations = map[string]string{api.AnnBetaIsDefaultStorageClass: "true"}
			case 3:
				c.Annotations = map[string]string{api.AnnIsDefaultStorageClass: "false"}
			}
			classes = append(classes, c)
		}
		claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data"}}
		switch rapid.IntRange(0, 2).Draw(t, "claimClass") {
		case 1:
			s := rapid.SampledFrom([]string{"", "a"}).Draw(t, "storageClassName")
			claim.Spec.StorageClassName = &s
		case 2:
			claim.Annotations = map[string]string{api.AnnBetaStorageClass: ""}
		}
		name, ok := admission.DefaultClaimStorageClass(claim, classes)
		if claim.HasClass() && ok {
			t.Fatalf("a claim asking for a class got %q", name)
		}
		if !claim.HasClass() && ok != slices.ContainsFunc(classes, (*api.StorageClass).IsDefault) {
			t.Fatalf("ok %v with classes %v", ok, classes)
		}
		if ok {
			i := slices.IndexFunc(classes, func(c *api.StorageClass) bool { return c.Name == name })
			got := classes[i]
			if !got.IsDefault() {
				t.Fatalf("%q is not a default class", name)
			}
			for _, c := range classes {
				if c.IsDefault() && (c.CreationTimestamp.After(got.CreationTimestamp.Time) ||
					(c.CreationTimestamp.Equal(got.CreationTimestamp.Time) && c.Name < got.Name)) {
					t.Fatalf("%q picked over %q", name, c.Name)
				}
			}
		}
		rev := slices.Clone(classes)
		slices.Reverse(rev)
		if n2, ok2 := admission.DefaultClaimStorageClass(claim, rev); n2 != name || ok2 != ok {
			t.Fatalf("reversed classes: %q %v, want %q %v", n2, ok2, name, ok)
		}
	})
}
