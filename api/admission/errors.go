package admission

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/api"
)

// Sentinel errors of the admission decisions; test with errors.Is.
var (
	// ErrForbidden: an admission plugin refused the object (HTTP 403,
	// reason Forbidden).
	ErrForbidden = errors.New("forbidden")
	// ErrInvalid: registry validation refused the object (HTTP 422, reason
	// Invalid); the Error lists the fields.
	ErrInvalid = errors.New("invalid")
)

// Error is the API server's refusal of a create request, as the status it
// answers with. Reason is "Forbidden" (an admission plugin refused) or
// "Invalid" (validation failed, FieldErrors says where). Its message is
// the API server's status message.
type Error struct {
	// Reason is the API status reason: "Forbidden" or "Invalid".
	Reason string
	// Resource and Name identify the object, as in the status message
	// ("pods", "priorityclasses.scheduling.k8s.io").
	Resource, Name string
	// FieldErrors are the validation failures when Reason is "Invalid".
	FieldErrors api.FieldErrors
	// Detail is the plugin's own explanation when Reason is "Forbidden".
	Detail string
}

// Error renders the API server's status message. A nil *Error renders as "".
func (e *Error) Error() string {
	if e == nil {
		return ""
	}
	if e.Reason == "Invalid" {
		return fmt.Sprintf("%s %q is invalid: %s", e.Resource, e.Name, e.FieldErrors.Error())
	}
	return fmt.Sprintf("%s %q is forbidden: %s", e.Resource, e.Name, e.Detail)
}

// Unwrap returns ErrForbidden or ErrInvalid; a nil *Error wraps nothing.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	if e.Reason == "Invalid" {
		return ErrInvalid
	}
	return ErrForbidden
}

// errInvalidInput is api.ErrInvalidInput in this package's context: the
// errors for arguments a function cannot work with at all (a nil object)
// wrap it and name the argument, so errors.Is(err, api.ErrInvalidInput)
// holds across podsem.
var errInvalidInput = fmt.Errorf("admission: %w", api.ErrInvalidInput)

// Code is the HTTP status code of the API server's answer: 403 for
// Forbidden, 422 for Invalid; 0 for a nil *Error.
func (e *Error) Code() int {
	if e == nil {
		return 0
	}
	if e.Reason == "Invalid" {
		return 422
	}
	return 403
}
