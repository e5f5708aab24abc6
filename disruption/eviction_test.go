package disruption

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func budget(allowed, healthy, desired int32, mods ...func(*api.PodDisruptionBudget)) *api.PodDisruptionBudget {
	b := pdbMin(api.FromInt32(desired))
	b.Status = api.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: allowed, CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: healthy}
	for _, m := range mods {
		m(b)
	}
	return b
}

func policy(p api.UnhealthyPodEvictionPolicy) func(*api.PodDisruptionBudget) {
	return func(b *api.PodDisruptionBudget) { b.Spec.UnhealthyPodEvictionPolicy = &p }
}

func evictionOf(name string, o *api.DeleteOptions) *api.Eviction {
	return &api.Eviction{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns-1"}, DeleteOptions: o}
}

func TestEvict(t *testing.T) {
	renamed := func(b *api.PodDisruptionBudget) { b.Name = "pdb-2" }
	behind := func(b *api.PodDisruptionBudget) { b.Generation = 2 }
	other := func(b *api.PodDisruptionBudget) {
		b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	}
	tests := []struct {
		name         string
		pod          *api.Pod
		ev           *api.Eviction
		pdbs         []*api.PodDisruptionBudget
		dryRun       []string
		code         int
		rule         Rule
		charged      bool
		rvPrecond    string // "" = none expected
		conditionSet bool
	}{
		{"budget has room", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(1, 3, 2)}, nil, 201, RuleBudgetAllows, true, "", true},
		{"budget exhausted", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 2, 2)}, nil, 429, RuleBudgetExhausted, false, "", false},
		{"two budgets", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(1, 3, 2), budget(1, 3, 2, renamed)}, nil, 500, RuleMultipleBudgets, false, "", false},
		{"budget not observed", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(1, 3, 2, behind)}, nil, 429, RuleBudgetNotObserved, false, "", false},
		{"negative budget", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(-1, 3, 2)}, nil, 403, RuleBudgetNegative, false, "", false},
		{"no budget selects it", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 0, 2, other)}, nil, 201, RuleNoBudget, false, "", true},
		{"succeeded pod ignores budgets", newPod("web-1", phase(api.PodSucceeded)), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(-1, 0, 2)}, nil, 201, RuleBudgetIgnored, false, "", true},
		{"pending pod ignores budgets, pinned", newPod("web-1", phase(api.PodPending)), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 0, 2)}, nil, 201, RuleBudgetIgnored, false, "11", true},
		{"terminating pod ignores budgets", newPod("web-1", terminating), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 0, 2)}, nil, 201, RuleBudgetIgnored, false, "", true},
		{"unknown phase is checked", newPod("web-1", phase(api.PodUnknown)), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 2, 2)}, nil, 429, RuleBudgetExhausted, false, "", false},
		{"unready, AlwaysAllow", newPod("web-1", unready), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 0, 2, policy(api.AlwaysAllow))}, nil, 201, RuleUnhealthyAlwaysAllow, false, "11", true},
		{"unready, healthy budget", newPod("web-1", unready), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 2, 2)}, nil, 201, RuleUnhealthyHealthyBudget, false, "11", true},
		{"unready, unhealthy budget", newPod("web-1", unready), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 1, 2, policy(api.IfHealthyBudget))}, nil, 429, RuleBudgetExhausted, false, "", false},
		{"unready, desired zero uses the budget", newPod("web-1", unready), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(1, 1, 0)}, nil, 201, RuleBudgetAllows, true, "", true},
		{"pod not found", newPod("web-1"), evictionOf("web-2", nil), nil, nil, 404, RulePodNotFound, false, "", false},
		{"nil pod", nil, evictionOf("web-1", nil), nil, nil, 404, RulePodNotFound, false, "", false},
		{"uid precondition", newPod("web-1"), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr("x")}}), nil, nil, 409, RuleNoBudget, false, "", false},
		{"stale resourceVersion", newPod("web-1", phase(api.PodPending)), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{ResourceVersion: ptr("9")}}), nil, nil, 409, RuleBudgetIgnored, false, "", false},
		{"matching resourceVersion follows the condition write", newPod("web-1"), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{ResourceVersion: ptr("10")}}), nil, nil, 201, RuleNoBudget, false, "11", true},
		{"unready bypass overrides a stale resourceVersion", newPod("web-1", unready), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{ResourceVersion: ptr("3")}}), []*api.PodDisruptionBudget{budget(0, 0, 2, policy(api.AlwaysAllow))}, nil, 201, RuleUnhealthyAlwaysAllow, false, "11", true},
		{"unready bypass with a uid conflict retries as 429", newPod("web-1", unready), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr("x")}}), []*api.PodDisruptionBudget{budget(0, 0, 2, policy(api.AlwaysAllow))}, nil, 429, RuleUnhealthyAlwaysAllow, false, "", false},
		{"dry run charges nothing", newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(1, 3, 2)}, []string{"All"}, 201, RuleBudgetAllows, false, "", false},
		{"dry run mismatch", newPod("web-1"), evictionOf("web-1", &api.DeleteOptions{DryRun: []string{"All"}}), nil, []string{"Other"}, 500, RuleDryRunMismatch, false, "", false},
		{"ignoreStoreReadError is refused", newPod("web-1"), evictionOf("web-1", &api.DeleteOptions{IgnoreStoreReadErrorWithClusterBreakingPotential: ptr(true)}), nil, nil, 422, RuleInvalidOptions, false, "", false},
		{"nil eviction", newPod("web-1"), nil, nil, nil, 400, RuleBadRequest, false, "", false},
		// Found by differential testing against the v1.36.3 eviction handler.
		{"terminating pending pod is not pinned", newPod("web-1", phase(api.PodPending), terminating), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 0, 2)}, nil, 201, RuleBudgetIgnored, false, "", true},
		{"empty uid precondition conflicts only at the delete", newPod("web-1"), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr("")}}), nil, nil, 409, RuleNoBudget, false, "", true},
		{"empty resourceVersion precondition follows the condition write", newPod("web-1", phase(api.PodSucceeded)), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{ResourceVersion: ptr("")}}), nil, nil, 201, RuleBudgetIgnored, false, "11", true},
		{"empty resourceVersion precondition in dry run conflicts", newPod("web-1", phase(api.PodSucceeded)), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{ResourceVersion: ptr("")}}), nil, []string{"All"}, 409, RuleBudgetIgnored, false, "", false},
		{"ignoreStoreReadError is refused before a dry-run mismatch", newPod("web-1"), evictionOf("web-1", &api.DeleteOptions{DryRun: []string{"All"}, IgnoreStoreReadErrorWithClusterBreakingPotential: ptr(true)}), nil, []string{"Other"}, 422, RuleInvalidOptions, false, "", false},
		{"unready bypass, empty uid: 429 after the condition write", newPod("web-1", unready), evictionOf("web-1", &api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr("")}}), []*api.PodDisruptionBudget{budget(0, 0, 2, policy(api.AlwaysAllow))}, nil, 429, RuleUnhealthyAlwaysAllow, false, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Evict(tc.pod, tc.ev, tc.pdbs, EvictOptions{DryRun: tc.dryRun}, t0)
			if d.Code != tc.code || d.Rule != tc.rule {
				t.Fatalf("got %s, want %d %s", d, tc.code, tc.rule)
			}
			if d.Allowed != (tc.code == 201) || d.Deleted != d.Allowed {
				t.Errorf("allowed %v deleted %v for code %d", d.Allowed, d.Deleted, d.Code)
			}
			if d.BudgetUpdated != tc.charged {
				t.Errorf("budget updated = %v, want %v", d.BudgetUpdated, tc.charged)
			}
			if tc.charged {
				before := tc.pdbs[0].Status.DisruptionsAllowed
				if d.BudgetStatus.DisruptionsAllowed != before-1 {
					t.Errorf("disruptionsAllowed %d after %d", d.BudgetStatus.DisruptionsAllowed, before)
				}
				if got := d.BudgetStatus.DisruptedPods["web-1"]; !got.Equal(t0) {
					t.Errorf("disruptedPods entry %v, want now", got)
				}
				if tc.pdbs[0].Status.DisruptedPods != nil {
					t.Error("Evict modified the input budget")
				}
			}
			if (d.DisruptionTarget != nil) != tc.conditionSet {
				t.Errorf("DisruptionTarget %+v, want set=%v", d.DisruptionTarget, tc.conditionSet)
			}
			if d.DisruptionTarget != nil && (d.DisruptionTarget.Reason != api.PodReasonEvictionByEvictionAPI || d.DisruptionTarget.Status != api.ConditionTrue) {
				t.Errorf("DisruptionTarget %+v", d.DisruptionTarget)
			}
			var rv string
			if d.DeleteOptions != nil && d.DeleteOptions.Preconditions != nil && d.DeleteOptions.Preconditions.ResourceVersion != nil {
				rv = *d.DeleteOptions.Preconditions.ResourceVersion
			}
			if rv != tc.rvPrecond {
				t.Errorf("resourceVersion precondition %q, want %q", rv, tc.rvPrecond)
			}
			if d.String() == "" {
				t.Error("empty explanation")
			}
		})
	}
}

