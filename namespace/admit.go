package namespace

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// ErrTerminating is the cause of a create the NamespaceLifecycle admission
// plugin refuses because the namespace is being deleted (upstream's
// NamespaceTerminatingCause). The errors Admit returns wrap it: test with
// errors.Is(err, namespace.ErrTerminating).
var ErrTerminating = errors.New("namespace is being terminated")

// terminatingError is Admit's refusal: the API's Forbidden message, and
// ErrTerminating as its cause.
type terminatingError struct{ msg string }

func (e *terminatingError) Error() string { return e.msg }
func (e *terminatingError) Unwrap() error { return ErrTerminating }

// Admit is the NamespaceLifecycle admission plugin's check of a create of
// an object of resource (the API's plural name and group, "pods",
// "replicasets.apps") named name in ns: refused while ns is Terminating,
// with the API server's Forbidden message ("pods \"web-1\" is forbidden:
// unable to create new content in namespace team because it is being
// terminated"). A nil ns (cluster-scoped objects) admits everything.
// Updates and deletes are never refused.
func Admit(ns *api.Namespace, resource, name string) error {
	if !ns.Terminating() {
		return nil
	}
	return &terminatingError{msg: fmt.Sprintf("%s %q is forbidden: unable to create new content in namespace %s because it is being terminated",
		resource, name, ns.Name)}
}

// Immortal reports whether the namespace registry refuses to delete the
// namespace named name: default, kube-system and kube-public.
func Immortal(name string) bool {
	return name == "default" || name == "kube-system" || name == "kube-public"
}

// ErrImmortal is the refusal of a DELETE of an immortal namespace
// (NamespaceLifecycle): "namespaces \"default\" is forbidden: this
// namespace may not be deleted".
func ErrImmortal(name string) error {
	return fmt.Errorf("namespaces %q is forbidden: this namespace may not be deleted", name)
}

// PrepareForCreate is the namespace registry's defaulting of a new
// Namespace: phase Active, FinalizerKubernetes appended to spec.finalizers
// when missing, and the kubernetes.io/metadata.name label set to the
// name. ns is modified in place; a nil ns is left alone.
func PrepareForCreate(ns *api.Namespace) {
	if ns == nil {
		return
	}
	ns.Status = api.NamespaceStatus{Phase: api.NamespaceActive}
	has := false
	for _, f := range ns.Spec.Finalizers {
		has = has || f == api.FinalizerKubernetes
	}
	if !has {
		ns.Spec.Finalizers = append(ns.Spec.Finalizers, api.FinalizerKubernetes)
	}
	setNameLabel(ns)
}

// PrepareForUpdate is the namespace registry's update of a Namespace: the
// spec's finalizers and the status stay as they were (they change through
// the finalize and status subresources only), and the name label is kept.
func PrepareForUpdate(ns, old *api.Namespace) {
	if ns == nil || old == nil {
		return
	}
	ns.Spec.Finalizers = old.Spec.Finalizers
	ns.Status = old.Status
	setNameLabel(ns)
}

func setNameLabel(ns *api.Namespace) {
	if ns.Labels[api.LabelMetadataName] == ns.Name {
		return
	}
	labels := make(map[string]string, len(ns.Labels)+1)
	for k, v := range ns.Labels {
		labels[k] = v
	}
	labels[api.LabelMetadataName] = ns.Name
	ns.Labels = labels
}
