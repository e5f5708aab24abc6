package cluster_test

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
	"github.com/podsem/podsem/internal/benchdata"
)

// smallCluster is nodes nodes of 8 cpu and deployments Deployments of
// replicas pods (100m each): a baseline until the 5,000-node
// benchmarks (BenchmarkDrain, BenchmarkZoneOutage, BenchmarkRollout on
// internal/benchdata) exist.
func smallCluster(nodes, deployments, replicas int) []api.Object {
	var objs []api.Object
	for i := 0; i < nodes; i++ {
		alloc := api.ResourceList{"cpu": api.MustParseQuantity("8"), "memory": api.MustParseQuantity("32Gi"), "pods": api.MustParseQuantity("110")}
		name := fmt.Sprintf("node-%03d", i)
		objs = append(objs, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: api.NodeStatus{Allocatable: alloc, Capacity: alloc}})
	}
	for i := 0; i < deployments; i++ {
		n := int32(replicas)
		name := fmt.Sprintf("app-%02d", i)
		objs = append(objs, &api.Deployment{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "app:1",
						Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m")}}}}}}}})
	}
	return objs
}

// BenchmarkRunDrainSmall runs a scenario of 20 nodes and 200 pods of 10
// Deployments: settle, drain one node, run 5 minutes. It reports the
// simulated seconds per wall second. A baseline for the next steps' work
// on the store's copies (NEXT.md, "Performance").
func BenchmarkRunDrainSmall(b *testing.B) {
	sc := &cluster.Scenario{Objects: smallCluster(20, 10, 20), Until: 5 * time.Minute,
		Actions: []cluster.Action{{At: 10 * time.Second, Kind: cluster.ActionDrain, Node: "node-003"}}}
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	var simulated time.Duration
	for b.Loop() {
		res, err := cluster.Run(sc, start)
		if err != nil {
			b.Fatal(err)
		}
		simulated += sc.Until + res.T0.Sub(start)
	}
	b.ReportMetric(simulated.Seconds()/b.Elapsed().Seconds(), "sim-s/s")
}

// The benchmarks (issue 22, "Done when"): a cluster of 5,000 nodes
// and 50,000 pods owned by workloads, from the benchmark cluster file named
// by PODSEM_BENCH_CLUSTER (internal/benchdata's spread-5k or preempt-5k;
// skipped when unset, as the scheduling and preemption file benchmarks
// are):
//
//	PODSEM_BENCH_CLUSTER=$PWD/internal/benchdata/spread-5k.json.gz \
//	  go test ./cluster -run '^$' -bench 'Drain$|ZoneOutage|Rollout' -benchtime 3x -benchmem -cpu 1
//
// The file's pods are bound pods without owners. benchWorkloads gives them
// owners: one ReplicaSet per (namespace, label set) the file's pods carry
// (spread-5k: 12, preempt-5k: 8), its replicas the number of those pods,
// its template the first such pod's spec without spec.nodeName, each pod
// and the template labelled workload=<the ReplicaSet's name> and the
// selector matching that label alone, so that the ReplicaSets' selectors
// do not overlap (the file's label sets nest: app=cache and app=cache,
// tier=be). Every pod gets the ReplicaSet as its controller; the
// PriorityClasses the pods name are created with the priority the pods
// carry; the file's PodDisruptionBudgets (preempt-5k) are kept. The nodes
// keep their topology.kubernetes.io/zone labels (both files have three
// zones); a file without zones gets zone-a, zone-b, zone-c by node index
// modulo 3.
//
// Each iteration starts from the same settled state: the cluster is built
// and settled (every pod Ready: the kubelets start them all) outside the
// timer, then the timed part runs from that instant. A settle takes
// seconds at this size, so run them with a small -benchtime Nx.

// timedProfile starts a CPU profile of a benchmark's timed part when
// PODSEM_BENCH_TIMED_PROFILE names a file (go test's -cpuprofile also
// covers the untimed settle, which dominates at this size); the returned
// function stops it. Iteration i > 0 writes the file name + ".i" (merge
// them with go tool pprof -proto).
func timedProfile(b *testing.B, i int) func() {
	if path := os.Getenv("PODSEM_BENCH_TIMED_MEMPROFILE"); path != "" {
		// Allocations are cumulative: the timed part is the difference
		// between the two snapshots (go tool pprof -base path.start path).
		heap := func(p string) {
			f, err := os.Create(p)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				b.Fatal(err)
			}
		}
		rate := runtime.MemProfileRate
		runtime.MemProfileRate = 4096 // finer samples for the timed part
		heap(path + ".start")
		return func() {
			heap(path)
			runtime.MemProfileRate = rate
		}
	}
	path := os.Getenv("PODSEM_BENCH_TIMED_PROFILE")
	if path == "" {
		return func() {}
	}
	if i > 0 {
		path += "." + strconv.Itoa(i)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// benchStart is the benchmarks' start time.
var benchStart = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// benchWorld is the file's cluster with owners.
type benchWorld struct {
	objs []api.Object
	// zones are the nodes of each zone, by zone name.
	zones map[string][]string
	// drainNode is the first node (file order) with exactly 10 pods, or
	// the node with the most pods.
	drainNode string
}

var (
	benchOnce  sync.Once
	benchCache *benchWorld
	benchErr   error
	benchSkip  bool
)

// loadBenchWorld reads PODSEM_BENCH_CLUSTER once and gives its pods owners.
func loadBenchWorld(b testing.TB) *benchWorld {
	benchOnce.Do(func() {
		f, ok, err := benchdata.FromEnv()
		if err != nil {
			benchErr = err
			return
		}
		if !ok {
			benchSkip = true
			return
		}
		benchCache = benchWorkloads(f)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	if benchSkip {
		b.Skip("PODSEM_BENCH_CLUSTER is not set")
	}
	return benchCache
}

// benchWorkloads turns the file's cluster into scenario objects with a
// ReplicaSet owning each group of pods (see the file comment).
func benchWorkloads(f *benchdata.Cluster) *benchWorld {
	w := &benchWorld{zones: map[string][]string{}}
	classes := map[string]int32{}
	for _, p := range f.Pods {
		if p.Spec.PriorityClassName != "" && p.Spec.Priority != nil {
			classes[p.Spec.PriorityClassName] = *p.Spec.Priority
		}
	}
	for _, name := range slices.Sorted(maps.Keys(classes)) {
		w.objs = append(w.objs, &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: name}, Value: classes[name]})
	}
	perNode := map[string]int{}
	for _, p := range f.Pods {
		perNode[p.Spec.NodeName]++
	}
	for i, n := range f.Nodes {
		zone := n.Labels[api.LabelTopologyZone]
		if zone == "" {
			zone = fmt.Sprintf("zone-%c", 'a'+i%3)
			c := *n
			c.Labels = maps.Clone(n.Labels)
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			c.Labels[api.LabelTopologyZone] = zone
			n = &c
		}
		w.zones[zone] = append(w.zones[zone], n.Name)
		w.objs = append(w.objs, n)
		if w.drainNode == "" && perNode[n.Name] == 10 {
			w.drainNode = n.Name
		}
	}
	if w.drainNode == "" {
		for _, n := range f.Nodes {
			if w.drainNode == "" || perNode[n.Name] > perNode[w.drainNode] {
				w.drainNode = n.Name
			}
		}
	}
	for _, pdb := range f.PDBs {
		w.objs = append(w.objs, pdb)
	}
	type group struct {
		name string
		pods []*api.Pod
	}
	groups := map[string]*group{}
	var order []*group
	for _, p := range f.Pods {
		keys := slices.Sorted(maps.Keys(p.Labels))
		var parts []string
		for _, k := range keys {
			parts = append(parts, p.Labels[k])
		}
		id := p.Namespace + "/" + strings.Join(parts, "-")
		g := groups[id]
		if g == nil {
			g = &group{name: strings.Join(append([]string{"rs"}, parts...), "-")}
			groups[id] = g
			order = append(order, g)
		}
		g.pods = append(g.pods, p)
	}
	var pods []api.Object
	for _, g := range order {
		first := g.pods[0]
		n := int32(len(g.pods))
		labels := maps.Clone(first.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		labels["workload"] = g.name
		spec := first.Spec
		spec.NodeName = ""
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: g.name, Namespace: first.Namespace},
			Spec: api.ReplicaSetSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: map[string]string{"workload": g.name}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: spec}}}
		w.objs = append(w.objs, rs)
		for _, p := range g.pods {
			c := *p
			c.Labels = maps.Clone(p.Labels)
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			c.Labels["workload"] = g.name
			yes := true
			c.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: g.name, Controller: &yes, BlockOwnerDeletion: &yes}}
			pods = append(pods, &c)
		}
	}
	w.objs = append(w.objs, pods...)
	return w
}

