package nodepressure

import "errors"

// ErrInvalidInput is wrapped by the errors this package returns for bad
// arguments (a nil pod in a list to rank); the message names the argument.
var ErrInvalidInput = errors.New("nodepressure: invalid input")
