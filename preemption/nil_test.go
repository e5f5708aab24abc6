package preemption_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/preemption"
)

// nilCases calls each exported function and method of preemption that can
// be handed nil with nil arguments and checks the documented answer: a nil
// cycle or decision is an error wrapping api.ErrInvalidInput that
// names it; a nil pod is not terminating; nil budget lists are empty and
// nil budgets in them are skipped. Keyed by the names niltest.Nilable
// lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"NewLoop": func(t *testing.T) {
		l, err := preemption.NewLoop(nil, t0)
		niltest.Zero(t, l)
		niltest.Invalid(t, err, api.ErrInvalidInput, "cluster")
	},
	"Preempt": func(t *testing.T) {
		c := cluster([]*api.Node{node("n1", "2", "4Gi")}, bound("low", "n1", "2", 0, 1))
		cy := c.NewCycle(pending("high", "1", 100))
		d := cy.Decide(nil)
		r := preemption.Preempt(nil, d, nil, preemption.Config{}, t0)
		niltest.Invalid(t, r.Err, api.ErrInvalidInput, "cycle")
		r = preemption.Preempt(cy, nil, nil, preemption.Config{}, t0)
		niltest.Invalid(t, r.Err, api.ErrInvalidInput, "decision")
		// nil budgets are none; nil entries are skipped.
		for _, pdbs := range [][]*api.PodDisruptionBudget{nil, {nil}} {
			r = preemption.Preempt(cy, d, pdbs, preemption.Config{}, t0)
			if r.Err != nil || r.Node != "n1" || len(r.Victims) != 1 || r.PDBViolations != 0 {
				t.Errorf("budgets %v: got node %q, victims %v, %d violations, %v; want low preempted on n1",
					pdbs, r.Node, names(r.Victims), r.PDBViolations, r.Err)
			}
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
