package workloads

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// drawVectorTemplate is one of the upstream vectors' templates, defaulted
// as the API server does: a varied base (probes, volumes, affinity,
// security contexts, quantities) for the properties below.
func drawVectorTemplate(t *rapid.T, vs []templateHashVector) *api.Deployment {
	v := rapid.SampledFrom(vs).Draw(t, "vector")
	d := &api.Deployment{}
	if err := json.Unmarshal(v.Template, &d.Spec.Template); err != nil {
		t.Fatal(err)
	}
	api.DefaultDeployment(d)
	return d
}

// Equal templates hash equally: a deep copy, a JSON round trip and a
// rebuilt label map (Go iterates maps in random order; the dump sorts
// the keys) give the value of the original, with and without a
// collision count.
func TestDefaultPodTemplateHashEqualTemplatesRapid(t *testing.T) {
	vs := readTemplateHashVectors(t, "testdata/templatehash/vectors.json")
	rapid.Check(t, func(t *rapid.T) {
		d := drawVectorTemplate(t, vs)
		var cc *int32
		if rapid.Bool().Draw(t, "withCollisionCount") {
			n := rapid.Int32().Draw(t, "collisionCount")
			cc = &n
		}
		want := DefaultPodTemplateHash(&d.Spec.Template, cc)

		cp := d.DeepCopy()
		labels := map[string]string{}
		keys := sortedKeys(cp.Spec.Template.Labels)
		for _, i := range rapid.Permutation(indexes(len(keys))).Draw(t, "labelOrder") {
			labels[keys[i]] = cp.Spec.Template.Labels[keys[i]]
		}
		if len(keys) > 0 {
			cp.Spec.Template.Labels = labels
		}
		if got := DefaultPodTemplateHash(&cp.Spec.Template, cc); got != want {
			t.Fatalf("deep copy hashes %s, original %s", got, want)
		}
		raw, err := json.Marshal(&d.Spec.Template)
		if err != nil {
			t.Fatal(err)
		}
		var back api.PodTemplateSpec
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		if got := DefaultPodTemplateHash(&back, cc); got != want {
			t.Fatalf("JSON round trip hashes %s, original %s\n%s", got, want, raw)
		}
	})
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// A change of any field api models changes the dump upstream hashes: a
// string, number or flag anywhere in the template, a pointer set, an
// element added to a list, a key added to a map or a value changed, a
// quantity or a timestamp moved. (The one exception is upstream's: the
// deprecated serviceAccount is overwritten by serviceAccountName when that
// is set.)
func TestPodTemplateDumpSeesEveryFieldRapid(t *testing.T) {
	vs := readTemplateHashVectors(t, "testdata/templatehash/vectors.json")
	rapid.Check(t, func(t *rapid.T) {
		d := drawVectorTemplate(t, vs)
		before := string(appendPodTemplateDump(nil, &d.Spec.Template))
		var muts []mutation
		collectMutations(reflect.ValueOf(&d.Spec.Template).Elem(), "template", &muts)
		if d.Spec.Template.Spec.ServiceAccountName != "" {
			muts = dropMutations(muts, "template.Spec.DeprecatedServiceAccount")
		}
		m := rapid.SampledFrom(muts).Draw(t, "mutation")
		m.apply()
		after := string(appendPodTemplateDump(nil, &d.Spec.Template))
		if after == before {
			t.Fatalf("changing %s (%s) left the dump unchanged", m.path, m.what)
		}
	})
}

// mutation is one change of one field, reached by reflection.
type mutation struct {
	path, what string
	apply      func()
}

func dropMutations(ms []mutation, prefix string) []mutation {
	var out []mutation
	for _, m := range ms {
		if !strings.HasPrefix(m.path, prefix) {
			out = append(out, m)
		}
	}
	return out
}

var (
	quantityType = reflect.TypeOf(api.Quantity{})
	timeType     = reflect.TypeOf(api.Time{})
)

// collectMutations lists a change for every field reachable from v (an
// addressable value).
func collectMutations(v reflect.Value, path string, out *[]mutation) {
	add := func(what string, f func()) { *out = append(*out, mutation{path, what, f}) }
	switch v.Type() {
	case quantityType:
		add("add 1", func() { v.Set(reflect.ValueOf(v.Interface().(api.Quantity).Add(api.MustParseQuantity("1")))) })
		return
	case timeType:
		add("move", func() {
			t := v.Interface().(api.Time)
			if t.IsZero() {
				t = api.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
			} else {
				t = api.NewTime(t.Add(time.Second))
			}
			v.Set(reflect.ValueOf(t))
		})
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collectMutations(v.Field(i), path+"."+v.Type().Field(i).Name, out)
			}
		}
	case reflect.Ptr:
		if v.IsNil() {
			add("set", func() {
				p := reflect.New(v.Type().Elem())
				if v.Type().Elem() == quantityType {
					// An unset divisor is the zero quantity upstream.
					p.Elem().Set(reflect.ValueOf(api.MustParseQuantity("1")))
				}
				v.Set(p)
			})
			return
		}
		collectMutations(v.Elem(), path, out)
	case reflect.Slice:
		add("append", func() { v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem()))) })
		for i := 0; i < v.Len(); i++ {
			collectMutations(v.Index(i), path+"[]", out)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() == reflect.Interface {
			return // an ephemeral claim's spec, kept as JSON, is checked by the vectors
		}
		add("add key", func() {
			if v.IsNil() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			k := reflect.ValueOf("rapid.example.com/key").Convert(v.Type().Key())
			val := reflect.New(v.Type().Elem()).Elem()
			if val.Kind() == reflect.String {
				val.SetString("x")
			}
			v.SetMapIndex(k, val)
		})
		for _, k := range v.MapKeys() {
			add("change value of "+k.String(), func() {
				val := reflect.New(v.Type().Elem()).Elem()
				val.Set(v.MapIndex(k))
				collectOne(val)
				v.SetMapIndex(k, val)
			})
		}
	case reflect.String:
		add("append x", func() { v.SetString(v.String() + "x") })
	case reflect.Bool:
		add("flip", func() { v.SetBool(!v.Bool()) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		add("add 1", func() { v.SetInt(v.Int() + 1) })
	}
}

// collectOne changes the map value val (a string or a quantity).
func collectOne(val reflect.Value) {
	var ms []mutation
	collectMutations(val, "", &ms)
	if len(ms) > 0 {
		ms[0].apply()
	}
}
