package disruption

import (
	"encoding/json"
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzPlanDrainSelector feeds arbitrary --pod-selector strings to the drain
// planner: it must answer (a plan or a list error), never panic.
func FuzzPlanDrainSelector(f *testing.F) {
	for _, s := range []string{"", "app=web", "app in (", "!tier", "app in (web,agent),tier=be", "a b", "a=b,", "x notin (a,,b)", "k>3", "=="} {
		f.Add(s)
	}
	pods := []*api.Pod{newPod("a"), newPod("b", labels("tier", "fe"))}
	f.Fuzz(func(t *testing.T, sel string) {
		plan := PlanDrain("node-1", pods, nil, DrainFlags{PodSelector: sel}, t0)
		if plan.ListError != nil && (len(plan.Errors) != 1 || plan.Pods != nil) {
			t.Fatalf("list error plan %+v", plan)
		}
	})
}

// FuzzEvaluate decodes arbitrary budgets (minAvailable/maxUnavailable
// strings, selectors, statuses) and evaluates them: bad values must fail
// the sync safely, never panic.
func FuzzEvaluate(f *testing.F) {
	for _, s := range []string{
		`{"metadata":{"namespace":"ns-1"},"spec":{"minAvailable":"50%","selector":{"matchLabels":{"app":"web"}}}}`,
		`{"metadata":{"namespace":"ns-1"},"spec":{"maxUnavailable":"x%","selector":{}}}`,
		`{"metadata":{"namespace":"ns-1"},"spec":{"maxUnavailable":-3,"selector":{"matchExpressions":[{"key":"app","operator":"In"}]}}}`,
		`{"metadata":{"namespace":"ns-1"},"spec":{"minAvailable":"-200%"},"status":{"disruptedPods":{"zk-0":"2025-03-01T07:59:00Z"}}}`,
	} {
		f.Add(s)
	}
	pods := ssPods("zk", 3)
	c := Controllers{StatefulSets: []*api.StatefulSet{statefulSet("zk", 3)}}
	f.Fuzz(func(t *testing.T, doc string) {
		var pdb api.PodDisruptionBudget
		if json.Unmarshal([]byte(doc), &pdb) != nil {
			return
		}
		st, res := Evaluate(&pdb, pods, c, t0)
		if st.DisruptionsAllowed < 0 {
			t.Fatalf("negative disruptionsAllowed: %+v (%s)", st, res)
		}
		if res.SyncFailed && res.Err == nil {
			t.Fatal("failed sync without an error")
		}
	})
}
