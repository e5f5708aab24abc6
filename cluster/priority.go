package cluster

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// createSystemPriorityClasses is the API server's start-up bootstrap of
// the scheduling API (pkg/registry/scheduling/rest, its post-start hook
// creating api.SystemPriorityClasses): system-node-critical and
// system-cluster-critical exist before any scenario object is created, so
// that a pod naming them passes Priority admission. They are created as
// any PriorityClass is; nothing records them (the harness's record watches
// no PriorityClass), and a scenario that lists one keeps the server's, as
// the harness does on AlreadyExists.
func (m *Machine) createSystemPriorityClasses(now time.Time) error {
	for i, pc := range api.SystemPriorityClasses() {
		o, err := m.store.create(&pc, now)
		if err != nil {
			return fmt.Errorf("cluster: PriorityClass/%s: %w", pc.Name, err)
		}
		// The built-ins take uids of their own (a zero first group) and
		// leave the resourceVersion counter as it was, so that the
		// scenario's objects get the uids, resourceVersions and generated
		// names (drawn from the uid counter) they get without them.
		m.store.uids--
		m.store.rv--
		o.(*api.PriorityClass).UID = fmt.Sprintf("%s%012x", builtinUIDPrefix, i+1)
	}
	return nil
}

// builtinUIDPrefix starts the uids of the built-in classes, and of no
// other object.
const builtinUIDPrefix = "00000000-0000-4000-8000-"

// implicitUIDPrefix starts the uids of the namespaces that exist without
// the scenario listing them (createImplicitNamespaces).
const implicitUIDPrefix = "00000000-0000-4000-8001-"

// systemNamespaces are the namespaces kube-apiserver creates at start.
var systemNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

// createImplicitNamespaces creates the namespaces names (the system ones,
// and those the scenario's objects are in that it does not list): the API
// server's own, and the ones the harness creates before the objects. Like
// the built-in classes they take uids of their own and leave the uid and
// resourceVersion counters as they were, nothing records them, and
// Machine.Objects leaves them out (the harness lists no Namespace); they
// hold objects, refuse creates while Terminating and can be deleted as
// any namespace.
func (m *Machine) createImplicitNamespaces(names []string, now time.Time) error {
	for _, name := range names {
		if m.store.get("Namespace", name) != nil {
			continue
		}
		o, err := m.store.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}, now)
		if err != nil {
			return fmt.Errorf("cluster: Namespace/%s: %w", name, err)
		}
		m.store.uids--
		m.store.rv--
		m.implicitNamespaces++
		o.(*api.Namespace).UID = fmt.Sprintf("%s%012x", implicitUIDPrefix, m.implicitNamespaces)
		if err := m.namespaceCreated(o, now); err != nil {
			return err
		}
	}
	return nil
}

// implicitNamespace reports whether o is a namespace
// createImplicitNamespaces made.
func implicitNamespace(o api.Object) bool {
	ns, ok := o.(*api.Namespace)
	return ok && strings.HasPrefix(ns.UID, implicitUIDPrefix)
}

// builtinClass reports whether o is one of the API server's built-in
// PriorityClasses. Machine.Objects leaves them out: the harness's final
// list holds no PriorityClass, and these are not the scenario's.
func builtinClass(o api.Object) bool {
	pc, ok := o.(*api.PriorityClass)
	return ok && strings.HasPrefix(pc.UID, builtinUIDPrefix)
}

// admitPriorityClass is the API server's create of a PriorityClass: v1
// defaulting (preemptionPolicy PreemptLowerPriority) and the registry's
// validation (a system- name only for the built-in classes, values above
// api.HighestUserDefinablePriority refused).
func admitPriorityClass(pc *api.PriorityClass) error {
	api.DefaultPriorityClass(pc)
	if errs := validation.ValidatePriorityClass(pc); len(errs) > 0 {
		return errors.New(validation.InvalidObjectMessage("PriorityClass", "scheduling.k8s.io", pc.Name, errs))
	}
	return nil
}
