package proptest

import "errors"

// Errors the checks return; test with errors.Is.
var (
	// ErrViolation: the objects break the Kubernetes guarantee the check
	// states. The error names the object, the rule and the numbers.
	ErrViolation = errors.New("proptest: guarantee violated")
	// ErrInvalidInput: an argument is nil or does not describe what the
	// check needs (a pod missing from the list, two different pods given
	// as one's history).
	ErrInvalidInput = errors.New("proptest: invalid input")
)
