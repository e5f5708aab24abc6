package proptest_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/disruption"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/proptest"
	"github.com/podsem/podsem/scheduling"
)

var nilT0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// nilCases calls each exported function and method of proptest that can be
// handed nil with nil arguments and checks the documented answer: a nil
// cluster state has no pods, controllers or snapshot; a nil object where a
// check needs one is an error wrapping api.ErrInvalidInput that names
// the argument; nil lists are empty lists, which break no guarantee. Keyed
// by the names niltest.Nilable lists; TestNilTableComplete keeps it
// complete.
var nilCases = map[string]func(t *testing.T){
	"(*ClusterState).Controllers": func(t *testing.T) {
		niltest.Zero(t, (*proptest.ClusterState)(nil).Controllers())
	},
	"(*ClusterState).GoString": func(t *testing.T) {
		if got := (*proptest.ClusterState)(nil).GoString(); got != "(*proptest.ClusterState)(nil)" {
			t.Errorf("got %q", got)
		}
	},
	"(*ClusterState).Pending": func(t *testing.T) {
		niltest.Zero(t, (*proptest.ClusterState)(nil).Pending())
		c := &proptest.ClusterState{Pods: []*api.Pod{nil}}
		niltest.Zero(t, c.Pending())
	},
	"(*ClusterState).Snapshot": func(t *testing.T) {
		snap, err := (*proptest.ClusterState)(nil).Snapshot(scheduling.Config{})
		niltest.Invalid(t, err, api.ErrInvalidInput, "cluster state")
		niltest.Zero(t, snap)
		for name, c := range map[string]*proptest.ClusterState{
			"a nil node":      {Nodes: []*api.Node{nil}},
			"a nil pod":       {Pods: []*api.Pod{nil}},
			"a nil namespace": {Namespaces: []*api.Namespace{nil}},
		} {
			if snap, err := c.Snapshot(scheduling.Config{}); err == nil || snap != nil {
				t.Errorf("a state with %s: got %v, %v; want nil and an error", name, snap, err)
			}
		}
	},
	"CheckBoundPodsFit": func(t *testing.T) {
		if err := proptest.CheckBoundPodsFit(nil, nil); err != nil {
			t.Errorf("no nodes, no pods: %v", err)
		}
		niltest.Invalid(t, proptest.CheckBoundPodsFit([]*api.Node{nil}, nil), api.ErrInvalidInput, "nodes[0]")
		niltest.Invalid(t, proptest.CheckBoundPodsFit(nil, []*api.Pod{nil}), api.ErrInvalidInput, "pods[0]")
	},
	"CheckEvictionsRespectBudgets": func(t *testing.T) {
		if err := proptest.CheckEvictionsRespectBudgets(nil, nil, nil, disruption.Controllers{}, nilT0); err != nil {
			t.Errorf("no budgets, no pods, no evictions: %v", err)
		}
		niltest.Invalid(t, proptest.CheckEvictionsRespectBudgets([]*api.PodDisruptionBudget{nil}, nil, nil, disruption.Controllers{}, nilT0),
			api.ErrInvalidInput, "pdbs[0]")
		niltest.Invalid(t, proptest.CheckEvictionsRespectBudgets(nil, []*api.Pod{nil}, nil, disruption.Controllers{}, nilT0),
			api.ErrInvalidInput, "pods[0]")
	},
	"CheckGraceNeverLengthens": func(t *testing.T) {
		if err := proptest.CheckGraceNeverLengthens(nil); err != nil {
			t.Errorf("no history: %v", err)
		}
		niltest.Invalid(t, proptest.CheckGraceNeverLengthens([]*api.Pod{nil}), api.ErrInvalidInput, "history[0]")
	},
	"CheckPhaseSequence": func(t *testing.T) {
		if err := proptest.CheckPhaseSequence(nil); err != nil {
			t.Errorf("no statuses: %v", err)
		}
	},
	"CheckPlacementFeasible": func(t *testing.T) {
		snap, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
		if err != nil {
			t.Fatal(err)
		}
		niltest.Invalid(t, proptest.CheckPlacementFeasible(nil, &api.Pod{}, "n1"), api.ErrInvalidInput, "snapshot")
		niltest.Invalid(t, proptest.CheckPlacementFeasible(snap, nil, "n1"), api.ErrInvalidInput, "pod")
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// proptest that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
