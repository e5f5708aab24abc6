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
// budget is a failed sync whose error wraps disruption.ErrInvalidInput, and
// so is a nil node, ReplicaSet or StatefulSet where there is an error
// result; a nil status, node or pod elsewhere gives the zero value, as do
// the methods of a nil NodeMonitor or TaintEviction; an Eviction without a
// pod is 404 and without a body 400, as the API server answers; nil
// elements of lists are skipped. Keyed by the
// names niltest.Nilable lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*NodeMonitor).NodeNotReady": func(t *testing.T) {
		niltest.Zero(t, (*disruption.NodeMonitor)(nil).NodeNotReady("n1"))
	},
	"(*NodeMonitor).Observe": func(t *testing.T) {
		r, err := (*disruption.NodeMonitor)(nil).Observe(&api.Node{}, nilT0, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "node monitor")
		r, err = disruption.NewNodeMonitor(disruption.NodeLifecycleConfig{}).Observe(nil, nilT0, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "node")
	},
	"(*NodeLifecycle).MonitorPass": func(t *testing.T) {
		r, err := (*disruption.NodeLifecycle)(nil).MonitorPass([]*api.Node{{}}, nil, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "node lifecycle")
		c := disruption.NewNodeLifecycle(disruption.NodeLifecycleConfig{})
		r, err = c.MonitorPass([]*api.Node{{}, nil}, nil, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "nodes[1]")
	},
	"(*NodeLifecycle).TaintPass": func(t *testing.T) {
		r, err := (*disruption.NodeLifecycle)(nil).TaintPass(nil, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "node lifecycle")
		r, err = disruption.NewNodeLifecycle(disruption.NodeLifecycleConfig{}).TaintPass([]*api.Node{nil}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "nodes[0]")
	},
	"(*TaintEviction).NextEviction": func(t *testing.T) {
		at, ok := (*disruption.TaintEviction)(nil).NextEviction()
		niltest.Zero(t, at, ok)
	},
	"(*TaintEviction).NodeDeleted": func(t *testing.T) {
		niltest.Zero(t, (*disruption.TaintEviction)(nil).NodeDeleted("n1", nilT0))
	},
	"(*TaintEviction).NodeUpdated": func(t *testing.T) {
		niltest.Zero(t, (*disruption.TaintEviction)(nil).NodeUpdated(&api.Node{}, nilT0))
		niltest.Zero(t, disruption.NewTaintEviction().NodeUpdated(nil, nilT0))
	},
	"(*TaintEviction).Pending": func(t *testing.T) {
		at, ok := (*disruption.TaintEviction)(nil).Pending("shop", "web")
		niltest.Zero(t, at, ok)
	},
	"(*TaintEviction).PodDeleted": func(t *testing.T) {
		niltest.Zero(t, (*disruption.TaintEviction)(nil).PodDeleted("shop", "web", nilT0))
	},
	"(*TaintEviction).PodUpdated": func(t *testing.T) {
		niltest.Zero(t, (*disruption.TaintEviction)(nil).PodUpdated(nilRunningPod(), nilT0))
		niltest.Zero(t, disruption.NewTaintEviction().PodUpdated(nil, nilT0))
	},
	"(*TaintEviction).Tick": func(t *testing.T) {
		niltest.Zero(t, (*disruption.TaintEviction)(nil).Tick(nilT0))
	},
	"ConditionTaints": func(t *testing.T) {
		niltest.Zero(t, disruption.ConditionTaints(nil))
	},
	"EvaluateNoExecute": func(t *testing.T) {
		// No taints: nothing to evict for, whatever the tolerations.
		if d := disruption.EvaluateNoExecute(nil, nil); d.Outcome != disruption.NoExecuteNoTaints {
			t.Errorf("got %+v, want NoTaints", d)
		}
	},
	"MarkPodNotReady": func(t *testing.T) {
		if got := disruption.MarkPodNotReady(nil, nilT0); got != nil {
			t.Errorf("got %+v, want nil", got)
		}
	},
	"NoExecuteTaintPass": func(t *testing.T) {
		niltest.Zero(t, disruption.NoExecuteTaintPass(nil, nilT0))
	},
	"NoExecuteTaints": func(t *testing.T) {
		if got := disruption.NoExecuteTaints(nil); got == nil || len(got) != 0 {
			t.Errorf("got %#v, want an empty, non-nil slice", got)
		}
	},
	"NoScheduleTaintPass": func(t *testing.T) {
		niltest.Zero(t, disruption.NoScheduleTaintPass(nil, nilT0))
	},
	"SyncReplicaSet": func(t *testing.T) {
		r, err := disruption.SyncReplicaSet(nil, nil)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "replicaset")
	},
	"SyncStatefulSet": func(t *testing.T) {
		r, err := disruption.SyncStatefulSet(nil, nil, disruption.StatefulSetConfig{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, disruption.ErrInvalidInput, "statefulset")
	},
	"TaintEvictionCondition": func(t *testing.T) {
		if got := disruption.TaintEvictionCondition(nil, nilT0); got != nil {
			t.Errorf("got %+v, want nil", got)
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
		niltest.Invalid(t, res.Err, disruption.ErrInvalidInput, "pdb")
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
