package namespace_test

import (
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/namespace"
)

// nilCases calls each exported function and method of namespace that can
// be handed nil with nil arguments: a nil controller, namespace or client
// is an error wrapping api.ErrInvalidInput naming it; a nil namespace
// admits and prepares nothing. TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*Controller).Step": func(t *testing.T) {
		out, err := (*namespace.Controller)(nil).Step(namespace.Input{}, t0)
		niltest.Zero(t, out)
		niltest.Invalid(t, err, api.ErrInvalidInput, "controller")
		out, err = namespace.NewController().Step(namespace.Input{Kind: namespace.NamespaceChanged}, t0)
		niltest.Zero(t, out)
		niltest.Invalid(t, err, api.ErrInvalidInput, "namespace")
	},
	"(*Controller).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*namespace.Controller)(nil).NextDeadline())
	},
	"Sync": func(t *testing.T) {
		r, err := namespace.Sync(nil, &fakeAPI{}, t0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "namespace")
		r, err = namespace.Sync(deleting(), nil, t0)
		niltest.Zero(t, r)
		niltest.Invalid(t, err, api.ErrInvalidInput, "client")
	},
	"Admit": func(t *testing.T) {
		niltest.Zero(t, namespace.Admit(nil, "pods", "web"))
	},
	"PrepareForCreate": func(t *testing.T) { namespace.PrepareForCreate(nil) },
	"PrepareForUpdate": func(t *testing.T) {
		namespace.PrepareForUpdate(nil, nil)
		ns := &api.Namespace{}
		namespace.PrepareForUpdate(ns, nil)
		niltest.Zero(t, *ns)
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// namespace that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