func TestEvictMessages(t *testing.T) {
	d := Evict(newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(0, 2, 2)}, EvictOptions{}, t0)
	if d.Message != "Cannot evict pod as it would violate the pod's disruption budget." ||
		len(d.Causes) != 1 || d.Causes[0].String() != "DisruptionBudget: The disruption budget pdb needs 2 healthy pods and has 2 currently" {
		t.Errorf("got %q %v", d.Message, d.Causes)
	}
	failed := budget(0, 2, 2, func(b *api.PodDisruptionBudget) {
		b.Status.Conditions = []api.Condition{{Type: ConditionDisruptionAllowed, Status: api.ConditionFalse, Reason: ReasonSyncFailed, Message: "found no controllers for pod \"web-1\""}}
	})
	d = Evict(newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{failed}, EvictOptions{}, t0)
	if want := "The disruption budget pdb does not allow evicting pods currently because it failed sync: found no controllers for pod \"web-1\""; len(d.Causes) != 1 || d.Causes[0].Message != want {
		t.Errorf("causes %v, want one: %q", d.Causes, want)
	}
	d = Evict(newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{budget(-1, 2, 2)}, EvictOptions{}, t0)
	if d.Message != `poddisruptionbudget.policy "pdb" is forbidden: pdb disruptions allowed is negative` {
		t.Errorf("message %q", d.Message)
	}
	many := budget(5, 9, 2, func(b *api.PodDisruptionBudget) {
		b.Status.DisruptedPods = map[string]api.Time{}
		for i := range MaxDisruptedPods + 1 {
			b.Status.DisruptedPods[string(rune('a'+i%26))+time.Duration(i).String()] = api.NewTime(t0)
		}
	})
	if d = Evict(newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{many}, EvictOptions{}, t0); d.Rule != RuleTooManyDisrupted || d.Code != 403 {
		t.Errorf("too many disrupted pods: %s", d)
	}
}

