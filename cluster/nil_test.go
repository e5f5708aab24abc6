package cluster_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
	"github.com/podsem/podsem/internal/niltest"
)

var nilT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// nilCases calls each exported function and method of cluster that can
// be handed nil: a nil machine or scenario is an error wrapping
// api.ErrInvalidInput where there is an error result and the zero value
// elsewhere; a nil object in New's list is an error naming its index.
var nilCases = map[string]func(t *testing.T){
	"(*Machine).Step": func(t *testing.T) {
		_, err := (*cluster.Machine)(nil).Step(cluster.Tick(), nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "machine")
	},
	"DoAll": func(t *testing.T) {
		// No actions: the step is a tick.
		m, _, err := cluster.New(nil, cluster.Config{}, nilT0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Step(cluster.DoAll(nil...), nilT0); err != nil {
			t.Errorf("DoAll(nil...): %v", err)
		}
	},
	"(*Machine).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*cluster.Machine)(nil).NextDeadline())
	},
	"(*Machine).Now": func(t *testing.T) {
		niltest.Zero(t, (*cluster.Machine)(nil).Now())
	},
	"(*Machine).Unsettled": func(t *testing.T) {
		niltest.Zero(t, (*cluster.Machine)(nil).Unsettled())
	},
	"(*Machine).Objects": func(t *testing.T) {
		if got := (*cluster.Machine)(nil).Objects(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"Run": func(t *testing.T) {
		_, err := cluster.Run(nil, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "scenario")
	},
	"New": func(t *testing.T) {
		_, _, err := cluster.New([]api.Object{nil}, cluster.Config{}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "objects[0]")
	},
	"ParseScenario": func(t *testing.T) {
		_, err := cluster.ParseScenario(nil)
		niltest.Invalid(t, err, api.ErrInvalidInput, "scenario")
	},
	"ConfigFromFlags": func(t *testing.T) {
		if _, unused, err := cluster.ConfigFromFlags(nil); err != nil || unused != nil {
			t.Errorf("got %v, %v; want the defaults", unused, err)
		}
	},
	"WriteJSON": func(t *testing.T) {
		var sb nopWriter
		if err := cluster.WriteJSON(&sb, nil); err != nil {
			t.Error(err)
		}
	},
}

type nopWriter struct{}

func (*nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// cluster that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
