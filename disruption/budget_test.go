package disruption

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

func TestEvaluate(t *testing.T) {
	zk := Controllers{StatefulSets: []*api.StatefulSet{statefulSet("zk", 3)}}
	withUnready := append(ssPods("zk", 2), newPod("zk-2", ownedBy("StatefulSet", "apps/v1", "zk", "uid-zk"), unready))
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-rs", Namespace: "ns-1", UID: "uid-rs",
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "uid-dep", Controller: ptr(true)}}},
		Spec: api.ReplicaSetSpec{Replicas: ptr(int32(4))}}
	dep := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns-1", UID: "uid-dep"}, Spec: api.DeploymentSpec{Replicas: ptr(int32(5))}}
	depPods := []*api.Pod{
		newPod("web-a", ownedBy("ReplicaSet", "apps/v1", "web-rs", "uid-rs")),
		newPod("web-b", ownedBy("ReplicaSet", "apps/v1", "web-rs", "uid-rs")),
	}
	jobPods := []*api.Pod{newPod("job-a", ownedBy("Job", "batch/v1", "job", "uid-job"))}
	disrupted := pdbMin(api.FromInt32(1))
	disrupted.Status.DisruptedPods = map[string]api.Time{
		"zk-0":  api.NewTime(t0.Add(-time.Minute)),     // recent: zk-0 unhealthy, kept
		"zk-1":  api.NewTime(t0.Add(-3 * time.Minute)), // expired: dropped
		"ghost": api.NewTime(t0.Add(-time.Minute)),     // no such pod: dropped
	}

	tests := []struct {
		name                             string
		pdb                              *api.PodDisruptionBudget
		pods                             []*api.Pod
		ctrl                             Controllers
		expected, desired, healthy, allo int32
		reason                           string
		kept                             []string
	}{
		{"integer minAvailable", pdbMin(api.FromInt32(2)), ssPods("zk", 3), zk, 3, 2, 3, 1, ReasonSufficientPods, nil},
		{"maxUnavailable uses the scale", pdbMax(api.FromInt32(1)), ssPods("zk", 3), zk, 3, 2, 3, 1, ReasonSufficientPods, nil},
		{"unready pod is not healthy", pdbMin(api.FromInt32(2)), withUnready, zk, 3, 2, 2, 0, ReasonInsufficientPods, nil},
		{"percentage rounds up", pdbMin(api.FromString("50%")), ssPods("zk", 3), zk, 3, 2, 3, 1, ReasonSufficientPods, nil},
		{"maxUnavailable percentage rounds up", pdbMax(api.FromString("34%")), ssPods("zk", 3), zk, 3, 1, 3, 2, ReasonSufficientPods, nil},
		{"integer minAvailable counts finished and terminating pods",
			pdbMin(api.FromInt32(1)), []*api.Pod{newPod("a"), newPod("b", phase(api.PodSucceeded)), newPod("c", terminating)},
			Controllers{}, 3, 1, 2, 1, ReasonSufficientPods, nil},
		{"ReplicaSet under a Deployment counts the Deployment", pdbMax(api.FromInt32(1)), depPods,
			Controllers{ReplicaSets: []*api.ReplicaSet{rs}, Deployments: []*api.Deployment{dep}}, 5, 4, 2, 0, ReasonInsufficientPods, nil},
		{"no pods selected", pdbMin(api.FromInt32(0)), nil, zk, 0, 0, 0, 0, ReasonInsufficientPods, nil},
		{"neither field", &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "ns-1"}, Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{}}},
			ssPods("zk", 3), zk, 0, 0, 3, 0, ReasonInsufficientPods, nil},
		{"other namespaces do not count", pdbMin(api.FromInt32(1)), []*api.Pod{newPod("a"), newPod("b", namespace("ns-2"))},
			Controllers{}, 1, 1, 1, 0, ReasonInsufficientPods, nil},
		{"recent disruptions are unhealthy, old ones dropped", disrupted, ssPods("zk", 3), zk, 3, 1, 2, 1, ReasonSufficientPods, []string{"zk-0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, res := Evaluate(tc.pdb, tc.pods, tc.ctrl, t0)
			if res.SyncFailed {
				t.Fatalf("sync failed: %v", res.Err)
			}
			got := []int32{st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed}
			want := []int32{tc.expected, tc.desired, tc.healthy, tc.allo}
			if !slices.Equal(got, want) {
				t.Errorf("expected/desired/healthy/allowed = %v, want %v (%s)", got, want, res)
			}
			if res.Reason != tc.reason {
				t.Errorf("reason %s, want %s", res.Reason, tc.reason)
			}
			c := api.FindStatusCondition(st.Conditions, ConditionDisruptionAllowed)
			if c == nil || c.Reason != tc.reason || c.LastTransitionTime.IsZero() {
				t.Errorf("condition %+v, want reason %s with a transition time", c, tc.reason)
			}
			var kept []string
			for k := range st.DisruptedPods {
				kept = append(kept, k)
			}
			slices.Sort(kept)
			if !slices.Equal(kept, tc.kept) {
				t.Errorf("disruptedPods %v, want %v", kept, tc.kept)
			}
			if st.ObservedGeneration != tc.pdb.Generation {
				t.Errorf("observedGeneration %d, want %d", st.ObservedGeneration, tc.pdb.Generation)
			}
		})
	}

	t.Run("fail safe", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			pdb  *api.PodDisruptionBudget
			pods []*api.Pod
			ctrl Controllers
		}{
			{"Job owner has no scale", pdbMax(api.FromInt32(1)), jobPods, zk},
			{"missing StatefulSet", pdbMin(api.FromString("50%")), ssPods("gone", 2), zk},
			{"UID mismatch", pdbMin(api.FromString("50%")), ssPods("zk", 2), Controllers{StatefulSets: []*api.StatefulSet{{ObjectMeta: api.ObjectMeta{Name: "zk", Namespace: "ns-1", UID: "other"}}}}},
			{"bad percentage", pdbMin(api.FromString("half")), ssPods("zk", 2), zk},
			{"bad selector", &api.PodDisruptionBudget{Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"bad key!": "x"}}}}, nil, zk},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.pdb.Status = api.PodDisruptionBudgetStatus{ObservedGeneration: 0, DisruptionsAllowed: 3, CurrentHealthy: 7, DesiredHealthy: 4, ExpectedPods: 9}
				st, res := Evaluate(tc.pdb, tc.pods, tc.ctrl, t0)
				if !res.SyncFailed || res.Err == nil || res.Reason != ReasonSyncFailed {
					t.Fatalf("want a failed sync, got %s", res)
				}
				if st.DisruptionsAllowed != 0 || st.CurrentHealthy != 7 || st.DesiredHealthy != 4 || st.ExpectedPods != 9 {
					t.Errorf("fail safe must keep old counts and allow nothing: %+v", st)
				}
				c := api.FindStatusCondition(st.Conditions, ConditionDisruptionAllowed)
				if c == nil || c.Status != api.ConditionFalse || c.Reason != ReasonSyncFailed || c.Message != res.Err.Error() {
					t.Errorf("condition %+v", c)
				}
			})
		}
		_, res := Evaluate(pdbMin(api.FromString("50%")), ssPods("gone", 1), zk, t0)
		if !errors.Is(res.Err, ErrNoController) {
			t.Errorf("err %v does not wrap ErrNoController", res.Err)
		}
	})

	t.Run("nil selector selects nothing, empty selects all", func(t *testing.T) {
		b := pdbMin(api.FromInt32(1))
		b.Spec.Selector = nil
		st, _ := Evaluate(b, ssPods("zk", 3), zk, t0)
		if st.ExpectedPods != 0 {
			t.Errorf("nil selector: expected %d pods", st.ExpectedPods)
		}
		b.Spec.Selector = &api.LabelSelector{}
		st, _ = Evaluate(b, append(ssPods("zk", 3), newPod("db", labels("app", "db"))), zk, t0)
		if st.ExpectedPods != 4 {
			t.Errorf("empty selector: expected %d pods, want 4", st.ExpectedPods)
		}
	})

	t.Run("condition transition time kept when status unchanged", func(t *testing.T) {
		b := pdbMin(api.FromInt32(2))
		old := api.NewTime(t0.Add(-time.Hour))
		b.Status.Conditions = []api.Condition{{Type: ConditionDisruptionAllowed, Status: api.ConditionTrue, Reason: ReasonSufficientPods, LastTransitionTime: old}}
		st, _ := Evaluate(b, ssPods("zk", 3), zk, t0)
		if c := api.FindStatusCondition(st.Conditions, ConditionDisruptionAllowed); c == nil || !c.LastTransitionTime.Equal(old.Time) {
			t.Errorf("condition %+v, want lastTransitionTime %v", c, old)
		}
		st, _ = Evaluate(b, ssPods("zk", 2), zk, t0)
		if c := api.FindStatusCondition(st.Conditions, ConditionDisruptionAllowed); c == nil || !c.LastTransitionTime.Equal(t0) {
			t.Errorf("condition %+v, want lastTransitionTime now", c)
		}
		if b.Status.Conditions[0].LastTransitionTime != old {
			t.Error("Evaluate modified its input")
		}
	})

	t.Run("explanation", func(t *testing.T) {
		_, res := Evaluate(disrupted, append(ssPods("zk", 3), newPod("bare")), zk, t0)
		want := Result{
			Selected: []string{"zk-0", "zk-1", "zk-2", "bare"}, ExpectedFrom: "selected pods",
			Disrupted: []string{"zk-0"}, Dropped: []string{"ghost", "zk-1"},
			RecheckAt: t0.Add(time.Minute), Reason: ReasonSufficientPods,
			// zk-1's eviction expired without a delete; the controller
			// names the budget by its namespace twice.
			Events: []api.Event{{Type: api.EventTypeWarning, Reason: "NotDeleted",
				Note:      "Pod was expected by PDB ns-1/ns-1 to be deleted but it wasn't",
				Regarding: api.PodReference(ssPods("zk", 3)[1]), Source: "controllermanager"}},
		}
		if d := cmp.Diff(want, res); d != "" {
			t.Errorf("result (-want +got):\n%s", d)
		}
	})
}

