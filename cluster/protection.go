package cluster

import (
	"maps"
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/volume"
)

// Storage object in-use protection and the default StorageClass, as
// Kubernetes v1.36.3 runs them:
//
//   - kube-apiserver's mutating admission on the create of a claim or a
//     volume (admitStorage): DefaultStorageClass
//     (admission.DefaultClaimStorageClass: a claim naming no class gets
//     the default one) and StorageObjectInUseProtection
//     (admission.ClaimProtectionFinalizers, VolumeProtectionFinalizers:
//     the kubernetes.io/pvc-protection and pv-protection finalizers);
//   - the pvc-protection and pv-protection controllers of
//     kube-controller-manager (runProtection): volume.SyncClaimProtection
//     with the pods of the claim's namespace in the informer cache and,
//     as the controller's live list, in the store; volume.SyncVolumeProtection.
//     A DELETE of a claim or volume with its finalizer marks it
//     (deletionTimestamp; garbage.go's deleteWithOptions) and the
//     removal of the last finalizer removes it (removeFinalizer).
//
// The controllers record no Event (upstream logs only); the change shows
// as the claim's watch record (deleting: -> true, then DELETED). Their
// keys are queued as upstream's handlers queue them
// (volume.ClaimProtectionQueued, VolumeProtectionQueued,
// ClaimsOfPodEvent); an update never conflicts here, so nothing is
// requeued and there is no deadline.

// protectionState is the two controllers' work queues.
type protectionState struct {
	claims  map[string]bool // namespace/name
	volumes map[string]bool // name
}

// admitStorage is the storage admission plugins on a create, after
// defaulting: a claim's default class and protection finalizer, a
// volume's protection finalizer. classes are the StorageClasses the API
// server's informer holds (the store's).
func (s *store) admitStorage(o api.Object) {
	switch x := o.(type) {
	case *api.PersistentVolumeClaim:
		if name, ok := admission.DefaultClaimStorageClass(x, listed[*api.StorageClass](s, "StorageClass")); ok {
			x.Spec.StorageClassName = &name
		}
		x.Finalizers = admission.ClaimProtectionFinalizers(x)
	case *api.PersistentVolume:
		x.Finalizers = admission.VolumeProtectionFinalizers(x)
	}
}

// protectionDeliver is the two controllers' informer event handlers.
func (m *Machine) protectionDeliver(w watchEvent) {
	p := &m.protection
	switch o := w.Object.(type) {
	case *api.PersistentVolumeClaim:
		if w.Type != watchDeleted && volume.ClaimProtectionQueued(o) {
			p.queue(&p.claims, w.Key)
		}
	case *api.PersistentVolume:
		if w.Type != watchDeleted && volume.VolumeProtectionQueued(o) {
			p.queue(&p.volumes, w.Key)
		}
	case *api.Pod:
		if len(o.Spec.Volumes) > 0 {
			for _, k := range volume.ClaimsOfPodEvent(o, w.Type == watchDeleted) {
				p.queue(&p.claims, k)
			}
		}
		if old, _ := w.Old.(*api.Pod); old != nil && old.UID != o.UID && len(old.Spec.Volumes) > 0 {
			for _, k := range volume.ClaimsOfPodEvent(old, true) {
				p.queue(&p.claims, k)
			}
		}
	}
}

func (p *protectionState) queue(q *map[string]bool, key string) {
	if *q == nil {
		*q = map[string]bool{}
	}
	(*q)[key] = true
}

// protectionDue reports whether a key is queued.
func (m *Machine) protectionDue() bool {
	return len(m.protection.claims) > 0 || len(m.protection.volumes) > 0
}

// runProtection syncs the queued claims, then the queued volumes, each in
// key order, and writes their finalizer changes. A claim or volume the
// store changed since the cache's copy is skipped: the change's own
// informer event queues it again when it needs a sync.
func (m *Machine) runProtection(now time.Time) error {
	p := &m.protection
	if !m.protectionDue() {
		return nil
	}
	claims, volumes := slices.Sorted(maps.Keys(p.claims)), slices.Sorted(maps.Keys(p.volumes))
	clear(p.claims)
	clear(p.volumes)
	for _, key := range claims {
		c, _ := m.cache.get("PersistentVolumeClaim", key).(*api.PersistentVolumeClaim)
		if c == nil || m.storeChanged("PersistentVolumeClaim", key, &c.ObjectMeta) {
			continue
		}
		ch, err := callPure3x2(m, "volume.SyncClaimProtection", volume.SyncClaimProtection, c,
			inNamespace[*api.Pod](m.cache, "Pod", c.Namespace), inNamespace[*api.Pod](m.store, "Pod", c.Namespace))
		if err != nil {
			return err
		}
		if err := m.changeFinalizer("PersistentVolumeClaim", key, api.FinalizerPVCProtection, ch, now); err != nil {
			return err
		}
	}
	for _, key := range volumes {
		v, _ := m.cache.get("PersistentVolume", key).(*api.PersistentVolume)
		if v == nil || m.storeChanged("PersistentVolume", key, &v.ObjectMeta) {
			continue
		}
		ch, err := callPure1x2(m, "volume.SyncVolumeProtection", volume.SyncVolumeProtection, v)
		if err != nil {
			return err
		}
		if err := m.changeFinalizer("PersistentVolume", key, api.FinalizerPVProtection, ch, now); err != nil {
			return err
		}
	}
	return nil
}

// storeChanged reports whether the store holds another version of the
// object than meta's (or none).
func (m *Machine) storeChanged(kind, key string, meta *api.ObjectMeta) bool {
	cur := m.store.get(kind, key)
	if cur == nil {
		return true
	}
	_, cm := objectMeta(cur)
	return cm.ResourceVersion != meta.ResourceVersion
}

// changeFinalizer writes a protection controller's finalizer change.
func (m *Machine) changeFinalizer(kind, key, finalizer string, ch volume.FinalizerChange, now time.Time) error {
	switch ch {
	case volume.FinalizerRemove:
		return m.removeFinalizer(kind, key, finalizer, now)
	case volume.FinalizerAdd:
		return m.patchMeta(kind, key, func(meta *api.ObjectMeta) {
			meta.Finalizers = append(slices.Clip(meta.Finalizers), finalizer)
		})
	}
	return nil
}

// callPure3x2 is callPure5 for a function of three arguments and two
// results (volume.SyncClaimProtection).
func callPure3x2[A, B, C, R, S any](m *Machine, name string, f func(A, B, C) (R, S), a A, b B, c C) (R, S) {
	if m.shadow == nil {
		return f(a, b, c)
	}
	after := m.shadow.call(name, f, []any{a, b, c})
	r, s := f(a, b, c)
	after(r, s)
	return r, s
}
