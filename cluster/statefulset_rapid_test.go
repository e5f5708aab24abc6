package cluster

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// genStatefulCluster draws 1–4 nodes and 1–2 StatefulSets of 0–4
// replicas, OrderedReady or Parallel, with a grace period of 5–60 s. Not
// 0: a pod with terminationGracePeriodSeconds 0 is removed from the API at
// once by a plain DELETE (the pod strategy's CheckGracefulDelete), even on
// a lost node whose containers still run, and the StatefulSet then
// creates its successor — upstream too, which is why the StatefulSet
// documentation calls a grace of 0 unsafe.
func genStatefulCluster(t *rapid.T) []api.Object {
	var objs []api.Object
	nodes := rapid.IntRange(1, 4).Draw(t, "nodes")
	for i := 0; i < nodes; i++ {
		alloc := api.ResourceList{"cpu": api.MustParseQuantity("4"), "memory": api.MustParseQuantity("8Gi"), "pods": api.MustParseQuantity("110")}
		objs = append(objs, &api.Node{
			TypeMeta:   api.TypeMeta{Kind: "Node", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%d", i+1), Labels: map[string]string{"kubernetes.io/hostname": fmt.Sprintf("node-%d", i+1)}},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}},
		})
	}
	sets := rapid.IntRange(1, 2).Draw(t, "statefulsets")
	for i := 0; i < sets; i++ {
		name := fmt.Sprintf("db%d", i)
		replicas := int32(rapid.IntRange(0, 4).Draw(t, "replicas"))
		policy := rapid.SampledFrom([]api.PodManagementPolicyType{api.OrderedReadyPodManagement, api.ParallelPodManagement}).Draw(t, "policy")
		grace := int64(rapid.SampledFrom([]int{5, 30, 60}).Draw(t, "grace"))
		objs = append(objs, &api.StatefulSet{
			TypeMeta:   api.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.StatefulSetSpec{Replicas: &replicas, ServiceName: name, PodManagementPolicy: policy,
				Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
					Spec: api.PodSpec{TerminationGracePeriodSeconds: &grace, Containers: []api.Container{{Name: "db", Image: "db:1",
						Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m")}}}}}}},
		})
	}
	return objs
}

// checkStatefulIdentity is the property "never two live pods of one
// StatefulSet identity" (issue 22; the StatefulSet's at-most-one
// guarantee): at every informer delivery, for each pod name a StatefulSet
// owns, the instances that may run — the API object unless it is
// Succeeded or Failed, and each kubelet's pod of that name whose
// containers have not all stopped, on a lost node too — are at most one
// pod (one uid).
func checkStatefulIdentity(t *rapid.T, m *Machine) func(w watchEvent) {
	return func(w watchEvent) {
		live := map[string]map[string]string{} // pod key -> uid -> where
		add := func(key, uid, where string) {
			if live[key] == nil {
				live[key] = map[string]string{}
			}
			live[key][uid] = where
		}
		for _, o := range m.store.list("Pod") {
			p := o.(*api.Pod)
			if r := p.ControllerRef(); r != nil && r.Kind == "StatefulSet" && !p.Status.Phase.IsTerminal() {
				add(p.Key(), p.UID, "API")
			}
		}
		for node, k := range m.kubelets {
			for key, r := range k.pods {
				if r.m.Terminal() {
					continue
				}
				if p := r.m.Pod(); p != nil {
					if ref := p.ControllerRef(); ref == nil || ref.Kind != "StatefulSet" {
						continue
					}
				}
				add(key, r.uid, "kubelet "+node)
			}
		}
		for key, uids := range live {
			if len(uids) > 1 {
				t.Fatalf("at %s (%s %s %s): two live pods of identity %s: %v", m.now.Format(time.RFC3339), w.Type, w.Kind, w.Key, key, uids)
			}
		}
	}
}

// TestPropertyStatefulSetIdentity: over random clusters and random
// sequences of scale, pod deletion, drain, lose and restore, cordon and
// uncordon, and template changes (rolling updates), no StatefulSet
// identity ever has two live pods.
func TestPropertyStatefulSetIdentity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genStatefulCluster(t)
		m, _, err := newMachine(start, Config{})
		if err != nil {
			t.Fatal(err)
		}
		m.onDeliver = checkStatefulIdentity(t, m)
		if _, err := m.load(objs, start); err != nil {
			t.Fatal(err)
		}
		now := start
		nodes := len(m.kubelets)
		steps := rapid.IntRange(0, 10).Draw(t, "actions")
		for i := 0; i < steps; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 90).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			node := fmt.Sprintf("node-%d", rapid.IntRange(1, nodes).Draw(t, "node"))
			var a Action
			switch rapid.IntRange(0, 7).Draw(t, "kind") {
			case 7:
				set, _ := m.store.get("StatefulSet", fmt.Sprintf("default/db%d", rapid.IntRange(0, 1).Draw(t, "set"))).(*api.StatefulSet)
				if set == nil {
					continue
				}
				n, err := clone(set)
				if err != nil {
					t.Fatal(err)
				}
				n.Spec.Template.Spec.Containers[0].Image = fmt.Sprintf("db:%d", rapid.IntRange(1, 3).Draw(t, "image"))
				a = Action{Kind: ActionApply, Object: n}
			case 0:
				a = Action{Kind: ActionScale, Ref: ObjectRef{Kind: "StatefulSet", Namespace: "default", Name: fmt.Sprintf("db%d", rapid.IntRange(0, 1).Draw(t, "set"))},
					Replicas: int32(rapid.IntRange(0, 5).Draw(t, "scale"))}
			case 1:
				pods := m.store.pods()
				if len(pods) == 0 {
					continue
				}
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				a = Action{Kind: ActionDelete, Ref: ObjectRef{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}}
			case 2:
				a = Action{Kind: ActionDrain, Node: node, Drain: DrainOptions{Timeout: time.Duration(rapid.IntRange(0, 120).Draw(t, "drain timeout")) * time.Second}}
			case 3:
				a = Action{Kind: ActionLose, Node: node}
			case 4:
				a = Action{Kind: ActionRestore, Node: node}
			case 5, 6:
				a = Action{Kind: ActionCordon, Node: node}
				if rapid.Bool().Draw(t, "uncordon") {
					a.Kind = ActionUncordon
				}
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(10*time.Minute))
	})
}
