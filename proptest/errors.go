package proptest

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// Errors the checks return; test with errors.Is.
var (
	// ErrViolation: the objects break the Kubernetes guarantee the check
	// states. The error names the object, the rule and the numbers.
	ErrViolation = errors.New("proptest: guarantee violated")
)

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors for arguments a function cannot work with at all (a nil object)
// wrap it and name the argument, so errors.Is(err, api.ErrInvalidInput)
// holds across podsem.
var errInvalidInput = fmt.Errorf("proptest: %w", api.ErrInvalidInput)
