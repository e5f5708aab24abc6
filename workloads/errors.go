package workloads

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors for arguments a sync cannot work with (a nil object, a missing
// replica count) wrap it, so errors.Is(err, api.ErrInvalidInput) holds.
var errInvalidInput = fmt.Errorf("workloads: %w", api.ErrInvalidInput)
