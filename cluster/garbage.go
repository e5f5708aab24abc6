package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// The garbage collector of kube-controller-manager
// (pkg/controller/garbagecollector) and the API server's side of it (the
// generic registry's deletion finalizers), for the three propagation
// policies of a DELETE:
//
//   - Background (the scenario's delete, as the e2e harness sends it):
//     the owner is removed at once; then each object whose owners are all
//     gone is deleted in turn (a pod gracefully, with its own grace
//     period), and an object that keeps a live owner loses its
//     references to the gone ones.
//   - Foreground: the owner stays, marked for deletion with the
//     foregroundDeletion finalizer; its dependents are deleted (in the
//     foreground themselves when they have dependents of their own, else
//     in the background); once no dependent whose reference has
//     blockOwnerDeletion is left, the finalizer goes and with it the owner.
//   - Orphan: the owner stays with the orphan finalizer until the
//     collector has removed every dependent's reference to it; then the
//     finalizer goes and with it the owner.
//
// An object written with a reference to an owner that does not exist (no
// object of that kind and name, or one of another uid) is handled as the
// collector handles a dependent whose owner it finds absent: deleted when
// no owner is left (as its own GC finalizer says, else in the
// background), or stripped of the absent references when another owner
// lives. A reference to a kind the API server does not serve (no REST
// mapping) leaves its object alone.
//
// A DELETE that names no policy takes the object's GC finalizer if it has
// one, else its kind's default: orphan for a batch/v1 Job (the Job
// strategy keeps it for compatibility), background for every other kind
// here. Upstream reacts within milliseconds; here in the round after the
// change is delivered.

// isGCFinalizer reports the garbage collector's finalizers.
func isGCFinalizer(f string) bool {
	return f == api.FinalizerOrphanDependents || f == api.FinalizerDeleteDependents
}

// gcDeliver marks the collector's work from an informer event: an object
// gone (its dependents may be orphaned or unblock a foreground owner) or
// one marked for deletion holding a GC finalizer.
func (m *Machine) gcDeliver(w watchEvent) {
	_, meta := objectMeta(w.Object)
	if meta == nil {
		return
	}
	if w.Type == watchDeleted || (meta.DeletionTimestamp != nil && slices.ContainsFunc(meta.Finalizers, isGCFinalizer)) {
		m.gcWork = true
	}
	if w.Type == watchDeleted || len(meta.OwnerReferences) == 0 {
		return
	}
	if w.Old != nil {
		// The collector's graph looks up the owners a write adds: an
		// update that keeps the references asks nothing new.
		if _, om := objectMeta(w.Old); om != nil && slices.EqualFunc(om.OwnerReferences, meta.OwnerReferences, sameOwner) {
			return
		}
	}
	for _, r := range meta.OwnerReferences {
		if served(r.Kind, r.APIVersion) && !m.ownerExists(r, meta.Namespace) {
			if m.gcDangling == nil {
				m.gcDangling = map[string]bool{}
			}
			m.gcDangling[w.Kind+"/"+w.Key] = true
			return
		}
	}
}

// sameOwner reports whether two owner references name the same owner.
func sameOwner(a, b api.OwnerReference) bool {
	return a.UID == b.UID && a.Kind == b.Kind && a.Name == b.Name && a.APIVersion == b.APIVersion
}

// served reports whether the API server serves kind at apiVersion: an
// owner reference naming another has no REST mapping, and the collector
// leaves its dependent alone. It allocates nothing (it runs on every
// watch event of an owned object).
func served(kind, apiVersion string) bool {
	group, version := "", ""
	if r, ok := resources[kind]; ok {
		group, version = r.group, r.version
	} else if g, ok := inertGroups[kind]; ok {
		group, version = g, "v1"
	} else {
		return false
	}
	if group == "" {
		return apiVersion == version
	}
	return len(apiVersion) == len(group)+1+len(version) && apiVersion[:len(group)] == group &&
		apiVersion[len(group)] == '/' && apiVersion[len(group)+1:] == version
}

