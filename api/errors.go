package api

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// ErrInvalidInput is podsem's one sentinel for bad input: every package's
// functions and state machines, handed something they cannot work on at
// all (a nil object, a nil machine, a config they cannot run with), return
// an error that wraps it, prefixed with the package's name and naming the
// argument ("termination: invalid input: pod: nil"). Test with
// errors.Is(err, api.ErrInvalidInput).
var ErrInvalidInput = errors.New("invalid input")

// errInvalidInput is ErrInvalidInput in this package's context.
var errInvalidInput = fmt.Errorf("api: %w", ErrInvalidInput)

// ErrorType classifies a validation error the way the API server's
// field.ErrorType does; the string values are upstream's.
type ErrorType string

// The validation error types.
const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
	ErrorTypeInternal     ErrorType = "InternalError"
	ErrorTypeTypeInvalid  ErrorType = "FieldValueTypeInvalid"
)

// Phrase is the human wording of the type used in messages
// ("Invalid value", "Required value", ...).
func (t ErrorType) Phrase() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeInternal:
		return "Internal error"
	case ErrorTypeTypeInvalid:
		return "Invalid value"
	}
	return string(t)
}

// FieldError is one validation failure: its type, the field path
// ("spec.containers[0].image"), the offending value and a detail.
type FieldError struct {
	Type     ErrorType
	Field    string
	BadValue any
	Detail   string
}

// Error renders the error as the API server does:
// "field: Invalid value: value: detail". A nil FieldError renders as "".
func (e *FieldError) Error() string {
	if e == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(e.Field)
	b.WriteString(": ")
	b.WriteString(e.Type.Phrase())
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong, ErrorTypeInternal:
	default:
		if e.BadValue != nil {
			b.WriteString(": ")
			b.WriteString(renderValue(e.BadValue))
		}
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

func renderValue(v any) string {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return "null"
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.String:
		return strconv.Quote(rv.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool())
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", rv.Interface())
}

// FieldErrors is a list of validation failures; nil means valid.
type FieldErrors []*FieldError

// Error joins the messages; it satisfies error so a non-empty list can be
// returned as one. Nil elements are skipped.
func (l FieldErrors) Error() string {
	msgs := make([]string, 0, len(l))
	for _, e := range l {
		if e != nil {
			msgs = append(msgs, e.Error())
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Err returns l as an error, or nil when l is empty.
func (l FieldErrors) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Path is a field path under construction, such as
// spec.containers[0].resources.limits[cpu]. The zero Path is the root.
//
// A Path keeps its last steps unrendered (up to pathSteps of them, beside
// the rendered head), so that building one rarely allocates: validation
// builds a path at every level of every object it checks, and renders one
// only for an error.
type Path struct {
	head  string
	steps [pathSteps]pathStep
	n     uint8
}

// pathSteps is how many steps a Path keeps unrendered; the step after them
// renders them into the head. Five covers most of a pod's paths
// (spec.containers[0].resources.limits is five); more would make every
// copy of a Path cost more than the renders it saves.
const pathSteps = 5

// pathStep is one unrendered step of a Path: a field (Child), a list
// element (Index) or a map key (Key).
type pathStep struct {
	name  string
	index int32
	kind  uint8
}

const (
	stepChild uint8 = iota
	stepIndex
	stepKey
)

// push returns p with step s appended.
func (p Path) push(s pathStep) Path {
	if int(p.n) == pathSteps {
		p = Path{head: p.String()}
	}
	p.steps[p.n] = s
	p.n++
	return p
}

// NewPath starts a path at the named field (and optional children).
func NewPath(name string, more ...string) Path {
	return Path{}.Child(name, more...)
}

// Child returns the path of a field under p.
func (p Path) Child(name string, more ...string) Path {
	p = p.push(pathStep{name: name, kind: stepChild})
	for _, m := range more {
		p = p.push(pathStep{name: m, kind: stepChild})
	}
	return p
}

// Index returns the path of element i of the list at p.
func (p Path) Index(i int) Path {
	if int(int32(i)) != i {
		// An index past int32 (no list is that long): rendered at once.
		return Path{head: p.String() + "[" + strconv.Itoa(i) + "]"}
	}
	return p.push(pathStep{index: int32(i), kind: stepIndex})
}

// Key returns the path of key k of the map at p.
func (p Path) Key(k string) Path { return p.push(pathStep{name: k, kind: stepKey}) }

// String renders the path: a field is joined to a non-empty path with a
// dot, a list element is [i] and a map key [k].
func (p Path) String() string {
	if p.n == 0 {
		return p.head
	}
	var buf [128]byte
	b := append(buf[:0], p.head...)
	for _, s := range p.steps[:p.n] {
		switch s.kind {
		case stepChild:
			if len(b) > 0 {
				b = append(b, '.')
			}
			b = append(b, s.name...)
		case stepIndex:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		default:
			b = append(b, '[')
			b = append(b, s.name...)
			b = append(b, ']')
		}
	}
	return string(b)
}

// Invalid reports a value that fails a rule.
func Invalid(p Path, value any, detail string) *FieldError {
	return &FieldError{Type: ErrorTypeInvalid, Field: p.String(), BadValue: value, Detail: detail}
}

// Required reports a missing value.
func Required(p Path, detail string) *FieldError {
	return &FieldError{Type: ErrorTypeRequired, Field: p.String(), Detail: detail}
}

// Forbidden reports a value that may not be set here.
func Forbidden(p Path, detail string) *FieldError {
	return &FieldError{Type: ErrorTypeForbidden, Field: p.String(), Detail: detail}
}

// Duplicate reports a value that must be unique and is not.
func Duplicate(p Path, value any) *FieldError {
	return &FieldError{Type: ErrorTypeDuplicate, Field: p.String(), BadValue: value}
}

// NotSupported reports a value outside an enumeration; the detail lists the
// supported values.
func NotSupported(p Path, value any, supported []string) *FieldError {
	d := ""
	if len(supported) > 0 {
		q := make([]string, len(supported))
		for i, s := range supported {
			q[i] = strconv.Quote(s)
		}
		d = "supported values: " + strings.Join(q, ", ")
	}
	return &FieldError{Type: ErrorTypeNotSupported, Field: p.String(), BadValue: value, Detail: d}
}

// TooLong reports a value longer than maxLen.
func TooLong(p Path, value any, maxLen int) *FieldError {
	return &FieldError{Type: ErrorTypeTooLong, Field: p.String(), BadValue: value,
		Detail: fmt.Sprintf("may not be more than %d bytes", maxLen)}
}

// TooMany reports a list longer than maxItems.
func TooMany(p Path, actual, maxItems int) *FieldError {
	return &FieldError{Type: ErrorTypeTooMany, Field: p.String(), BadValue: actual,
		Detail: fmt.Sprintf("must have at most %d items", maxItems)}
}

// NotFound reports a reference to something that does not exist.
func NotFound(p Path, value any) *FieldError {
	return &FieldError{Type: ErrorTypeNotFound, Field: p.String(), BadValue: value}
}

// InternalError reports a failure of the validator itself. A nil err leaves
// the detail empty.
func InternalError(p Path, err error) *FieldError {
	fe := &FieldError{Type: ErrorTypeInternal, Field: p.String()}
	if err != nil {
		fe.Detail = err.Error()
	}
	return fe
}
