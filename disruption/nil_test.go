package disruption_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/internal/niltest"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func nilRunningPod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "n1"},
		Status:     api.PodStatus{Phase: api.PodRunning},
	}
}

// nilCases calls each exported function and method of disruption that can
// be handed nil with nil arguments and checks the documented answer: a nil
// budget is a failed sync whose error wraps api.ErrInvalidInput; a
// nil status or pod elsewhere gives the zero value; an Eviction without a
// pod is 404 and without a body 400, as the API server answers; nil
// elements of lists are skipped. Keyed by the
// names niltest.Nilable lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"BudgetForPod": func(t *testing.T) {
		if pdb, ev := disruption.BudgetForPod(nil, nil); pdb != nil || ev != nil {
			t.Errorf("nil pod: got %v, %v; want none", pdb, ev)
		}
		if pdb, ev := disruption.BudgetForPod(nilRunningPod(), []*api.PodDisruptionBudget{nil}); pdb != nil || ev != nil {
			t.Errorf("nil budgets: got %v, %v; want none", pdb, ev)
		}
	},
	"DisruptionAllowed": func(t *testing.T) {
		niltest.Zero(t, disruption.DisruptionAllowed(nil))
	},
	"Evaluate": func(t *testing.T) {
		st, res := disruption.Evaluate(nil, []*api.Pod{nilRunningPod()}, disruption.Controllers{}, nilT0)
		if !res.SyncFailed || st.DisruptionsAllowed != 0 {
			t.Errorf("nil budget: got %+v, %s; want a failed sync", st, res)
		}
		niltest.Invalid(t, res.Err, api.ErrInvalidInput, "pdb")
		pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "pdb", Namespace: "shop"},
			Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
		ctrls := disruption.Controllers{ReplicationControllers: []*api.ReplicationController{nil}, ReplicaSets: []*api.ReplicaSet{nil},
			Deployments: []*api.Deployment{nil}, StatefulSets: []*api.StatefulSet{nil}}
		if _, res := disruption.Evaluate(pdb, []*api.Pod{nil}, ctrls, nilT0); res.SyncFailed || len(res.Selected) != 0 {
			t.Errorf("nil pods and controllers: got %s, want them skipped", res)
		}
	},
	"Evict": func(t *testing.T) {
		ev := &api.Eviction{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"}}
		if d := disruption.Evict(nilRunningPod(), nil, nil, disruption.EvictOptions{}, nilT0); d.Allowed || d.Code != 400 {
			t.Errorf("nil eviction: got %s, want 400", d)
		}
		if d := disruption.Evict(nil, ev, nil, disruption.EvictOptions{}, nilT0); d.Allowed || d.Code != 404 {
			t.Errorf("nil pod: got %s, want 404", d)
		}
		if d := disruption.Evict(nilRunningPod(), ev, []*api.PodDisruptionBudget{nil}, disruption.EvictOptions{}, nilT0); !d.Allowed {
			t.Errorf("nil budgets only: got %s, want the eviction allowed", d)
		}
	},
	"PlanDrain": func(t *testing.T) {
		plan := disruption.PlanDrain("n1", []*api.Pod{nil}, []*api.DaemonSet{nil}, disruption.DrainFlags{}, nilT0)
		if len(plan.Pods) != 0 || plan.Blocked() || plan.ListError != nil {
			t.Errorf("nil pods and DaemonSets: got %+v, want an empty plan", plan)
		}
	},
	"StaleDisruption": func(t *testing.T) {
		stale, in := disruption.StaleDisruption(nil, nilT0)
		niltest.Zero(t, stale, in)
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// disruption that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