func TestEvictLastDisruptionFlipsCondition(t *testing.T) {
	b := budget(1, 3, 2, func(b *api.PodDisruptionBudget) {
		b.Status.Conditions = []api.Condition{{Type: ConditionDisruptionAllowed, Status: api.ConditionTrue, Reason: ReasonSufficientPods, LastTransitionTime: api.NewTime(t0.Add(-time.Hour))}}
	})
	d := Evict(newPod("web-1"), evictionOf("web-1", nil), []*api.PodDisruptionBudget{b}, EvictOptions{}, t0)
	c := api.FindStatusCondition(d.BudgetStatus.Conditions, ConditionDisruptionAllowed)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != ReasonInsufficientPods || !c.LastTransitionTime.Equal(t0) {
		t.Errorf("condition after last disruption: %+v", c)
	}
	if b.Status.Conditions[0].Status != api.ConditionTrue {
		t.Error("Evict modified the input conditions")
	}
}

func TestStaleDisruption(t *testing.T) {
	cond := func(reason string, at time.Time) podOpt {
		return func(p *api.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: reason, LastTransitionTime: api.NewTime(at)})
		}
	}
	for _, tc := range []struct {
		name  string
		pod   *api.Pod
		stale bool
		in    time.Duration
	}{
		{"fresh", newPod("a", cond(api.PodReasonEvictionByEvictionAPI, t0.Add(-30*time.Second))), true, 90 * time.Second},
		{"expired", newPod("a", cond(api.PodReasonPreemptionByScheduler, t0.Add(-5*time.Minute))), true, 0},
		{"kubelet's is never stale", newPod("a", cond(api.PodReasonTerminationByKubelet, t0.Add(-5*time.Minute))), false, 0},
		{"terminating", newPod("a", terminating, cond(api.PodReasonEvictionByEvictionAPI, t0.Add(-5*time.Minute))), false, 0},
		{"finished", newPod("a", phase(api.PodFailed), cond(api.PodReasonEvictionByEvictionAPI, t0.Add(-5*time.Minute))), false, 0},
		{"no condition", newPod("a"), false, 0},
		{"nil", nil, false, 0},
	} {
		stale, in := StaleDisruption(tc.pod, t0)
		if stale != tc.stale || in != tc.in {
			t.Errorf("%s: stale %v in %v, want %v %v", tc.name, stale, in, tc.stale, tc.in)
		}
	}
	if c := ResetDisruption(t0); c.Status != api.ConditionFalse || c.Type != api.DisruptionTarget {
		t.Errorf("reset %+v", c)
	}
}
