package scheduling

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
)

// benchCluster builds nodes×podsPerNode pods spread over three zones, a
// tenth of the nodes tainted, pods in ten namespaces with app labels.
func benchCluster(b *testing.B, nodes, podsPerNode int, antiAffinityEvery int) *Cluster {
	b.Helper()
	ns := make([]*api.Node, nodes)
	var pods []*api.Pod
	for i := range ns {
		n := ftNode(fmt.Sprintf("node-%05d", i), 64000, 110, map[string]string{
			api.LabelTopologyZone: fmt.Sprintf("zone-%d", i%3),
			"pool":                fmt.Sprintf("pool-%d", i%4),
		})
		n.Status.Allocatable[api.ResourceMemory] = api.NewQuantity(256<<30, api.BinarySI)
		if i%10 == 0 {
			n.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule}}
		}
		ns[i] = n
		for j := 0; j < podsPerNode; j++ {
			k := i*podsPerNode + j
			p := ftPod(fmt.Sprintf("ns-%d", k%10), fmt.Sprintf("pod-%06d", k), n.Name, 500,
				map[string]string{"app": fmt.Sprintf("app-%d", k%100)})
			if antiAffinityEvery > 0 && k%antiAffinityEvery == 0 {
				p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
					LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}},
					TopologyKey:   api.LabelHostname,
				}}}}
			}
			pods = append(pods, p)
		}
	}
	c, err := NewCluster(ns, pods, Config{})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchFilterPod requests cpu and memory, tolerates a taint the nodes do
// not have and requires three of the four node pools.
func benchFilterPod() *api.Pod {
	pod := ftPod("ns-1", "incoming", "", 1000, map[string]string{"app": "new"})
	pod.Spec.Containers[0].Resources.Requests[api.ResourceMemory] = api.NewQuantity(1<<30, api.BinarySI)
	pod.Spec.Tolerations = []api.Toleration{{Key: "other", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
	pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{
			{Key: "pool", Operator: api.NodeSelectorOpIn, Values: []string{"pool-0", "pool-1", "pool-2"}},
		}}}}}}
	return pod
}

// BenchmarkFilter runs every filter (resources, taints, node affinity and
// the rest of the default profile) for one pod over 5,000 nodes holding
// 50,000 pods: the filter half of Cycle.Decide, into a reused Decision
// (statuses kept only for rejected nodes). ns/node is the cost per node.
func BenchmarkFilter(b *testing.B) {
	c := benchCluster(b, 5000, 10, 0)
	pod := benchFilterPod()
	b.Run("decision", func(b *testing.B) {
		b.ReportAllocs()
		var d Decision
		for b.Loop() {
			cy := c.NewCycle(pod)
			cy.runPreFilter()
			d.reset(cy)
			cy.filterDecision(&d, walkOptions{})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/5000, "ns/node")
		if len(d.Feasible()) == 0 {
			b.Fatal("no feasible node")
		}
	})
}

// BenchmarkDecide makes one full decision with every plugin of the
// default profile (filters, then the weighted scores of the feasible
// nodes) for the pod of BenchmarkFilter over 5,000 nodes holding 50,000
// pods, through Cycle.Decide into a reused Decision.
func BenchmarkDecide(b *testing.B) {
	c := benchCluster(b, 5000, 10, 0)
	pod := benchFilterPod()
	b.ReportAllocs()
	var d Decision
	for b.Loop() {
		c.NewCycle(pod).Decide(&d)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/5000, "ns/node")
	if len(d.Feasible()) == 0 {
		b.Fatal("no feasible node")
	}
}

// BenchmarkInterPodAffinity runs the InterPodAffinity plugin (PreFilter
// counting, Filter, PreScore and Score) for a pod with required
// anti-affinity and preferred affinity over 5,000 nodes, 50,000 pods, one
// in a hundred of which has required anti-affinity.
func BenchmarkInterPodAffinity(b *testing.B) {
	c := benchCluster(b, 5000, 10, 100)
	c.cfg.Plugins = []string{PluginInterPodAffinity}
	pod := ftPod("ns-1", "incoming", "", 0, map[string]string{"app": "app-3"})
	pod.Spec.Affinity = &api.Affinity{
		PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "app-3"}},
			TopologyKey:   api.LabelHostname,
		}}},
		PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 50,
			PodAffinityTerm: api.PodAffinityTerm{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "app-11"}},
				TopologyKey:   api.LabelTopologyZone,
			}}}},
	}
	b.Run("decision", func(b *testing.B) {
		b.ReportAllocs()
		var d Decision
		for b.Loop() {
			c.NewCycle(pod).Decide(&d)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/5000, "ns/node")
	})
}

// BenchmarkNewCluster builds the 5,000-node, 50,000-pod snapshot the other
// benchmarks query.
func BenchmarkNewCluster(b *testing.B) {
	src := benchCluster(b, 5000, 10, 100)
	var nodes []*api.Node
	var pods []*api.Pod
	for _, n := range src.nodes {
		nodes = append(nodes, n.Node())
		for _, p := range n.Pods() {
			pods = append(pods, p.pod)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewCluster(nodes, pods, Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdatePod moves one pod between nodes in the 50,000-pod
// snapshot (RemovePod + AddPod through UpdatePod).
func BenchmarkUpdatePod(b *testing.B) {
	c := benchCluster(b, 5000, 10, 100)
	on := c.NodeAt(0).Pods()
	if len(on) == 0 {
		b.Fatal("node 0 has no pod")
	}
	p := *on[0].pod
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		q := p
		q.Spec.NodeName = c.NodeAt(i % 5000).Name()
		if err := c.UpdatePod(&q); err != nil {
			b.Fatal(err)
		}
	}
}