// rolloutDeployment is the Rollout benchmark's Deployment: 1,000 replicas
// of a pod without requests, in its own namespace, maxSurge 25 % (and
// maxUnavailable 25 %, the default), image app:<version>.
func rolloutDeployment(version string) *api.Deployment {
	n := int32(1000)
	surge, unavail := api.FromString("25%"), api.FromString("25%")
	labels := map[string]string{"app": "rollout"}
	return &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "rollout", Namespace: "bench-rollout"},
		Spec: api.DeploymentSpec{Replicas: &n, Selector: &api.LabelSelector{MatchLabels: labels},
			Strategy: api.DeploymentStrategy{Type: "RollingUpdate", RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavail}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "app:" + version}}}}}}
}

// settledMachine builds the cluster from objs and steps it from deadline
// to deadline until it is settled (Machine.Unsettled is ""), as Run's
// setup does.
func settledMachine(b testing.TB, objs []api.Object) *cluster.Machine {
	m, _, err := cluster.New(objs, cluster.Config{}, benchStart)
	if err != nil {
		b.Fatal(err)
	}
	end := benchStart.Add(cluster.DefaultSettleTimeout)
	for why := m.Unsettled(); why != ""; why = m.Unsettled() {
		d := m.NextDeadline()
		if d.IsZero() || d.After(end) {
			b.Fatalf("not settled after %v: %s", cluster.DefaultSettleTimeout, why)
		}
		if _, err := m.Step(cluster.Tick(), d); err != nil {
			b.Fatal(err)
		}
	}
	return m
}

