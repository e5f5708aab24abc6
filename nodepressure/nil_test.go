package nodepressure_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/nodepressure"
)

// nilPressure is a node under memory pressure (80Mi available, below the
// default hard threshold of 100Mi) running one burstable pod.
func nilPressure() (nodepressure.Summary, *api.Pod) {
	p := epod("burstable", 0, "100Mi", "")
	sum := nodeSummary(t0, 80*mi, 4096*mi, gi(50), gi(100))
	sum.Pods = []nodepressure.PodStats{memStats("burstable", 300*mi)}
	return sum, p
}

// nilCases calls each exported function and method of nodepressure that can
// be handed nil with nil arguments and checks the documented answer: a nil
// pod in a list to rank is an error wrapping api.ErrInvalidInput
// that names it; a nil pod is not critical and not admitted; a nil Manager
// reports nothing, does nothing and has no deadline; nil lists and maps
// are empty (no conditions, no stats), and nil entries of the pods an
// eviction pass looks at are skipped. Keyed by the names niltest.Nilable
// lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*Manager).Admit": func(t *testing.T) {
		// A nil manager reports no condition: any pod is admitted, a nil
		// pod is not.
		var m *nodepressure.Manager
		if got := m.Admit(epod("web", 0, "", "")); !got.Admit {
			t.Errorf("nil manager: got %+v, want the pod admitted", got)
		}
		niltest.Zero(t, m.Admit(nil), new(nodepressure.Manager).Admit(nil))
	},
	"(*Manager).Conditions": func(t *testing.T) {
		niltest.Zero(t, (*nodepressure.Manager)(nil).Conditions())
	},
	"(*Manager).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*nodepressure.Manager)(nil).NextDeadline())
	},
	"(*Manager).Policy": func(t *testing.T) {
		niltest.Zero(t, (*nodepressure.Manager)(nil).Policy())
	},
	"(*Manager).Step": func(t *testing.T) {
		sum, p := nilPressure()
		// Documented: a nil manager does nothing; the pass holds only At.
		if got := (*nodepressure.Manager)(nil).Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{p}}, t0); !got.At.Equal(t0) ||
			got.Observations != nil || got.Conditions != nil || got.Reclaim != nil || got.Eviction != nil {
			t.Errorf("nil manager: got %+v, want a pass that did nothing", got)
		}
		if got := (*nodepressure.Manager)(nil).Step(nodepressure.Tick(), t0); got.Eviction != nil || !got.At.Equal(t0) {
			t.Errorf("nil manager, tick: got %+v, want a pass that did nothing", got)
		}
		// nil pods are skipped, a nil AfterNodeGC means the collection
		// freed nothing (memory has none anyway).
		var m nodepressure.Manager
		got := m.Step(nodepressure.Observation{Summary: sum, Pods: []*api.Pod{nil, p, nil}}, t0)
		if got.Eviction == nil || got.Eviction.Pod != p {
			t.Errorf("nil pods: got eviction %+v, want the burstable pod evicted", got.Eviction)
		}
	},
	"Admit": func(t *testing.T) {
		niltest.Zero(t, nodepressure.Admit(nil, []api.NodeConditionType{api.NodeMemoryPressure}))
		// No conditions: every pod is admitted.
		if got := nodepressure.Admit(epod("web", 0, "", ""), nil); !got.Admit {
			t.Errorf("nil conditions: got %+v, want the pod admitted", got)
		}
	},
	"EvictionOrder": func(t *testing.T) {
		p := epod("web", 0, "", "")
		got, err := nodepressure.EvictionOrder([]*api.Pod{p, nil}, nil, nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared)
		niltest.Zero(t, got)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pods[1]")
		if got, err := nodepressure.EvictionOrder(nil, nil, nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared); err != nil || len(got) != 0 {
			t.Errorf("no pods: got %v, %v; want none", got, err)
		}
	},
	"ObserveSignals": func(t *testing.T) {
		niltest.Zero(t, nodepressure.ObserveSignals(nil))
	},
	"RankForEviction": func(t *testing.T) {
		got, err := nodepressure.RankForEviction([]*api.Pod{nil}, nil, nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared)
		niltest.Zero(t, got)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pods[0]")
		// nil stats: no pod has stats.
		ranks, err := nodepressure.RankForEviction([]*api.Pod{epod("web", 0, "", "")}, nil, nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared)
		if err != nil || len(ranks) != 1 || ranks[0].HasStats {
			t.Errorf("nil stats: got %+v, %v; want one pod without stats", ranks, err)
		}
	},
	"StatsByUID": func(t *testing.T) {
		if got := nodepressure.StatsByUID(nil); len(got) != 0 {
			t.Errorf("got %v, want empty", got)
		}
	},
	"ResourceRequest": func(t *testing.T) {
		q := nodepressure.ResourceRequest(nil, api.ResourceMemory)
		if !q.IsZero() {
			t.Errorf("nil pod: got %s, want 0", q.String())
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// nodepressure that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
