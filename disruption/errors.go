package disruption

import "errors"

// ErrInvalidInput is wrapped by the errors of this package's calculators and
// state machines for arguments they cannot work with (a nil object, a
// negative count); the message names the argument and the value.
var ErrInvalidInput = errors.New("disruption: invalid input")
