package termination

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors for arguments a function cannot work with at all (a nil object)
// wrap it and name the argument, so errors.Is(err, api.ErrInvalidInput)
// holds across podsem.
var errInvalidInput = fmt.Errorf("termination: %w", api.ErrInvalidInput)
