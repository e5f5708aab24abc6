package cluster

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// TestPropertyJSONEqual: jsonEqual answers what comparing the two JSON
// encodings answers, for objects that differ from each other in one field
// moved to a neighbouring value (nil and empty slices and maps, nil and
// zero pointers, zero and non-zero scalars, times and quantities), the
// second one either decoded afresh or a shallow copy of the first with one
// field replaced (as the store's writers make them).
func TestPropertyJSONEqual(t *testing.T) {
	kinds := []reflect.Type{reflect.TypeFor[api.Pod](), reflect.TypeFor[api.Node](), reflect.TypeFor[api.Deployment](),
		reflect.TypeFor[api.ReplicaSet](), reflect.TypeFor[api.PodDisruptionBudget](), reflect.TypeFor[api.PodStatus]()}
	rapid.Check(t, func(t *rapid.T) {
		typ := rapid.SampledFrom(kinds).Draw(t, "kind")
		a := reflect.New(typ)
		fillNear(t, a.Elem(), 0)
		b := reflect.New(typ)
		ja, err := json.Marshal(a.Interface())
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(ja, b.Interface()); err != nil {
			t.Fatal(err)
		}
		var leaves []reflect.Value
		collectLeaves(b.Elem(), &leaves)
		for n := rapid.IntRange(0, 2).Draw(t, "mutations"); n > 0 && len(leaves) > 0; n-- {
			mutate(t, leaves[rapid.IntRange(0, len(leaves)-1).Draw(t, "leaf")])
		}
		if rapid.Bool().Draw(t, "shallow") {
			// A writer's shallow copy of a with one field replaced:
			// the other fields share a's memory, byte for byte.
			s := reflect.New(typ)
			s.Elem().Set(a.Elem())
			i := rapid.IntRange(0, typ.NumField()-1).Draw(t, "field")
			s.Elem().Field(i).Set(b.Elem().Field(i))
			b = s
		}
		jb, err := json.Marshal(b.Interface())
		if err != nil {
			t.Fatal(err)
		}
		want := string(ja) == string(jb)
		if got := jsonEqual(a.Interface(), b.Interface()); got != want {
			t.Fatalf("jsonEqual = %v, JSON equal = %v\n%s\n%s", got, want, ja, jb)
		}
	})
}

// fillNear fills v with small random contents.
func fillNear(t *rapid.T, v reflect.Value, depth int) {
	switch v.Type() {
	case typeQuantity:
		v.Set(reflect.ValueOf(api.MustParseQuantity(rapid.SampledFrom([]string{"0", "1", "100m", "1Gi"}).Draw(t, "q"))))
		return
	case typeTime:
		if rapid.Bool().Draw(t, "t") {
			v.Set(reflect.ValueOf(api.NewTime(time.Unix(rapid.Int64Range(1, 3).Draw(t, "ts"), 0))))
		}
		return
	case typeRawMessage:
		return
	}
	more := depth < 5
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, "b"))
	case reflect.String:
		v.SetString(rapid.SampledFrom([]string{"", "a"}).Draw(t, "s"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(rapid.IntRange(0, 1).Draw(t, "i")))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(rapid.IntRange(0, 1).Draw(t, "u")))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(rapid.IntRange(0, 1).Draw(t, "f")))
	case reflect.Pointer:
		if more && rapid.IntRange(0, 3).Draw(t, "p") == 0 {
			p := reflect.New(v.Type().Elem())
			fillNear(t, p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		if more {
			switch rapid.IntRange(0, 3).Draw(t, "sl") {
			case 1:
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			case 2:
				s := reflect.MakeSlice(v.Type(), 1, 1)
				fillNear(t, s.Index(0), depth+1)
				v.Set(s)
			}
		}
	case reflect.Map:
		if more {
			switch rapid.IntRange(0, 3).Draw(t, "m") {
			case 1:
				v.Set(reflect.MakeMap(v.Type()))
			case 2:
				if v.Type().Elem().Kind() == reflect.Interface {
					break
				}
				m := reflect.MakeMap(v.Type())
				k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
				fillNear(t, k, depth+1)
				fillNear(t, e, depth+1)
				m.SetMapIndex(k, e)
				v.Set(m)
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillNear(t, v.Field(i), depth+1)
			}
		}
	}
}

// collectLeaves lists the settable values under v that mutate can move.
func collectLeaves(v reflect.Value, out *[]reflect.Value) {
	switch v.Type() {
	case typeQuantity, typeTime, typeRawMessage:
		*out = append(*out, v)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		*out = append(*out, v)
		if !v.IsNil() {
			collectLeaves(v.Elem(), out)
		}
	case reflect.Slice:
		*out = append(*out, v)
		for i := 0; i < v.Len(); i++ {
			collectLeaves(v.Index(i), out)
		}
	case reflect.Map:
		*out = append(*out, v)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collectLeaves(v.Field(i), out)
			}
		}
	case reflect.Interface, reflect.Array:
	default:
		*out = append(*out, v)
	}
}

// mutate moves v to a neighbouring value.
func mutate(t *rapid.T, v reflect.Value) {
	switch v.Type() {
	case typeQuantity:
		v.Set(reflect.ValueOf(api.MustParseQuantity(rapid.SampledFrom([]string{"0", "1", "1000m", "1Gi"}).Draw(t, "q"))))
		return
	case typeTime:
		v.Set(reflect.ValueOf(api.Time{}))
		if rapid.Bool().Draw(t, "t") {
			v.Set(reflect.ValueOf(api.NewTime(time.Unix(1, 0).In(time.FixedZone("x", 3600)))))
		}
		return
	case typeRawMessage:
		v.SetBytes(nil)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Slice:
		if v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.String:
		v.SetString(rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "s"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(rapid.IntRange(0, 2).Draw(t, "i")))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(rapid.IntRange(0, 2).Draw(t, "u")))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(rapid.IntRange(0, 2).Draw(t, "f")))
	}
}
