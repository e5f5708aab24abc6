package disruption_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
)

func ptr[T any](v T) *T { return &v }

// zkPods are the three ZooKeeper pods of the "Specifying a Disruption
// Budget" task page, all Running; the last one's readiness is given.
func zkPods(lastReady bool) []*api.Pod {
	var pods []*api.Pod
	for i := range 3 {
		ready := api.ConditionTrue
		if i == 2 && !lastReady {
			ready = api.ConditionFalse
		}
		pods = append(pods, &api.Pod{
			ObjectMeta: api.ObjectMeta{
				Name: fmt.Sprintf("zk-%d", i), Namespace: "default", ResourceVersion: "42",
				Labels:          map[string]string{"app": "zookeeper"},
				OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "zk", UID: "uid-zk", Controller: ptr(true)}},
			},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: ready}}},
		})
	}
	return pods
}

var zk = disruption.Controllers{StatefulSets: []*api.StatefulSet{{
	ObjectMeta: api.ObjectMeta{Name: "zk", Namespace: "default", UID: "uid-zk"},
	Spec:       api.StatefulSetSpec{Replicas: ptr(int32(3))},
}}}

func zkBudget(min, max *api.IntOrString) *api.PodDisruptionBudget {
	return &api.PodDisruptionBudget{
		ObjectMeta: api.ObjectMeta{Name: "zk-pdb", Namespace: "default", Generation: 1},
		Spec: api.PodDisruptionBudgetSpec{
			MinAvailable: min, MaxUnavailable: max,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "zookeeper"}},
		},
	}
}

// The disruption controller's view of a three-pod ZooKeeper ensemble under
// minAvailable: 2, maxUnavailable: 1 and minAvailable: 50%, with all pods
// ready and then with one unready.
func ExampleEvaluate() {
	now := time.Date(2025, 3, 3, 8, 0, 0, 0, time.UTC)
	for _, b := range []*api.PodDisruptionBudget{
		zkBudget(ptr(api.FromInt32(2)), nil),
		zkBudget(nil, ptr(api.FromInt32(1))),
		zkBudget(ptr(api.FromString("50%")), nil),
	} {
		for _, ready := range []bool{true, false} {
			st, res := disruption.Evaluate(b, zkPods(ready), zk, now)
			fmt.Printf("min=%v max=%v all ready=%v: expected %d desired %d healthy %d allowed %d (%s)\n",
				b.Spec.MinAvailable, b.Spec.MaxUnavailable, ready,
				st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed, res.Reason)
		}
	}
	// Output:
	// min=2 max=<nil> all ready=true: expected 3 desired 2 healthy 3 allowed 1 (SufficientPods)
	// min=2 max=<nil> all ready=false: expected 3 desired 2 healthy 2 allowed 0 (InsufficientPods)
	// min=<nil> max=1 all ready=true: expected 3 desired 2 healthy 3 allowed 1 (SufficientPods)
	// min=<nil> max=1 all ready=false: expected 3 desired 2 healthy 2 allowed 0 (InsufficientPods)
	// min=50% max=<nil> all ready=true: expected 3 desired 2 healthy 3 allowed 1 (SufficientPods)
	// min=50% max=<nil> all ready=false: expected 3 desired 2 healthy 2 allowed 0 (InsufficientPods)
}

// A budget whose pods' controller has no scale subresource cannot resolve a
// percentage: the controller fails safe and allows no disruption.
func ExampleEvaluate_failSafe() {
	pods := zkPods(true)
	for _, p := range pods {
		p.OwnerReferences[0].APIVersion, p.OwnerReferences[0].Kind = "batch/v1", "Job"
	}
	st, res := disruption.Evaluate(zkBudget(ptr(api.FromString("50%")), nil), pods, zk, time.Now())
	fmt.Println(st.DisruptionsAllowed, res.Reason, res.Err)
	// Output:
	// 0 SyncFailed jobs.batch does not implement the scale subresource
}

// Draining the ZooKeeper ensemble one eviction at a time: the first is
// granted and uses the budget, the second is refused until the disruption
// controller sees a replacement pod become ready.
func ExampleEvict() {
	now := time.Date(2025, 3, 3, 8, 0, 0, 0, time.UTC)
	pods := zkPods(true)
	pdb := zkBudget(ptr(api.FromInt32(2)), nil)
	pdb.Status, _ = disruption.Evaluate(pdb, pods, zk, now)

	for _, p := range pods[:2] {
		ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		d := disruption.Evict(p, ev, []*api.PodDisruptionBudget{pdb}, disruption.EvictOptions{}, now)
		fmt.Printf("evict %s: %d %s\n", p.Name, d.Code, d.Rule)
		for _, c := range d.Causes {
			fmt.Println("  ", c)
		}
		if d.BudgetUpdated {
			pdb.Status = *d.BudgetStatus
			fmt.Printf("   budget now allows %d, %s recorded as disrupted\n", pdb.Status.DisruptionsAllowed, p.Name)
		}
	}
	// Output:
	// evict zk-0: 201 BudgetAllows
	//    budget now allows 0, zk-0 recorded as disrupted
	// evict zk-1: 429 BudgetExhausted
	//    DisruptionBudget: The disruption budget zk-pdb needs 2 healthy pods and has 3 currently
}

