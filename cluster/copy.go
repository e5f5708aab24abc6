package cluster

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unsafe"

	"github.com/podsem/podsem/api"
)

// This file is the store's copies and comparisons of objects, typed
// instead of through JSON (the api types' DeepCopy; a reflective
// comparison that answers exactly what comparing the two JSON encodings
// answers).

// deepCopy returns a copy of o sharing no memory with it, nil for a kind
// the store does not hold.
func deepCopy(o api.Object) api.Object {
	switch x := o.(type) {
	case *api.Pod:
		return x.DeepCopy()
	case *api.Node:
		return x.DeepCopy()
	case *api.Namespace:
		return x.DeepCopy()
	case *api.PodDisruptionBudget:
		return x.DeepCopy()
	case *api.PriorityClass:
		return x.DeepCopy()
	case *api.Service:
		return x.DeepCopy()
	case *api.Deployment:
		return x.DeepCopy()
	case *api.ReplicaSet:
		return x.DeepCopy()
	case *api.StatefulSet:
		return x.DeepCopy()
	case *api.ControllerRevision:
		return x.DeepCopy()
	case *api.DaemonSet:
		return x.DeepCopy()
	case *api.Job:
		return x.DeepCopy()
	case *api.CronJob:
		return x.DeepCopy()
	case *api.ResourceQuota:
		return x.DeepCopy()
	case *api.PersistentVolumeClaim:
		return x.DeepCopy()
	case *api.PersistentVolume:
		return x.DeepCopy()
	case *api.StorageClass:
		return x.DeepCopy()
	case *api.CSINode:
		return x.DeepCopy()
	case *api.CSIDriver:
		return x.DeepCopy()
	case *api.VolumeAttachment:
		return x.DeepCopy()
	case *api.LimitRange:
		return x.DeepCopy()
	case *api.Unstructured:
		return x.DeepCopy()
	}
	return nil
}

// jsonEqual reports whether a and b (values of one type) encode to the
// same JSON, without encoding them. Pass structs by pointer: a struct
// value boxed in an interface is a copy on the heap.
func jsonEqual(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return false
	}
	return valuesJSONEqual(va, vb, false)
}

var (
	typeQuantity    = reflect.TypeFor[api.Quantity]()
	typeTime        = reflect.TypeFor[api.Time]()
	typeIntOrString = reflect.TypeFor[api.IntOrString]()
	typeRawMessage  = reflect.TypeFor[json.RawMessage]()
)

