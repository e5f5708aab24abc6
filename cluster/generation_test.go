package cluster_test

import (
	"testing"

	"github.com/podsem/podsem/api"
)

// TestBudgetGeneration: a PodDisruptionBudget's generation starts at 1
// and moves with each change of its spec (the PodDisruptionBudget
// strategy), not with an apply that changes nothing; the disruption
// controller's status observes the new generation.
func TestBudgetGeneration(t *testing.T) {
	pdb := func(min string) string {
		return `{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web", "namespace": "default"},
		  "spec": {"minAvailable": ` + min + `, "selector": {"matchLabels": {"app": "web"}}}}`
	}
	scenario := `{
	  "objects": [
	    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
	     "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"},
	       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}},
	    ` + pdb("2") + `
	  ],
	  "actions": [
	    {"at": "1s", "apply": ` + pdb("1") + `},
	    {"at": "2s", "apply": ` + pdb("1") + `},
	    {"at": "3s", "apply": ` + pdb(`"50%"`) + `}
	  ],
	  "until": "4s"
	}`
	b := finalObject[*api.PodDisruptionBudget](t, scenario)
	if b.Generation != 3 || b.Status.ObservedGeneration != 3 {
		t.Errorf("budget generation %d, observed %d; want 3 and 3 (created, then two spec changes)", b.Generation, b.Status.ObservedGeneration)
	}
}

// finalObject runs scenario, which must apply every action, and returns
// its one object of type T at the end.
func finalObject[T api.Object](t *testing.T, scenario string) T {
	t.Helper()
	res, failed := actionFailures(t, scenario)
	if len(failed) > 0 {
		t.Fatalf("ActionFailed: %v", failed)
	}
	for _, o := range res.Objects {
		if x, ok := o.(T); ok {
			return x
		}
	}
	var zero T
	t.Fatalf("no %T at the end", zero)
	return zero
}

// TestPodGeneration: a pod's generation moves with each change of its
// spec (the pod strategy's PrepareForUpdate: a toleration added), not
// with an apply that changes nothing.
func TestPodGeneration(t *testing.T) {
	pod := func(extra string) string {
		return `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "solo", "namespace": "default"},
		  "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": "nginx:1.27"}],
		    "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
		      {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}` + extra + `]}}`
	}
	added := `, {"key": "maintenance", "operator": "Exists", "effect": "NoSchedule"}`
	scenario := `{
	  "objects": [
	    {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
	     "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}, "capacity": {"cpu": "2", "memory": "4Gi", "pods": "110"},
	       "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]}}
	  ],
	  "actions": [
	    {"at": "0s", "apply": ` + pod("") + `},
	    {"at": "2s", "apply": ` + pod(added) + `},
	    {"at": "3s", "apply": ` + pod(added) + `}
	  ],
	  "until": "4s"
	}`
	if p := finalObject[*api.Pod](t, scenario); p.Generation != 2 {
		t.Errorf("pod generation %d, want 2 (created, then one spec change)", p.Generation)
	}
}