// runUntil steps m from deadline to deadline until done says so for a
// step's records; it fails after limit of simulated time.
func runUntil(b *testing.B, m *cluster.Machine, limit time.Duration, done func([]cluster.Record) bool) {
	end := m.Now().Add(limit)
	for {
		d := m.NextDeadline()
		if d.IsZero() || d.After(end) {
			b.Fatalf("not done after %v of simulated time", limit)
		}
		out, err := m.Step(cluster.Tick(), d)
		if err != nil {
			b.Fatal(err)
		}
		if done(out.Records) {
			return
		}
	}
}

// summaries follows the watch records' object summaries ("k=v ..." when
// added, "k: old -> new; ..." when modified).
type summaries map[string]map[string]string

func (s summaries) see(r cluster.Record) {
	if r.Source != cluster.SourceWatch || strings.HasPrefix(r.Object, "Pod/") {
		return // the benchmarks follow workloads only
	}
	if r.Type == "DELETED" {
		delete(s, r.Object)
		return
	}
	f := s[r.Object]
	if f == nil || r.Type == "ADDED" {
		f = map[string]string{}
		s[r.Object] = f
		for _, kv := range strings.Fields(r.Message) {
			if k, v, ok := strings.Cut(kv, "="); ok {
				f[k] = v
			}
		}
		return
	}
	for _, part := range strings.Split(r.Message, "; ") {
		k, change, ok := strings.Cut(part, ": ")
		if !ok {
			continue
		}
		if _, v, ok := strings.Cut(change, " -> "); ok {
			f[k] = v
		}
	}
}

