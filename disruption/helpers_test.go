package disruption

import (
	"fmt"
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

func ownedBy(kind, apiVersion, name, uid string) podOpt {
	return func(p *api.Pod) {
		p.OwnerReferences = []api.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: ptr(true)}}
	}
}

func labels(kv ...string) podOpt {
	return func(p *api.Pod) {
		p.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}

func namespace(ns string) podOpt { return func(p *api.Pod) { p.Namespace = ns } }

func pdbMin(v api.IntOrString) *api.PodDisruptionBudget {
	return &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: "pdb", Namespace: "ns-1", Generation: 1},
		Spec: api.PodDisruptionBudgetSpec{
			MinAvailable: &v,
			Selector:     &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		},
	}
}

func pdbMax(v api.IntOrString) *api.PodDisruptionBudget {
	b := pdbMin(v)
	b.Spec.MaxUnavailable, b.Spec.MinAvailable = b.Spec.MinAvailable, nil
	return b
}

func statefulSet(name string, replicas int32) *api.StatefulSet {
	return &api.StatefulSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1", UID: "uid-" + name},
		Spec:       api.StatefulSetSpec{Replicas: ptr(replicas)},
	}
}

func ssPods(set string, n int, opts ...podOpt) []*api.Pod {
	var out []*api.Pod
	for i := range n {
		all := append([]podOpt{ownedBy("StatefulSet", "apps/v1", set, "uid-"+set)}, opts...)
		out = append(out, newPod(fmt.Sprintf("%s-%d", set, i), all...))
	}
	return out
}
