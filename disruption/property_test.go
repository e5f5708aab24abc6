package disruption

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// drawPods draws pods of one StatefulSet "web" (3..), a few bare or
// db-labelled ones, in random states.
func drawPods(t *rapid.T, n int) []*api.Pod {
	pods := make([]*api.Pod, 0, n)
	for i := range n {
		var opts []podOpt
		switch rapid.IntRange(0, 5).Draw(t, "owner") {
		case 0:
		case 1:
			opts = append(opts, labels("app", "db"))
		default:
			opts = append(opts, ownedBy("StatefulSet", "apps/v1", "web", "uid-web"))
		}
		switch rapid.IntRange(0, 9).Draw(t, "state") {
		case 0:
			opts = append(opts, unready)
		case 1:
			opts = append(opts, phase(rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodSucceeded, api.PodFailed, api.PodUnknown}).Draw(t, "phase")))
		case 2:
			opts = append(opts, terminating)
		}
		if rapid.IntRange(0, 9).Draw(t, "ns") == 0 {
			opts = append(opts, namespace("ns-2"))
		}
		pods = append(pods, newPod(fmt.Sprintf("p-%d", i), opts...))
	}
	return pods
}

func drawBudget(t *rapid.T, pods []*api.Pod) *api.PodDisruptionBudget {
	var v api.IntOrString
	if rapid.Bool().Draw(t, "percent") {
		v = api.FromString(fmt.Sprintf("%d%%", rapid.IntRange(0, 100).Draw(t, "pct")))
	} else {
		v = api.FromInt32(int32(rapid.IntRange(0, 8).Draw(t, "int")))
	}
	b := pdbMin(v)
	if rapid.Bool().Draw(t, "max") {
		b = pdbMax(v)
	}
	if rapid.IntRange(0, 4).Draw(t, "empty-selector") == 0 {
		b.Spec.Selector = &api.LabelSelector{}
	}
	if len(pods) > 0 && rapid.Bool().Draw(t, "disrupted") {
		b.Status.DisruptedPods = map[string]api.Time{}
		for range rapid.IntRange(1, 3).Draw(t, "entries") {
			p := rapid.SampledFrom(pods).Draw(t, "disrupted-pod")
			b.Status.DisruptedPods[p.Name] = api.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 240).Draw(t, "age-s")) * time.Second))
		}
	}
	return b
}

func webSet(t *rapid.T) Controllers {
	return Controllers{StatefulSets: []*api.StatefulSet{statefulSet("web", int32(rapid.IntRange(0, 10).Draw(t, "replicas")))}}
}

// Evaluate's answer does not depend on the order of the pods, and the same
// input always gives the same answer.
func TestEvaluateOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawPods(t, rapid.IntRange(0, 12).Draw(t, "n"))
		b, c := drawBudget(t, pods), webSet(t)
		st1, r1 := Evaluate(b, pods, c, t0)
		st2, _ := Evaluate(b, pods, c, t0)
		if d := cmp.Diff(st1, st2); d != "" {
			t.Fatalf("not deterministic:\n%s", d)
		}
		perm := rapid.Permutation(pods).Draw(t, "perm")
		st3, r3 := Evaluate(b, perm, c, t0)
		if d := cmp.Diff(st1, st3); d != "" {
			t.Fatalf("depends on pod order:\n%s", d)
		}
		if r1.SyncFailed != r3.SyncFailed || r1.Reason != r3.Reason {
			t.Fatalf("result depends on pod order: %s vs %s", r1, r3)
		}
	})
}