// summariesOf starts summaries from the Deployments and ReplicaSets m
// holds (the fields the benchmarks follow).
func summariesOf(m *cluster.Machine) summaries {
	s := summaries{}
	for _, o := range m.Objects() {
		switch x := o.(type) {
		case *api.Deployment:
			s["Deployment/"+x.Namespace+"/"+x.Name] = map[string]string{"spec": fmt.Sprint(*x.Spec.Replicas),
				"replicas": fmt.Sprint(x.Status.Replicas), "updated": fmt.Sprint(x.Status.UpdatedReplicas),
				"ready": fmt.Sprint(x.Status.ReadyReplicas), "available": fmt.Sprint(x.Status.AvailableReplicas)}
		case *api.ReplicaSet:
			s["ReplicaSet/"+x.Namespace+"/"+x.Name] = map[string]string{"spec": fmt.Sprint(*x.Spec.Replicas),
				"replicas": fmt.Sprint(x.Status.Replicas), "ready": fmt.Sprint(x.Status.ReadyReplicas),
				"available": fmt.Sprint(x.Status.AvailableReplicas)}
		}
	}
	return s
}

// BenchmarkDrain drains one node of 10 pods (kubectl drain, default
// flags) in the settled 5,000-node cluster and runs until the drain has
// finished (its Drained line): cordon, 10 evictions, the kubelet's
// graceful stops, the 1-s deletion polls; the ReplicaSet controller's
// replacements are created and scheduled meanwhile.
func BenchmarkDrain(b *testing.B) {
	w := loadBenchWorld(b)
	timedRuns(b, w.objs, func(m *cluster.Machine) func() {
		return func() {
			if _, err := m.Step(cluster.Do(cluster.Action{Kind: cluster.ActionDrain, Node: w.drainNode}), m.Now()); err != nil {
				b.Fatal(err)
			}
			runUntil(b, m, 10*time.Minute, func(rs []cluster.Record) bool {
				for _, r := range rs {
					if r.Reason == "DrainFailed" {
						b.Fatalf("drain failed: %s", r.Message)
					}
					if r.Reason == "Drained" {
						return true
					}
				}
				return false
			})
		}
	})
}

// timedRuns runs a benchmark's iterations: each settles a cluster of objs
// and calls prepare on it, both outside the timer, then collects the
// settle's garbage and times the function prepare returned. It reports
// the simulated seconds per wall second of the timed parts.
func timedRuns(b *testing.B, objs []api.Object, prepare func(m *cluster.Machine) func()) {
	b.ReportAllocs()
	b.ResetTimer() // the file's reading is not timed
	var simulated, wall time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := settledMachine(b, objs)
		t0 := m.Now()
		run := prepare(m)
		runtime.GC() // the settle's garbage is not the timed part's to collect
		b.StartTimer()
		began := time.Now()
		stop := timedProfile(b, i)
		run()
		wall += time.Since(began)
		stop()
		simulated += m.Now().Sub(t0)
	}
	b.ReportMetric(simulated.Seconds()/wall.Seconds(), "sim-s/s")
}