func TestControllerFinders(t *testing.T) {
	rc := &api.ReplicationController{ObjectMeta: api.ObjectMeta{Name: "rc", Namespace: "ns-1", UID: "uid-rc"}, Spec: api.ReplicationControllerSpec{Replicas: ptr(int32(2))}}
	bareRS := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "rs", Namespace: "ns-1", UID: "uid-rs"}}
	orphanRS := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "ors", Namespace: "ns-1", UID: "uid-ors",
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "gone", UID: "uid-gone", Controller: ptr(true)}}}}
	c := Controllers{
		ReplicationControllers: []*api.ReplicationController{rc},
		ReplicaSets:            []*api.ReplicaSet{bareRS, orphanRS},
		Scales:                 []Scale{{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "ns-1", Name: "w", UID: "uid-w", Replicas: 6}},
	}
	for _, tc := range []struct {
		name     string
		ref      podOpt
		expected int32
		fails    bool
	}{
		{"ReplicationController", ownedBy("ReplicationController", "v1", "rc", "uid-rc"), 2, false},
		{"ReplicaSet without Deployment, replicas defaulted", ownedBy("ReplicaSet", "apps/v1", "rs", "uid-rs"), 1, false},
		{"ReplicaSet of a vanished Deployment", ownedBy("ReplicaSet", "apps/v1", "ors", "uid-ors"), 0, true},
		{"custom scale", ownedBy("Widget", "example.com/v1", "w", "uid-w"), 6, false},
		{"unknown kind", ownedBy("Gadget", "example.com/v1", "g", "uid-g"), 0, true},
		{"malformed apiVersion", ownedBy("ReplicaSet", "a/b/c", "rs", "uid-rs"), 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, res := Evaluate(pdbMax(api.FromInt32(0)), []*api.Pod{newPod("p", tc.ref)}, c, t0)
			if res.SyncFailed != tc.fails {
				t.Fatalf("sync failed = %v (%v), want %v", res.SyncFailed, res.Err, tc.fails)
			}
			if !tc.fails && st.ExpectedPods != tc.expected {
				t.Errorf("expectedPods %d, want %d", st.ExpectedPods, tc.expected)
			}
		})
	}
}

func TestEvaluateNilBudget(t *testing.T) {
	st, res := Evaluate(nil, nil, Controllers{}, t0)
	if !res.SyncFailed || st.DisruptionsAllowed != 0 {
		t.Errorf("nil budget: %+v %s", st, res)
	}
}
