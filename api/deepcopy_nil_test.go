package api_test

import (
	"reflect"
	"testing"
)

// The DeepCopy methods in the nil table: a nil receiver copies to nil.
func init() {
	for _, root := range deepCopyRoots {
		typ := reflect.TypeOf(root)
		nilCases["(*"+typ.Name()+").DeepCopy"] = func(t *testing.T) {
			out := reflect.Zero(reflect.PointerTo(typ)).MethodByName("DeepCopy").Call(nil)[0]
			if !out.IsNil() {
				t.Errorf("(*%s)(nil).DeepCopy() = %v, want nil", typ.Name(), out)
			}
		}
	}
}
