package volume_test

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/volume"
)

var protT0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// genProtectedClaim draws a claim "data" (or "web-0-cache", a generic
// ephemeral volume's) of namespace "shop", maybe being deleted, maybe
// carrying the protection finalizer, maybe owned by pod web-0.
func genProtectedClaim(t *rapid.T) *api.PersistentVolumeClaim {
	c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Namespace: "shop",
		Name: rapid.SampledFrom([]string{"data", "web-0-cache"}).Draw(t, "claim")}}
	if rapid.Bool().Draw(t, "deleting") {
		c.DeletionTimestamp = api.NewTimePtr(protT0)
	}
	if rapid.Bool().Draw(t, "finalizer") {
		c.Finalizers = []string{api.FinalizerPVCProtection}
	}
	if rapid.Bool().Draw(t, "ownedByPod") {
		yes := true
		c.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: "web-0", UID: "uid-web-0", Controller: &yes}}
	}
	return c
}

// genClaimPod draws a pod of namespace "shop" or "other" using claim
// "data" and/or the ephemeral volume "cache", bound or not, in some phase,
// maybe being deleted (with grace 0 or 30).
func genClaimPod(t *rapid.T) *api.Pod {
	name := rapid.SampledFrom([]string{"web-0", "web-1"}).Draw(t, "pod")
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name,
		Namespace: rapid.SampledFrom([]string{"shop", "shop", "other"}).Draw(t, "namespace")}}
	if rapid.Bool().Draw(t, "bound") {
		p.Spec.NodeName = "node-1"
	}
	if rapid.Bool().Draw(t, "pvcVolume") {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "data", VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: rapid.SampledFrom([]string{"data", "logs"}).Draw(t, "claimName")}}})
	}
	if rapid.Bool().Draw(t, "ephemeral") {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "cache", VolumeSource: api.VolumeSource{Ephemeral: &api.EphemeralVolumeSource{}}})
	}
	p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed}).Draw(t, "phase")
	if rapid.Bool().Draw(t, "podDeleting") {
		p.DeletionTimestamp = api.NewTimePtr(protT0)
		g := rapid.SampledFrom([]int64{0, 30}).Draw(t, "grace")
		p.DeletionGracePeriodSeconds = &g
	}
	return p
}

// TestPropertyClaimProtection: the pvc-protection controller removes the
// finalizer only from a claim being deleted that carries it, and then
// exactly when no pod of either list uses the claim; it adds it only to a
// claim not being deleted that lacks it; the answer does not depend on
// the order of the pods nor on which list holds a pod; more pods never
// turn a kept finalizer into a removal; and a claim whose finalizer is
// due a change is one the informer handler queues.
func TestPropertyClaimProtection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		claim := genProtectedClaim(t)
		var cached, live []*api.Pod
		for range rapid.IntRange(0, 4).Draw(t, "pods") {
			p := genClaimPod(t)
			if rapid.Bool().Draw(t, "inCache") {
				cached = append(cached, p)
			} else {
				live = append(live, p)
			}
		}
		ch, err := volume.SyncClaimProtection(claim, cached, live)
		if err != nil {
			t.Fatal(err)
		}
		deleting, has := claim.DeletionTimestamp != nil, slices.Contains(claim.Finalizers, api.FinalizerPVCProtection)
		used := slices.ContainsFunc(append(slices.Clone(cached), live...), func(p *api.Pod) bool { return volume.PodUsesClaimForDeletion(p, claim) })
		want := volume.FinalizerKept
		switch {
		case !deleting && !has:
			want = volume.FinalizerAdd
		case deleting && has && !used:
			want = volume.FinalizerRemove
		}
		if ch != want {
			t.Fatalf("got %v, want %v (deleting %v, finalizer %v, used %v)", ch, want, deleting, has, used)
		}
		if ch != volume.FinalizerKept && !volume.ClaimProtectionQueued(claim) {
			t.Fatalf("%v but the claim is not queued", ch)
		}
		all := append(slices.Clone(live), cached...)
		slices.Reverse(all)
		if got, _ := volume.SyncClaimProtection(claim, all, nil); got != ch {
			t.Fatalf("pods in one list, reversed: got %v, want %v", got, ch)
		}
		if ch == volume.FinalizerKept && deleting && has {
			extra := genClaimPod(t)
			if got, _ := volume.SyncClaimProtection(claim, append(cached, extra), live); got != volume.FinalizerKept {
				t.Fatalf("one more pod turned Kept into %v", got)
			}
		}
	})
}

// TestPropertyPodDeletionQueuesItsClaims: a pod that keeps a claim from
// being deleted queues that claim when its deletion is observed (else the
// finalizer would never go).
func TestPropertyPodDeletionQueuesItsClaims(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		claim := genProtectedClaim(t)
		p := genClaimPod(t)
		if volume.PodUsesClaimForDeletion(p, claim) && !slices.Contains(volume.ClaimsOfPodEvent(p, true), claim.Namespace+"/"+claim.Name) {
			t.Fatalf("pod %s uses %s but its deletion queues only %v", p.Name, claim.Name, volume.ClaimsOfPodEvent(p, true))
		}
		if p.Spec.NodeName == "" && len(volume.ClaimsOfPodEvent(p, false)) != len(p.Spec.Volumes) {
			t.Fatalf("an unscheduled pod's update queues %v, want every claim", volume.ClaimsOfPodEvent(p, false))
		}
	})
}

// TestPropertyVolumeProtection: the pv-protection controller removes the
// finalizer exactly from a volume being deleted that carries it and is not
// Bound, adds it exactly to one not being deleted that lacks it, and
// such a volume is queued by the informer handler.
func TestPropertyVolumeProtection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-1"}}
		if rapid.Bool().Draw(t, "deleting") {
			pv.DeletionTimestamp = api.NewTimePtr(protT0)
		}
		if rapid.Bool().Draw(t, "finalizer") {
			pv.Finalizers = []string{"example.com/other", api.FinalizerPVProtection}
		}
		pv.Status.Phase = rapid.SampledFrom([]api.PersistentVolumePhase{"", api.VolumePending, api.VolumeAvailable, api.VolumeBound, api.VolumeReleased, api.VolumeFailed}).Draw(t, "phase")
		ch, err := volume.SyncVolumeProtection(pv)
		if err != nil {
			t.Fatal(err)
		}
		deleting, has := pv.DeletionTimestamp != nil, slices.Contains(pv.Finalizers, api.FinalizerPVProtection)
		if (ch == volume.FinalizerRemove) != (deleting && has && pv.Status.Phase != api.VolumeBound) {
			t.Fatalf("got %v for deleting %v, finalizer %v, phase %q", ch, deleting, has, pv.Status.Phase)
		}
		if (ch == volume.FinalizerAdd) != (!deleting && !has) {
			t.Fatalf("got %v for deleting %v, finalizer %v", ch, deleting, has)
		}
		if ch != volume.FinalizerKept && !volume.VolumeProtectionQueued(pv) {
			t.Fatalf("%v but the volume is not queued", ch)
		}
	})
}
