package cluster_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// apply-ownership: web is applied at 1 s (2 replicas, labels app and
// tier), scaled to 4 at 10 s, and applied again at 20 s without replicas
// and the tier label. Server-side apply removes what kubectl applied
// before and not now (the tier label) but keeps spec.replicas, which the
// scale took over, and the revision annotation the Deployment controller
// wrote: web keeps its 4 pods. (Without field ownership, replicas would
// fall back to its default, 1.)
func TestApplyOwnership(t *testing.T) {
	var dep *api.Deployment
	pods := 0
	for _, o := range runObjects(t, "apply-ownership") {
		switch x := o.(type) {
		case *api.Deployment:
			dep = x
		case *api.Pod:
			if x.DeletionTimestamp == nil && x.Status.Phase == api.PodRunning {
				pods++
			}
		}
	}
	if dep == nil {
		t.Fatal("no Deployment")
	}
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 4 {
		t.Errorf("replicas %v, want the scaled 4", dep.Spec.Replicas)
	}
	if _, ok := dep.Labels["tier"]; ok || dep.Labels["app"] != "web" {
		t.Errorf("labels %v, want app alone", dep.Labels)
	}
	if c := dep.Spec.Template.Spec.Containers[0]; len(c.Env) != 1 || c.Image != "nginx:1.27" {
		t.Errorf("container %+v, want nginx:1.27 with its env", c)
	}
	if dep.Annotations["deployment.kubernetes.io/revision"] != "1" {
		t.Errorf("annotations %v: the controller's revision lost", dep.Annotations)
	}
	if pods != 4 {
		t.Errorf("%d running pods, want 4", pods)
	}
}

// A Node applied again keeps the status its kubelet posts (status is not
// applied through the main resource) and the taints the scenario applies.
func TestApplyNodeKeepsStatus(t *testing.T) {
	node := cluster.ReadyNode("node-1")
	again := node.DeepCopy()
	again.Labels = map[string]string{"disk": "ssd"}
	again.Status = api.NodeStatus{}
	sc := cluster.Scenario{Objects: []api.Object{node}, Until: time.Minute,
		Actions: []cluster.Action{{At: 10 * time.Second, Kind: cluster.ActionApply, Object: again}}}
	res, err := cluster.Run(&sc, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Objects {
		if n, ok := o.(*api.Node); ok {
			if n.Labels["disk"] != "ssd" || len(n.Status.Allocatable) == 0 || n.FindCondition(api.NodeReady) == nil {
				t.Errorf("node %v, status %+v", n.Labels, n.Status)
			}
		}
	}
}

// An object handed to the package API without apiVersion and kind (a Go
// value, not a manifest) is applied as well: its second version's
// template reaches the stored Deployment.
func TestApplyTypedObject(t *testing.T) {
	v1, v2 := rolloutDeployment("1"), rolloutDeployment("2")
	two := int32(2)
	v1.Spec.Replicas, v2.Spec.Replicas = &two, &two
	m, _, err := cluster.New([]api.Object{v1}, cluster.Config{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Step(cluster.Do(cluster.Action{Kind: cluster.ActionApply, Object: v2}), t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Records {
		if r.Reason == "ActionFailed" {
			t.Fatal(r.Message)
		}
	}
	for _, o := range m.Objects() {
		if d, ok := o.(*api.Deployment); ok && d.Spec.Template.Spec.Containers[0].Image != "app:2" {
			t.Errorf("image %s, want app:2", d.Spec.Template.Spec.Containers[0].Image)
		}
	}
}

// A Deployment deleted while its rollout is in progress leaves no
// deadline behind: its progress-deadline check (600 s on) is forgotten
// with it, and the run goes on past it.
func TestDeletedDeploymentForgotten(t *testing.T) {
	d := rolloutDeployment("1")
	three := int32(3)
	d.Spec.Replicas = &three
	node := &api.Node{}
	node.Name = "node-1"
	node.Status.Allocatable = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("2"), api.ResourcePods: api.MustParseQuantity("110")}
	node.Status.Capacity = node.Status.Allocatable
	node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady"}}
	d2 := rolloutDeployment("2")
	d2.Spec.Replicas = &three
	sc := cluster.Scenario{Objects: []api.Object{node, d}, Until: 15 * time.Minute, Actions: []cluster.Action{
		{At: 10 * time.Second, Kind: cluster.ActionApply, Object: d2},
		{At: 10*time.Second + 500*time.Millisecond, Kind: cluster.ActionDelete, Ref: cluster.ObjectRef{Kind: "Deployment", Namespace: "bench-rollout", Name: "rollout"}},
	}}
	if _, err := cluster.Run(&sc, t0); err != nil {
		t.Fatal(err)
	}
}

// cascade-loop: edge's pods tolerate node.kubernetes.io/unreachable
// (NoSchedule, and NoExecute for 0 s) and must sit on different nodes.
// node-2 is lost at 5 s and restored at 90 s: its old pod is gone at
// once, and until the node lifecycle controller's next pass lifts the
// unreachable:NoExecute taint, every replacement is bound to node-2 and
// evicted at once. The cascade does not come to rest at 90 s: it is
// slowed (CascadeSlowed), runs one round per reaction latency until the
// taint goes (CascadeSettled), and the last replacement runs on node-2.
func TestCascadeLoop(t *testing.T) {
	_, res := runScenario(t, filepath.Join("testdata", "cascade-loop.json"))
	var slowed, settled float64
	for _, r := range res.Records {
		switch r.Reason {
		case "CascadeSlowed":
			slowed = r.Offset
		case "CascadeSettled":
			settled = r.Offset
		}
	}
	if slowed != 90 || settled <= 90 || settled > 96 {
		t.Errorf("slowed at %v, settled at %v: want 90 and before the next monitor passes lift the taint", slowed, settled)
	}
	running := map[string]int{}
	for _, o := range res.Objects {
		if p, ok := o.(*api.Pod); ok && p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning {
			running[p.Spec.NodeName]++
		}
	}
	if running["node-1"] != 1 || running["node-2"] != 1 {
		t.Errorf("running pods by node %v, want one on each", running)
	}
}