// With unhealthyPodEvictionPolicy AlwaysAllow, a pod that is not Ready can
// be evicted even though the budget allows no disruption.
func ExampleEvict_alwaysAllow() {
	pods := zkPods(false)
	pdb := zkBudget(ptr(api.FromInt32(3)), nil)
	pdb.Spec.UnhealthyPodEvictionPolicy = ptr(api.AlwaysAllow)
	pdb.Status, _ = disruption.Evaluate(pdb, pods, zk, time.Now())
	ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: "zk-2", Namespace: "default"}}
	d := disruption.Evict(pods[2], ev, []*api.PodDisruptionBudget{pdb}, disruption.EvictOptions{}, time.Now())
	fmt.Println(d.Code, d.Rule, "budget charged:", d.BudgetUpdated, "precondition resourceVersion:", *d.DeleteOptions.Preconditions.ResourceVersion)
	// Output:
	// 201 UnhealthyAlwaysAllow budget charged: false precondition resourceVersion: 43
}

// `kubectl drain node-1` with no flags refuses to proceed: a DaemonSet
// pod, a bare pod and a pod with an emptyDir volume are in the way.
func ExamplePlanDrain() {
	ctl := func(kind, name string) []api.OwnerReference {
		return []api.OwnerReference{{APIVersion: "apps/v1", Kind: kind, Name: name, Controller: ptr(true)}}
	}
	pods := []*api.Pod{
		{ObjectMeta: api.ObjectMeta{Name: "web-7d9f-abcde", Namespace: "default", OwnerReferences: ctl("ReplicaSet", "web-7d9f")}},
		{ObjectMeta: api.ObjectMeta{Name: "kube-proxy-x1", Namespace: "kube-system", OwnerReferences: ctl("DaemonSet", "kube-proxy")}},
		{ObjectMeta: api.ObjectMeta{Name: "bare", Namespace: "default"}},
		{ObjectMeta: api.ObjectMeta{Name: "cache-0", Namespace: "default", OwnerReferences: ctl("StatefulSet", "cache")},
			Spec: api.PodSpec{Volumes: []api.Volume{{Name: "scratch", VolumeSource: api.VolumeSource{EmptyDir: &api.EmptyDirVolumeSource{}}}}}},
	}
	for _, p := range pods {
		p.Spec.NodeName = "node-1"
		p.Status.Phase = api.PodRunning
	}
	ds := []*api.DaemonSet{{ObjectMeta: api.ObjectMeta{Name: "kube-proxy", Namespace: "kube-system"}}}

	for _, flags := range []disruption.DrainFlags{
		{EvictionGroupVersion: "policy/v1"},
		{EvictionGroupVersion: "policy/v1", IgnoreAllDaemonSets: true, DeleteEmptyDirData: true, Force: true},
	} {
		plan := disruption.PlanDrain("node-1", pods, ds, flags, time.Now())
		fmt.Printf("--ignore-daemonsets=%v --delete-emptydir-data=%v --force=%v (%s)\n", flags.IgnoreAllDaemonSets, flags.DeleteEmptyDirData, flags.Force, plan.Method())
		for _, d := range plan.Pods {
			fmt.Println(strings.TrimRight(fmt.Sprintf("  %-28s delete=%-5v %s %s", d.Pod.Key(), d.Delete, d.Reason, d.Message), " "))
		}
		for _, w := range plan.Warnings {
			fmt.Println("  Warning:", w)
		}
		for _, e := range plan.Errors {
			fmt.Println("  error:", e)
		}
	}
	// Output:
	// --ignore-daemonsets=false --delete-emptydir-data=false --force=false (evict policy/v1)
	//   default/bare                 delete=false Error Pods that declare no controller (use --force to override)
	//   default/cache-0              delete=false Error Pods with local storage (use --delete-emptydir-data to override)
	//   default/web-7d9f-abcde       delete=true  Okay
	//   kube-system/kube-proxy-x1    delete=false Error DaemonSet-managed Pods (use --ignore-daemonsets to ignore)
	//   error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/kube-proxy-x1
	//   error: cannot delete Pods that declare no controller (use --force to override): default/bare
	//   error: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache-0
	// --ignore-daemonsets=true --delete-emptydir-data=true --force=true (evict policy/v1)
	//   default/bare                 delete=true  Warning deleting Pods that declare no controller
	//   default/cache-0              delete=true  Okay
	//   default/web-7d9f-abcde       delete=true  Okay
	//   kube-system/kube-proxy-x1    delete=false Warning ignoring DaemonSet-managed Pods
	//   Warning: deleting Pods that declare no controller: default/bare
	//   Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-x1
}

// The disruption controller resets a DisruptionTarget condition left on a
// pod that was never deleted, two minutes after it was set.
func ExampleStaleDisruption() {
	now := time.Date(2025, 3, 3, 8, 0, 0, 0, time.UTC)
	pod := zkPods(true)[0]
	pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{
		Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: api.PodReasonEvictionByEvictionAPI,
		LastTransitionTime: api.NewTime(now.Add(-45 * time.Second)),
	})
	stale, in := disruption.StaleDisruption(pod, now)
	fmt.Println(stale, in)
	// Output:
	// true 1m15s
}

// Two budgets select the pod: a pod event reaches the disruption
// controller's sync of the first by name only, and the controller records
// a Warning on the pod. The second budget's status stays as its last sync
// left it (the Eviction API refuses to evict such a pod).
func ExampleBudgetForPod() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "shop", Labels: map[string]string{"app": "web", "tier": "front"}}}
	byTier := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "by-tier", Namespace: "shop"},
		Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"tier": "front"}}}}
	byApp := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "by-app", Namespace: "shop"},
		Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	pdb, ev := disruption.BudgetForPod(pod, []*api.PodDisruptionBudget{byTier, byApp})
	fmt.Println("synced:", pdb.Name)
	fmt.Println(ev.Type, ev.Reason+":", ev.Note)
	// Output:
	// synced: by-app
	// Warning MultiplePodDisruptionBudgets: Pod "shop"/"web-1" matches multiple PodDisruptionBudgets.  Chose "by-app" arbitrarily.
}
