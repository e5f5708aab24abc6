package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

// The objects every cluster holds of its own, whatever the scenario lists:
// the API server's `kubernetes` Service in namespace default (its
// bootstrap controller creates it: cluster IP 10.96.0.1, the first of the
// service range, port 443 to the API server's 6443), and in every active
// namespace the `kube-root-ca.crt` ConfigMap that kube-controller-manager's
// root-ca-cert-publisher creates when the namespace appears and again
// whenever it is deleted. They count against a ResourceQuota as any
// Service or ConfigMap does (a quota of 2 services in default leaves room
// for one more). Like the built-in PriorityClasses they take uids of their
// own, leave the uid and resourceVersion counters as they were (so that
// generated names do not move), are not recorded, and Machine.Objects
// leaves them out (the harness's final list holds neither). The
// ConfigMap's ca.crt is empty: the cluster has no certificate authority.

// kubernetesService is the API server's own Service in namespace default.
const kubernetesService = "kubernetes"

// rootCAConfigMap is the root-ca-cert-publisher's ConfigMap.
const rootCAConfigMap = "kube-root-ca.crt"

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

// publishRootCA is the root-ca-cert-publisher's reaction to a Namespace
// just created (o; any other object is ignored): its ConfigMap. Upstream
// it comes a few milliseconds after the namespace, before anything the
// namespace holds could be counted without it; here it comes with the
// namespace, so that a ResourceQuota's first sync counts it.
func (m *Machine) publishRootCA(o api.Object, now time.Time) error {
	if ns, ok := o.(*api.Namespace); ok {
		return m.ensureRootCA(ns.Name, now)
	}
	return nil
}

// rootCADeliver marks the namespaces whose ConfigMap was deleted: the
// publisher creates it again.
func (m *Machine) rootCADeliver(w watchEvent) {
	o, ok := w.Object.(*api.Unstructured)
	if !ok || w.Type != watchDeleted || o.Kind != "ConfigMap" || o.Name != rootCAConfigMap {
		return
	}
	if m.rootCADirty == nil {
		m.rootCADirty = map[string]bool{}
	}
	m.rootCADirty[o.Namespace] = true
}

// runRootCAPublisher recreates the ConfigMap in each marked namespace.
func (m *Machine) runRootCAPublisher(now time.Time) error {
	if len(m.rootCADirty) == 0 {
		return nil
	}
	names := make([]string, 0, len(m.rootCADirty))
	for ns := range m.rootCADirty {
		names = append(names, ns)
	}
	clear(m.rootCADirty)
	slices.Sort(names)
	for _, ns := range names {
		if err := m.ensureRootCA(ns, now); err != nil {
			return err
		}
	}
	return nil
}

// ensureRootCA creates the ConfigMap in namespace ns when it is active
// and lacks it.
func (m *Machine) ensureRootCA(ns string, now time.Time) error {
	n, _ := m.store.get("Namespace", ns).(*api.Namespace)
	if n == nil || n.Terminating() || m.store.get("ConfigMap", ns+"/"+rootCAConfigMap) != nil {
		return nil
	}
	cm := &api.Unstructured{TypeMeta: api.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		ObjectMeta: api.ObjectMeta{Name: rootCAConfigMap, Namespace: ns},
		Fields:     map[string]json.RawMessage{"data": json.RawMessage(`{"ca.crt":""}`)}}
	if err := m.createBuiltin(cm, now); err != nil {
		return fmt.Errorf("cluster: ConfigMap/%s/%s: %w", ns, rootCAConfigMap, err)
	}
	return nil
}
