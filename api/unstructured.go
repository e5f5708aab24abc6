package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Unstructured is an object of a kind podsem does not model (a ConfigMap,
// a ServiceAccount, a CronJob, ...), as DecodeAll keeps it: its kind and
// metadata read, every other top-level field kept as the JSON it was
// given. A whole-cluster simulation stores such objects (a namespace's
// deletion deletes them, the garbage collector follows their owner
// references) but runs no controller of their kind.
type Unstructured struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitzero"`
	// Fields are the object's other top-level fields (spec, data, ...),
	// by name.
	Fields map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON reads an object: kind, apiVersion and metadata into their
// fields, the rest into Fields.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	if u == nil {
		return fmt.Errorf("%w: Unstructured: nil pointer", errInvalidInput)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	*u = Unstructured{}
	if raw, ok := all["metadata"]; ok {
		if err := json.Unmarshal(raw, &u.ObjectMeta); err != nil {
			return fmt.Errorf("metadata: %w", err)
		}
	}
	for _, k := range []string{"kind", "apiVersion"} {
		if raw, ok := all[k]; ok {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			if k == "kind" {
				u.Kind = s
			} else {
				u.APIVersion = s
			}
		}
	}
	delete(all, "metadata")
	delete(all, "kind")
	delete(all, "apiVersion")
	if len(all) > 0 {
		u.Fields = all
	}
	return nil
}

// MarshalJSON writes the object back: kind, apiVersion, metadata, then
// the other fields in name order.
func (u *Unstructured) MarshalJSON() ([]byte, error) {
	if u == nil {
		return []byte("null"), nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	write := func(k string, v any) error {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		b.Write(vb)
		return nil
	}
	if u.Kind != "" {
		_ = write("kind", u.Kind)
	}
	if u.APIVersion != "" {
		_ = write("apiVersion", u.APIVersion)
	}
	if err := write("metadata", &u.ObjectMeta); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(u.Fields)) {
		if err := write(k, u.Fields[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// DeepCopy returns a copy of the object sharing no memory with it; nil for
// a nil receiver.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	out := &Unstructured{TypeMeta: u.TypeMeta}
	u.ObjectMeta.deepCopyInto(&out.ObjectMeta)
	if u.Fields != nil {
		out.Fields = make(map[string]json.RawMessage, len(u.Fields))
		for k, v := range u.Fields {
			out.Fields[k] = slices.Clone(v)
		}
	}
	return out
}

// DecodeAll is Decode, except that an object of a kind podsem does not
// model decodes as *Unstructured instead of failing; an object without a
// kind is still an error.
func DecodeAll(data []byte) ([]Object, error) { return decode(data, true) }