// The status Evaluate writes is consistent: nothing allowed below the
// floor, never negative, nothing when nothing is expected.
func TestEvaluateInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawPods(t, rapid.IntRange(0, 12).Draw(t, "n"))
		b, c := drawBudget(t, pods), webSet(t)
		st, res := Evaluate(b, pods, c, t0)
		if st.DisruptionsAllowed < 0 {
			t.Fatalf("negative disruptionsAllowed %d", st.DisruptionsAllowed)
		}
		if res.SyncFailed {
			return
		}
		if st.DisruptionsAllowed > 0 && st.CurrentHealthy-st.DisruptionsAllowed != st.DesiredHealthy {
			t.Fatalf("allowed %d with healthy %d desired %d", st.DisruptionsAllowed, st.CurrentHealthy, st.DesiredHealthy)
		}
		if st.ExpectedPods == 0 && st.DisruptionsAllowed != 0 {
			t.Fatalf("allowed %d with no expected pods", st.DisruptionsAllowed)
		}
		if int(st.CurrentHealthy) > len(res.Selected) {
			t.Fatalf("healthy %d of %d selected", st.CurrentHealthy, len(res.Selected))
		}
		for name, at := range st.DisruptedPods {
			if at.Add(DeletionTimeout).Before(t0) || !slices.Contains(res.Selected, name) {
				t.Fatalf("kept stale disruptedPods entry %s at %v", name, at)
			}
		}
	})
}

// An eviction the budget pays for lowers disruptionsAllowed by exactly one
// and never below zero; a budget with no room never lets a healthy running
// pod go.
func TestEvictNeverBreaksTheBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var opts []podOpt
		if rapid.Bool().Draw(t, "unready") {
			opts = append(opts, unready)
		}
		opts = append(opts, phase(rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodRunning, api.PodUnknown, api.PodPending, api.PodSucceeded}).Draw(t, "phase")))
		if rapid.IntRange(0, 5).Draw(t, "terminating") == 0 {
			opts = append(opts, terminating)
		}
		pod := newPod("web-1", opts...)
		b := budget(int32(rapid.IntRange(-1, 3).Draw(t, "allowed")), int32(rapid.IntRange(0, 5).Draw(t, "healthy")), int32(rapid.IntRange(0, 5).Draw(t, "desired")))
		if rapid.Bool().Draw(t, "always") {
			policy(api.AlwaysAllow)(b)
		}
		b.Generation = int64(rapid.IntRange(1, 2).Draw(t, "generation"))
		var dry []string
		if rapid.Bool().Draw(t, "dry") {
			dry = []string{"All"}
		}
		d := Evict(pod, evictionOf("web-1", nil), []*api.PodDisruptionBudget{b}, EvictOptions{DryRun: dry}, t0)

		if d.BudgetUpdated {
			if !d.Allowed || d.BudgetStatus.DisruptionsAllowed != b.Status.DisruptionsAllowed-1 || d.BudgetStatus.DisruptionsAllowed < 0 {
				t.Fatalf("budget %d -> %d (%s)", b.Status.DisruptionsAllowed, d.BudgetStatus.DisruptionsAllowed, d)
			}
		}
		if d.Rule == RuleBudgetAllows && b.Status.DisruptionsAllowed < 1 {
			t.Fatalf("charged a budget with %d disruptions allowed", b.Status.DisruptionsAllowed)
		}
		healthyRunning := pod.Status.Phase == api.PodRunning && api.IsPodReady(pod) && pod.DeletionTimestamp == nil
		if healthyRunning && b.Status.DisruptionsAllowed <= 0 && d.Allowed {
			t.Fatalf("evicted a healthy pod from a budget with %d allowed (%s)", b.Status.DisruptionsAllowed, d)
		}
		if d.Allowed != (d.Code == 201) || d.Deleted != d.Allowed {
			t.Fatalf("inconsistent decision %s", d)
		}
		if len(dry) > 0 && (d.BudgetUpdated || d.DisruptionTarget != nil) {
			t.Fatalf("dry run wrote something: %s", d)
		}
	})
}

