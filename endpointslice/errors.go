package endpointslice

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context: errors
// for input the package cannot work on wrap it and name the argument.
var errInvalidInput = fmt.Errorf("endpointslice: %w", api.ErrInvalidInput)
