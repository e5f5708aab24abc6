package disruption

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// namespace1000 is a 1,000-pod namespace: ten Deployments of 90 pods (one
// ReplicaSet each) and 100 pods of other apps, a few unready or
// terminating, with a budget over one app and a budget over everything.
func namespace1000() ([]*api.Pod, Controllers) {
	var pods []*api.Pod
	var c Controllers
	for d := range 10 {
		dep := fmt.Sprintf("app-%d", d)
		c.Deployments = append(c.Deployments, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: dep, Namespace: "ns-1", UID: "uid-" + dep}, Spec: api.DeploymentSpec{Replicas: ptr(int32(90))}})
		rs := dep + "-rs"
		c.ReplicaSets = append(c.ReplicaSets, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: rs, Namespace: "ns-1", UID: "uid-" + rs,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: dep, UID: "uid-" + dep, Controller: ptr(true)}}},
			Spec: api.ReplicaSetSpec{Replicas: ptr(int32(90))}})
		for i := range 90 {
			opts := []podOpt{labels("app", dep, "tier", "web"), ownedBy("ReplicaSet", "apps/v1", rs, "uid-"+rs)}
			switch i % 30 {
			case 7:
				opts = append(opts, unready)
			case 11:
				opts = append(opts, terminating)
			}
			pods = append(pods, newPod(fmt.Sprintf("%s-%03d", dep, i), opts...))
		}
	}
	for i := range 100 {
		pods = append(pods, newPod(fmt.Sprintf("misc-%03d", i), labels("app", "misc")))
	}
	return pods, c
}

func BenchmarkEvaluate1000Pods(b *testing.B) {
	pods, c := namespace1000()
	now := t0
	for _, bc := range []struct {
		name string
		pdb  *api.PodDisruptionBudget
	}{
		{"minAvailable=int/one-app", func() *api.PodDisruptionBudget {
			p := pdbMin(api.FromInt32(80))
			p.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "app-3"}}
			return p
		}()},
		{"maxUnavailable=10%/tier", func() *api.PodDisruptionBudget {
			p := pdbMax(api.FromString("10%"))
			p.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"tier": "web"}}
			p.Status.DisruptedPods = map[string]api.Time{"app-1-000": api.NewTime(now.Add(-time.Minute)), "app-2-000": api.NewTime(now.Add(-time.Hour))}
			return p
		}()},
		{"minAvailable=int/all", func() *api.PodDisruptionBudget {
			p := pdbMin(api.FromInt32(900))
			p.Spec.Selector = &api.LabelSelector{}
			return p
		}()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st, _ := Evaluate(bc.pdb, pods, c, now)
				if st.ExpectedPods == 0 {
					b.Fatal("nothing expected")
				}
			}
		})
	}
}

func BenchmarkEvict(b *testing.B) {
	pod := newPod("web-1")
	ev := evictionOf("web-1", nil)
	pdbs := []*api.PodDisruptionBudget{budget(1, 3, 2), budget(0, 1, 1, func(p *api.PodDisruptionBudget) {
		p.Name = "other"
		p.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	})}
	b.ReportAllocs()
	for b.Loop() {
		if d := Evict(pod, ev, pdbs, EvictOptions{}, t0); !d.Allowed {
			b.Fatal(d)
		}
	}
}

func BenchmarkPlanDrain1000Pods(b *testing.B) {
	pods, _ := namespace1000()
	b.ReportAllocs()
	for b.Loop() {
		PlanDrain("node-1", pods, nil, DrainFlags{Force: true, EvictionGroupVersion: "policy/v1"}, t0)
	}
}
