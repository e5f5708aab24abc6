package cluster

import (
	"errors"
	"time"

	"github.com/podsem/podsem/api"
)

// runGarbageCollector is kube-controller-manager's garbage collector
// (pkg/controller/garbagecollector) for background propagation, the
// default of a DELETE: each object whose owners have all been deleted is
// deleted in turn (a pod gracefully, with its own grace period), and an
// object that still has an owner loses its references to the deleted ones.
// Upstream reacts within milliseconds; here in the round after the owner's
// deletion is delivered. Foreground deletion and orphaning (the
// foregroundDeletion and orphan finalizers) are not modelled yet.
func (m *Machine) runGarbageCollector(now time.Time) error {
	if len(m.deletedUIDs) == 0 {
		return nil
	}
	gone := m.deletedUIDs
	m.deletedUIDs = nil
	for _, kind := range objectKinds {
		for _, o := range m.cache.dependents(kind, gone) {
			_, meta := objectMeta(o)
			hit := false
			for _, r := range meta.OwnerReferences {
				if gone[r.UID] {
					hit = true
				}
			}
			if !hit {
				continue
			}
			var live []api.OwnerReference
			for _, r := range meta.OwnerReferences {
				if !gone[r.UID] && m.ownerExists(r, meta.Namespace) {
					live = append(live, r)
				}
			}
			key := objectKey(meta)
			if len(live) > 0 {
				if err := m.patchMeta(kind, key, func(mm *api.ObjectMeta) { mm.OwnerReferences = live }); err != nil {
					return err
				}
				continue
			}
			var err error
			if kind == "Pod" {
				bg := "Background"
				_, err = m.store.deletePod(key, &api.DeleteOptions{PropagationPolicy: &bg}, now)
			} else {
				err = m.store.remove(kind, key)
			}
			if err != nil && !errors.Is(err, errNotFound) {
				return err
			}
		}
	}
	return nil
}

// ownerExists reports whether the owner a reference names is in the
// store with that uid.
func (m *Machine) ownerExists(r api.OwnerReference, namespace string) bool {
	key := r.Name
	if !clusterScoped[r.Kind] {
		key = namespace + "/" + r.Name
	}
	o := m.store.get(r.Kind, key)
	if o == nil {
		return false
	}
	_, meta := objectMeta(o)
	return meta.UID == r.UID
}
