package cluster

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// gcCluster is one node and a Deployment "web" of two replicas, settled.
func gcCluster(t *testing.T, start time.Time) *Machine {
	t.Helper()
	two := int32(2)
	alloc := api.ResourceList{"cpu": api.MustParseQuantity("4"), "memory": api.MustParseQuantity("8Gi"), "pods": api.MustParseQuantity("110")}
	objs := []api.Object{
		&api.Node{TypeMeta: api.TypeMeta{Kind: "Node", APIVersion: "v1"}, ObjectMeta: api.ObjectMeta{Name: "node-1"},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc, Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}},
		&api.Deployment{TypeMeta: api.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"}, ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &two, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.27"}}}}}},
	}
	m, _, err := New(objs, Config{}, start)
	if err != nil {
		t.Fatal(err)
	}
	for d := m.NextDeadline(); !d.IsZero() && d.Before(start.Add(5*time.Second)); d = m.NextDeadline() {
		if _, err := m.Step(Tick(), d); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// gcRun deletes Deployment/default/web with policy at now and runs the
// cluster for a minute, returning the records and the machine.
func gcRun(t *testing.T, policy string) (*Machine, []Record, time.Time) {
	t.Helper()
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	m := gcCluster(t, start)
	now := start.Add(10 * time.Second)
	if _, err := m.Step(Tick(), now); err != nil {
		t.Fatal(err)
	}
	if err := m.deleteWithOptions("Deployment", "default/web", &api.DeleteOptions{PropagationPolicy: &policy}, now); err != nil {
		t.Fatal(err)
	}
	out, err := m.Step(Tick(), now)
	if err != nil {
		t.Fatal(err)
	}
	recs := out.Records
	for d := m.NextDeadline(); !d.IsZero() && d.Before(now.Add(time.Minute)); d = m.NextDeadline() {
		o, err := m.Step(Tick(), d)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, o.Records...)
	}
	return m, recs, now
}

func kinds(m *Machine, kind string) []api.Object { return m.store.list(kind) }

// Foreground: the Deployment stays, marked, with foregroundDeletion; its
// ReplicaSet is deleted in the foreground too (it has pods), the pods in
// the background; the ReplicaSet goes once its pods are gone, then the
// Deployment.
func TestGarbageCollectorForeground(t *testing.T) {
	m, recs, _ := gcRun(t, api.DeletePropagationForeground)
	if n := len(kinds(m, "Deployment")) + len(kinds(m, "ReplicaSet")) + len(kinds(m, "Pod")); n != 0 {
		t.Fatalf("%d objects left", n)
	}
	var order []string
	for _, r := range recs {
		if r.Source == SourceWatch && (r.Type == string(watchDeleted) || r.Reason == "DeploymentModified" || r.Reason == "ReplicaSetModified") {
			order = append(order, r.Reason+" "+r.Object)
		}
	}
	// The pods leave before their ReplicaSet, which leaves before its
	// Deployment.
	last := func(prefix string) int {
		at := -1
		for i, s := range order {
			if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
				at = i
			}
		}
		return at
	}
	pod, rs, dep := last("PodDeleted"), last("ReplicaSetDeleted"), last("DeploymentDeleted")
	if pod < 0 || rs < 0 || dep < 0 || !(pod < rs && rs < dep) {
		t.Fatalf("deletion order %v", order)
	}
}

// Orphan: the Deployment goes once the collector has removed its
// ReplicaSet's owner reference; the ReplicaSet and its pods stay.
func TestGarbageCollectorOrphan(t *testing.T) {
	m, _, _ := gcRun(t, api.DeletePropagationOrphan)
	if n := len(kinds(m, "Deployment")); n != 0 {
		t.Fatalf("Deployment still there")
	}
	sets := kinds(m, "ReplicaSet")
	if len(sets) != 1 || len(sets[0].(*api.ReplicaSet).OwnerReferences) != 0 {
		t.Fatalf("ReplicaSets %v", sets)
	}
	pods := kinds(m, "Pod")
	if len(pods) != 2 {
		t.Fatalf("%d pods; want 2", len(pods))
	}
	for _, p := range pods {
		if p.(*api.Pod).DeletionTimestamp != nil || len(p.(*api.Pod).OwnerReferences) != 1 {
			t.Errorf("pod %s: %+v", p.(*api.Pod).Name, p.(*api.Pod).ObjectMeta)
		}
	}
}

// A Job deleted without a policy (a bare batch/v1 DELETE) orphans its pods,
// as the Job strategy's default keeps it.
func TestDeletePropagationDefaults(t *testing.T) {
	for _, c := range []struct {
		kind       string
		finalizers []string
		opts       *api.DeleteOptions
		want       string
	}{
		{"Job", nil, nil, api.DeletePropagationOrphan},
		{"Deployment", nil, nil, api.DeletePropagationBackground},
		{"ReplicaSet", []string{api.FinalizerDeleteDependents}, nil, api.DeletePropagationForeground},
		{"Job", nil, &api.DeleteOptions{OrphanDependents: new(bool)}, api.DeletePropagationBackground},
	} {
		if got := deletePropagation(c.kind, c.finalizers, c.opts); got != c.want {
			t.Errorf("%s %v: got %s, want %s", c.kind, c.finalizers, got, c.want)
		}
	}
}

// TestGarbageCollectorAbsentOwner: objects written with references to
// owners that do not exist. A pod whose only owner is absent (no such
// ConfigMap; a ReplicaSet of that name but another uid) is deleted; one
// that keeps a live owner loses the absent reference; one whose owner's
// kind the API server does not serve is left alone, as upstream's
// collector cannot map it.
func TestGarbageCollectorAbsentOwner(t *testing.T) {
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	m := gcCluster(t, start)
	rs := kinds(m, "ReplicaSet")[0].(*api.ReplicaSet)
	live := api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID}
	absentCM := api.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "gone", UID: "uid-gone"}
	wrongUID := api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: "uid-other"}
	unserved := api.OwnerReference{APIVersion: "example.com/v1", Kind: "Widget", Name: "w", UID: "uid-w"}
	pod := func(name string, refs ...api.OwnerReference) *api.Pod {
		return &api.Pod{TypeMeta: api.TypeMeta{Kind: "Pod", APIVersion: "v1"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", OwnerReferences: refs},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
	}
	now := start.Add(10 * time.Second)
	var actions []Action
	for _, p := range []*api.Pod{pod("dangling", absentCM), pod("wrong-uid", wrongUID), pod("kept", live, absentCM), pod("unmapped", unserved)} {
		actions = append(actions, Action{Kind: ActionApply, Object: p})
	}
	if _, err := m.Step(DoAll(actions...), now); err != nil {
		t.Fatal(err)
	}
	for d := m.NextDeadline(); !d.IsZero() && d.Before(now.Add(time.Minute)); d = m.NextDeadline() {
		if _, err := m.Step(Tick(), d); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]*api.Pod{}
	for _, o := range kinds(m, "Pod") {
		got[o.(*api.Pod).Name] = o.(*api.Pod)
	}
	for _, name := range []string{"dangling", "wrong-uid"} {
		if got[name] != nil {
			t.Errorf("%s: not collected (owners %v)", name, got[name].OwnerReferences)
		}
	}
	if p := got["kept"]; p == nil || len(p.OwnerReferences) != 1 || p.OwnerReferences[0].UID != rs.UID {
		t.Errorf("kept: %v, want it kept with its live owner alone", p)
	}
	if p := got["unmapped"]; p == nil || len(p.OwnerReferences) != 1 {
		t.Errorf("unmapped: %v, want it left as it is", p)
	}
}
