package cluster

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// boundUser returns a pod the store holds, bound to a node, with a
// persistentVolumeClaim volume naming the claim ns/name; nil when none.
func boundUser(m *Machine, ns, name string) *api.Pod {
	for _, p := range m.store.pods() {
		if p.Namespace != ns || p.Spec.NodeName == "" {
			continue
		}
		if slices.ContainsFunc(p.Spec.Volumes, func(v api.Volume) bool {
			return v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == name
		}) {
			return p
		}
	}
	return nil
}

// TestPropertyStorageProtection: over random storage clusters and random
// deletions of claims, pods and nodes, lost nodes and drains,
// a claim never leaves the API server while a pod bound to a node that
// mounts it is stored, and a PersistentVolume never leaves it while
// Bound; once the cluster has settled, every claim still being deleted
// has such a pod and every volume still being deleted is Bound (the
// protection controllers do not forget one). Every claim and volume
// created carries its protection finalizer.
func TestPropertyStorageProtection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genStorageCluster(t)
		m, _, err := newMachine(start, Config{})
		if err != nil {
			t.Fatal(err)
		}
		m.onDeliver = func(w watchEvent) {
			switch o := w.Object.(type) {
			case *api.PersistentVolumeClaim:
				if w.Type == watchAdded && !slices.Contains(o.Finalizers, api.FinalizerPVCProtection) {
					t.Fatalf("claim %s created without %s", w.Key, api.FinalizerPVCProtection)
				}
				if w.Type == watchDeleted {
					if p := boundUser(m, o.Namespace, o.Name); p != nil {
						t.Fatalf("claim %s removed at %s while pod %s on %s mounts it", w.Key, m.now.Format(time.RFC3339), p.Name, p.Spec.NodeName)
					}
				}
			case *api.PersistentVolume:
				if w.Type == watchAdded && !slices.Contains(o.Finalizers, api.FinalizerPVProtection) {
					t.Fatalf("volume %s created without %s", w.Key, api.FinalizerPVProtection)
				}
				if w.Type == watchDeleted && o.Status.Phase == api.VolumeBound {
					t.Fatalf("volume %s removed while Bound", w.Key)
				}
			}
		}
		if _, err := m.load(objs, start); err != nil {
			t.Fatal(err)
		}
		nodes := len(m.store.list("Node"))
		now := start
		steps := rapid.IntRange(1, 6).Draw(t, "actions")
		for i := 0; i < steps; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			var a Action
			pick := func(kind string) (ObjectRef, bool) {
				list := m.store.list(kind)
				if len(list) == 0 {
					return ObjectRef{}, false
				}
				_, meta := objectMeta(list[rapid.IntRange(0, len(list)-1).Draw(t, kind)])
				return ObjectRef{Kind: kind, Namespace: meta.Namespace, Name: meta.Name}, true
			}
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0, 1:
				ref, ok := pick("PersistentVolumeClaim")
				if !ok {
					continue
				}
				a = Action{Kind: ActionDelete, Ref: ref}
			case 2:
				ref, ok := pick("Pod")
				if !ok {
					continue
				}
				a = Action{Kind: ActionDelete, Ref: ref}
			case 3:
				a = Action{Kind: ActionDrain, Node: node}
			case 4:
				a = Action{Kind: ActionLose, Node: node}
			case 5:
				a = Action{Kind: ActionDeleteNode, Node: node}
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(10*time.Minute))
		for _, o := range m.store.list("PersistentVolumeClaim") {
			c := o.(*api.PersistentVolumeClaim)
			if c.DeletionTimestamp != nil && boundUser(m, c.Namespace, c.Name) == nil {
				t.Fatalf("claim %s/%s still terminating with no pod mounting it", c.Namespace, c.Name)
			}
		}
		for _, o := range m.store.list("PersistentVolume") {
			v := o.(*api.PersistentVolume)
			if v.DeletionTimestamp != nil && v.Status.Phase != api.VolumeBound {
				t.Fatalf("volume %s still terminating in phase %s", v.Name, v.Status.Phase)
			}
		}
	})
}
