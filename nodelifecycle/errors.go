package nodelifecycle

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors of the machines' Step for inputs they cannot work with (a nil
// node or pod, a nil machine) wrap it, so errors.Is(err,
// api.ErrInvalidInput) holds, and name the argument.
var errInvalidInput = fmt.Errorf("nodelifecycle: %w", api.ErrInvalidInput)
