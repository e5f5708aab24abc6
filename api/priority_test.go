package api

import "testing"

func TestDefaultPriorityClass(t *testing.T) {
	var pc PriorityClass
	DefaultPriorityClass(&pc)
	if pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != PreemptLowerPriority {
		t.Fatalf("defaulted policy %v, want PreemptLowerPriority", pc.PreemptionPolicy)
	}
	never := PreemptNever
	pc.PreemptionPolicy = &never
	DefaultPriorityClass(&pc)
	if *pc.PreemptionPolicy != PreemptNever {
		t.Fatalf("a set policy was overwritten: %s", *pc.PreemptionPolicy)
	}
	DefaultPriorityClass(nil) // a nil class is left alone
}

func TestSystemPriorityClasses(t *testing.T) {
	got := SystemPriorityClasses()
	if len(got) != 2 || got[0].Name != SystemNodeCritical || got[0].Value != 2000001000 ||
		got[1].Name != SystemClusterCritical || got[1].Value != SystemCriticalPriority {
		t.Fatalf("SystemPriorityClasses() = %+v", got)
	}
	// Each call returns fresh objects.
	*got[0].PreemptionPolicy = PreemptNever
	if again := SystemPriorityClasses(); *again[0].PreemptionPolicy != PreemptLowerPriority {
		t.Fatal("SystemPriorityClasses shares its policies between calls")
	}
}
