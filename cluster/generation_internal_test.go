package cluster

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// TestStaleGenerationUpdate: an update whose object carries an older
// generation than the stored one (the Deployment controller's second
// write of a ReplicaSet in one sync sends its own copy, a write behind) is
// not refused as a decrement: the strategies' PrepareForUpdate takes the
// stored generation and moves it on when the spec changes.
func TestStaleGenerationUpdate(t *testing.T) {
	m := gcCluster(t, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	sets := m.store.list("ReplicaSet")
	if len(sets) != 1 {
		t.Fatalf("%d ReplicaSets, want 1", len(sets))
	}
	stored := sets[0].(*api.ReplicaSet)
	for i, replicas := range []int32{3, 4} {
		n := stored.DeepCopy()
		n.Generation = stored.Generation - 1 + int64(i) // behind the stored one
		n.Spec.Replicas = &replicas
		got, err := m.store.update(n)
		if err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		if want := stored.Generation + 1 + int64(i); got.(*api.ReplicaSet).Generation != want {
			t.Errorf("update %d: generation %d, want %d", i, got.(*api.ReplicaSet).Generation, want)
		}
	}
}
