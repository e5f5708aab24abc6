package proptest_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/proptest"
	"github.com/podsem/podsem/scheduling"
	"pgregory.net/rapid"
)

// toyScheduler is a controller under test: it binds a pending pod to the
// least loaded node (the most free cpu) that has room for the pod's
// requests. The careful version also keeps off cordoned nodes, nodes with
// a NoSchedule or NoExecute taint the pod does not tolerate, and nodes its
// nodeSelector or required node affinity rules out; the naive one only
// counts resources.
type toyScheduler struct{ careful bool }

// place returns the node for pod, "" when none has room.
func (s toyScheduler) place(c *proptest.ClusterState, pod *api.Pod) string {
	used := map[string]api.ResourceList{}
	count := map[string]int64{}
	for _, p := range c.Pods {
		if p.Spec.NodeName == "" || p.Status.Phase.IsTerminal() {
			continue
		}
		if used[p.Spec.NodeName] == nil {
			used[p.Spec.NodeName] = api.ResourceList{}
		}
		for r, q := range api.PodRequests(p, scheduling.FitRequestOptions()) {
			used[p.Spec.NodeName][r] = used[p.Spec.NodeName][r].Add(q)
		}
		count[p.Spec.NodeName]++
	}
	want := api.PodRequests(pod, scheduling.FitRequestOptions())
	best, bestFree := "", int64(-1)
	for _, n := range c.Nodes {
		if s.careful && !s.allowed(pod, n) {
			continue
		}
		pods := n.Status.Allocatable[api.ResourcePods]
		if count[n.Name]+1 > pods.Value() {
			continue
		}
		room := true
		for r, q := range want {
			if free := n.Status.Allocatable[r].Sub(used[n.Name][r]); q.Cmp(free) > 0 {
				room = false
			}
		}
		free := n.Status.Allocatable[api.ResourceCPU].Sub(used[n.Name][api.ResourceCPU])
		if room && free.MilliValue() > bestFree {
			best, bestFree = n.Name, free.MilliValue()
		}
	}
	return best
}

// allowed is the careful scheduler's node check.
func (s toyScheduler) allowed(pod *api.Pod, n *api.Node) bool {
	if n.Spec.Unschedulable {
		return false
	}
	for _, taint := range n.Spec.Taints {
		if taint.Effect == api.TaintEffectPreferNoSchedule {
			continue
		}
		tolerated := false
		for _, tol := range pod.Spec.Tolerations {
			tolerated = tolerated || tol.ToleratesTaint(&taint)
		}
		if !tolerated {
			return false
		}
	}
	for k, v := range pod.Spec.NodeSelector {
		if n.Labels[k] != v {
			return false
		}
	}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		m, err := api.NewNodeSelectorMatcher(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		if err != nil || !m.Match(n.Name, n.Labels) {
			return false
		}
	}
	return true
}

// checkToy is the property: every binding the toy makes for the pending
// pods of c is one kube-scheduler's filters accept.
func checkToy(s toyScheduler, c *proptest.ClusterState) error {
	snap, err := c.Snapshot(scheduling.Config{})
	if err != nil {
		return err
	}
	for _, p := range c.Pending() {
		if node := s.place(c, p); node != "" {
			if err := proptest.CheckPlacementFeasible(snap, p, node); err != nil {
				return err
			}
		}
	}
	return nil
}

// toyClusters are the clusters the careful toy claims to handle: no pod
// (anti-)affinity, spread constraints or host ports, which it ignores.
func toyClusters() *rapid.Generator[*proptest.ClusterState] {
	return proptest.Cluster(proptest.ClusterOptions{
		Pending: 3,
		Pod:     proptest.PodOptions{Without: proptest.PodAffinity | proptest.TopologySpread | proptest.HostPorts},
	})
}

// The property as a test: rapid draws clusters, shrinks any counterexample
// to a small one and reports it.
func TestToySchedulerProperty(t *testing.T) {
	clusters := toyClusters()
	rapid.Check(t, func(t *rapid.T) {
		if err := checkToy(toyScheduler{careful: true}, clusters.Draw(t, "cluster")); err != nil {
			t.Fatal(err)
		}
	})
}

// Property-testing a toy controller against podsem's scheduler: a
// least-loaded placement is checked with CheckPlacementFeasible on
// generated clusters. In a test the loop is rapid.Check (see
// TestToySchedulerProperty); here fixed seeds of Generator.Example make
// the run repeatable. The naive version, which counts only resources, is
// caught at once; the careful one holds on the clusters it claims to
// handle.
func Example_toyScheduler() {
	clusters := toyClusters()
	for _, s := range []toyScheduler{{careful: false}, {careful: true}} {
		name := map[bool]string{false: "naive", true: "careful"}[s.careful]
		failed := false
		for seed := range 100 {
			err := checkToy(s, clusters.Example(seed))
			if errors.Is(err, proptest.ErrViolation) {
				fmt.Printf("%s: counterexample at seed %d: rejected by %s\n", name, seed, filterOf(err))
				failed = true
				break
			}
		}
		if !failed {
			fmt.Printf("%s: every placement in 100 clusters is feasible\n", name)
		}
	}
	// Output:
	// naive: counterexample at seed 3: rejected by NodeAffinity
	// careful: every placement in 100 clusters is feasible
}

