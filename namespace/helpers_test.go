package namespace_test

import (
	"slices"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/namespace"
)

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

// fakeAPI is a namespace's content as a small API server keeps it: a
// DELETE of a scheduled, running pod leaves it terminating (its kubelet
// removes it later: gone), an unscheduled or finished pod and an object
// without finalizers leave at once.
type fakeAPI struct {
	pods   []*api.Pod
	others []namespace.Object
	calls  []string
	fail   error
}

func (f *fakeAPI) Pods(string) []*api.Pod { return slices.Clone(f.pods) }

func (f *fakeAPI) DeletePods(ns string) error {
	f.calls = append(f.calls, "DeletePods "+ns)
	if f.fail != nil {
		return f.fail
	}
	f.pods = slices.DeleteFunc(f.pods, func(p *api.Pod) bool {
		return (p.Spec.NodeName == "" || p.Status.Phase.IsTerminal()) && len(p.Finalizers) == 0
	})
	for i, p := range f.pods {
		if p.DeletionTimestamp == nil {
			c := *p
			c.DeletionTimestamp = api.NewTimePtr(t0)
			f.pods[i] = &c
		}
	}
	return nil
}

func (f *fakeAPI) DeleteContent(ns string) error {
	f.calls = append(f.calls, "DeleteContent "+ns)
	f.others = slices.DeleteFunc(f.others, func(o namespace.Object) bool { return len(o.Finalizers) == 0 })
	return nil
}

func (f *fakeAPI) Content(string) []namespace.Object { return slices.Clone(f.others) }

// gone removes the pod named name (its kubelet finished it).
func (f *fakeAPI) gone(name string) {
	f.pods = slices.DeleteFunc(f.pods, func(p *api.Pod) bool { return p.Name == name })
}

func runningPod(name string, grace int64) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "team"},
		Spec:   api.PodSpec{NodeName: "node-1", TerminationGracePeriodSeconds: &grace},
		Status: api.PodStatus{Phase: api.PodRunning}}
}

// deleting is a Namespace team deleted at t0.
func deleting() *api.Namespace {
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team"}}
	namespace.PrepareForCreate(ns)
	ns.DeletionTimestamp = api.NewTimePtr(t0)
	ns.Status.Phase = api.NamespaceTerminating
	return ns
}

func condition(st api.NamespaceStatus, typ string) api.NamespaceCondition {
	for _, c := range st.Conditions {
		if c.Type == typ {
			return c
		}
	}
	return api.NamespaceCondition{}
}
