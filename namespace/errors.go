package namespace

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context.
var errInvalidInput = fmt.Errorf("namespace: %w", api.ErrInvalidInput)
