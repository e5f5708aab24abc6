package managedfields

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// ErrInvalidObject is returned for an object field management cannot
// read: an associative list whose item is not an object, lacks a key
// field or repeats a key; the error names the path.
var ErrInvalidObject = fmt.Errorf("managedfields: invalid object")

// systemMeta are the metadata fields the API server sets itself; no
// manager owns them.
var systemMeta = map[string]bool{
	"uid": true, "resourceVersion": true, "generation": true, "creationTimestamp": true,
	"deletionTimestamp": true, "deletionGracePeriodSeconds": true, "managedFields": true, "selfLink": true,
}

// skipped reports whether field name at es (the path so far) is outside
// field management: apiVersion, kind and status at the top, the system
// fields of metadata.
func skipped(es []elem, name string) bool {
	switch len(es) {
	case 0:
		return name == "apiVersion" || name == "kind" || name == "status"
	case 1:
		return es[0].kind == elemField && es[0].field == "metadata" && systemMeta[name]
	}
	return false
}

// FieldsOf is the set of fields obj sets, in the schema of kind: the
// leaves (scalars, atomic values, empty objects), each associative list
// item and each set member. This is what an applier owns after applying
// obj as its configuration, and what a creator owns after creating it.
func FieldsOf(kind string, obj map[string]any) (Set, error) {
	if obj == nil {
		return Set{}, fmt.Errorf("%w: object: nil", ErrInvalidObject)
	}
	var s Set
	err := collect(obj, schema[kind], nil, &s, false)
	return s, err
}

// configFields is FieldsOf for an applied configuration, which may not
// list an item or a member twice.
func configFields(kind string, obj map[string]any) (Set, error) {
	if obj == nil {
		return Set{}, fmt.Errorf("%w: config: nil", ErrInvalidObject)
	}
	var s Set
	err := collect(obj, schema[kind], nil, &s, true)
	return s, err
}

func collect(v any, sh *shape, es []elem, out *Set, strict bool) error {
	switch x := v.(type) {
	case map[string]any:
		if len(es) > 0 && (sh != nil && sh.atomic || len(x) == 0) {
			out.add(es)
			return nil
		}
		for _, k := range sortedKeys(x) {
			if skipped(es, k) {
				continue
			}
			if err := collect(x[k], sh.child(k), append(es, elem{field: k}), out, strict); err != nil {
				return err
			}
		}
		return nil
	case []any:
		if sh == nil || sh.atomic || (sh.keys == nil && !sh.set) || len(x) == 0 {
			out.add(es)
			return nil
		}
		for i, it := range x {
			e, err := itemElem(sh, it, es, i)
			if err != nil {
				return err
			}
			ies := append(es, e)
			if strict && out.Has(pathOf(ies)) {
				return fmt.Errorf("%w: %s: duplicate entries for key %s", ErrInvalidObject, pathOf(es), e)
			}
			out.add(ies)
			if sh.set || sh.item != nil && sh.item.atomic {
				continue
			}
			m := it.(map[string]any)
			for _, k := range sortedKeys(m) {
				if err := collect(m[k], sh.item.child(k), append(ies, elem{field: k}), out, strict); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if len(es) > 0 {
		out.add(es)
	}
	return nil
}

// itemElem is the path element of item i of an associative list or set
// of shape sh at es.
func itemElem(sh *shape, it any, es []elem, i int) (elem, error) {
	if sh.set {
		return elem{kind: elemMember, member: it}, nil
	}
	m, ok := it.(map[string]any)
	if !ok {
		return elem{}, fmt.Errorf("%w: %s: item %d is %s, not an object", ErrInvalidObject, pathOf(es), i, jsonText(it))
	}
	e := elem{kind: elemItem, keys: make([]keyField, len(sh.keys))}
	for j, k := range sh.keys {
		v, ok := m[k]
		if !ok || v == nil {
			d, has := keyDefaults[k]
			if !has {
				return elem{}, fmt.Errorf("%w: %s: item %d has no key field %q", ErrInvalidObject, pathOf(es), i, k)
			}
			v = d
		}
		e.keys[j] = keyField{name: k, value: normalize(v)}
	}
	return e, nil
}

// normalize makes numbers compare equal however they were decoded.
func normalize(v any) any {
	switch n := v.(type) {
	case json.Number:
		if f, err := n.Float64(); err == nil {
			return f
		}
	case int:
		return float64(n)
	case int32:
		return float64(n)
	case int64:
		return float64(n)
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// equalValues compares two JSON values, numbers by value.
func equalValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValues(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(normalize(a), normalize(b))
}

// lookup finds the value at es in v.
func lookup(v any, es []elem, sh *shape) (any, bool) {
	for _, e := range es {
		switch e.kind {
		case elemField:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[e.field]; !ok {
				return nil, false
			}
			sh = sh.child(e.field)
		default:
			l, ok := v.([]any)
			if !ok || sh == nil {
				return nil, false
			}
			i := indexOf(l, e, sh)
			if i < 0 {
				return nil, false
			}
			v = l[i]
			sh = sh.item
		}
	}
	return v, true
}

// indexOf is the index of the item or member e in l, or -1.
func indexOf(l []any, e elem, sh *shape) int {
	for i, it := range l {
		if e.kind == elemMember {
			if equalValues(it, e.member) {
				return i
			}
			continue
		}
		got, err := itemElem(sh, it, nil, i)
		if err == nil && sameKeys(got, e) {
			return i
		}
	}
	return -1
}

func sameKeys(a, b elem) bool {
	if len(a.keys) != len(b.keys) {
		return false
	}
	for i := range a.keys {
		if a.keys[i].name != b.keys[i].name || !equalValues(a.keys[i].value, b.keys[i].value) {
			return false
		}
	}
	return true
}

// removeAt removes the value at es from root (a field, an item, a
// member); a path that does not resolve is left alone.
func removeAt(root map[string]any, es []elem, sh *shape) {
	if len(es) == 0 {
		return
	}
	parent, ok := lookup(root, es[:len(es)-1], sh)
	if !ok {
		return
	}
	psh := shapeAt(sh, es[:len(es)-1])
	last := es[len(es)-1]
	switch last.kind {
	case elemField:
		if m, ok := parent.(map[string]any); ok {
			delete(m, last.field)
		}
	default:
		l, ok := parent.([]any)
		if !ok || psh == nil {
			return
		}
		if i := indexOf(l, last, psh); i >= 0 {
			setAt(root, es[:len(es)-1], sh, slices.Delete(slices.Clone(l), i, i+1))
		}
	}
}

// setAt replaces the value at es (which resolves) with v.
func setAt(root map[string]any, es []elem, sh *shape, v any) {
	parent, ok := lookup(root, es[:len(es)-1], sh)
	if !ok {
		return
	}
	last := es[len(es)-1]
	switch last.kind {
	case elemField:
		if m, ok := parent.(map[string]any); ok {
			m[last.field] = v
		}
	default:
		l, _ := parent.([]any)
		if i := indexOf(l, last, shapeAt(sh, es[:len(es)-1])); i >= 0 {
			l[i] = v
		}
	}
}

// shapeAt is the shape at es.
func shapeAt(sh *shape, es []elem) *shape {
	for _, e := range es {
		if e.kind == elemField {
			sh = sh.child(e.field)
		} else if sh != nil {
			sh = sh.item
		}
	}
	return sh
}
