package nodelifecycle_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/nodelifecycle"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilCases calls each exported function and method of nodelifecycle that
// can be handed nil with nil arguments and checks the documented answer: a
// nil machine, or a nil node or pod in a machine's input, is an error
// wrapping api.ErrInvalidInput that names it (a node of a list by its
// position), and a nil machine has no deadline; a nil node or pod given to
// a calculator gives the zero value. Keyed by the names niltest.Nilable
// lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*Monitor).NodeNotReady": func(t *testing.T) {
		niltest.Zero(t, (*nodelifecycle.Monitor)(nil).NodeNotReady("n1"))
	},
	"(*Monitor).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*nodelifecycle.Monitor)(nil).NextDeadline())
	},
	"(*Monitor).Step": func(t *testing.T) {
		r, err := (*nodelifecycle.Monitor)(nil).Step(nodelifecycle.MonitorInput{Node: &api.Node{}}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "monitor")
		m, err := nodelifecycle.NewMonitor(nodelifecycle.Config{})
		if err != nil {
			t.Fatal(err)
		}
		r, err = m.Step(nodelifecycle.MonitorInput{}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "node")
		niltest.Zero(t, m.NextDeadline())
	},
	"(*Controller).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*nodelifecycle.Controller)(nil).NextDeadline())
	},
	"(*Controller).Step": func(t *testing.T) {
		r, err := (*nodelifecycle.Controller)(nil).Step(nodelifecycle.Input{Nodes: []*api.Node{{}}}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "node lifecycle controller")
		c, err := nodelifecycle.NewController(nodelifecycle.Config{})
		if err != nil {
			t.Fatal(err)
		}
		r, err = c.Step(nodelifecycle.Input{Nodes: []*api.Node{{}, nil}}, nilT0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "nodes[1]")
		niltest.Zero(t, c.NextDeadline()) // not started: the bad step changed nothing
	},
	"(*TaintEviction).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*nodelifecycle.TaintEviction)(nil).NextDeadline())
	},
	"(*TaintEviction).Pending": func(t *testing.T) {
		at, ok := (*nodelifecycle.TaintEviction)(nil).Pending("shop", "web")
		niltest.Zero(t, at, ok)
	},
	"(*TaintEviction).Step": func(t *testing.T) {
		acts, err := (*nodelifecycle.TaintEviction)(nil).Step(nodelifecycle.Tick(), nilT0)
		niltest.Zero(t, acts)
		niltest.Invalid(t, err, api.ErrInvalidInput, "taint eviction")
		c := nodelifecycle.NewTaintEviction()
		acts, err = c.Step(nodelifecycle.NodeUpdated(nil), nilT0)
		niltest.Zero(t, acts)
		niltest.Invalid(t, err, api.ErrInvalidInput, "node")
		acts, err = c.Step(nodelifecycle.PodUpdated(nil), nilT0)
		niltest.Zero(t, acts)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
	},
	"NodeUpdated": func(t *testing.T) {
		if ev := nodelifecycle.NodeUpdated(nil); ev.Kind != nodelifecycle.EventNodeUpdated || ev.Node != nil {
			t.Errorf("got %+v, want a NodeUpdated event without a node (Step rejects it)", ev)
		}
	},
	"PodUpdated": func(t *testing.T) {
		if ev := nodelifecycle.PodUpdated(nil); ev.Kind != nodelifecycle.EventPodUpdated || ev.Pod != nil {
			t.Errorf("got %+v, want a PodUpdated event without a pod (Step rejects it)", ev)
		}
	},
	"ConditionTaints": func(t *testing.T) {
		niltest.Zero(t, nodelifecycle.ConditionTaints(nil))
	},
	"EvaluateNoExecute": func(t *testing.T) {
		// No taints: nothing to evict for, whatever the tolerations.
		if d := nodelifecycle.EvaluateNoExecute(nil, nil); d.Outcome != nodelifecycle.NoExecuteNoTaints {
			t.Errorf("got %+v, want NoTaints", d)
		}
	},
	"MarkPodNotReady": func(t *testing.T) {
		if got := nodelifecycle.MarkPodNotReady(nil, nilT0); got != nil {
			t.Errorf("got %+v, want nil", got)
		}
	},
	"MarkPodsNotReady": func(t *testing.T) {
		niltest.Zero(t, nodelifecycle.MarkPodsNotReady("n1", nil, nilT0))
		niltest.Zero(t, nodelifecycle.MarkPodsNotReady("n1", []*api.Pod{nil}, nilT0))
	},
	"NodeStatusEvent": func(t *testing.T) {
		e := nodelifecycle.NodeStatusEvent(nil, "NodeNotReady")
		if e.Regarding.Name != "" || e.Reason != "NodeNotReady" {
			t.Errorf("got %+v, want an event regarding no node", e)
		}
	},
	"NoExecuteTaintPass": func(t *testing.T) {
		niltest.Zero(t, nodelifecycle.NoExecuteTaintPass(nil, nilT0))
	},
	"NoExecuteTaints": func(t *testing.T) {
		if got := nodelifecycle.NoExecuteTaints(nil); got == nil || len(got) != 0 {
			t.Errorf("got %#v, want an empty, non-nil slice", got)
		}
	},
	"NoScheduleTaintPass": func(t *testing.T) {
		niltest.Zero(t, nodelifecycle.NoScheduleTaintPass(nil, nilT0))
	},
	"TaintEvictionCondition": func(t *testing.T) {
		if got := nodelifecycle.TaintEvictionCondition(nil, nilT0); got != nil {
			t.Errorf("got %+v, want nil", got)
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// nodelifecycle that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
