package cluster

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// The objects every cluster holds of its own, whatever the scenario lists:
// the API server's `kubernetes` Service in namespace default (its
// bootstrap controller creates it: cluster IP 10.96.0.1, the first of the
// service range, port 443 to the API server's 6443), and in every active
// namespace the `default` ServiceAccount and the `kube-root-ca.crt`
// ConfigMap that kube-controller-manager's serviceaccount controller and
// root-ca-cert-publisher create when the namespace appears and again
// whenever they are deleted. They count against a ResourceQuota as any
// Service, ServiceAccount or ConfigMap does (a quota of 2 services in
// default leaves room for one more). Like the built-in PriorityClasses they take uids of their
// own, leave the uid and resourceVersion counters as they were (so that
// generated names do not move), are not recorded, and Machine.Objects
// leaves them out (the harness's final list holds neither). The
// ConfigMap's ca.crt is empty: the cluster has no certificate authority.

// kubernetesService is the API server's own Service in namespace default.
const kubernetesService = "kubernetes"

// rootCAConfigMap is the root-ca-cert-publisher's ConfigMap.
const rootCAConfigMap = "kube-root-ca.crt"

// defaultServiceAccount is the serviceaccount controller's account.
const defaultServiceAccount = "default"

// builtinObjectUIDPrefix starts the uids of the built-in Service and
// ConfigMaps, and of no other object.
const builtinObjectUIDPrefix = "00000000-0000-4000-8002-"

// builtinObject reports whether o is one of the cluster's own objects
// (the built-in PriorityClasses, Service and ConfigMaps).
func builtinObject(o api.Object) bool {
	if builtinClass(o) {
		return true
	}
	_, meta := objectMeta(o)
	return meta != nil && strings.HasPrefix(meta.UID, builtinObjectUIDPrefix)
}

// createBuiltin creates o as one of the cluster's own objects.
func (m *Machine) createBuiltin(o api.Object, now time.Time) error {
	created, err := m.store.create(o, now)
	if err != nil {
		return err
	}
	m.store.uids--
	m.store.rv--
	m.builtins++
	_, meta := objectMeta(created)
	meta.UID = fmt.Sprintf("%s%012x", builtinObjectUIDPrefix, m.builtins)
	return nil
}

// createKubernetesService creates the API server's Service in default,
// which exists before any object of the scenario.
func (m *Machine) createKubernetesService(now time.Time) error {
	if m.store.get("Namespace", "default") == nil || m.store.get("Service", "default/"+kubernetesService) != nil {
		return nil
	}
	svc := &api.Service{
		TypeMeta: api.TypeMeta{Kind: "Service", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: kubernetesService, Namespace: "default",
			Labels: map[string]string{"component": "apiserver", "provider": "kubernetes"}},
		Spec: api.ServiceSpec{
			Type:      api.ServiceTypeClusterIP,
			ClusterIP: "10.96.0.1",
			Ports: []api.ServicePort{{Name: "https", Protocol: api.ProtocolTCP, Port: 443,
				TargetPort: api.FromInt32(6443)}},
		},
	}
	if err := m.createBuiltin(svc, now); err != nil {
		return fmt.Errorf("cluster: Service/default/%s: %w", kubernetesService, err)
	}
	return nil
}

// namespaceCreated is the serviceaccount controller's and the
// root-ca-cert-publisher's reaction to a Namespace just created (o; any
// other object is ignored): its default ServiceAccount and its
// ConfigMap. Upstream they come a few milliseconds after the namespace,
// before anything the namespace holds could be counted without them; here
// they come with it, so that a ResourceQuota's first sync counts them.
func (m *Machine) namespaceCreated(o api.Object, now time.Time) error {
	if ns, ok := o.(*api.Namespace); ok {
		return m.ensureNamespaceDefaults(ns.Name, now)
	}
	return nil
}

// namespaceDefaultsDeliver marks the namespaces whose default
// ServiceAccount or ConfigMap was deleted: the controllers create them
// again.
func (m *Machine) namespaceDefaultsDeliver(w watchEvent) {
	o, ok := w.Object.(*api.Unstructured)
	if !ok || w.Type != watchDeleted || !(o.Kind == "ConfigMap" && o.Name == rootCAConfigMap || o.Kind == "ServiceAccount" && o.Name == defaultServiceAccount) {
		return
	}
	if m.defaultsDirty == nil {
		m.defaultsDirty = map[string]bool{}
	}
	m.defaultsDirty[o.Namespace] = true
}

// runNamespaceDefaults recreates what each marked namespace lacks.
func (m *Machine) runNamespaceDefaults(now time.Time) error {
	if len(m.defaultsDirty) == 0 {
		return nil
	}
	for _, ns := range takeMarked(m.defaultsDirty) {
		if err := m.ensureNamespaceDefaults(ns, now); err != nil {
			return err
		}
	}
	return nil
}

// ensureNamespaceDefaults creates the default ServiceAccount and the
// ConfigMap in namespace ns when it is active and lacks them.
func (m *Machine) ensureNamespaceDefaults(ns string, now time.Time) error {
	n, _ := m.store.get("Namespace", ns).(*api.Namespace)
	if n == nil || n.Terminating() {
		return nil
	}
	for _, o := range []*api.Unstructured{
		{TypeMeta: api.TypeMeta{Kind: "ServiceAccount", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: defaultServiceAccount, Namespace: ns}},
		{TypeMeta: api.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: rootCAConfigMap, Namespace: ns},
			Fields:     map[string]json.RawMessage{"data": json.RawMessage(`{"ca.crt":""}`)}},
	} {
		if m.store.get(o.Kind, ns+"/"+o.Name) != nil {
			continue
		}
		if err := m.createBuiltin(o, now); err != nil {
			return fmt.Errorf("cluster: %s/%s/%s: %w", o.Kind, ns, o.Name, err)
		}
	}
	return nil
}
