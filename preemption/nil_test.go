package preemption_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// nilPressure is a node under memory pressure (80Mi available, below the
// default hard threshold of 100Mi) running one burstable pod.
func nilPressure() (preemption.Summary, *api.Pod) {
	p := epod("burstable", 0, "100Mi", "")
	sum := nodeSummary(t0, 80*mi, 4096*mi, gi(50), gi(100))
	sum.Pods = []preemption.PodStats{memStats("burstable", 300*mi)}
	return sum, p
}

// nilCases calls each exported function and method of preemption that can
// be handed nil with nil arguments and checks the documented answer: a nil
// cycle, decision or pod in a list to rank is an error wrapping
// preemption.ErrInvalidInput that names it; a nil pod is not critical, not
// terminating and not admitted; a nil EvictionManager reports nothing and
// does nothing; nil lists and maps are empty (no conditions, no budgets,
// no stats), and nil entries of the pods an eviction pass looks at and of
// the budgets are skipped. Keyed by the names niltest.Nilable lists;
// TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*EvictionManager).Admit": func(t *testing.T) {
		// A nil manager reports no condition: any pod is admitted, a nil
		// pod is not.
		var m *preemption.EvictionManager
		if got := m.Admit(epod("web", 0, "", "")); !got.Admit {
			t.Errorf("nil manager: got %+v, want the pod admitted", got)
		}
		niltest.Zero(t, m.Admit(nil), new(preemption.EvictionManager).Admit(nil))
	},
	"(*EvictionManager).Conditions": func(t *testing.T) {
		niltest.Zero(t, (*preemption.EvictionManager)(nil).Conditions())
	},
	"(*EvictionManager).Policy": func(t *testing.T) {
		niltest.Zero(t, (*preemption.EvictionManager)(nil).Policy())
	},
	"(*EvictionManager).Step": func(t *testing.T) {
		sum, p := nilPressure()
		// Documented: a nil manager does nothing; the step holds only At.
		if got := (*preemption.EvictionManager)(nil).Step(preemption.Observation{Summary: sum, Pods: []*api.Pod{p}}, t0); !got.At.Equal(t0) ||
			got.Observations != nil || got.Conditions != nil || got.Reclaim != nil || got.Eviction != nil {
			t.Errorf("nil manager: got %+v, want a step that did nothing", got)
		}
		// nil pods are skipped, a nil AfterNodeGC means the collection
		// freed nothing (memory has none anyway).
		var m preemption.EvictionManager
		got := m.Step(preemption.Observation{Summary: sum, Pods: []*api.Pod{nil, p, nil}}, t0)
		if got.Eviction == nil || got.Eviction.Pod != p {
			t.Errorf("nil pods: got eviction %+v, want the burstable pod evicted", got.Eviction)
		}
	},
	"AdmitUnderPressure": func(t *testing.T) {
		niltest.Zero(t, preemption.AdmitUnderPressure(nil, []api.NodeConditionType{api.NodeMemoryPressure}))
		// No conditions: every pod is admitted.
		if got := preemption.AdmitUnderPressure(epod("web", 0, "", ""), nil); !got.Admit {
			t.Errorf("nil conditions: got %+v, want the pod admitted", got)
		}
	},
	"EvictionOrder": func(t *testing.T) {
		p := epod("web", 0, "", "")
		got, err := preemption.EvictionOrder([]*api.Pod{p, nil}, nil, preemption.SignalMemoryAvailable, preemption.LayoutShared)
		niltest.Zero(t, got)
		niltest.Invalid(t, err, preemption.ErrInvalidInput, "pods[1]")
		if got, err := preemption.EvictionOrder(nil, nil, preemption.SignalMemoryAvailable, preemption.LayoutShared); err != nil || len(got) != 0 {
			t.Errorf("no pods: got %v, %v; want none", got, err)
		}
	},
	"IsCriticalPod": func(t *testing.T) {
		niltest.Zero(t, preemption.IsCriticalPod(nil))
	},
	"ObserveSignals": func(t *testing.T) {
		niltest.Zero(t, preemption.ObserveSignals(nil))
	},
	"NewLoop": func(t *testing.T) {
		l, err := preemption.NewLoop(nil, t0)
		niltest.Zero(t, l)
		niltest.Invalid(t, err, scheduling.ErrInvalidObject, "cluster")
	},
	"Preempt": func(t *testing.T) {
		c := cluster([]*api.Node{node("n1", "2", "4Gi")}, bound("low", "n1", "2", 0, 1))
		cy := c.NewCycle(pending("high", "1", 100))
		d := cy.Decide(nil)
		r := preemption.Preempt(nil, d, nil, preemption.Config{}, t0)
		niltest.Invalid(t, r.Err, preemption.ErrInvalidInput, "cycle")
		r = preemption.Preempt(cy, nil, nil, preemption.Config{}, t0)
		niltest.Invalid(t, r.Err, preemption.ErrInvalidInput, "decision")
		// nil budgets are none; nil entries are skipped.
		for _, pdbs := range [][]*api.PodDisruptionBudget{nil, {nil}} {
			r = preemption.Preempt(cy, d, pdbs, preemption.Config{}, t0)
			if r.Err != nil || r.Node != "n1" || len(r.Victims) != 1 || r.PDBViolations != 0 {
				t.Errorf("budgets %v: got node %q, victims %v, %d violations, %v; want low preempted on n1",
					pdbs, r.Node, names(r.Victims), r.PDBViolations, r.Err)
			}
		}
	},
	"RankForEviction": func(t *testing.T) {
		got, err := preemption.RankForEviction([]*api.Pod{nil}, nil, preemption.SignalMemoryAvailable, preemption.LayoutShared)
		niltest.Zero(t, got)
		niltest.Invalid(t, err, preemption.ErrInvalidInput, "pods[0]")
		// nil stats: no pod has stats.
		ranks, err := preemption.RankForEviction([]*api.Pod{epod("web", 0, "", "")}, nil, preemption.SignalMemoryAvailable, preemption.LayoutShared)
		if err != nil || len(ranks) != 1 || ranks[0].HasStats {
			t.Errorf("nil stats: got %+v, %v; want one pod without stats", ranks, err)
		}
	},
	"StatsByUID": func(t *testing.T) {
		if got := preemption.StatsByUID(nil); len(got) != 0 {
			t.Errorf("got %v, want empty", got)
		}
	},
	"TerminatingByPreemption": func(t *testing.T) {
		niltest.Zero(t, preemption.TerminatingByPreemption(nil))
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// preemption that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
