package cluster

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// This file is the namespace's life: the registry's DELETE of a Namespace
// (deleteNamespace), kube-controller-manager's namespace controller
// (runNamespaces, through namespace.Controller and namespace.Sync) and the
// API server's view of which namespaces refuse new objects
// (namespaceTerminating). NamespaceLifecycle's check of creates is in
// store.create.

// resource is an API resource: group, version and plural name.
type resource struct{ group, version, name string }

// String is the resource as the API's errors name it: "pods",
// "replicasets.apps".
func (r resource) String() string {
	if r.group == "" {
		return r.name
	}
	return r.name + "." + r.group
}

// resources are the API resources of the kinds the cluster stores.
var resources = map[string]resource{
	"Pod": {"", "v1", "pods"}, "Node": {"", "v1", "nodes"}, "Namespace": {"", "v1", "namespaces"},
	"Service": {"", "v1", "services"}, "PersistentVolumeClaim": {"", "v1", "persistentvolumeclaims"},
	"PersistentVolume": {"", "v1", "persistentvolumes"},
	"Deployment":       {"apps", "v1", "deployments"}, "ReplicaSet": {"apps", "v1", "replicasets"},
	"StatefulSet": {"apps", "v1", "statefulsets"}, "DaemonSet": {"apps", "v1", "daemonsets"},
	"ControllerRevision": {"apps", "v1", "controllerrevisions"}, "Job": {"batch", "v1", "jobs"},
	"CronJob":             {"batch", "v1", "cronjobs"},
	"ResourceQuota":       {"", "v1", "resourcequotas"},
	"PodDisruptionBudget": {"policy", "v1", "poddisruptionbudgets"}, "LimitRange": {"", "v1", "limitranges"},
	"PriorityClass": {"scheduling.k8s.io", "v1", "priorityclasses"},
	"StorageClass":  {"storage.k8s.io", "v1", "storageclasses"}, "CSIDriver": {"storage.k8s.io", "v1", "csidrivers"},
	"CSINode": {"storage.k8s.io", "v1", "csinodes"}, "VolumeAttachment": {"storage.k8s.io", "v1", "volumeattachments"},
}

// resourceOf is kind's API resource; a kind outside the table is its
// lower-cased plural in the core group.
func resourceOf(kind string) resource {
	if r, ok := resources[kind]; ok {
		return r
	}
	return resource{"", "v1", strings.ToLower(kind) + "s"}
}

// namespaceTerminating reports whether the API server holds the
// namespace ns as Terminating: creates in it are refused.
func (m *Machine) namespaceTerminating(ns string) bool {
	n, _ := m.store.get("Namespace", ns).(*api.Namespace)
	return n.Terminating()
}

// deleteNamespace serves a DELETE of the Namespace name (the namespace
// registry): refused for default, kube-system and kube-public; a
// namespace with spec finalizers is marked (deletionTimestamp, phase
// Terminating, the propagation policy's finalizer) and left to the
// namespace controller; one without leaves as any object does.
func (m *Machine) deleteNamespace(name string, opts *api.DeleteOptions, now time.Time) (handled bool, err error) {
	if namespace.Immortal(name) {
		return true, namespace.ErrImmortal(name)
	}
	old, _ := m.store.get("Namespace", name).(*api.Namespace)
	if old == nil || len(old.Spec.Finalizers) == 0 {
		return false, nil
	}
	n := old.DeepCopy()
	if n.DeletionTimestamp == nil {
		n.DeletionTimestamp = api.NewTimePtr(now.Truncate(time.Second))
	}
	n.Status.Phase = api.NamespaceTerminating
	fins := slices.DeleteFunc(slices.Clone(n.Finalizers), isGCFinalizer)
	switch deletePropagation("Namespace", old.Finalizers, opts) {
	case api.DeletePropagationOrphan:
		fins = append(fins, api.FinalizerOrphanDependents)
	case api.DeletePropagationForeground:
		fins = append(fins, api.FinalizerDeleteDependents)
	}
	n.Finalizers = fins
	if specEqual(n, old) {
		return true, nil
	}
	m.store.nextRV(&n.ObjectMeta)
	m.store.put("Namespace", name, n, watchModified, old)
	return true, nil
}

// namespaceDeliver feeds the namespace controller its informer's events.
func (m *Machine) namespaceDeliver(w watchEvent, now time.Time) error {
	if w.Kind != "Namespace" {
		return nil
	}
	in := namespace.Input{Kind: namespace.NamespaceGone, Name: w.Key}
	if w.Type != watchDeleted {
		in = namespace.Input{Kind: namespace.NamespaceChanged, Namespace: w.Object.(*api.Namespace)}
	}
	_, err := stepMachine(m, "namespace-controller", w.Key, m.nsc, in, now)
	return err
}

