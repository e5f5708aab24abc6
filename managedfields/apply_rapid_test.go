package managedfields

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// genDeployment draws an applied configuration of a Deployment: some
// labels, maybe replicas and a strategy, containers with images, env and
// ports, maybe finalizers.
func genDeployment(t *rapid.T, label string) map[string]any {
	meta := map[string]any{"name": "web"}
	labels := map[string]any{}
	for _, k := range []string{"app", "tier", "team"} {
		if rapid.Bool().Draw(t, label+".label."+k) {
			labels[k] = rapid.SampledFrom([]string{"a", "b"}).Draw(t, label+".labelv."+k)
		}
	}
	if len(labels) > 0 {
		meta["labels"] = labels
	}
	if rapid.Bool().Draw(t, label+".finalizers") {
		meta["finalizers"] = []any{"example.com/a", "example.com/b"}[:rapid.IntRange(1, 2).Draw(t, label+".nfin")]
	}
	spec := map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}
	if rapid.Bool().Draw(t, label+".replicas") {
		spec["replicas"] = float64(rapid.IntRange(0, 5).Draw(t, label+".n"))
	}
	if rapid.Bool().Draw(t, label+".strategy") {
		spec["strategy"] = map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxSurge": rapid.SampledFrom([]string{"25%", "1"}).Draw(t, label+".surge")}}
	}
	var ctrs []any
	for _, name := range rapid.Permutation([]string{"web", "sidecar", "log"}).Draw(t, label+".order")[:rapid.IntRange(1, 3).Draw(t, label+".nc")] {
		c := map[string]any{"name": name, "image": rapid.SampledFrom([]string{"x:1", "x:2"}).Draw(t, label+".img."+name)}
		if rapid.Bool().Draw(t, label+".env."+name) {
			c["env"] = []any{map[string]any{"name": "A", "value": rapid.SampledFrom([]string{"1", "2"}).Draw(t, label+".envv."+name)}}
		}
		if rapid.Bool().Draw(t, label+".port."+name) {
			c["ports"] = []any{map[string]any{"containerPort": 80.0}}
		}
		ctrs = append(ctrs, c)
	}
	spec["template"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}, "spec": map[string]any{"containers": ctrs}}
	return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": spec}
}

var applier = Manager{Name: "kubectl", APIVersion: "apps/v1"}

// An object only ever applied by one manager is its last configuration:
// whatever it applied before, applying b gives b.
func TestPropertySoleApplierGetsItsConfiguration(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := genDeployment(t, "a"), genDeployment(t, "b")
		o, mf, err := Apply("Deployment", nil, a, nil, applier, false)
		if err != nil {
			t.Fatal(err)
		}
		o, mf, err = Apply("Deployment", o, b, mf, applier, false)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(b, o); diff != "" {
			t.Fatalf("result differs from the configuration (-want +got):\n%s", diff)
		}
		// Applying it again changes nothing.
		o2, mf2, err := Apply("Deployment", o, b, mf, applier, false)
		if err != nil || !cmp.Equal(o, o2) || !cmp.Equal(fmt.Sprint(mf), fmt.Sprint(mf2)) {
			t.Fatalf("second apply: %v, changed %v", err, cmp.Diff(o, o2))
		}
	})
}

// After a forced apply over an object others created and changed, every
// field of the configuration has its value, every field others owned and
// the configuration does not touch is unchanged, and every owned path
// exists in the object.
func TestPropertyForcedApply(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		created, cfg := genDeployment(t, "created"), genDeployment(t, "cfg")
		mf, err := Update("Deployment", nil, created, nil, Manager{Name: "e2e", APIVersion: "apps/v1"})
		if err != nil {
			t.Fatal(err)
		}
		o, mf, err := Apply("Deployment", created, cfg, mf, applier, true)
		if err != nil {
			t.Fatal(err)
		}
		sh := schema["Deployment"]
		cs, _ := FieldsOf("Deployment", cfg)
		for p, es := range cs.m {
			want, _ := lookup(cfg, es, sh)
			got, ok := lookup(o, es, sh)
			if !ok || (es[len(es)-1].kind == elemField && !equalValues(want, got)) {
				t.Fatalf("%s: %v, want %v", p, got, want)
			}
		}
		ls, _ := FieldsOf("Deployment", created)
		for p, es := range ls.m {
			if cs.hasUnder(p) || func() bool {
				for q := range cs.m {
					if p.under(q) {
						return true
					}
				}
				return false
			}() {
				continue
			}
			want, _ := lookup(created, es, sh)
			got, ok := lookup(o, es, sh)
			if !ok || !equalValues(want, got) {
				t.Fatalf("%s: %v, want the creator's %v", p, got, want)
			}
		}
		os, _ := FieldsOf("Deployment", o)
		for _, e := range mf {
			for p := range e.Fields.m {
				if !os.Has(p) {
					t.Fatalf("%v owns %s, not in the object", e.Manager, p)
				}
			}
		}
	})
}

// An update makes its manager the only owner of what it changed.
func TestPropertyUpdateTakesChangedFields(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b := genDeployment(t, "a"), genDeployment(t, "b")
		_, mf, err := Apply("Deployment", nil, a, nil, applier, false)
		if err != nil {
			t.Fatal(err)
		}
		writer := Manager{Name: "kube-controller-manager", APIVersion: "apps/v1"}
		mf, err = Update("Deployment", a, b, mf, writer)
		if err != nil {
			t.Fatal(err)
		}
		added, modified, _, _, _ := compare("Deployment", a, b)
		for _, p := range append(added, modified...) {
			if got := mf.Owner(p); len(got) != 1 || got[0].Name != writer.Name {
				t.Fatalf("%s owned by %v", p, got)
			}
		}
	})
}

func FuzzApply(f *testing.F) {
	f.Add([]byte(`{"spec":{"replicas":1}}`), []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a"}]}}}}`), "Deployment")
	f.Add([]byte(`{"spec":{"ports":[{"port":80}]}}`), []byte(`{"spec":{"ports":[{"port":80,"protocol":"UDP"}]}}`), "Service")
	f.Add([]byte(`{"metadata":{"finalizers":["a","a"]}}`), []byte(`{"metadata":{"finalizers":[1,{}]}}`), "Pod")
	f.Fuzz(func(t *testing.T, live, cfg []byte, kind string) {
		var l, c map[string]any
		if json.Unmarshal(live, &l) != nil || json.Unmarshal(cfg, &c) != nil {
			return
		}
		mf, err := Update(kind, nil, l, nil, Manager{Name: "creator"})
		if err != nil {
			return
		}
		o, mf, err := Apply(kind, l, c, mf, applier, true)
		if err != nil {
			return
		}
		if _, _, err := Apply(kind, o, c, mf, applier, false); err != nil && !isConflict(err) {
			t.Fatalf("second apply of the same configuration: %v", err)
		}
	})
}

func isConflict(err error) bool { _, ok := err.(*ConflictError); return ok }
