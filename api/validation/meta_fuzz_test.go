package validation

import (
	"strings"
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzObjectMetaNames runs arbitrary names, namespaces, label and
// annotation keys and values through the API server's object-metadata
// checks and compares each verdict with the string checks it is built on:
// metadata.name is refused exactly when it is no DNS-1123 subdomain,
// generateName exactly when it is none once a trailing '-' is masked as
// apimachinery masks it (its last two characters become one "a"),
// namespace exactly when it is no DNS-1123 label, labels exactly when the
// key is no qualified name or the value no label value, annotations
// exactly when the lower-cased key is no qualified name or the total size
// passes 256 KiB. Every error names its field and fits on one line.
func FuzzObjectMetaNames(f *testing.F) {
	for _, s := range [][7]string{
		{"web-0", "", "default", "app", "web", "example.com/Note", "x"},
		{"", "web-", "kube-system", "app.kubernetes.io/name", "", "A/B", ""},
		{"Web", "-", "Default", "a/b/c", "-x", "/a", "v"},
		{"a..b", "a.", "a.b", "", "v", "", ""},
		{"a\nb", "a\r-", "a\n", "k\n", "v\n", "a\nb", "\n"},
		{strings.Repeat("a", 254), strings.Repeat("a", 253) + "-", strings.Repeat("a", 64), strings.Repeat("k", 64), strings.Repeat("v", 64), "k", strings.Repeat("v", 256*1024)},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
	}
	f.Fuzz(func(t *testing.T, name, generateName, namespace, labelKey, labelValue, annKey, annValue string) {
		m := api.ObjectMeta{
			Name: name, GenerateName: generateName, Namespace: namespace,
			Labels:      map[string]string{labelKey: labelValue},
			Annotations: map[string]string{annKey: annValue},
		}
		count := map[string]int{}
		for _, e := range validateObjectMeta(&m, api.NewPath("metadata")) {
			if e.Field == "" || strings.ContainsAny(e.Error(), "\r\n") {
				t.Fatalf("error %q has no field or spans lines", e.Error())
			}
			count[e.Field]++
		}
		expect := func(field string, refused bool) {
			t.Helper()
			if (count[field] > 0) != refused {
				t.Fatalf("%s: %d errors, want refused=%v (meta %+v)", field, count[field], refused, m)
			}
		}
		expect("metadata.name", name == "" || len(api.IsDNS1123Subdomain(name)) > 0)
		gen := generateName
		if len(gen) > 1 && strings.HasSuffix(gen, "-") {
			gen = gen[:len(gen)-2] + "a" // apimachinery's maskTrailingDash
		}
		expect("metadata.generateName", generateName != "" && len(api.IsDNS1123Subdomain(gen)) > 0)
		expect("metadata.namespace", namespace == "" || len(api.IsDNS1123Label(namespace)) > 0)
		expect("metadata.labels", len(api.IsQualifiedName(labelKey)) > 0 || len(api.IsValidLabelValue(labelValue)) > 0)
		expect("metadata.annotations", len(api.IsQualifiedName(strings.ToLower(annKey))) > 0 || len(annKey)+len(annValue) > totalAnnotationSizeLimit)

		// A name that passes is also accepted as the base of a generated
		// name, which may additionally end in '-'.
		if len(api.NameIsDNSSubdomain(name, false)) == 0 && len(api.NameIsDNSSubdomain(name, true)) != 0 {
			t.Fatalf("%q is a valid name but no valid generateName", name)
		}
		if len(api.NameIsDNSSubdomain(name, false)) == 0 && len(name) < api.DNS1123SubdomainMaxLength && len(api.NameIsDNSSubdomain(name+"-", true)) != 0 {
			t.Fatalf("%q- refused as generateName", name)
		}
	})
}
