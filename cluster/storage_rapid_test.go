package cluster

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// genStorageCluster draws 2–4 nodes in one or two zones, a CSI
// StorageClass (WaitForFirstConsumer or Immediate), and 1–2 ReadWriteOnce
// claims, each used by a Deployment of 1–2 replicas (two replicas of one
// ReadWriteOnce claim is the user error the Multi-Attach message is for).
func genStorageCluster(t *rapid.T) []api.Object {
	var objs []api.Object
	nodes := rapid.IntRange(2, 4).Draw(t, "nodes")
	zones := rapid.IntRange(1, 2).Draw(t, "zones")
	alloc := api.ResourceList{"cpu": api.MustParseQuantity("4"), "memory": api.MustParseQuantity("8Gi"), "pods": api.MustParseQuantity("110")}
	for i := 0; i < nodes; i++ {
		name := fmt.Sprintf("node-%d", i+1)
		objs = append(objs, &api.Node{
			TypeMeta: api.TypeMeta{Kind: "Node", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{api.LabelHostname: name,
				api.LabelTopologyZone: fmt.Sprintf("zone-%d", i%zones)}},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}},
		})
	}
	mode := api.VolumeBindingWaitForFirstConsumer
	if rapid.Bool().Draw(t, "immediate") {
		mode = api.VolumeBindingImmediate
	}
	class := "fast"
	objs = append(objs, &api.StorageClass{TypeMeta: api.TypeMeta{Kind: "StorageClass", APIVersion: "storage.k8s.io/v1"},
		ObjectMeta: api.ObjectMeta{Name: class}, Provisioner: "csi.example.com", VolumeBindingMode: &mode})
	claims := rapid.IntRange(1, 2).Draw(t, "claims")
	for i := 0; i < claims; i++ {
		name := fmt.Sprintf("data%d", i)
		objs = append(objs, &api.PersistentVolumeClaim{TypeMeta: api.TypeMeta{Kind: "PersistentVolumeClaim", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce}, StorageClassName: &class,
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}}})
		replicas := int32(rapid.IntRange(1, 2).Draw(t, "replicas"))
		app := fmt.Sprintf("app%d", i)
		objs = append(objs, &api.Deployment{
			TypeMeta:   api.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
			ObjectMeta: api.ObjectMeta{Name: app, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &replicas,
				Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": app}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "db:1",
						Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m")}}}},
						Volumes: []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: name}}}}}}},
		})
	}
	return objs
}

// checkSingleAttach is the property "never two nodes attaching one
// ReadWriteOnce volume": at each delivery, the API server holds the
// VolumeAttachments of each ReadWriteOnce PersistentVolume for at most one
// node.
func checkSingleAttach(t *rapid.T, m *Machine) func(w watchEvent) {
	return func(w watchEvent) {
		if _, ok := w.Object.(*api.VolumeAttachment); !ok {
			return
		}
		nodes := map[string]map[string]bool{}
		for _, o := range m.store.list("VolumeAttachment") {
			va := o.(*api.VolumeAttachment)
			pv, _ := m.store.get("PersistentVolume", va.PersistentVolumeName()).(*api.PersistentVolume)
			if pv == nil || !api.ContainsAccessMode(pv.Spec.AccessModes, api.ReadWriteOnce) {
				continue
			}
			if nodes[pv.Name] == nil {
				nodes[pv.Name] = map[string]bool{}
			}
			nodes[pv.Name][va.Spec.NodeName] = true
			if len(nodes[pv.Name]) > 1 {
				t.Fatalf("ReadWriteOnce volume %s attached to nodes %v at %s", pv.Name, nodes[pv.Name], m.now.Format(time.RFC3339))
			}
		}
	}
}

// TestPropertySingleAttach: over random clusters with ReadWriteOnce claims
// and random sequences of drains, lost and restored nodes, pod deletions,
// out-of-service taints and node deletions, with or without the kubelets
// reporting volumes in use and with provisioning and attaching delays, no
// ReadWriteOnce volume is
// ever attached to two nodes (issue 22's RWO property; the attach-detach
// controller's Multi-Attach rule).
func TestPropertySingleAttach(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genStorageCluster(t)
		cfg := Config{Storage: StorageConfig{ReportVolumesInUse: rapid.Bool().Draw(t, "report volumes in use"),
			ProvisionDelay: time.Duration(rapid.IntRange(0, 3).Draw(t, "provision delay")) * time.Second,
			AttachDelay:    time.Duration(rapid.IntRange(0, 3).Draw(t, "attach delay")) * time.Second}}
		m, _, err := newMachine(start, cfg)
		if err != nil {
			t.Fatal(err)
		}
		m.onDeliver = checkSingleAttach(t, m)
		if _, err := m.load(objs, start); err != nil {
			t.Fatal(err)
		}
		nodes := len(m.store.list("Node"))
		now := start
		steps := rapid.IntRange(0, 6).Draw(t, "actions")
		for i := 0; i < steps; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 400).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			var a Action
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0:
				a = Action{Kind: ActionDrain, Node: node, Drain: DrainOptions{}}
			case 1:
				a = Action{Kind: ActionLose, Node: node}
			case 2:
				a = Action{Kind: ActionRestore, Node: node}
			case 3:
				pods := m.store.pods()
				if len(pods) == 0 {
					continue
				}
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				a = Action{Kind: ActionDelete, Ref: ObjectRef{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}}
			case 4:
				a = Action{Kind: ActionTaint, Node: node, Taint: api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute}}
			case 5:
				a = Action{Kind: ActionDeleteNode, Node: node}
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(10*time.Minute))
	})
}
