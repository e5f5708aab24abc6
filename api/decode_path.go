package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// fieldPathError is a decode error with the field path of the value that
// caused it ("spec.containers[0].resources.requests.cpu"). encoding/json
// names the field of a type mismatch only by its struct fields (no list
// indices), and names nothing at all for an error returned by a field's
// own decoder (Quantity, Time, IntOrString); Decode finds the path itself
// and wraps the error in this type, so errors.Is and errors.As still reach
// the original error.
type fieldPathError struct {
	path string
	err  error
}

func (e *fieldPathError) Error() string {
	msg := e.err.Error()
	var te *json.UnmarshalTypeError
	if errors.As(e.err, &te) {
		// encoding/json's own text repeats the path, without indices and
		// with the Go struct's name; the path is said once, before it.
		msg = "json: cannot unmarshal " + te.Value + " into Go value of type " + te.Type.String()
	}
	if e.path == "" {
		return msg
	}
	return e.path + ": " + msg
}

func (e *fieldPathError) Unwrap() error { return e.err }

// withFieldPath wraps err, returned by json.Unmarshal(raw, fresh()), with
// the path of the value in raw that causes it. It descends from the
// document's root for as long as the object or list there decodes when
// empty (so that the fault is in a member, not in the container's kind),
// keeping at each level the first member, in document order, that fails
// with the same error when decoded alone at its place into a fresh value
// (or else the first member that fails at all). It runs only once decoding
// has failed; each level re-decodes its members once, and the descent
// stops where the Go type has no container, so the work is the document's
// size times the (fixed) depth of the Go type.
func withFieldPath(raw []byte, fresh func() any, err error) error {
	target := err.Error()
	var prefix, suffix []byte
	path := ""
	node := bytes.TrimSpace(raw)
	for {
		members, ok := jsonMembers(node)
		if !ok {
			break
		}
		// A container refused as a whole (an object where a quantity
		// belongs) is refused empty as well: the path ends here.
		empty := append(append(append([]byte(nil), prefix...), node[0], node[len(node)-1]), suffix...)
		if json.Unmarshal(empty, fresh()) != nil {
			break
		}
		var pick *jsonMember
		for i := range members {
			m := &members[i]
			doc := m.wrap(prefix, suffix)
			e := json.Unmarshal(doc, fresh())
			if e == nil {
				continue
			}
			if e.Error() == target {
				pick = m
				break
			}
			if pick == nil {
				pick = m
			}
		}
		if pick == nil {
			break
		}
		path += pick.pathElem()
		prefix, suffix = pick.open(prefix), pick.close(suffix)
		node = pick.raw
	}
	if path == "" {
		return err
	}
	if path[0] == '.' {
		path = path[1:]
	}
	return &fieldPathError{path: path, err: err}
}

// jsonMember is one member of a JSON object (key set) or one element of a
// JSON array (index set), with its raw text.
type jsonMember struct {
	key   string
	index int // -1 for an object member
	raw   json.RawMessage
}

// pathElem renders the member as a path element: ".name" for a key that is
// a plain identifier, `["nvidia.com/gpu"]` for any other key, "[3]" for an
// index.
func (m *jsonMember) pathElem() string {
	if m.index >= 0 {
		return "[" + strconv.Itoa(m.index) + "]"
	}
	for _, r := range m.key {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "[" + strconv.Quote(m.key) + "]"
		}
	}
	if m.key == "" {
		return `[""]`
	}
	return "." + m.key
}

// open returns the text that puts a value at the member's place inside
// prefix: `{"key":` or `[`. An element is put at index 0 of a one-element
// list: a list's elements decode independently.
func (m *jsonMember) open(prefix []byte) []byte {
	out := append([]byte(nil), prefix...)
	if m.index >= 0 {
		return append(out, '[')
	}
	k, _ := json.Marshal(m.key)
	out = append(out, '{')
	out = append(out, k...)
	return append(out, ':')
}

// close returns the text closing what open opened, before suffix.
func (m *jsonMember) close(suffix []byte) []byte {
	c := byte('}')
	if m.index >= 0 {
		c = ']'
	}
	return append([]byte{c}, suffix...)
}

// wrap returns a document holding only this member, at its place.
func (m *jsonMember) wrap(prefix, suffix []byte) []byte {
	return append(append(m.open(prefix), m.raw...), m.close(suffix)...)
}

// jsonMembers lists the members of a JSON object or the elements of a JSON
// array, in document order; ok is false for any other value.
func jsonMembers(raw []byte) (members []jsonMember, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, false
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return nil, false
	}
	for i := 0; dec.More(); i++ {
		m := jsonMember{index: i}
		if d == '{' {
			kt, err := dec.Token()
			if err != nil {
				return nil, false
			}
			m.key, _ = kt.(string)
			m.index = -1
		}
		if err := dec.Decode(&m.raw); err != nil {
			return nil, false
		}
		members = append(members, m)
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, false
	}
	return members, true
}

// jsonKindError is a value of the wrong JSON kind for a field's own
// decoder: an object where a quantity's string belongs, say. It says what
// the field takes and shows the value (cut at 40 bytes), and unwraps to a
// sentinel where the type has one (ErrFormatWrong for a quantity).
type jsonKindError struct {
	want string // "quantity must be a string or a number"
	got  []byte
	is   error
}

func (e *jsonKindError) Error() string {
	got := e.got
	if len(got) > 40 {
		got = append(got[:37:37], "..."...)
	}
	return e.want + ", got " + string(got)
}

func (e *jsonKindError) Unwrap() error { return e.is }

// jsonKindOf names the kind of the JSON value b starts with: "string",
// "number", "object", "array", "bool" or "null".
func jsonKindOf(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	switch c := b[0]; {
	case c == '"':
		return "string"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "bool"
	case c == 'n':
		return "null"
	}
	return ""
}