// valuesJSONEqual compares two values of one type as their JSON encodings
// compare; omitEmpty is the omitempty option of the field holding them.
func valuesJSONEqual(a, b reflect.Value, omitEmpty bool) bool {
	switch a.Type() {
	case typeQuantity:
		qa, qb := fieldValue[api.Quantity](a), fieldValue[api.Quantity](b)
		return qa == qb || qa.String() == qb.String()
	case typeTime:
		ta, tb := fieldValue[api.Time](a), fieldValue[api.Time](b)
		if ta.IsZero() || tb.IsZero() {
			return ta.IsZero() == tb.IsZero()
		}
		return ta.Equal(tb.Time)
	case typeIntOrString:
		ia, ib := fieldValue[api.IntOrString](a), fieldValue[api.IntOrString](b)
		if ia.IsString != ib.IsString {
			return false
		}
		if ia.IsString {
			return ia.StrVal == ib.StrVal
		}
		return ia.IntVal == ib.IntVal
	case typeRawMessage:
		return bytes.Equal(a.Bytes(), b.Bytes()) && a.IsNil() == b.IsNil()
	}
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() == b.Pointer() || valuesJSONEqual(a.Elem(), b.Elem(), false)
	case reflect.Interface:
		return reflect.DeepEqual(a.Interface(), b.Interface())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 {
			return omitEmpty || a.IsNil() == b.IsNil()
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		for i := 0; i < a.Len(); i++ {
			if !valuesJSONEqual(a.Index(i), b.Index(i), false) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !valuesJSONEqual(a.Index(i), b.Index(i), false) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 {
			return omitEmpty || a.IsNil() == b.IsNil()
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		it := a.MapRange()
		for it.Next() {
			vb := b.MapIndex(it.Key())
			if !vb.IsValid() || !valuesJSONEqual(it.Value(), vb, false) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if sameBytes(a, b) {
			// A shallow copy's untouched part: the same scalars and the
			// same references encode the same.
			return true
		}
		fields := jsonFields(a.Type())
		for _, f := range fields {
			fa, fb := a.Field(f.index), b.Field(f.index)
			if f.omitZero {
				za, zb := isZero(fa), isZero(fb)
				if za != zb {
					return false
				}
				if za {
					continue
				}
			}
			if !valuesJSONEqual(fa, fb, f.omitEmpty) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// sameBytes reports whether a and b, addressable values of one type, hold
// the same bytes: the same scalars, strings, slices, maps and pointers, so
// the same JSON (NaN aside, which JSON cannot encode).
func sameBytes(a, b reflect.Value) bool {
	if !a.CanAddr() || !b.CanAddr() {
		return false
	}
	n := a.Type().Size()
	if n == 0 {
		return true
	}
	pa, pb := a.Addr().UnsafePointer(), b.Addr().UnsafePointer()
	return pa == pb || bytes.Equal(unsafe.Slice((*byte)(pa), n), unsafe.Slice((*byte)(pb), n))
}

// fieldValue is v's value, read through its address when it has one:
// boxing the value itself would copy it to the heap.
func fieldValue[T any](v reflect.Value) T {
	if v.CanAddr() {
		return *v.Addr().Interface().(*T)
	}
	return v.Interface().(T)
}

// isZero is encoding/json's omitzero test: the value's IsZero method, or
// the zero value.
func isZero(v reflect.Value) bool {
	if v.Kind() != reflect.Pointer && v.CanAddr() {
		// Through a pointer: boxing the value itself would copy it.
		if z, ok := v.Addr().Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
		return v.IsZero()
	}
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return true
		}
		return z.IsZero()
	}
	return v.IsZero()
}

// jsonField is a struct field encoding/json encodes.
type jsonField struct {
	index               int
	omitEmpty, omitZero bool
}

// jsonFieldTable holds the encoded fields of every struct type reachable
// from the kinds the store holds, built once at package initialisation and
// read only.
var jsonFieldTable = func() map[reflect.Type][]jsonField {
	table := map[reflect.Type][]jsonField{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(t.Elem())
		case reflect.Struct:
			if _, ok := table[t]; ok {
				return
			}
			fs := structJSONFields(t)
			table[t] = fs
			for _, f := range fs {
				walk(t.Field(f.index).Type)
			}
		}
	}
	for _, o := range []any{api.Pod{}, api.Node{}, api.Namespace{}, api.PodDisruptionBudget{}, api.PriorityClass{}, api.Service{},
		api.Deployment{}, api.ReplicaSet{}, api.StatefulSet{}, api.ControllerRevision{}, api.DaemonSet{}, api.Job{}, api.CronJob{}, api.ResourceQuota{},
		api.PersistentVolumeClaim{}, api.PersistentVolume{}, api.StorageClass{}, api.CSINode{}, api.CSIDriver{}} {
		walk(reflect.TypeOf(o))
	}
	return table
}()

func jsonFields(t reflect.Type) []jsonField {
	if fs, ok := jsonFieldTable[t]; ok {
		return fs
	}
	return structJSONFields(t)
}

func structJSONFields(t reflect.Type) []jsonField {
	var fs []jsonField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() && !sf.Anonymous {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		_, opts, _ := strings.Cut(tag, ",")
		f := jsonField{index: i}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				f.omitZero = true
			}
		}
		fs = append(fs, f)
	}
	return fs
}
