package workloads

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/podsem/podsem/api"
)

// templateHashVector is one case of testdata/templatehash/vectors.json,
// written by upstream's own code (see the README there): a pod template
// as a user writes it, the template after the API server's defaulting and
// protobuf round trip (what the controller's informer holds), and
// kube-controller-manager v1.36.3's ComputeHash of it without and with the
// collision count.
type templateHashVector struct {
	Name              string          `json:"name"`
	Template          json.RawMessage `json:"template"`
	CollisionCount    *int32          `json:"collisionCount"`
	Defaulted         json.RawMessage `json:"defaulted"`
	Hash              string          `json:"hash"`
	HashWithCollision string          `json:"hashWithCollision"`
	Dump              string          `json:"dump"`
	// StatefulSetRevision is the ControllerRevision name upstream's
	// StatefulSet controller gives a StatefulSet "web" with this template
	// and the collision count (0 when unset).
	StatefulSetRevision string `json:"statefulSetRevision"`
	// DaemonSetHash is upstream's DaemonSet controller's revision hash for
	// a DaemonSet with this template and collision count.
	DaemonSetHash string `json:"daemonSetHash"`
}

func readTemplateHashVectors(t testing.TB, path string) []templateHashVector {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []templateHashVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// defaultedTemplate decodes a template as a Deployment's spec.template and
// applies the API server's defaulting, as podsem's cluster does.
func defaultedTemplate(t testing.TB, raw json.RawMessage) *api.PodTemplateSpec {
	t.Helper()
	d := &api.Deployment{}
	if err := json.Unmarshal(raw, &d.Spec.Template); err != nil {
		t.Fatal(err)
	}
	api.DefaultDeployment(d)
	return &d.Spec.Template
}

func TestDefaultPodTemplateHashVectors(t *testing.T) {
	path := "testdata/templatehash/vectors.json"
	if p := os.Getenv("PODSEM_TEMPLATEHASH_DUMPS"); p != "" {
		path = p
	}
	for _, v := range readTemplateHashVectors(t, path) {
		t.Run(v.Name, func(t *testing.T) {
			for _, in := range []struct {
				what string
				tmpl *api.PodTemplateSpec
			}{
				{"as written, defaulted by api", defaultedTemplate(t, v.Template)},
				{"as the informer holds it", defaultedTemplate(t, v.Defaulted)},
			} {
				if got := DefaultPodTemplateHash(in.tmpl, nil); got != v.Hash {
					t.Errorf("%s: hash %s, upstream %s", in.what, got, v.Hash)
					if v.Dump != "" {
						diffDump(t, string(appendPodTemplateDump(nil, in.tmpl)), v.Dump)
					}
				}
				if v.CollisionCount != nil {
					if got := DefaultPodTemplateHash(in.tmpl, v.CollisionCount); got != v.HashWithCollision {
						t.Errorf("%s: hash with collisionCount %d: %s, upstream %s", in.what, *v.CollisionCount, got, v.HashWithCollision)
					}
				}
			}
		})
	}
}

// diffDump reports where two dumps first differ.
func diffDump(t *testing.T, got, want string) {
	t.Helper()
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	t.Errorf("dumps differ at byte %d:\n got: ...%s\nwant: ...%s", i, got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
}

// The StatefulSet controller names its revisions by another hash (FNV-1
// over the JSON patch of the template, history.HashControllerRevision):
// the same vectors carry upstream's name for a StatefulSet "web" with
// each template.
func TestStatefulSetRevisionVectors(t *testing.T) {
	for _, v := range readTemplateHashVectors(t, "testdata/templatehash/vectors.json") {
		t.Run(v.Name, func(t *testing.T) {
			set := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
			if err := json.Unmarshal(v.Template, &set.Spec.Template); err != nil {
				t.Fatal(err)
			}
			api.DefaultStatefulSet(set)
			var cc int32
			if v.CollisionCount != nil {
				cc = *v.CollisionCount
			}
			rev, err := NewStatefulSetRevision(set, 1, cc)
			if err != nil {
				t.Fatal(err)
			}
			if rev.Name != v.StatefulSetRevision {
				t.Errorf("revision %s, upstream %s\n%s", rev.Name, v.StatefulSetRevision, rev.Data)
			}
		})
	}
}

// The DaemonSet controller hashes its template with the same function:
// DaemonSetRevisionHash of the defaulted DaemonSet is upstream's.
func TestDaemonSetRevisionHashVectors(t *testing.T) {
	for _, v := range readTemplateHashVectors(t, "testdata/templatehash/vectors.json") {
		ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default"}}
		if err := json.Unmarshal(v.Template, &ds.Spec.Template); err != nil {
			t.Fatal(err)
		}
		api.DefaultDaemonSet(ds)
		ds.Status.CollisionCount = v.CollisionCount
		got, err := DaemonSetRevisionHash(ds)
		if err != nil {
			t.Fatal(err)
		}
		if got != v.DaemonSetHash {
			t.Errorf("%s: DaemonSet revision hash %s, upstream %s", v.Name, got, v.DaemonSetHash)
		}
	}
}
