package scheduling

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// oneNodeLoop is a loop over one node, node-1, with cpu CPUs, 2Gi of
// memory, room for 10 pods and labels, started at now.
func oneNodeLoop(t *testing.T, cpu string, labels map[string]string, now time.Time) *Loop {
	t.Helper()
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: labels},
		Status: api.NodeStatus{Allocatable: api.ResourceList{"cpu": api.MustParseQuantity(cpu), "memory": api.MustParseQuantity("2Gi"), "pods": api.MustParseQuantity("10")}}}
	c, err := NewCluster([]*api.Node{node}, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLoop(c, LoopConfig{}, now)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPreBindVolumes: a pod with two unbound WaitForFirstConsumer claims —
// one an available static volume matches on the chosen node, one none
// does — is bound with VolumeBinding's PreBind: the first claim's volume
// to pre-bind, the second claim to annotate with the selected node, both
// to wait for; a pod whose claims are bound has nothing to do.
func TestPreBindVolumes(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := oneNodeLoop(t, "2", map[string]string{api.LabelTopologyZone: "a"}, now)
	mode := api.VolumeBindingWaitForFirstConsumer
	class := "wffc"
	claim := func(name, size string) *api.PersistentVolumeClaim {
		return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
			Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(size)}}},
			Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}}
	}
	objs := []api.Object{
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: class}, Provisioner: "csi.example.com", VolumeBindingMode: &mode},
		&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "local-1"}, Spec: api.PersistentVolumeSpec{StorageClassName: class,
			Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("5Gi")}, AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce}},
			Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}},
		claim("small", "1Gi"), claim("huge", "100Gi"),
	}
	for _, o := range objs {
		if _, err := l.Step(ObjectSet(o), now); err != nil {
			t.Fatal(err)
		}
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default", UID: "uid-db"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "c"}},
		Volumes: []api.Volume{
			{Name: "a", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "small"}}},
			{Name: "b", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "huge"}}}}}}
	if _, err := l.Step(PodAdded(pod), now); err != nil {
		t.Fatal(err)
	}
	res, err := l.Step(Tick(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Actions) != 1 || res.Actions[0].Kind != ActionBind {
		t.Fatalf("actions %v, want one bind", res.Actions)
	}
	v := res.Actions[0].Volumes
	if v == nil || len(v.Bind) != 1 || v.Bind[0].Volume.Name != "local-1" || v.Bind[0].Claim.Name != "small" ||
		len(v.Provision) != 1 || v.Provision[0].Name != "huge" || len(v.Claims) != 2 {
		t.Fatalf("PreBind %+v", v)
	}

	// A pod without claims binds with nothing to wait for.
	plain := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}
	if _, err := l.Step(PodAdded(plain), now); err != nil {
		t.Fatal(err)
	}
	res, err = l.Step(Tick(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Actions) != 1 || res.Actions[0].Volumes != nil {
		t.Fatalf("actions %v, want a bind without volumes", res.Actions)
	}
}

