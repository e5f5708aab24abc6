package workloads

import (
	"time"

	"github.com/podsem/podsem/api"
)

var t0 = time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

type podOpt func(*api.Pod)

func newPod(name string, opts ...podOpt) *api.Pod {
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1", UID: "uid-" + name, ResourceVersion: "10", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "node-1"},
		Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
			{Type: api.PodReady, Status: api.ConditionTrue},
		}},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func unready(p *api.Pod) {
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}
}

func phase(ph api.PodPhase) podOpt { return func(p *api.Pod) { p.Status.Phase = ph } }

func terminating(p *api.Pod) { p.DeletionTimestamp = api.NewTimePtr(t0.Add(-time.Minute)) }
