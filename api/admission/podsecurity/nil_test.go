package podsecurity_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission/podsecurity"
	"github.com/podsem/podsem/internal/niltest"
)

// nilCases calls each exported function and method of podsecurity that
// can be handed nil with nil arguments and checks the documented answer.
// Keyed by the names niltest.Nilable lists; TestNilTableComplete keeps it
// complete.
var nilCases = map[string]func(t *testing.T){
	"Admit": func(t *testing.T) {
		niltest.Invalid(t, podsecurity.Admit(nil, podsecurity.Policy{Level: podsecurity.LevelPrivileged, Version: podsecurity.LatestVersion()}), api.ErrInvalidInput, "pod")
	},
	"NamespacePolicy": func(t *testing.T) {
		if got := podsecurity.NamespacePolicy(nil).String(); got != "privileged:latest" {
			t.Errorf("no labels: %s, want privileged:latest", got)
		}
	},
	"Evaluate": func(t *testing.T) {
		res, err := podsecurity.Evaluate(nil, podsecurity.Policy{Level: podsecurity.LevelRestricted, Version: podsecurity.LatestVersion()})
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		if res.Allowed || res.Forbidden != nil {
			t.Errorf("got %+v, want the zero Result", res)
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// podsecurity that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
