package workloads

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// templatehash_gen.go is generated from api's types as they were: a field
// added to api since would not be hashed. Every exported field of every
// api struct a template reaches must be read by the appender of its type
// (regenerate with workloads/testdata/templatehash/gen otherwise).
func TestTemplateDumpCoversAPI(t *testing.T) {
	src, err := os.ReadFile("templatehash_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	funcRE := regexp.MustCompile(`(?s)for a (api\.\w+)\.\nfunc \w+\(b \[\]byte, v \*api\.\w+\) \[\]byte \{\n(.*?)\n\}\n`)
	bodies := map[string]string{}
	for _, m := range funcRE.FindAllStringSubmatch(string(src), -1) {
		bodies[m[1]] += m[2]
	}
	special := map[reflect.Type]bool{
		reflect.TypeOf(api.Quantity{}):    true,
		reflect.TypeOf(api.Time{}):        true,
		reflect.TypeOf(api.IntOrString{}): true,
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		switch ty.Kind() {
		case reflect.Ptr, reflect.Slice, reflect.Map:
			walk(ty.Elem())
			return
		case reflect.Struct:
		default:
			return
		}
		if special[ty] || seen[ty] {
			return
		}
		seen[ty] = true
		name := "api." + ty.Name()
		body, ok := bodies[name]
		if !ok {
			t.Errorf("%s: no appender in templatehash_gen.go", name)
			return
		}
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if !f.IsExported() {
				continue
			}
			read := strings.Contains(body, "v."+f.Name+")") || strings.Contains(body, "v."+f.Name+" ") ||
				strings.Contains(body, "v."+f.Name+"[") || strings.Contains(body, "v."+f.Name+"...")
			if ty == reflect.TypeOf(api.PodSpec{}) && (f.Name == "ServiceAccountName" || f.Name == "DeprecatedServiceAccount") {
				read = strings.Contains(body, "serviceAccountOf(v)")
			}
			if !read {
				t.Errorf("%s.%s is not hashed", name, f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(api.PodTemplateSpec{}))
	walk(reflect.TypeOf(api.PersistentVolumeClaimSpec{})) // an ephemeral claim's spec, kept as JSON
	if len(seen) < 50 {
		t.Fatalf("only %d types reached", len(seen))
	}
}