// inertGroups are the API groups of the kinds held inert (inertKinds).
var inertGroups = map[string]string{
	"ConfigMap": "", "Secret": "", "ServiceAccount": "", "Endpoints": "", "Event": "", "PodTemplate": "",
	"EndpointSlice": "discovery.k8s.io", "Lease": "coordination.k8s.io",
	"Role": "rbac.authorization.k8s.io", "RoleBinding": "rbac.authorization.k8s.io",
	"ClusterRole": "rbac.authorization.k8s.io", "ClusterRoleBinding": "rbac.authorization.k8s.io",
	"Ingress": "networking.k8s.io", "IngressClass": "networking.k8s.io", "NetworkPolicy": "networking.k8s.io",
}

// collectDangling handles the objects written with a reference to an owner
// that does not exist (no object of that kind and name, or one of another
// uid), as the collector does once it finds such an owner absent: an
// object with no owner left is deleted (in the background, or as its GC
// finalizer says), one that keeps a live owner loses its references to
// the absent ones. A reference whose kind has no REST mapping keeps its
// object as it is.
func (m *Machine) collectDangling(now time.Time) error {
	if len(m.gcDangling) == 0 {
		return nil
	}
	for _, ref := range takeMarked(m.gcDangling) {
		kind, key, _ := strings.Cut(ref, "/")
		o := m.store.get(kind, key)
		if o == nil {
			continue
		}
		_, meta := objectMeta(o)
		if meta.DeletionTimestamp != nil && kind != "Pod" {
			continue
		}
		var live []api.OwnerReference
		absent := 0
		unmapped := false
		for _, r := range meta.OwnerReferences {
			switch {
			case !served(r.Kind, r.APIVersion):
				unmapped = true
			case m.ownerExists(r, meta.Namespace):
				live = append(live, r)
			default:
				absent++
			}
		}
		if unmapped || absent == 0 {
			continue
		}
		if len(live) > 0 {
			if err := m.patchMeta(kind, key, func(mm *api.ObjectMeta) { mm.OwnerReferences = live }); err != nil {
				return err
			}
			continue
		}
		policy := api.DeletePropagationBackground
		switch {
		case slices.Contains(meta.Finalizers, api.FinalizerOrphanDependents):
			policy = api.DeletePropagationOrphan
		case slices.Contains(meta.Finalizers, api.FinalizerDeleteDependents):
			policy = api.DeletePropagationForeground
		}
		if err := m.deleteWithOptions(kind, key, &api.DeleteOptions{PropagationPolicy: &policy}, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	return nil
}

// deletePropagation is the policy a DELETE of an object of kind with
// finalizers and opts takes (the generic registry's
// deletionFinalizersForGarbageCollection).
func deletePropagation(kind string, finalizers []string, opts *api.DeleteOptions) string {
	switch {
	case opts != nil && opts.OrphanDependents != nil:
		if *opts.OrphanDependents {
			return api.DeletePropagationOrphan
		}
		return api.DeletePropagationBackground
	case opts != nil && opts.PropagationPolicy != nil:
		return *opts.PropagationPolicy
	}
	for _, f := range finalizers {
		switch f {
		case api.FinalizerOrphanDependents:
			return api.DeletePropagationOrphan
		case api.FinalizerDeleteDependents:
			return api.DeletePropagationForeground
		}
	}
	if kind == "Job" {
		return api.DeletePropagationOrphan
	}
	return api.DeletePropagationBackground
}

// deleteWithOptions serves a DELETE of the object kind/key with opts (nil:
// none) at now. A pod goes through the pod registry (store.deletePod,
// termination.APIServerGrace, which sets the GC finalizers the same
// way). Another object is removed at once unless the policy or its own
// finalizers keep it: then it is marked (deletionTimestamp now, grace 0)
// and carries the policy's finalizer.
func (m *Machine) deleteWithOptions(kind, key string, opts *api.DeleteOptions, now time.Time) error {
	if kind == "Pod" {
		_, err := m.store.deletePod(key, opts, now)
		return err
	}
	if kind == "Namespace" {
		if handled, err := m.deleteNamespace(key, opts, now); handled {
			return err
		}
	}
	old := m.store.get(kind, key)
	if old == nil {
		return notFound(kind, key)
	}
	if p := opts; p != nil && p.PropagationPolicy != nil {
		switch *p.PropagationPolicy {
		case api.DeletePropagationOrphan, api.DeletePropagationBackground, api.DeletePropagationForeground:
		default:
			return fmt.Errorf("%s %q: propagationPolicy: Unsupported value: %q", kind, key, *p.PropagationPolicy)
		}
	}
	_, om := objectMeta(old)
	policy := deletePropagation(kind, om.Finalizers, opts)
	fins := slices.DeleteFunc(slices.Clone(om.Finalizers), isGCFinalizer)
	switch policy {
	case api.DeletePropagationOrphan:
		fins = append(fins, api.FinalizerOrphanDependents)
	case api.DeletePropagationForeground:
		fins = append(fins, api.FinalizerDeleteDependents)
	}
	if len(fins) == 0 {
		return m.store.remove(kind, key)
	}
	n, err := clone(old)
	if err != nil {
		return err
	}
	_, meta := objectMeta(n)
	meta.Finalizers = fins
	if meta.DeletionTimestamp == nil {
		meta.DeletionTimestamp = api.NewTimePtr(now.Truncate(time.Second))
		zero := int64(0)
		meta.DeletionGracePeriodSeconds = &zero
	}
	if specEqual(n, old) {
		return nil
	}
	m.store.nextRV(meta)
	m.store.put(kind, key, n, watchModified, old)
	return nil
}

// removeFinalizer removes finalizer from the object kind/key (an update
// of metadata.finalizers); the object leaves storage when it was marked
// for deletion and this was its last finalizer.
func (m *Machine) removeFinalizer(kind, key, finalizer string, now time.Time) error {
	old := m.store.get(kind, key)
	if old == nil {
		return nil
	}
	_, om := objectMeta(old)
	if kind == "Pod" {
		return m.removePodFinalizer(key, om.UID, finalizer, now)
	}
	if !slices.Contains(om.Finalizers, finalizer) {
		return nil
	}
	if om.DeletionTimestamp != nil && len(om.Finalizers) == 1 {
		return m.store.remove(kind, key)
	}
	return m.patchMeta(kind, key, func(meta *api.ObjectMeta) {
		meta.Finalizers = slices.DeleteFunc(slices.Clone(meta.Finalizers), func(f string) bool { return f == finalizer })
	})
}

// runGarbageCollector runs the collector when an owner went away or one
// is being deleted with a GC finalizer.
func (m *Machine) runGarbageCollector(now time.Time) error {
	if err := m.collectDangling(now); err != nil {
		return err
	}
	if len(m.deletedUIDs) == 0 && !m.gcWork {
		return nil
	}
	gone := m.deletedUIDs
	m.deletedUIDs, m.gcWork = nil, false
	if err := m.collectOrphaned(gone, now); err != nil {
		return err
	}
	return m.processDeletingOwners(now)
}

// graphObjects is every object in the collector's graph (the informer
// cache), kinds in a fixed order and each kind by key.
func (m *Machine) graphObjects() []api.Object {
	var out []api.Object
	for _, kind := range objectKinds {
		out = append(out, m.cache.list(kind)...)
	}
	return out
}

// collectOrphaned handles the dependents of owners that are gone: an
// object with no owner left is deleted in the background, one that keeps
// a live owner loses its references to the gone ones.
func (m *Machine) collectOrphaned(gone map[string]bool, now time.Time) error {
	if len(gone) == 0 {
		return nil
	}
	var hit []api.Object
	for _, kind := range objectKinds {
		hit = append(hit, m.cache.dependents(kind, gone)...)
	}
	for _, o := range hit {
		kind, meta := objectMeta(o)
		if !slices.ContainsFunc(meta.OwnerReferences, func(r api.OwnerReference) bool { return gone[r.UID] }) {
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
		bg := api.DeletePropagationBackground
		if err := m.deleteWithOptions(kind, key, &api.DeleteOptions{PropagationPolicy: &bg}, now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	return nil
}

// processDeletingOwners handles each owner marked for deletion with a GC
// finalizer: orphaning removes the dependents' references to it, then its
// finalizer; foreground deletes its dependents, and removes its finalizer
// once none that blocks it is left.
func (m *Machine) processDeletingOwners(now time.Time) error {
	if m.cache.index.finalizing == 0 {
		return nil // no object is being deleted with a collector finalizer
	}
	objs := m.graphObjects()
	dependents := map[string][]api.Object{} // owner uid -> dependents
	for _, o := range objs {
		_, meta := objectMeta(o)
		for _, r := range meta.OwnerReferences {
			dependents[r.UID] = append(dependents[r.UID], o)
		}
	}
	for _, o := range objs {
		kind, meta := objectMeta(o)
		if meta.DeletionTimestamp == nil {
			continue
		}
		key := objectKey(meta)
		switch {
		case slices.Contains(meta.Finalizers, api.FinalizerOrphanDependents):
			uid := meta.UID
			for _, d := range dependents[uid] {
				dk, dm := objectMeta(d)
				if err := m.patchMeta(dk, objectKey(dm), func(mm *api.ObjectMeta) {
					mm.OwnerReferences = slices.DeleteFunc(slices.Clone(mm.OwnerReferences), func(r api.OwnerReference) bool { return r.UID == uid })
				}); err != nil {
					return err
				}
			}
			if err := m.removeFinalizer(kind, key, api.FinalizerOrphanDependents, now); err != nil {
				return err
			}
		case slices.Contains(meta.Finalizers, api.FinalizerDeleteDependents):
			blocking := 0
			for _, d := range dependents[meta.UID] {
				dk, dm := objectMeta(d)
				var ref api.OwnerReference
				for _, r := range dm.OwnerReferences {
					if r.UID == meta.UID {
						ref = r
					}
				}
				if ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion {
					blocking++
				}
				if dm.DeletionTimestamp != nil {
					continue
				}
				if err := m.deleteDependent(dk, dm, meta.UID, len(dependents[dm.UID]) > 0, now); err != nil {
					return err
				}
			}
			if blocking == 0 {
				if err := m.removeFinalizer(kind, key, api.FinalizerDeleteDependents, now); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// deleteDependent is the collector's attemptToDeleteItem for a dependent
// of an owner deleted in the foreground: a dependent with another owner
// that still stands only loses its reference to this one; else it is
// deleted, in the foreground when it has dependents of its own.
func (m *Machine) deleteDependent(kind string, meta *api.ObjectMeta, owner string, hasDependents bool, now time.Time) error {
	var solid []api.OwnerReference
	for _, r := range meta.OwnerReferences {
		if r.UID != owner && m.ownerSolid(r, meta.Namespace) {
			solid = append(solid, r)
		}
	}
	key := objectKey(meta)
	if len(solid) > 0 {
		return m.patchMeta(kind, key, func(mm *api.ObjectMeta) {
			mm.OwnerReferences = slices.DeleteFunc(slices.Clone(mm.OwnerReferences), func(r api.OwnerReference) bool { return r.UID == owner })
		})
	}
	policy := api.DeletePropagationBackground
	if hasDependents {
		policy = api.DeletePropagationForeground
	}
	err := m.deleteWithOptions(kind, key, &api.DeleteOptions{PropagationPolicy: &policy}, now)
	if errors.Is(err, errNotFound) {
		return nil
	}
	return err
}

// ownerExists reports whether the owner a reference names is in the
// store with that uid.
func (m *Machine) ownerExists(r api.OwnerReference, namespace string) bool {
	_, meta := m.owner(r, namespace)
	return meta != nil
}

// ownerSolid reports whether the owner exists and is not being deleted
// in the foreground (the collector's "solid" owner).
func (m *Machine) ownerSolid(r api.OwnerReference, namespace string) bool {
	_, meta := m.owner(r, namespace)
	return meta != nil && !(meta.DeletionTimestamp != nil && slices.Contains(meta.Finalizers, api.FinalizerDeleteDependents))
}

func (m *Machine) owner(r api.OwnerReference, namespace string) (api.Object, *api.ObjectMeta) {
	key := r.Name
	if !clusterScoped[r.Kind] {
		key = namespace + "/" + r.Name
	}
	o := m.store.get(r.Kind, key)
	if o == nil {
		return nil, nil
	}
	_, meta := objectMeta(o)
	if meta.UID != r.UID {
		return nil, nil
	}
	return o, meta
}
