package workloads

import (
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzStatefulSetRevision feeds arbitrary bytes as a ControllerRevision's
// data: applying it, comparing it with the set's template and a whole
// sync that finds it as the set's current revision never panic; data that
// restores no template is an error (or the sync's Err), never a pod.
func FuzzStatefulSetRevision(f *testing.F) {
	f.Add([]byte(webRevisionData))
	f.Add([]byte(`{"spec":{"template":null}}`))
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"x","resources":{"requests":{"cpu":"1e3"}}}]}}}}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, data []byte) {
		set := nginxSet(2)
		rev := &api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: "web-old", Namespace: "default", Labels: map[string]string{"app": "nginx"},
			OwnerReferences: []api.OwnerReference{statefulSetRef(set)}}, Data: data, Revision: 1}
		applied, err := ApplyStatefulSetRevision(set, rev)
		if err == nil && applied == nil {
			t.Fatal("no set and no error")
		}
		set.Status.CurrentRevision = "web-old"
		res, err := ReconcileStatefulSet(StatefulSetInput{Set: set, Revisions: []*api.ControllerRevision{rev}}, StatefulSetConfig{}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, aerr := ApplyStatefulSetRevision(set, rev); aerr != nil && res.Err == nil {
			t.Fatalf("a revision that restores no template (%v) did not fail the sync", aerr)
		}
	})
}