// TestBindFailed: a pod whose binding waits in PreBind has left the
// queue, as upstream's binding cycle calls Done before PreBind; when the
// binding fails (VolumeBinding's timeout), the assumed pod is
// forgotten (its node is free again), the failure is a SchedulerError
// FailedScheduling with the PreBind message, and the pod backs off one
// second before it is tried again. A binding confirmed by the informer
// ends the wait; a failure reported after that, or for a pod that never
// waited, changes nothing.
func TestBindFailed(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := oneNodeLoop(t, "1", nil, now)
	mode := api.VolumeBindingWaitForFirstConsumer
	class := "broken"
	step := func(in Input, at time.Time) StepResult {
		t.Helper()
		res, err := l.Step(in, at)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	step(ObjectSet(&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: class}, Provisioner: "broken.example.com", VolumeBindingMode: &mode}), now)
	step(ObjectSet(&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default", UID: "uid-data"},
		Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}},
		Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}}), now)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "app", Namespace: "default", UID: "uid-app"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("800m")}}}},
		Volumes:    []api.Volume{{Name: "d", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}}}
	step(PodAdded(pod), now)
	res := step(Tick(), now)
	if len(res.Actions) != 1 || res.Actions[0].Kind != ActionBind || len(res.Actions[0].Volumes.Claims) != 1 {
		t.Fatalf("actions %v, want a bind waiting for the claim", res.Actions)
	}
	if e, ok := l.Queue().Entry("default/app"); ok {
		t.Fatalf("waiting pod in the queue: %+v, want out (Done before PreBind)", e)
	}
	// While the binding waits, the assumed pod holds its CPU: a second
	// pod does not fit.
	other := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "other", Namespace: "default", UID: "uid-other"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("500m")}}}}}}
	step(PodAdded(other), now)
	if res := step(Tick(), now); res.Pod == nil || res.Pod.Name != "other" || res.Node != "" {
		t.Fatalf("other pod: %+v, want unschedulable", res)
	}

	failedAt := now.Add(600 * time.Second)
	msg := `running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded`
	res = step(BindFailed(pod, msg), failedAt)
	if len(res.Actions) != 1 {
		t.Fatalf("actions %v, want one FailedScheduling", res.Actions)
	}
	a := res.Actions[0]
	if a.Kind != ActionFailedScheduling || a.Condition == nil || a.Condition.Reason != api.PodReasonSchedulerError ||
		a.Condition.Message != msg || a.Event == nil || a.Event.Note != msg || a.Event.Reason != "FailedScheduling" {
		t.Fatalf("failure %+v", a)
	}
	e, ok := l.Queue().Entry("default/app")
	if !ok || e.Place != QueueBackoff || !e.BackoffUntil.Equal(failedAt.Add(time.Second)) || e.Attempts != 1 || e.ConsecutiveErrors != 1 {
		t.Fatalf("after the failure %+v %v, want backing off 1 s, its first attempt and error counted", e, ok)
	}
	// The forgotten pod freed its node: the other pod (moved out of the
	// unschedulable pool by the assigned pod's deletion) now fits, and
	// the failed pod comes back after its backoff.
	var bound []string
	for at := failedAt; at.Before(failedAt.Add(5 * time.Second)); at = at.Add(time.Second) {
		for d := l.NextDeadline(); !d.IsZero() && !d.After(at); d = l.NextDeadline() {
			if res := step(Tick(), d); res.Node != "" {
				bound = append(bound, res.Pod.Name)
			}
		}
	}
	if len(bound) != 1 || bound[0] != "other" {
		t.Fatalf("bound %v, want other (app no longer fits once other holds the CPU)", bound)
	}

	// A failure for a pod whose binding is not waiting is ignored.
	if res := step(BindFailed(other, msg), failedAt.Add(10*time.Second)); len(res.Actions) != 0 {
		t.Fatalf("failure of a pod not waiting: %v", res.Actions)
	}

	// Once the other pod is gone, app is bound again and waits; the
	// informer's update with its node confirms the binding: the pod
	// leaves the queue, and a late failure report changes nothing.
	later := failedAt.Add(time.Minute)
	step(PodDeleted("default", "other"), later)
	var waiting *api.Pod
	for d := l.NextDeadline(); !d.IsZero() && waiting == nil; d = l.NextDeadline() {
		if res := step(Tick(), d); res.Node != "" {
			waiting = res.Bound
		}
	}
	if waiting == nil || waiting.Name != "app" {
		t.Fatalf("bound again: %v", waiting)
	}
	step(PodUpdated(waiting), later.Add(time.Minute))
	if _, ok := l.Queue().Entry("default/app"); ok {
		t.Fatal("a confirmed binding left the pod in the queue")
	}
	if res := step(BindFailed(pod, msg), later.Add(2*time.Minute)); len(res.Actions) != 0 {
		t.Fatalf("failure after the confirmation: %v", res.Actions)
	}
}
