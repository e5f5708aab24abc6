package scheduling

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzExplain feeds arbitrary pods (as JSON) to a small cluster: whatever
// the pod says, evaluating it must not panic.
func FuzzExplain(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"p","namespace":"d","labels":{"app":"x"}},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1","example.com/gpu":"1"}},"ports":[{"containerPort":80,"hostPort":80}]}]}}`))
	f.Add([]byte(`{"metadata":{"name":"p"},"spec":{"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchExpressions":[{"key":"app","operator":"Bogus"}]},"topologyKey":"zone"}]}}}}`))
	f.Add([]byte(`{"metadata":{"name":"p"},"spec":{"nodeSelector":{"zone":"a"},"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"gen","operator":"Gt","values":["x"]}]},{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1","n2"]}]}]},"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5,"preference":{"matchExpressions":[{"key":"gen","operator":"Lt","values":["3"]}]}}]},"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{"labelSelector":{},"namespaceSelector":{},"topologyKey":"zone"}}]}},"tolerations":[{"operator":"Exists"}]}}`))
	existing := ftPod("d", "e", "n1", 100, map[string]string{"app": "x"})
	existing.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "zone"}}}}
	nodes := []*api.Node{ftNode("n1", 1000, 10, map[string]string{"zone": "a", "gen": "2"}), ftNode("n2", 1000, 10, map[string]string{"zone": "b"})}
	nodes[1].Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p api.Pod
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		c, err := NewCluster(nodes, []*api.Pod{existing}, Config{})
		if err != nil {
			t.Fatal(err)
		}
		e := c.NewCycle(&p).Explain()
		_ = e.String()
		if p.Name != "" && c.AddPod(&p) == nil {
			_ = c.RemovePod(p.Namespace, p.Name)
		}
	})
}

// TestConcurrentQueries runs queries from several goroutines at once on
// one snapshot (run with -race): queries never write to the snapshot.
func TestConcurrentQueries(t *testing.T) {
	zone := func(z string) map[string]string { return map[string]string{api.LabelTopologyZone: z} }
	web := map[string]string{"app": "web"}
	anti := ftPod("d", "a", "n1", 500, web)
	anti.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchLabels: web}, TopologyKey: api.LabelTopologyZone}}}}
	c := ftCluster(t, []*api.Node{ftNode("n1", 2000, 10, zone("a")), ftNode("n2", 2000, 10, zone("b"))}, []*api.Pod{anti}, Config{})
	in := ftPod("d", "in", "", 500, web)
	in.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 5,
		PodAffinityTerm: api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: web}, TopologyKey: api.LabelTopologyZone}}}}}
	want := c.NewCycle(in).Explain().String()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if got := c.NewCycle(in).Explain().String(); got != want {
					t.Errorf("concurrent Explain differs:\n%s\nwant:\n%s", got, want)
					return
				}
				cy := c.NewCycle(in)
				w := cy.WhatIf(c.NodeAt(0))
				w.RemovePod(w.Pod("d", "a"))
				if st := w.Filter(); st.Code != Success {
					t.Errorf("what-if: %v", st)
					return
				}
			}
		}()
	}
	wg.Wait()
}
