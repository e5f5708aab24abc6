package proptest_test

import (
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/validation"
)

// validateCreate is the API server's create validation of a pod: the one
// place this package's tests name it.
func validateCreate(p *api.Pod) api.FieldErrors { return validation.ValidatePodCreate(p) }
