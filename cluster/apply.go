package cluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/managedfields"
)

// The scenario's apply is kubectl's server-side apply with field manager
// kubectl and --force-conflicts, as the e2e harness applies
// (managedfields.Apply). The cluster keeps the field ownership of every
// object the scenario applied:
//
//   - an object the apply creates is owned by kubectl for the fields of
//     its manifest;
//   - an object that existed before its first apply (created by the
//     scenario's objects, or by a controller) has all its fields owned by
//     the manager "before-first-apply", as kube-apiserver attributes the
//     fields of an object without managedFields;
//   - any other write to an applied object (a scale, a controller's
//     update, a binding) takes the fields it changed from kubectl, as an
//     update does; the status subresource's writes are left out, since
//     status is never applied. These writes are tracked under one update
//     manager, "cluster": with conflicts forced, only whether kubectl
//     still owns a field matters.
//
// So a manifest applied again without a field kubectl applied last time
// removes it (and defaulting may put the default back), while a field
// someone else set or changed stays. metadata.managedFields is not
// written on the objects.

// fieldManagers are the managers the composition names.
var (
	managerApply  = managedfields.Manager{Name: "kubectl"}
	managerBefore = managedfields.Manager{Name: "before-first-apply"}
	managerOthers = managedfields.Manager{Name: "cluster"}
)

// applyObject creates o, or server-side applies it over the stored
// object, carrying the merged object through the API server's update.
func (m *Machine) applyObject(o api.Object, now time.Time) error {
	kind, meta := objectMeta(o)
	if meta == nil {
		return fmt.Errorf("cluster: %w: apply: object of type %T", api.ErrInvalidInput, o)
	}
	if err := supported(o); err != nil {
		return err
	}
	cfg, err := toJSON(o)
	if err != nil {
		return err
	}
	key := objectKey(meta)
	ref := kind + "/" + key
	manager := managerApply
	manager.APIVersion, _ = cfg["apiVersion"].(string)
	manager.Time = now
	old := m.store.get(kind, key)
	if old == nil {
		_, owners, err := callPure6x3(m, "managedfields.Apply", managedfields.Apply, kind, nil, cfg, nil, manager, true)
		if err != nil {
			return fmt.Errorf("apply %s: %w", ref, err)
		}
		created, err := m.store.create(o, now)
		if err != nil {
			return err
		}
		m.fieldOwners(kind)[key] = owners
		return m.namespaceCreated(created, now)
	}
	live, err := toJSON(old)
	if err != nil {
		return err
	}
	owners, tracked := m.owners[kind][key]
	if !tracked {
		before := managerBefore
		before.APIVersion = manager.APIVersion
		if owners, err = callPure5x2(m, "managedfields.Update", managedfields.Update, kind, nil, live, nil, before); err != nil {
			return fmt.Errorf("apply %s: %w", ref, err)
		}
	}
	merged, owners, err := callPure6x3(m, "managedfields.Apply", managedfields.Apply, kind, live, cfg, owners, manager, true)
	if err != nil {
		return fmt.Errorf("apply %s: %w", ref, err)
	}
	n, err := fromJSON(merged, old)
	if err != nil {
		return fmt.Errorf("apply %s: %w", ref, err)
	}
	m.applying = true
	_, err = m.store.update(n)
	m.applying = false
	if err != nil {
		return err
	}
	m.fieldOwners(kind)[key] = owners
	return nil
}

// fieldOwners is the ownership map of kind, made on first use.
func (m *Machine) fieldOwners(kind string) map[string]managedfields.ManagedFields {
	if m.owners == nil {
		m.owners = map[string]map[string]managedfields.ManagedFields{}
	}
	if m.owners[kind] == nil {
		m.owners[kind] = map[string]managedfields.ManagedFields{}
	}
	return m.owners[kind]
}

// ownedWritten learns of a store write of an applied object (the store's
// written hook): a deletion forgets its ownership; another writer's
// change of anything but status takes the changed fields from kubectl.
func (m *Machine) ownedWritten(kind, key string, old, n api.Object) {
	if len(m.owners) == 0 || m.applying {
		return
	}
	byKey := m.owners[kind]
	owners, ok := byKey[key]
	if !ok {
		return
	}
	if n == nil || old == nil {
		delete(byKey, key)
		return
	}
	if sameButStatus(old, n) {
		return
	}
	a, errA := toJSON(old)
	b, errB := toJSON(n)
	if errA == nil && errB == nil {
		others := managerOthers
		others.APIVersion, _ = b["apiVersion"].(string)
		if owners, err := callPure5x2(m, "managedfields.Update", managedfields.Update, kind, a, b, owners, others); err == nil {
			byKey[key] = owners
			return
		}
	}
	// An object field management cannot read: its next apply treats it as
	// never applied (nothing of it is removed).
	delete(byKey, key)
}

// sameButStatus reports whether a and b (objects of one type) differ at
// most in status and the API server's own metadata.
func sameButStatus(a, b api.Object) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	if va.Type() != vb.Type() {
		return false
	}
	t := va.Type()
	for i := 0; i < t.NumField(); i++ {
		switch f := t.Field(i); f.Name {
		case "Status", "TypeMeta":
			continue
		case "ObjectMeta":
			ma, mb := va.Field(i).Addr().Interface().(*api.ObjectMeta), vb.Field(i).Addr().Interface().(*api.ObjectMeta)
			if !jsonEqual(ma.Labels, mb.Labels) || !jsonEqual(ma.Annotations, mb.Annotations) ||
				!jsonEqual(ma.Finalizers, mb.Finalizers) || !jsonEqual(ma.OwnerReferences, mb.OwnerReferences) {
				return false
			}
		default:
			if !valuesJSONEqual(va.Field(i), vb.Field(i), false) {
				return false
			}
		}
	}
	return true
}

// toJSON is o as a JSON tree, numbers kept as written.
func toJSON(o api.Object) (map[string]any, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// fromJSON decodes a JSON tree back into an object of like's type.
func fromJSON(v map[string]any, like api.Object) (api.Object, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	n := reflect.New(reflect.TypeOf(like).Elem())
	if err := json.Unmarshal(b, n.Interface()); err != nil {
		return nil, err
	}
	o, ok := n.Interface().(api.Object)
	if !ok {
		return nil, fmt.Errorf("cluster: %w: applied object of type %T", api.ErrInvalidInput, like)
	}
	return o, nil
}
