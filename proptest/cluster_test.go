package proptest_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/proptest"
	"github.com/podsem/podsem/scheduling"
	"pgregory.net/rapid"
)

// checkCluster reports what is wrong with a generated cluster: duplicate
// or dangling names, pods the API server would refuse, bound pods their
// nodes cannot hold, statuses that disagree with placement, priorities,
// workload sizes and budget statuses other than the rules give.
func checkCluster(c *proptest.ClusterState) error {
	nodes := map[string]bool{}
	for _, n := range c.Nodes {
		if nodes[n.Name] {
			return fmt.Errorf("node %s twice", n.Name)
		}
		nodes[n.Name] = true
		if err := checkNode(n); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
	}
	pods := map[string]bool{}
	owned := map[string]int{}
	for _, p := range c.Pods {
		if pods[p.Key()] {
			return fmt.Errorf("pod %s twice", p.Key())
		}
		pods[p.Key()] = true
		if p.Spec.NodeName != "" && !nodes[p.Spec.NodeName] {
			return fmt.Errorf("pod %s bound to missing node %s", p.Key(), p.Spec.NodeName)
		}
		if errs := validateCreate(p); len(errs) > 0 {
			return fmt.Errorf("pod %s rejected on create: %v", p.Key(), errs)
		}
		switch ph := p.Status.Phase; {
		case p.Spec.NodeName == "" && ph != api.PodPending:
			return fmt.Errorf("unbound pod %s in phase %s", p.Key(), ph)
		case p.Spec.NodeName != "" && ph != api.PodRunning && ph != api.PodSucceeded:
			return fmt.Errorf("bound pod %s in phase %s", p.Key(), ph)
		}
		want, err := admission.ResolvePriority(&api.Pod{Spec: api.PodSpec{PriorityClassName: p.Spec.PriorityClassName}}, c.PriorityClasses)
		if err != nil || p.Spec.Priority == nil || *p.Spec.Priority != want.Value {
			return fmt.Errorf("pod %s priority %v, class %q resolves to %d (%v)", p.Key(), p.Spec.Priority, p.Spec.PriorityClassName, want.Value, err)
		}
		if ref := p.ControllerRef(); ref != nil {
			owned[ref.Kind+"/"+p.Namespace+"/"+ref.Name]++
		}
	}
	if err := proptest.CheckBoundPodsFit(c.Nodes, c.Pods); err != nil {
		return err
	}
	for _, rs := range c.ReplicaSets {
		if got := owned["ReplicaSet/"+rs.Namespace+"/"+rs.Name]; int32(got) != *rs.Spec.Replicas {
			return fmt.Errorf("replicaset %s/%s: %d replicas, owns %d pods", rs.Namespace, rs.Name, *rs.Spec.Replicas, got)
		}
	}
	for _, ss := range c.StatefulSets {
		if got := owned["StatefulSet/"+ss.Namespace+"/"+ss.Name]; int32(got) != *ss.Spec.Replicas {
			return fmt.Errorf("statefulset %s/%s: %d replicas, owns %d pods", ss.Namespace, ss.Name, *ss.Spec.Replicas, got)
		}
	}
	for _, b := range c.PDBs {
		want, _ := disruption.Evaluate(b, c.Pods, c.Controllers(), c.Now)
		if d := cmp.Diff(want, b.Status); d != "" {
			return fmt.Errorf("budget %s/%s status differs from the disruption controller's (-want +got):\n%s", b.Namespace, b.Name, d)
		}
	}
	return nil
}

func TestClustersConsistent(t *testing.T) {
	g := proptest.Cluster(proptest.ClusterOptions{})
	pending := proptest.Cluster(proptest.ClusterOptions{Nodes: 3, Pods: 12, Pending: 4})
	rapid.Check(t, func(t *rapid.T) {
		c := g.Draw(t, "cluster")
		if err := checkCluster(c); err != nil {
			t.Fatal(err)
		}
		c = pending.Draw(t, "with-pending")
		if err := checkCluster(c); err != nil {
			t.Fatal(err)
		}
		if len(c.Nodes) != 3 || len(c.Pods) != 12 || len(c.Pending()) < 4 {
			t.Fatalf("%d nodes, %d pods, %d pending", len(c.Nodes), len(c.Pods), len(c.Pending()))
		}
	})
}

// A cluster of a thousand pods is as consistent as small ones, and its
// snapshot accepts it.
func TestClusterAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100-node, 1,000-pod cluster")
	}
	c := proptest.Cluster(proptest.ClusterOptions{Nodes: 100, Pods: 1000}).Example(7)
	if err := checkCluster(c); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(scheduling.Config{}); err != nil {
		t.Fatal(err)
	}
	bound := len(c.Pods) - len(c.Pending())
	t.Logf("%d nodes, %d pods (%d bound), %d budgets, %d ReplicaSets, %d StatefulSets",
		len(c.Nodes), len(c.Pods), bound, len(c.PDBs), len(c.ReplicaSets), len(c.StatefulSets))
	if bound < len(c.Pods)*8/10 {
		t.Errorf("only %d of %d pods bound", bound, len(c.Pods))
	}
}

func TestClusterStateNil(t *testing.T) {
	var c *proptest.ClusterState
	if _, err := c.Snapshot(scheduling.Config{}); err == nil {
		t.Error("Snapshot of a nil state: no error")
	}
	if c.Pending() != nil || len(c.Controllers().ReplicaSets) != 0 {
		t.Error("a nil state has pending pods or controllers")
	}
}
