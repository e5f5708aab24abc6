package scheduling

import (
	"fmt"
	"slices"

	"github.com/podsem/podsem/api"
)

// objectMeta returns the metadata of an object of a kind the Loop's
// InputObjectSet takes, nil for another kind (or a nil object).
func objectMeta(o api.Object) *api.ObjectMeta {
	if isNilObject(o) {
		return nil
	}
	switch o := o.(type) {
	case *api.Namespace:
		return &o.ObjectMeta
	case *api.PersistentVolumeClaim:
		return &o.ObjectMeta
	case *api.PersistentVolume:
		return &o.ObjectMeta
	case *api.StorageClass:
		return &o.ObjectMeta
	case *api.CSINode:
		return &o.ObjectMeta
	case *api.CSIDriver:
		return &o.ObjectMeta
	case *api.PodDisruptionBudget:
		return &o.ObjectMeta
	case *api.Service:
		return &o.ObjectMeta
	case *api.ReplicaSet:
		return &o.ObjectMeta
	case *api.StatefulSet:
		return &o.ObjectMeta
	case *api.ReplicationController:
		return &o.ObjectMeta
	}
	return nil
}

// objectKey is the object's namespace/name, or its name when it has no
// namespace.
func objectKey(o api.Object) string {
	m := objectMeta(o)
	switch {
	case m == nil:
		return ""
	case m.Namespace == "":
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// checkObject refuses a nil object and one of a kind the Loop does not
// take as InputObjectSet.
func checkObject(o api.Object) error {
	switch {
	case isNilObject(o):
		return fmt.Errorf("%w: object: nil", errInvalidInput)
	case objectMeta(o) == nil:
		return fmt.Errorf("%w: object: %T is not a kind the scheduling loop takes as an object", errInvalidInput, o)
	}
	return nil
}

// setObject records o, replacing the object of its kind with the same
// key. A kind the Loop does not watch is an error.
func (c *Cluster) setObject(o api.Object) error {
	if err := checkObject(o); err != nil {
		return err
	}
	switch o := o.(type) {
	case *api.Namespace:
		return c.SetNamespace(o)
	case *api.PersistentVolumeClaim:
		return c.SetPersistentVolumeClaim(o)
	case *api.PersistentVolume:
		return c.SetPersistentVolume(o)
	case *api.StorageClass:
		return c.SetStorageClass(o)
	case *api.CSINode:
		return c.SetCSINode(o)
	case *api.CSIDriver:
		return c.SetCSIDriver(o)
	case *api.PodDisruptionBudget:
		return c.SetPodDisruptionBudget(o)
	}
	c.setWorkload(o, false)
	return nil
}

// removeObject forgets the object of o's kind with o's key. An unknown
// one is an error.
func (c *Cluster) removeObject(o api.Object) error {
	if err := checkObject(o); err != nil {
		return err
	}
	m := objectMeta(o)
	switch o.(type) {
	case *api.Namespace:
		if _, ok := c.namespaces[m.Name]; !ok {
			return fmt.Errorf("%w: no namespace %q", errInvalidInput, m.Name)
		}
		c.RemoveNamespace(m.Name)
		return nil
	case *api.PersistentVolumeClaim:
		return c.RemovePersistentVolumeClaim(m.Namespace, m.Name)
	case *api.PersistentVolume:
		return c.RemovePersistentVolume(m.Name)
	case *api.StorageClass:
		return c.RemoveStorageClass(m.Name)
	case *api.CSINode:
		return c.RemoveCSINode(m.Name)
	case *api.CSIDriver:
		return c.RemoveCSIDriver(m.Name)
	case *api.PodDisruptionBudget:
		return c.RemovePodDisruptionBudget(m.Namespace, m.Name)
	}
	if !c.setWorkload(o, true) {
		return fmt.Errorf("%w: no %T %q", errInvalidInput, o, objectKey(o))
	}
	return nil
}

// setWorkload replaces (or, with remove, deletes) the workload of o's kind
// and key among the spread workloads, appending a new one, and reports
// whether one of that key was there.
func (c *Cluster) setWorkload(o api.Object, remove bool) bool {
	w := c.workloads
	var found bool
	switch o := o.(type) {
	case *api.Service:
		w.Services, found = replaceByKey(w.Services, o, remove)
	case *api.ReplicaSet:
		w.ReplicaSets, found = replaceByKey(w.ReplicaSets, o, remove)
	case *api.StatefulSet:
		w.StatefulSets, found = replaceByKey(w.StatefulSets, o, remove)
	case *api.ReplicationController:
		w.ReplicationControllers, found = replaceByKey(w.ReplicationControllers, o, remove)
	}
	if found || !remove {
		c.workloads = w
		c.SetSpreadWorkloads(w)
	}
	return found
}

// replaceByKey returns list with the object of o's key replaced by o (or
// removed), o appended when none had its key, in a new slice (the
// snapshot's workload slices are never modified in place).
func replaceByKey[T any](list []T, o T, remove bool) ([]T, bool) {
	key := objectKey(o)
	i := slices.IndexFunc(list, func(x T) bool { return objectKey(x) == key })
	switch {
	case i < 0 && remove:
		return list, false
	case i < 0:
		return append(slices.Clip(list), o), false
	case remove:
		return slices.Delete(slices.Clone(list), i, i+1), true
	}
	out := slices.Clone(list)
	out[i] = o
	return out, true
}