// filterOf names the scheduler plugin a CheckPlacementFeasible error
// reports.
func filterOf(err error) string {
	for _, p := range scheduling.DefaultPlugins() {
		if strings.Contains(err.Error(), ": "+p+":") {
			return p
		}
	}
	return "?"
}

// A pod drawn with a fixed seed, as the API server stores it after a
// create.
func ExamplePod() {
	p := proptest.Pod(proptest.PodOptions{}).Example(42)
	owner := "nothing"
	if ref := p.ControllerRef(); ref != nil {
		owner = ref.Kind + " " + ref.Name
	}
	fmt.Printf("%s, owned by %s, %s, QoS %s, class %s (priority %d)\n",
		p.Key(), owner, p.Status.Phase, p.Status.QOSClass, p.Spec.PriorityClassName, *p.Spec.Priority)
	describe := func(kind string, c api.Container) {
		var probes []string
		for name, pr := range map[string]*api.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe, "startup": c.StartupProbe} {
			if pr != nil {
				probes = append(probes, name)
			}
		}
		slices.Sort(probes)
		cpu, mem := c.Resources.Requests[api.ResourceCPU], c.Resources.Requests[api.ResourceMemory]
		fmt.Printf("  %s %s: requests cpu %s memory %s, probes %v\n", kind, c.Name, cpu.String(), mem.String(), probes)
	}
	for _, c := range p.Spec.InitContainers {
		kind := "init"
		if c.IsSidecar() {
			kind = "sidecar"
		}
		describe(kind, c)
	}
	for _, c := range p.Spec.Containers {
		describe("container", c)
	}
	fmt.Println("accepted on create:", len(validateCreate(p)) == 0)
	// Output:
	// team-b/api-4, owned by StatefulSet api, Pending, QoS Guaranteed, class standard (priority 1000)
	//   sidecar log-shipper: requests cpu 50m memory 128Mi, probes [liveness]
	//   sidecar vault-agent: requests cpu 100m memory 128Mi, probes [readiness]
	//   init init-db: requests cpu 200m memory 128Mi, probes []
	//   container debug: requests cpu 2 memory 64Mi, probes []
	// accepted on create: true
}

// A small cluster: nodes, bound and pending pods, budgets; consistent by
// construction.
func ExampleCluster() {
	c := proptest.Cluster(proptest.ClusterOptions{Nodes: 3, Pods: 10, Pending: 2}).Example(6)
	fmt.Printf("%d nodes, %d pods (%d pending), %d PodDisruptionBudgets\n", len(c.Nodes), len(c.Pods), len(c.Pending()), len(c.PDBs))
	fmt.Println("bound pods fit:", proptest.CheckBoundPodsFit(c.Nodes, c.Pods) == nil)
	// Output:
	// 3 nodes, 10 pods (2 pending), 2 PodDisruptionBudgets
	// bound pods fit: true
}

// A status sequence a buggy node agent might report: Running after
// Succeeded.
func ExampleCheckPhaseSequence() {
	statuses := []api.PodStatus{{Phase: api.PodPending}, {Phase: api.PodRunning}, {Phase: api.PodSucceeded}, {Phase: api.PodRunning}}
	fmt.Println(proptest.CheckPhaseSequence(statuses))
	// Output:
	// proptest: guarantee violated: status 2 to 3: pod phase is terminal: Succeeded is final, cannot become Running
}

// A drain that evicts two of three replicas under a budget of
// minAvailable 2: the second eviction is the one the Eviction API refuses.
func ExampleCheckEvictionsRespectBudgets() {
	two := api.FromInt32(2)
	pdb := &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop", Generation: 1},
		Spec:       api.PodDisruptionBudgetSpec{MinAvailable: &two, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
	}
	var pods []*api.Pod
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		pods = append(pods, &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "shop", Labels: map[string]string{"app": "web"}},
			Spec:       api.PodSpec{NodeName: "node-1"},
			Status:     api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}},
		})
	}
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	err := proptest.CheckEvictionsRespectBudgets([]*api.PodDisruptionBudget{pdb}, pods, []string{"shop/web-1", "shop/web-2"}, disruption.Controllers{}, now)
	fmt.Println(err)
	// Output:
	// proptest: guarantee violated: evicting shop/web-2: the Eviction API answers 429: Cannot evict pod as it would violate the pod's disruption budget.
}
