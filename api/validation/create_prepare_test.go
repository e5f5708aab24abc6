package validation_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

func TestPrepareForCreate(t *testing.T) {
	limits := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("1"), api.ResourceMemory: api.MustParseQuantity("1Gi")}
	now := api.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop", Generation: 7, Labels: map[string]string{"app": "web", "rev": "r1"},
			DeletionTimestamp: &now},
		Spec: api.PodSpec{
			Containers: []api.Container{{Name: "app", Image: "nginx", Resources: api.ResourceRequirements{Requests: limits, Limits: limits}}},
			TopologySpreadConstraints: []api.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"rev"},
			}},
			SchedulingGates: []api.PodSchedulingGate{{Name: "example.com/quota"}},
		},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: "10.0.0.1"},
	}
	before := fmt.Sprintf("%+v", *pod)
	got := validation.PrepareForCreate(pod)
	if after := fmt.Sprintf("%+v", *pod); after != before {
		t.Errorf("PrepareForCreate modified its argument")
	}
	want := api.PodStatus{
		Phase:    api.PodPending,
		QOSClass: api.PodQOSGuaranteed,
		Conditions: []api.PodCondition{{
			Type: api.PodScheduled, Status: api.ConditionFalse,
			Reason: api.PodReasonSchedulingGated, Message: "Scheduling is blocked due to non-empty scheduling gates",
		}},
	}
	if d := cmp.Diff(want, got.Status); d != "" {
		t.Errorf("status (-want +got):\n%s", d)
	}
	if got.Generation != 1 || got.DeletionTimestamp != nil {
		t.Errorf("generation %d, deletionTimestamp %v; want 1 and none", got.Generation, got.DeletionTimestamp)
	}
	sel := got.Spec.TopologySpreadConstraints[0].LabelSelector
	if len(sel.MatchExpressions) != 1 || sel.MatchExpressions[0].Key != "rev" || sel.MatchExpressions[0].Values[0] != "r1" {
		t.Errorf("matchLabelKeys not merged: %+v", sel)
	}

	ungated := *pod
	ungated.Spec.SchedulingGates = nil
	ungated.Spec.Containers = []api.Container{{Name: "app", Image: "nginx"}}
	if st := validation.PrepareForCreate(&ungated).Status; st.QOSClass != api.PodQOSBestEffort || len(st.Conditions) != 0 {
		t.Errorf("ungated BestEffort pod: status %+v", st)
	}
}

// A pod as the API server stores it when it accepts the create: Pending,
// its QoS class fixed, and a SchedulingGated condition while gates remain.
func ExamplePrepareForCreate() {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "batch", Namespace: "default"},
		Spec: api.PodSpec{
			Containers:      []api.Container{{Name: "job", Image: "busybox"}},
			SchedulingGates: []api.PodSchedulingGate{{Name: "example.com/quota"}},
		},
	}
	stored := validation.PrepareForCreate(pod)
	fmt.Println(stored.Status.Phase, stored.Status.QOSClass)
	for _, c := range stored.Status.Conditions {
		fmt.Printf("%s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
	}
	// Output:
	// Pending BestEffort
	// PodScheduled=False SchedulingGated: Scheduling is blocked due to non-empty scheduling gates
}
