package workloads

import (
	"testing"
	"time"
)

// BenchmarkReconcileStatefulSet is one sync of a 1,000-replica Parallel
// set in steady state (every pod Running and Ready at the update
// revision, every claim there): the revision hashing, the claim of each
// pod, the per-pod identity, storage and retention checks, the status.
func BenchmarkReconcileStatefulSet(b *testing.B) {
	const n = 1000
	set := nginxSet(n)
	set.Spec.PodManagementPolicy = "Parallel"
	w := newSSWorld(set)
	c := NewStatefulSetController(StatefulSetConfig{})
	now := t0
	for range 3 {
		res, err := c.Step(w.input(), now)
		if err != nil {
			b.Fatal(err)
		}
		if err := w.apply(res, now); err != nil {
			b.Fatal(err)
		}
		for name := range w.pods {
			_ = w.ready(name, now.Add(-time.Minute))
		}
	}
	in := w.input()
	if len(in.Pods) != n || len(in.Claims) != n {
		b.Fatalf("setup: %d pods, %d claims", len(in.Pods), len(in.Claims))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := ReconcileStatefulSet(in, StatefulSetConfig{}, now)
		if err != nil || len(res.Actions) != 0 {
			b.Fatal(err, len(res.Actions))
		}
	}
}