// runNamespaces runs the namespace controller's passes due at now, each
// through namespace.Sync over the API server's store, and writes what
// each pass leads to: the status, then the finalize subresource.
func (m *Machine) runNamespaces(now time.Time) error {
	if d := m.nsc.NextDeadline(); d.IsZero() || d.After(now) {
		return nil
	}
	out, err := stepMachine(m, "namespace-controller", "", m.nsc, namespace.Input{Kind: namespace.Tick}, now)
	if err != nil {
		return err
	}
	for _, name := range out.Due {
		ns, _ := m.cache.get("Namespace", name).(*api.Namespace)
		if ns == nil {
			continue
		}
		// The deleter reads the namespace from the API server first.
		if cur, _ := m.store.get("Namespace", name).(*api.Namespace); cur != nil {
			ns = cur
		}
		res, err := namespace.Sync(ns, nsClient{m: m, now: now}, now)
		if err != nil {
			return err
		}
		if res.StatusChanged {
			status := res.Status
			if err := m.writeStatus("Namespace", name, ns.UID, func(o api.Object) { o.(*api.Namespace).Status = status }); err != nil {
				return err
			}
		}
		if res.Finalize && res.Err == nil && res.Estimate == 0 {
			if err := m.finalizeNamespace(name, ns.UID); err != nil {
				return err
			}
		}
		if _, err := stepMachine(m, "namespace-controller", name, m.nsc, namespace.Input{Kind: namespace.Synced, Name: name, Result: res}, now); err != nil {
			return err
		}
	}
	return nil
}

// finalizeNamespace is the finalize subresource: FinalizerKubernetes
// removed from spec.finalizers; a namespace being deleted with no
// finalizer left leaves storage.
func (m *Machine) finalizeNamespace(name, uid string) error {
	old, _ := m.store.get("Namespace", name).(*api.Namespace)
	if old == nil || old.UID != uid {
		return nil
	}
	n := old.DeepCopy()
	n.Spec.Finalizers = slices.DeleteFunc(n.Spec.Finalizers, func(f string) bool { return f == api.FinalizerKubernetes })
	if n.DeletionTimestamp != nil && len(n.Spec.Finalizers) == 0 && len(n.Finalizers) == 0 {
		return m.store.remove("Namespace", name)
	}
	if specEqual(n, old) {
		return nil
	}
	m.store.nextRV(&n.ObjectMeta)
	m.store.put("Namespace", name, n, watchModified, old)
	return nil
}

// nsClient is namespace.Client over the cluster's API server at now.
type nsClient struct {
	m   *Machine
	now time.Time
}

func (c nsClient) Pods(ns string) []*api.Pod {
	var out []*api.Pod
	for _, k := range c.m.store.namespaceKeys("Pod", ns) {
		if p, _ := c.m.store.get("Pod", k).(*api.Pod); p != nil {
			out = append(out, p)
		}
	}
	return out
}

func (c nsClient) DeletePods(ns string) error {
	bg := api.DeletePropagationBackground
	for _, k := range slices.Clone(c.m.store.namespaceKeys("Pod", ns)) {
		if _, err := c.m.store.deletePod(k, &api.DeleteOptions{PropagationPolicy: &bg}, c.now); err != nil && !errors.Is(err, errNotFound) {
			return err
		}
	}
	return nil
}

// contentKinds are the namespaced kinds of the store other than pods, in
// a fixed order.
func (c nsClient) contentKinds() []string {
	var kinds []string
	for kind := range c.m.store.objs {
		if kind != "Pod" && !clusterScoped[kind] {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}

func (c nsClient) DeleteContent(ns string) error {
	bg := api.DeletePropagationBackground
	for _, kind := range c.contentKinds() {
		for _, k := range slices.Clone(c.m.store.namespaceKeys(kind, ns)) {
			if err := c.m.deleteWithOptions(kind, k, &api.DeleteOptions{PropagationPolicy: &bg}, c.now); err != nil && !errors.Is(err, errNotFound) {
				return err
			}
		}
	}
	return nil
}

func (c nsClient) Content(ns string) []namespace.Object {
	var out []namespace.Object
	for _, kind := range c.contentKinds() {
		r := resourceOf(kind)
		for _, k := range c.m.store.namespaceKeys(kind, ns) {
			o := c.m.store.get(kind, k)
			if o == nil {
				continue
			}
			_, meta := objectMeta(o)
			out = append(out, namespace.Object{Group: r.group, Version: r.version, Resource: r.name, Finalizers: meta.Finalizers})
		}
	}
	return out
}