// Driving the disruption controller and the Eviction API together, as a
// drain does: evictions of healthy pods never leave fewer healthy pods
// than the budget's floor.
func TestEvictionsKeepTheFloor(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "pods")
		pods := ssPods("web", n)
		for _, p := range pods {
			if rapid.IntRange(0, 4).Draw(t, "unready") == 0 {
				unready(p)
			}
		}
		b := pdbMin(api.FromInt32(int32(rapid.IntRange(0, n).Draw(t, "minAvailable"))))
		ctrl := Controllers{StatefulSets: []*api.StatefulSet{statefulSet("web", int32(n))}}
		now := t0
		for step := range rapid.IntRange(1, 3*n).Draw(t, "steps") {
			if rapid.Bool().Draw(t, "sync") {
				b.Status, _ = Evaluate(b, pods, ctrl, now)
			}
			i := rapid.IntRange(0, n-1).Draw(t, "victim")
			victim := pods[i]
			wasHealthy := api.IsPodReady(victim) && victim.DeletionTimestamp == nil
			d := Evict(victim, evictionOf(victim.Name, nil), []*api.PodDisruptionBudget{b}, EvictOptions{}, now)
			if d.BudgetUpdated {
				b.Status = *d.BudgetStatus
			}
			if d.Allowed && victim.DeletionTimestamp == nil {
				v := *victim
				v.DeletionTimestamp = api.NewTimePtr(now)
				pods[i] = &v
			}
			if d.Allowed && wasHealthy {
				healthy := 0
				for _, p := range pods {
					if api.IsPodReady(p) && p.DeletionTimestamp == nil {
						healthy++
					}
				}
				if int32(healthy) < b.Spec.MinAvailable.IntVal {
					t.Fatalf("step %d: evicting %s left %d healthy pods, floor %d (%s)", step, victim.Name, healthy, b.Spec.MinAvailable.IntVal, d)
				}
			}
			now = now.Add(time.Duration(rapid.IntRange(0, 90).Draw(t, "advance-s")) * time.Second)
		}
	})
}

// Drain's verdicts are one per pod on the node, in namespace/name order,
// and the pods it removes are exactly those marked Delete.
func TestPlanDrainShape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := drawPods(t, rapid.IntRange(0, 10).Draw(t, "n"))
		for _, p := range pods {
			if rapid.IntRange(0, 5).Draw(t, "ds") == 0 {
				ownedBy("DaemonSet", "apps/v1", rapid.SampledFrom([]string{"agent", "gone"}).Draw(t, "ds-name"), "u")(p)
			}
			if rapid.IntRange(0, 5).Draw(t, "emptydir") == 0 {
				emptyDir(p)
			}
		}
		flags := DrainFlags{
			Force: rapid.Bool().Draw(t, "force"), IgnoreAllDaemonSets: rapid.Bool().Draw(t, "ignore-ds"),
			DeleteEmptyDirData: rapid.Bool().Draw(t, "emptydir-data"), SkipWaitForDeleteTimeoutSeconds: rapid.IntRange(0, 90).Draw(t, "skip"),
		}
		plan := PlanDrain("node-1", rapid.Permutation(pods).Draw(t, "perm"), []*api.DaemonSet{daemonSet("ns-1", "agent")}, flags, t0)
		if len(plan.Pods) != len(pods) {
			t.Fatalf("%d verdicts for %d pods", len(plan.Pods), len(pods))
		}
		errs := 0
		for i, d := range plan.Pods {
			if i > 0 && plan.Pods[i-1].Pod.Key() > d.Pod.Key() {
				t.Fatalf("not in list order at %d", i)
			}
			if d.Delete != (d.Reason == DrainOkay || (d.Reason == DrainWarning && d.Message != MsgDaemonSetWarning)) {
				t.Fatalf("delete %v with %s %q", d.Delete, d.Reason, d.Message)
			}
			if d.Reason == DrainError {
				errs++
			}
		}
		if (errs > 0) != plan.Blocked() {
			t.Fatalf("%d error verdicts, errors %v", errs, plan.Errors)
		}
	})
}
