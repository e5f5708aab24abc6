package managedfields_test

import (
	"testing"

	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/managedfields"
)

// nilCases: a nil configuration or object is an error wrapping
// ErrInvalidObject; a nil live object (Apply) or old object (Update) is a
// create; nil ownership is no manager yet.
var nilCases = map[string]func(t *testing.T){
	"Apply": func(t *testing.T) {
		_, _, err := managedfields.Apply("Pod", nil, nil, nil, kubectl, false)
		niltest.Invalid(t, err, managedfields.ErrInvalidObject, "config")
		o, mf, err := managedfields.Apply("Pod", nil, map[string]any{"metadata": map[string]any{"name": "p"}}, nil, kubectl, false)
		if err != nil || o == nil || len(mf) != 1 {
			t.Errorf("create: %v %v %v", o, mf, err)
		}
	},
	"Update": func(t *testing.T) {
		_, err := managedfields.Update("Pod", nil, nil, nil, kubectl)
		niltest.Invalid(t, err, managedfields.ErrInvalidObject, "new object")
	},
	"FieldsOf": func(t *testing.T) {
		_, err := managedfields.FieldsOf("Pod", nil)
		niltest.Invalid(t, err, managedfields.ErrInvalidObject, "object")
	},
	"ManagedFields.Owner": func(t *testing.T) {
		if got := managedfields.ManagedFields(nil).Owner(".spec"); got != nil {
			t.Errorf("nil ownership: %v", got)
		}
	},
	"(*ConflictError).Error": func(t *testing.T) {
		if got := (*managedfields.ConflictError)(nil).Error(); got == "" {
			t.Error("empty message")
		}
	},
}

func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }

func TestNil(t *testing.T) {
	for name, c := range nilCases {
		t.Run(name, c)
	}
}
