package volume_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/volume"
)

// Deleting a PersistentVolumeClaim that a running pod mounts: the API
// server only marks it (the kubernetes.io/pvc-protection finalizer keeps
// it, "Terminating" in kubectl), and the pvc-protection controller removes
// the finalizer once the pod is gone — here, once the pod's informer and
// the live list no longer hold it.
func ExampleSyncClaimProtection() {
	deleted := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data-db-0", Namespace: "shop",
		DeletionTimestamp: api.NewTimePtr(deleted), Finalizers: []string{api.FinalizerPVCProtection}}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "shop"}, Spec: api.PodSpec{NodeName: "node-1",
		Volumes: []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data-db-0"}}}}}}

	ch, _ := volume.SyncClaimProtection(claim, []*api.Pod{pod}, []*api.Pod{pod})
	fmt.Println("while db-0 runs:", ch)
	ch, _ = volume.SyncClaimProtection(claim, nil, []*api.Pod{pod})
	fmt.Println("db-0 not in the cache yet, but listed by the API:", ch)
	ch, _ = volume.SyncClaimProtection(claim, nil, nil)
	fmt.Println("db-0 gone:", ch)
	// Output:
	// while db-0 runs: Kept
	// db-0 not in the cache yet, but listed by the API: Kept
	// db-0 gone: RemoveFinalizer
}

// Which pods keep a claim from going away: only pods bound to a node
// (the kubelet will not start a new one on a claim being deleted), even
// once they have finished, until they are removed; a generic ephemeral
// volume's pod stops counting once it is shut down (deleted with a grace
// period of 0).
func ExamplePodUsesClaimForDeletion() {
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "shop"}}
	uses := []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}
	pending := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "shop"}, Spec: api.PodSpec{Volumes: uses}}
	finished := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "backup-x7k2p", Namespace: "shop"}, Spec: api.PodSpec{NodeName: "node-2", Volumes: uses},
		Status: api.PodStatus{Phase: api.PodSucceeded}}
	fmt.Println("unscheduled pod:", volume.PodUsesClaimForDeletion(pending, claim))
	fmt.Println("Succeeded pod still stored:", volume.PodUsesClaimForDeletion(finished, claim))
	// Output:
	// unscheduled pod: false
	// Succeeded pod still stored: true
}

// A PersistentVolume deleted while bound stays until the
// PersistentVolume controller releases it (its claim gone): the
// pv-protection controller removes kubernetes.io/pv-protection only from
// a volume whose phase is not Bound.
func ExampleSyncVolumeProtection() {
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pvc-3f1c", Finalizers: []string{api.FinalizerPVProtection},
		DeletionTimestamp: api.NewTimePtr(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))}}
	for _, phase := range []api.PersistentVolumePhase{api.VolumeBound, api.VolumeReleased} {
		pv.Status.Phase = phase
		ch, _ := volume.SyncVolumeProtection(pv)
		fmt.Println(phase, "->", ch)
	}
	// Output:
	// Bound -> Kept
	// Released -> RemoveFinalizer
}

// The pod events the pvc-protection controller looks at: a running pod's
// update frees nothing and queues nothing; its deletion queues its claims.
func ExampleClaimsOfPodEvent() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "shop"}, Spec: api.PodSpec{NodeName: "node-1",
		Volumes: []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data-db-0"}}}}},
		Status: api.PodStatus{Phase: api.PodRunning}}
	fmt.Println("updated:", volume.ClaimsOfPodEvent(pod, false))
	fmt.Println("deleted:", volume.ClaimsOfPodEvent(pod, true))
	// Output:
	// updated: []
	// deleted: [shop/data-db-0]
}

// The protection controllers' event handlers queue an object whose
// finalizer is due a change: being deleted with it, or alive without it.
func ExampleClaimProtectionQueued() {
	alive := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Finalizers: []string{api.FinalizerPVCProtection}}}
	legacy := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "old"}}
	fmt.Println(volume.ClaimProtectionQueued(alive), volume.ClaimProtectionQueued(legacy))
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-1"}}
	fmt.Println(volume.VolumeProtectionQueued(pv))
	// Output:
	// false true
	// true
}

// A claim created before the cluster had a default StorageClass: once an
// administrator marks one default, the PersistentVolume controller's next
// sync of the claim writes the class into it (no event); the sync after
// that hands it to the class's provisioner.
func ExampleSyncClaim_defaultClass() {
	mode := api.VolumeBindingImmediate
	standard := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "standard", Annotations: map[string]string{api.AnnIsDefaultStorageClass: "true"}},
		Provisioner: "pd.csi.storage.gke.io", VolumeBindingMode: &mode}
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "scratch", Namespace: "shop"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}},
		Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}}
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	s, _ := volume.SyncClaim(claim, volume.Objects{Classes: []*api.StorageClass{standard}}, now)
	fmt.Println(s.Writes[0], *s.Writes[0].Claim.Spec.StorageClassName, len(s.Events), "events")
	s, _ = volume.SyncClaim(s.Writes[0].Claim, volume.Objects{Classes: []*api.StorageClass{standard}}, now)
	fmt.Println(s.Events[0].Reason)
	// Output:
	// Update(PersistentVolumeClaim/shop/scratch) standard 0 events
	// ExternalProvisioning
}
