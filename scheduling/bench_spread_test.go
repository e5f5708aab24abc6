package scheduling

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
)

// spreadBenchCluster generates a cluster of n nodes spread over three zones
// (topology.kubernetes.io/zone zone-0..2, kubernetes.io/hostname = name)
// carrying podsPerNode pods each, in five namespaces and fifty apps.
func spreadBenchCluster(n, podsPerNode int) ([]*api.Node, []*api.Pod) {
	nodes := make([]*api.Node, n)
	for i := range nodes {
		name := fmt.Sprintf("node-%05d", i)
		nodes[i] = &api.Node{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{
				api.LabelHostname:     name,
				api.LabelTopologyZone: fmt.Sprintf("zone-%d", i%3),
			}},
			Status: api.NodeStatus{Allocatable: api.ResourceList{
				api.ResourcePods:   api.MustParseQuantity("110"),
				api.ResourceCPU:    api.MustParseQuantity("32"),
				api.ResourceMemory: api.MustParseQuantity("128Gi"),
			}},
		}
	}
	pods := make([]*api.Pod, 0, n*podsPerNode)
	for i := 0; i < n*podsPerNode; i++ {
		// A simple mixing of i so that apps and namespaces are not aligned
		// with nodes or zones.
		h := uint32(i)*2654435761 + 12345
		pods = append(pods, &api.Pod{
			ObjectMeta: api.ObjectMeta{
				Name:      fmt.Sprintf("pod-%06d", i),
				Namespace: fmt.Sprintf("ns-%d", h%5),
				Labels:    map[string]string{"app": fmt.Sprintf("app-%d", (h>>8)%50), "tier": "web"},
			},
			Spec: api.PodSpec{NodeName: nodes[(h>>16)%uint32(n)].Name, Containers: []api.Container{{Name: "c", Image: "pause"}}},
		})
	}
	return nodes, pods
}

// spreadBenchPod has two DoNotSchedule constraints (zone maxSkew 1000,
// hostname maxSkew 100, loose enough that most nodes stay feasible and get
// scored) and one ScheduleAnyway constraint (zone).
func spreadBenchPod(app string, extra ...api.LabelSelectorRequirement) *api.Pod {
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": app}, MatchExpressions: extra}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "incoming", Namespace: "ns-0", Labels: map[string]string{"app": app, "tier": "web"}},
		Spec: api.PodSpec{
			Containers: []api.Container{{Name: "c", Image: "pause"}},
			TopologySpreadConstraints: []api.TopologySpreadConstraint{
				{MaxSkew: 1000, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel},
				{MaxSkew: 100, TopologyKey: api.LabelHostname, WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel},
				{MaxSkew: 1, TopologyKey: api.LabelTopologyZone, WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: sel},
			},
		},
	}
}

// spreadDecision is one full PodTopologySpread decision: a new Cycle
// (PreFilter), then Cycle.Decide into a Decision reused from decision to
// decision (Filter on every node, PreScore/Score/NormalizeScore on the
// feasible ones).
func spreadDecision(c *Cluster, pod *api.Pod, d *Decision) int {
	return len(c.NewCycle(pod).Decide(d).Feasible())
}

// BenchmarkSpreadDecision times one full scheduling decision for a pod
// with two DoNotSchedule constraints (zone, hostname) and one
// ScheduleAnyway constraint (zone) on a generated cluster (10 pods per
// node, three zones, hostname labels) of 500 and 5,000 nodes, and on the
// cluster in the JSON file named by PODSEM_BENCH_CLUSTER
// ({"nodes": [...], "pods": [...], "pod": {...}}, plain or gzip, as in
// ../shared/bench) when set.
//
// nodes=N/cold and nodes=N/warm measure Cluster.NewCycle + Cycle.Decide
// into a reused Decision: "cold" uses a
// selector the snapshot has never seen in every iteration, so the
// matching pods are counted once per iteration; "warm" repeats the same
// pod, so the per-selector counts cached by the snapshot are reused.
// "cold" makes each selector new with a requirement on a label no pod
// carries; "cold-labels" with one on a label every pod carries, so the
// candidate pods' labels must be read.
func BenchmarkSpreadDecision(b *testing.B) {
	for _, n := range []int{500, 5000} {
		nodes, pods := spreadBenchCluster(n, 10)
		c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			benchSpread(b, c, spreadBenchPod("app-7"), spreadDecision)
		})
	}
	if nodes, pods, pod, ok := benchClusterFile(b); ok {
		c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("file", func(b *testing.B) { benchSpread(b, c, pod, spreadDecision) })
	}
}

