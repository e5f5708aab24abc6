package namespace_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

// TestSyncPodsFirst: the pods are deleted first; while one is left the
// rest waits, the estimate is the longest grace period of the running
// pods, and the condition names what is left; once they are gone the
// rest is deleted and the namespace finalized.
func TestSyncPodsFirst(t *testing.T) {
	f := &fakeAPI{pods: []*api.Pod{runningPod("web-1", 30), runningPod("web-2", 60)},
		others: []namespace.Object{{Group: "apps", Version: "v1", Resource: "deployments"}}}
	ns := deleting()
	r, err := namespace.Sync(ns, f, t0.Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.calls, []string{"DeletePods team"}) {
		t.Errorf("calls %v, want the pods only", f.calls)
	}
	if r.Estimate != 60 || r.RequeueAfter() != 31*time.Second || r.Finalize || r.Err != nil {
		t.Errorf("got %+v, want estimate 60 (requeue 31 s), no finalize", r)
	}
	c := condition(r.Status, namespace.ConditionContentRemaining)
	if c.Status != api.ConditionTrue || c.Message != "Some resources are remaining: pods. has 2 resource instances" {
		t.Errorf("content condition %+v", c)
	}
	if !r.StatusChanged || len(r.Status.Conditions) != 5 {
		t.Errorf("want the five conditions written, got %+v", r.Status.Conditions)
	}

	// The pods finish; the next pass deletes the Deployment and finalizes.
	f.gone("web-1")
	f.gone("web-2")
	ns.Status = r.Status
	r, err = namespace.Sync(ns, f, t0.Add(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Finalize || r.Estimate != 0 || r.Err != nil || len(f.others) != 0 {
		t.Errorf("got %+v with %v left, want it finalized and empty", r, f.others)
	}
	c = condition(r.Status, namespace.ConditionContentRemaining)
	if c.Status != api.ConditionFalse || c.Reason != "ContentRemoved" || !c.LastTransitionTime.Time.Equal(t0.Add(10*time.Second)) {
		t.Errorf("content condition %+v, want False ContentRemoved moved at 10 s", c)
	}
}

// TestSyncFinalizersAndFailures: objects left with finalizers get 15 s;
// pods left past their grace period with nothing to wait for are a
// failed pass; a finished pod does not count in the estimate.
func TestSyncFinalizersAndFailures(t *testing.T) {
	f := &fakeAPI{others: []namespace.Object{{Version: "v1", Resource: "persistentvolumeclaims", Finalizers: []string{"kubernetes.io/pvc-protection"}}}}
	r, err := namespace.Sync(deleting(), f, t0.Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if r.Estimate != namespace.FinalizerEstimateSeconds || r.RequeueAfter() != 8*time.Second || r.Finalize {
		t.Errorf("got %+v, want the finalizer estimate", r)
	}
	if c := condition(r.Status, namespace.ConditionFinalizersRemain); c.Message != "Some finalizers are remaining: kubernetes.io/pvc-protection in 1 resource instances" {
		t.Errorf("finalizers condition %+v", c)
	}

	f = &fakeAPI{pods: []*api.Pod{runningPod("stuck", 30)}}
	r, _ = namespace.Sync(deleting(), f, t0.Add(40*time.Second))
	if r.Err == nil || !strings.Contains(r.Err.Error(), "unexpected items still remain in namespace: team for gvr: /v1, Resource=pods") {
		t.Errorf("got %+v, want a failed pass past the grace period", r)
	}
	if c := condition(r.Status, namespace.ConditionContentFailure); c.Status != api.ConditionTrue || c.Reason != "ContentDeletionFailed" {
		t.Errorf("failure condition %+v", c)
	}

	done := runningPod("done", 600)
	done.Status.Phase = api.PodSucceeded
	done.Finalizers = []string{"example.com/keep"}
	f = &fakeAPI{pods: []*api.Pod{done}}
	r, _ = namespace.Sync(deleting(), f, t0.Add(5*time.Second))
	if r.Estimate != namespace.FinalizerEstimateSeconds || r.Err != nil {
		t.Errorf("got %+v, want the finished pod waited for by its finalizer only", r)
	}

	f = &fakeAPI{pods: []*api.Pod{runningPod("web", 30)}, fail: errors.New("etcd down")}
	r, _ = namespace.Sync(deleting(), f, t0.Add(5*time.Second))
	if r.Err == nil || !strings.Contains(r.Err.Error(), "etcd down") {
		t.Errorf("got %+v, want the client's error", r)
	}
}

// TestSyncNotDeleting: a namespace not being deleted, or one already
// finalized, is left alone; one deleted but still Active is moved to
// Terminating.
func TestSyncNotDeleting(t *testing.T) {
	f := &fakeAPI{pods: []*api.Pod{runningPod("web", 30)}}
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}}
	namespace.PrepareForCreate(ns)
	if r, _ := namespace.Sync(ns, f, t0); r.StatusChanged || r.Finalize || len(f.calls) > 0 {
		t.Errorf("an active namespace: %+v, calls %v", r, f.calls)
	}
	ns.DeletionTimestamp = api.NewTimePtr(t0)
	ns.Spec.Finalizers = nil
	if r, _ := namespace.Sync(ns, f, t0); !r.StatusChanged || r.Status.Phase != api.NamespaceTerminating || len(f.calls) > 0 {
		t.Errorf("finalized: %+v, calls %v", r, f.calls)
	}
}

func TestPrepareAndAdmit(t *testing.T) {
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team", Labels: map[string]string{"a": "b"}}, Spec: api.NamespaceSpec{Finalizers: []string{"example.com/x"}}}
	namespace.PrepareForCreate(ns)
	if ns.Status.Phase != api.NamespaceActive || !slices.Equal(ns.Spec.Finalizers, []string{"example.com/x", "kubernetes"}) || ns.Labels[api.LabelMetadataName] != "team" || ns.Labels["a"] != "b" {
		t.Errorf("created: %+v", ns)
	}
	if err := namespace.Admit(ns, "pods", "web-"); err != nil {
		t.Errorf("active namespace refused a create: %v", err)
	}
	upd := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}, Status: api.NamespaceStatus{Phase: api.NamespaceTerminating}}
	namespace.PrepareForUpdate(upd, ns)
	if upd.Status.Phase != api.NamespaceActive || len(upd.Spec.Finalizers) != 2 || upd.Labels[api.LabelMetadataName] != "team" {
		t.Errorf("an update changed status or finalizers: %+v", upd)
	}
	ns.Status.Phase = api.NamespaceTerminating
	err := namespace.Admit(ns, "pods", "web-")
	if !errors.Is(err, namespace.ErrTerminating) || err.Error() != `pods "web-" is forbidden: unable to create new content in namespace team because it is being terminated` {
		t.Errorf("got %v", err)
	}
	if !namespace.Immortal("kube-system") || namespace.Immortal("team") {
		t.Error("immortal namespaces")
	}
	if got := namespace.ErrImmortal("default").Error(); got != `namespaces "default" is forbidden: this namespace may not be deleted` {
		t.Errorf("got %q", got)
	}
}
