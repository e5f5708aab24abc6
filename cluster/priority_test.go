package cluster

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// The goldens of this file's part (testdata/<name>.json, run by TestGolden):
//
// priority-classes: the built-in classes exist from the API server's start:
// proxy names system-node-critical and is admitted; the scenario lists
// system-cluster-critical too, and the server's is kept (the harness's
// AlreadyExists). At 10 s coredns (system-cluster-critical, 1 CPU) does not
// fit beside batch-1 (class batch, 100) and proxy on the 2-CPU node: the
// scheduler preempts batch-1 and binds coredns once it is gone. At 20 s a
// class named system-custom is refused by validation (the system- prefix is
// reserved), at 30 s a pod naming a class that does not exist by Priority
// admission.

// TestSystemPriorityClasses checks that a new cluster holds the two
// built-in classes with upstream's values, and that a pod may name them.
func TestSystemPriorityClasses(t *testing.T) {
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "kube-system"},
		Spec: api.PodSpec{PriorityClassName: api.SystemNodeCritical, Containers: []api.Container{{Name: "c", Image: "x"}}}}
	m, _, err := New([]api.Object{pod}, Config{}, start)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int32{api.SystemNodeCritical: 2000001000, api.SystemClusterCritical: 2000000000}
	for name, v := range want {
		x, _ := m.store.get("PriorityClass", name).(*api.PriorityClass)
		if x == nil || x.Value != v || x.PreemptionPolicy == nil || *x.PreemptionPolicy != api.PreemptLowerPriority {
			t.Errorf("PriorityClass %s = %+v, want value %d, PreemptLowerPriority", name, x, v)
		}
	}
	for _, o := range m.Objects() {
		switch x := o.(type) {
		case *api.PriorityClass:
			t.Errorf("Objects lists the built-in class %s", x.Name)
		case *api.Pod:
			if x.Spec.Priority == nil || *x.Spec.Priority != 2000001000 {
				t.Errorf("pod priority = %v, want 2000001000", x.Spec.Priority)
			}
			if x.UID != "00000001-0000-4000-8000-000000000001" {
				t.Errorf("pod uid %s: the built-in classes took the scenario's first uid", x.UID)
			}
		}
	}
}