func benchSpread(b *testing.B, c *Cluster, pod *api.Pod, decide func(*Cluster, *api.Pod, *Decision) int) {
	cold := func(nonceKey string) func(b *testing.B) {
		return func(b *testing.B) {
			// A fresh selector each iteration: an extra "notin" requirement
			// with a new value every time (more values than the snapshot
			// caches selectors).
			variants := make([]*api.Pod, 2*maxCachedSelectors)
			for i := range variants {
				p := *pod
				p.Spec.TopologySpreadConstraints = withNonce(pod.Spec.TopologySpreadConstraints, nonceKey, i)
				variants[i] = &p
			}
			var d Decision
			decide(c, pod, &d) // size the buffer
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				decide(c, variants[i%len(variants)], &d)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.NumNodes()), "ns/node")
		}
	}
	// On a label no pod carries, the posting lists settle the new
	// requirement without reading any pod's labels.
	b.Run("cold", cold("bench-nonce"))
	// On a label every pod carries ("tier"), each candidate pod's labels
	// are matched.
	b.Run("cold-labels", cold("tier"))
	b.Run("warm", func(b *testing.B) {
		var d Decision
		decide(c, pod, &d)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			decide(c, pod, &d)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.NumNodes()), "ns/node")
	})
}

// withNonce copies the constraints, adding "key NotIn [nonce-i]" to each
// selector, which every pod without that value still matches.
func withNonce(cs []api.TopologySpreadConstraint, key string, i int) []api.TopologySpreadConstraint {
	out := make([]api.TopologySpreadConstraint, len(cs))
	for j, c := range cs {
		sel := api.LabelSelector{}
		if c.LabelSelector != nil {
			sel = *c.LabelSelector
		}
		sel.MatchExpressions = append(append([]api.LabelSelectorRequirement(nil), sel.MatchExpressions...),
			api.LabelSelectorRequirement{Key: key, Operator: api.LabelSelectorOpNotIn, Values: []string{fmt.Sprintf("nonce-%d", i)}})
		c.LabelSelector = &sel
		out[j] = c
	}
	return out
}

// BenchmarkSpreadPlugin times the PodTopologySpread plugin's own share of
// the same decision (PreFilter, Filter on every node, PreScore, Score and
// NormalizeScore on the feasible ones), without the framework's result
// lists, to separate the plugin's cost from the framework's.
func BenchmarkSpreadPlugin(b *testing.B) {
	for _, n := range []int{500, 5000} {
		nodes, pods := spreadBenchCluster(n, 10)
		c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
		if err != nil {
			b.Fatal(err)
		}
		pod := spreadBenchPod("app-7")
		feasible := make([]*NodeInfo, 0, n)
		scores := make([]int64, n)
		decide := func(p *api.Pod) {
			pl := newSpreadPlugin(c, newIncomingPodInfo(p))
			pl.preFilter()
			feasible = feasible[:0]
			for _, ni := range c.nodes {
				if st := pl.filter(&nodeView{info: ni}); st.Code == Success {
					feasible = append(feasible, ni)
				}
			}
			if pl.preScore(feasible).Code == Success {
				for j, ni := range feasible {
					scores[j] = pl.score(ni)
				}
				pl.normalizeScore(scores[:len(feasible)])
			}
		}
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.Run("cold", func(b *testing.B) {
				variants := make([]*api.Pod, 512)
				for i := range variants {
					p := *pod
					p.Spec.TopologySpreadConstraints = withNonce(pod.Spec.TopologySpreadConstraints, "bench-nonce", i)
					variants[i] = &p
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					decide(variants[i%len(variants)])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/node")
			})
			b.Run("warm", func(b *testing.B) {
				decide(pod)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					decide(pod)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/node")
			})
		})
	}
}

// BenchmarkSpreadAddPod times keeping the spread cache current when one
// pod is bound and removed again (snapshot update, no rebuild), with one
// cached selector and with the cache full of selectors of the pod's
// namespace (only those the pod's labels could match are visited).
func BenchmarkSpreadAddPod(b *testing.B) {
	nodes, pods := spreadBenchCluster(5000, 10)
	c, err := NewCluster(nodes, pods, Config{Plugins: []string{PluginPodTopologySpread}})
	if err != nil {
		b.Fatal(err)
	}
	p := spreadPodOn("extra", nodes[42].Name, "app", "app-7")
	p.Namespace = "ns-0"
	run := func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := c.AddPod(p); err != nil {
				b.Fatal(err)
			}
			if err := c.RemovePod(p.Namespace, p.Name); err != nil {
				b.Fatal(err)
			}
		}
	}
	spreadDecision(c, spreadBenchPod("app-7"), nil) // warm one selector
	b.Run("selectors=1", run)
	for i := range maxCachedSelectors {
		spreadDecision(c, spreadBenchPod(fmt.Sprintf("app-%d", i%50), api.LabelSelectorRequirement{
			Key: "bench-nonce", Operator: api.LabelSelectorOpNotIn, Values: []string{fmt.Sprint(i)}}), nil)
	}
	b.Run(fmt.Sprintf("selectors=%d", maxCachedSelectors), run)
}
