package api_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// TestPropertyDeepCopy: for every kind with a DeepCopy, a copy of any
// object (random fields, normalised by a JSON round trip as an API server
// stores it) equals the object, reads back as the same JSON, and shares no
// memory with it: no pointer, slice array or map of one is reachable from
// the other.
func TestPropertyDeepCopy(t *testing.T) {
	for _, root := range deepCopyRoots {
		typ := reflect.TypeOf(root)
		t.Run(typ.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				raw := reflect.New(typ)
				fillRandom(t, raw.Elem(), 0, "")
				b, err := json.Marshal(raw.Interface())
				if err != nil {
					t.Fatal(err)
				}
				obj := reflect.New(typ)
				if err := json.Unmarshal(b, obj.Interface()); err != nil {
					t.Fatalf("%s: %v", b, err)
				}
				cp := obj.MethodByName("DeepCopy").Call(nil)[0]
				if !reflect.DeepEqual(cp.Interface(), obj.Interface()) {
					t.Fatalf("the copy differs:\n%#v\n%#v", cp.Interface(), obj.Interface())
				}
				if b, err = json.Marshal(obj.Interface()); err != nil {
					t.Fatal(err)
				}
				cb, err := json.Marshal(cp.Interface())
				if err != nil {
					t.Fatal(err)
				}
				if string(cb) != string(b) {
					t.Fatalf("JSON of the copy:\n%s\nof the object:\n%s", cb, b)
				}
				seen := map[uintptr]string{}
				collectMemory(obj.Elem(), "obj", seen)
				if where, ok := sharedMemory(cp.Elem(), "copy", seen); ok {
					t.Fatalf("shared memory: %s", where)
				}
			})
		})
	}
	if (*api.Pod)(nil).DeepCopy() != nil {
		t.Error("DeepCopy of a nil pod is not nil")
	}
}

// skipMemory are the values whose memory copies may share: immutable once
// built (deepCopyValues).
func skipMemory(t reflect.Type) bool {
	return t == reflect.TypeFor[api.Quantity]() || t == reflect.TypeFor[time.Time]()
}

// collectMemory records the addresses of every pointer target, slice
// array and map reachable from v.
func collectMemory(v reflect.Value, path string, seen map[uintptr]string) {
	forMemory(v, path, func(p uintptr, where string) bool {
		seen[p] = where
		return false
	})
}

func sharedMemory(v reflect.Value, path string, seen map[uintptr]string) (string, bool) {
	var hit string
	forMemory(v, path, func(p uintptr, where string) bool {
		if w, ok := seen[p]; ok {
			hit = where + " is " + w
			return true
		}
		return false
	})
	return hit, hit != ""
}

// forMemory calls f with each address reachable from v, stopping when f
// returns true.
func forMemory(v reflect.Value, path string, f func(uintptr, string) bool) bool {
	if skipMemory(v.Type()) {
		return false
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return false
		}
		if f(v.Pointer(), path) {
			return true
		}
		return forMemory(v.Elem(), path, f)
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		return forMemory(v.Elem(), path, f)
	case reflect.Slice:
		if v.IsNil() {
			return false
		}
		if v.Cap() > 0 && f(v.Pointer(), path) {
			return true
		}
		for i := 0; i < v.Len(); i++ {
			if forMemory(v.Index(i), fmt.Sprintf("%s[%d]", path, i), f) {
				return true
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return false
		}
		if f(v.Pointer(), path) {
			return true
		}
		it := v.MapRange()
		for it.Next() {
			if forMemory(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), f) {
				return true
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && forMemory(v.Field(i), path+"."+v.Type().Field(i).Name, f) {
				return true
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if forMemory(v.Index(i), fmt.Sprintf("%s[%d]", path, i), f) {
				return true
			}
		}
	}
	return false
}

// fillRandom sets v to random contents: a few elements per slice and map,
// pointers set or nil, shallower as it goes down.
func fillRandom(t *rapid.T, v reflect.Value, depth int, label string) {
	typ := v.Type()
	switch typ {
	case reflect.TypeFor[api.Quantity]():
		q := rapid.SampledFrom([]string{"0", "100m", "1", "2Gi", "1.5", "123456789012345678901234567890"}).Draw(t, label+"q")
		v.Set(reflect.ValueOf(api.MustParseQuantity(q)))
		return
	case reflect.TypeFor[api.Time]():
		v.Set(reflect.ValueOf(api.NewTime(time.Unix(rapid.Int64Range(0, 2e9).Draw(t, label+"t"), 0).UTC())))
		return
	case reflect.TypeFor[api.IntOrString]():
		if rapid.Bool().Draw(t, label+"ios") {
			v.Set(reflect.ValueOf(api.FromString("25%")))
		} else {
			v.Set(reflect.ValueOf(api.FromInt32(rapid.Int32Range(0, 9).Draw(t, label+"i"))))
		}
		return
	case reflect.TypeFor[json.RawMessage]():
		if rapid.Bool().Draw(t, label+"raw") {
			v.SetBytes([]byte(`{"a":[1,"b"]}`))
		}
		return
	}
	more := depth < 6
	switch typ.Kind() {
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, label))
	case reflect.String:
		v.SetString(rapid.SampledFrom([]string{"", "a", "web", "x-1"}).Draw(t, label))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(rapid.IntRange(-3, 3).Draw(t, label)))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(rapid.IntRange(0, 3).Draw(t, label)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(rapid.IntRange(0, 3).Draw(t, label)))
	case reflect.Pointer:
		if more && rapid.Bool().Draw(t, label+"*") {
			p := reflect.New(typ.Elem())
			fillRandom(t, p.Elem(), depth+1, label)
			v.Set(p)
		}
	case reflect.Slice:
		if more && rapid.Bool().Draw(t, label+"[]") {
			n := rapid.IntRange(0, 2).Draw(t, label+"n")
			s := reflect.MakeSlice(typ, n, n)
			for i := 0; i < n; i++ {
				fillRandom(t, s.Index(i), depth+1, label)
			}
			v.Set(s)
		}
	case reflect.Map:
		if more && rapid.Bool().Draw(t, label+"{}") {
			m := reflect.MakeMap(typ)
			n := rapid.IntRange(0, 2).Draw(t, label+"n")
			for i := 0; i < n; i++ {
				k := reflect.New(typ.Key()).Elem()
				fillRandom(t, k, depth+1, label+"k")
				e := reflect.New(typ.Elem()).Elem()
				if typ.Elem().Kind() == reflect.Interface {
					e.Set(reflect.ValueOf(map[string]any{"x": []any{"y", 1.0}}))
				} else {
					fillRandom(t, e, depth+1, label+"v")
				}
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := 0; i < typ.NumField(); i++ {
			if typ.Field(i).IsExported() {
				fillRandom(t, v.Field(i), depth+1, label+"."+typ.Field(i).Name)
			}
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fillRandom(t, v.Index(i), depth+1, label)
		}
	}
}
