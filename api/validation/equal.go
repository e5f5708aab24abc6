package validation

import (
	"reflect"

	"github.com/podsem/podsem/api"
)

var (
	quantityType = reflect.TypeOf(api.Quantity{})
	timeType     = reflect.TypeOf(api.Time{})
)

// semanticEqual compares two API values the way apimachinery's
// equality.Semantic.DeepEqual does for the pod update rules: quantities by
// value ("1000m" equals "1"), times by instant, and a nil slice or map equal
// to an empty one. Everything else is compared field by field.
func semanticEqual(a, b any) bool {
	return deepValueEqual(reflect.ValueOf(a), reflect.ValueOf(b))
}

func deepValueEqual(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Type() {
	case quantityType:
		return a.Interface().(api.Quantity).Cmp(b.Interface().(api.Quantity)) == 0
	case timeType:
		return a.Interface().(api.Time).Equal(b.Interface().(api.Time).Time)
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return deepValueEqual(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return deepValueEqual(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !deepValueEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		iter := a.MapRange()
		for iter.Next() {
			bv := b.MapIndex(iter.Key())
			if !bv.IsValid() || !deepValueEqual(iter.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !deepValueEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	// Funcs, channels and the like never appear in API objects.
	return false
}