// BenchmarkZoneOutage loses every node of one zone (the first by name: a
// third of the nodes) at once in the settled cluster and runs until every
// pod that was on them has been evicted (the node lifecycle controller's
// NoExecute taints at --node-eviction-rate, the 300-s default
// tolerations) and every ReplicaSet has all its replicas Ready again. It
// also reports the simulation's memory, net of what the harness holds
// before building the cluster (the file's objects): the largest heap
// (objects, live or not yet collected) sampled every 100 steps,
// peak-heap-MiB, and the settled cluster's live heap, live-heap-MiB.
func BenchmarkZoneOutage(b *testing.B) {
	w := loadBenchWorld(b)
	zone := slices.Sorted(maps.Keys(w.zones))[0]
	lost := map[string]bool{}
	for _, n := range w.zones[zone] {
		lost[n] = true
	}
	b.ReportAllocs()
	b.ResetTimer() // the file's reading is not timed
	var simulated, wall time.Duration
	var peak, live uint64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		base := heapObjects() // the harness: the file's objects
		m := settledMachine(b, w.objs)
		t0 := m.Now()
		stranded := map[string]bool{}
		sums := summariesOf(m)
		for _, o := range m.Objects() {
			if x, ok := o.(*api.Pod); ok && lost[x.Spec.NodeName] {
				stranded["Pod/"+x.Namespace+"/"+x.Name] = true
			}
		}
		runtime.GC() // the settle's garbage is not the timed part's to collect
		live = max(live, heapObjects()-base)
		b.StartTimer()
		began := time.Now()
		stop := timedProfile(b, i)
		for _, n := range w.zones[zone] {
			if _, err := m.Step(cluster.Do(cluster.Action{Kind: cluster.ActionLose, Node: n}), t0); err != nil {
				b.Fatal(err)
			}
		}
		steps := 0
		runUntil(b, m, 12*time.Hour, func(rs []cluster.Record) bool {
			if steps++; steps%100 == 0 {
				peak = max(peak, heapObjects()-base)
			}
			for _, r := range rs {
				if r.Source == cluster.SourceWatch && stranded[r.Object] && strings.Contains(r.Message, "deleting") {
					delete(stranded, r.Object)
				}
				sums.see(r)
			}
			if len(stranded) > 0 {
				return false
			}
			for obj, f := range sums {
				if strings.HasPrefix(obj, "ReplicaSet/") && (f["ready"] != f["spec"] || f["replicas"] != f["spec"]) {
					return false
				}
			}
			return true
		})
		wall += time.Since(began)
		stop()
		simulated += m.Now().Sub(t0)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(live)/(1<<20), "live-heap-MiB")
	b.ReportMetric(simulated.Seconds()/wall.Seconds(), "sim-s/s")
}

// BenchmarkRollout rolls out a new image of a 1,000-replica Deployment
// (maxSurge 25 %, its own namespace) in the settled cluster and runs until
// the rollout is complete: every replica updated and available, the old
// ReplicaSet scaled to 0 (the Deployment's status replicas = updated =
// available = 1,000).
func BenchmarkRollout(b *testing.B) {
	w := loadBenchWorld(b)
	objs := append(slices.Clip(w.objs), rolloutDeployment("1"))
	timedRuns(b, objs, func(m *cluster.Machine) func() {
		sums := summariesOf(m)
		done := func(rs []cluster.Record) bool {
			for _, r := range rs {
				sums.see(r)
			}
			f := sums["Deployment/bench-rollout/rollout"]
			return f["updated"] == "1000" && f["available"] == "1000" && f["replicas"] == "1000"
		}
		return func() {
			out, err := m.Step(cluster.Do(cluster.Action{Kind: cluster.ActionApply, Object: rolloutDeployment("2")}), m.Now())
			if err != nil {
				b.Fatal(err)
			}
			if done(out.Records) {
				b.Fatal("the rollout did not start")
			}
			runUntil(b, m, time.Hour, done)
		}
	})
}

// heapObjects is the bytes of the heap's objects, live and not yet
// collected (runtime/metrics, no stop of the world): sampled during a
// run, its maximum bounds the memory the simulation held.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkIdle runs the settled cluster for 10 simulated minutes with
// nothing happening: the kubelets' Lease renewals and periodic node status
// posts, the node lifecycle controller's monitor passes and the informers'
// handling of them. It is the background that BenchmarkZoneOutage pays for
// each of its 4.7 simulated hours, beside the evictions.
func BenchmarkIdle(b *testing.B) {
	w := loadBenchWorld(b)
	timedRuns(b, w.objs, func(m *cluster.Machine) func() {
		return func() {
			end := m.Now().Add(10 * time.Minute)
			for d := m.NextDeadline(); !d.IsZero() && !d.After(end); d = m.NextDeadline() {
				if _, err := m.Step(cluster.Tick(), d); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
