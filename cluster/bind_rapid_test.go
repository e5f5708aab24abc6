package cluster

import (
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// genCluster draws 1–4 nodes of various sizes and 1–3 Deployments of 0–6
// replicas with various requests.
func genCluster(t *rapid.T) []api.Object {
	var objs []api.Object
	nodes := rapid.IntRange(1, 4).Draw(t, "nodes")
	for i := 0; i < nodes; i++ {
		cpu := rapid.SampledFrom([]string{"1", "2", "4"}).Draw(t, "cpu")
		mem := rapid.SampledFrom([]string{"1Gi", "2Gi", "4Gi"}).Draw(t, "memory")
		pods := rapid.SampledFrom([]string{"3", "110"}).Draw(t, "pods")
		alloc := api.ResourceList{"cpu": api.MustParseQuantity(cpu), "memory": api.MustParseQuantity(mem), "pods": api.MustParseQuantity(pods)}
		objs = append(objs, &api.Node{
			TypeMeta:   api.TypeMeta{Kind: "Node", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%d", i+1), Labels: map[string]string{"kubernetes.io/hostname": fmt.Sprintf("node-%d", i+1)}},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc,
				Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}},
		})
	}
	deps := rapid.IntRange(1, 3).Draw(t, "deployments")
	for i := 0; i < deps; i++ {
		name := fmt.Sprintf("app%d", i)
		replicas := int32(rapid.IntRange(0, 6).Draw(t, "replicas"))
		cpu := rapid.SampledFrom([]string{"100m", "500m", "1", "1500m"}).Draw(t, "request cpu")
		mem := rapid.SampledFrom([]string{"64Mi", "512Mi", "1Gi"}).Draw(t, "request memory")
		objs = append(objs, &api.Deployment{
			TypeMeta:   api.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &replicas,
				Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "app:1",
						Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity(cpu), "memory": api.MustParseQuantity(mem)}}}}}}},
		})
	}
	return objs
}

// checkFits is the property "no pod is bound to a node it does not fit at
// bind time": when a pod's binding reaches the informers, the requests of
// the node's pods that are not terminal (terminating ones included: they
// hold their resources until they are gone) stay within its allocatable
// cpu, memory and pod count.
func checkFits(t *rapid.T, m *Machine) func(w watchEvent) {
	return func(w watchEvent) {
		p, ok := w.Object.(*api.Pod)
		if !ok || w.Type != watchModified || p.Spec.NodeName == "" || nodeOf(w.Old) != "" {
			return
		}
		node, _ := m.cache.get("Node", p.Spec.NodeName).(*api.Node)
		if node == nil {
			t.Fatalf("%s bound to node %s, which does not exist", p.Key(), p.Spec.NodeName)
		}
		var cpu, mem int64
		var count int64
		for _, o := range m.cache.list("Pod") {
			q := o.(*api.Pod)
			if q.Spec.NodeName != node.Name || q.Status.Phase.IsTerminal() {
				continue
			}
			r := api.PodRequests(q, api.PodResourcesOptions{})
			cpu += r.Cpu().MilliValue()
			mem += r.Memory().Value()
			count++
		}
		a := node.Status.Allocatable
		pods, _ := a.Get("pods")
		if cpu > a.Cpu().MilliValue() || mem > a.Memory().Value() || count > pods.Value() {
			t.Fatalf("%s bound to %s: its pods request cpu %dm, memory %d, %d pods; allocatable %v", p.Key(), node.Name, cpu, mem, count, a)
		}
	}
}

// TestPropertyBindFits: over random clusters and random sequences of
// scale, delete, cordon and uncordon actions, no pod is bound to a node it
// does not fit at bind time (issue 22's property; the scheduler's
// assumed binding and the API server's state must agree).
func TestPropertyBindFits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		objs := genCluster(t)
		m, _, err := newWithHook(objs, start, t)
		if err != nil {
			t.Fatal(err)
		}
		now := start
		steps := rapid.IntRange(0, 8).Draw(t, "actions")
		for i := 0; i < steps; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 40).Draw(t, "gap seconds")) * time.Second)
			stepBefore(t, m, now)
			var a Action
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 0:
				a = Action{Kind: ActionScale, Ref: ObjectRef{Kind: "Deployment", Namespace: "default", Name: fmt.Sprintf("app%d", rapid.IntRange(0, 2).Draw(t, "deployment"))},
					Replicas: int32(rapid.IntRange(0, 8).Draw(t, "scale"))}
			case 1:
				pods := m.store.pods()
				if len(pods) == 0 {
					continue
				}
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				a = Action{Kind: ActionDelete, Ref: ObjectRef{Kind: "Pod", Namespace: p.Namespace, Name: p.Name}}
			case 2, 3:
				a = Action{Kind: ActionCordon, Node: fmt.Sprintf("node-%d", rapid.IntRange(1, 4).Draw(t, "node"))}
				if rapid.Bool().Draw(t, "uncordon") {
					a.Kind = ActionUncordon
				}
			}
			if _, err := m.Step(Do(a), now); err != nil {
				t.Fatal(err)
			}
		}
		stepBefore(t, m, now.Add(5*time.Minute))
	})
}

// newWithHook is New with the bind check installed before the objects
// are created.
func newWithHook(objs []api.Object, start time.Time, t *rapid.T) (*Machine, Output, error) {
	m, out, err := newMachine(start, Config{})
	if err != nil {
		return nil, out, err
	}
	m.onDeliver = checkFits(t, m)
	out, err = m.load(objs, start)
	return m, out, err
}
