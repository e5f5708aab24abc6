package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/podsem/podsem/api"
)

// FuzzReadManifests reads arbitrary bytes as a manifest file, as
// `podsem explain FILE` does, and checks what a user relies on:
//   - reading never panics and gives the same answer twice;
//   - every error line starts with the file's name and names the document
//     it is in ("document N", N counted from 1), on one line;
//   - every object read re-encodes to JSON that api.Decode reads back as
//     one equal object, and one such round trip reaches a fixed point of
//     decode/encode.
func FuzzReadManifests(f *testing.F) {
	for _, s := range []string{
		"kind: Pod\nmetadata: {name: p, namespace: ns}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 100m, memory: 1Gi}}\n",
		`{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"p"}},{"kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4"}}}]}`,
		"---\n- a\n---\nkind: Node\n",
		"kind: PodList\nitems: [{metadata: {name: x}, spec: {containers: [{name: c, resources: {limits: {cpu: x}}}]}}]\n",
		"kind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n---\nkind: Secret\nmetadata: {name: s}\ndata: {k: '!!'}\n",
		"kind: PodDisruptionBudget\nspec: {minAvailable: 50%, selector: {matchLabels: {app: web}}}\n",
		"kind: Pod\nmetadata: {creationTimestamp: yesterday}\n",
		"{\"kind\":\"Pod\"}\n{\"kind\":\"Node\"\n",
		"kind: Pod\nspec:\n\tcontainers: []\n",
		"kind: Pod\nmetadata:\n  name: a\n  name: b\n",
		"kind: Ingress\nmetadata: {name: i}\n---\nkind: CustomThing\n---\n# only a comment\n",
		"apiVersion: v1\nkind: List\nitems:\n- kind: Deployment\n  metadata: {name: d, uid: u}\n  spec: {replicas: 2}\n- kind: HorizontalPodAutoscaler\n",
		"",
	} {
		f.Add([]byte(s))
	}
	const file = "manifests/in.yaml"
	quantities := cmp.Comparer(func(a, b api.Quantity) bool { return a.Cmp(b) == 0 })
	f.Fuzz(func(t *testing.T, data []byte) {
		in := newInput()
		in.read(file, data)

		again := newInput()
		again.read(file, data)
		if fmt.Sprint(errLines(in)) != fmt.Sprint(errLines(again)) || len(in.objects) != len(again.objects) {
			t.Fatalf("two reads differ:\n%q\n%q", errLines(in), errLines(again))
		}

		for _, e := range in.errs {
			line := e.String()
			if e.at.file != file || !strings.HasPrefix(line, file+": ") {
				t.Fatalf("error does not start with the file name: %q", line)
			}
			if e.at.doc < 1 || !strings.Contains(line, fmt.Sprintf("document %d", e.at.doc)) {
				t.Fatalf("error does not name its document: %q", line)
			}
			if strings.ContainsAny(line, "\r\n") {
				t.Fatalf("error spans lines: %q", line)
			}
		}

		for _, d := range in.objects {
			if d.at.file != file || d.at.doc < 1 {
				t.Fatalf("object %T read at %+v", d.obj, d.at)
			}
			enc, err := json.Marshal(d.obj)
			if err != nil {
				t.Fatalf("encoding a %T read from %s: %v", d.obj, d.at, err)
			}
			back, err := api.Decode(enc)
			if err != nil || len(back) != 1 {
				t.Fatalf("%s re-decodes to %d objects, %v", enc, len(back), err)
			}
			if diff := cmp.Diff(d.obj, back[0], quantities, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("%s: round trip differs:\n%s", enc, diff)
			}
			// One round trip reaches the fixed point. (Not zero: a field
			// read as an empty map, such as status.allocatable: {}, is
			// dropped by omitempty, and then its parent struct, now zero, is
			// dropped by omitzero only on the second encoding.)
			enc2, err := json.Marshal(back[0])
			if err != nil {
				t.Fatal(err)
			}
			back2, err := api.Decode(enc2)
			if err != nil || len(back2) != 1 {
				t.Fatalf("%s re-decodes to %d objects, %v", enc2, len(back2), err)
			}
			if enc3, err := json.Marshal(back2[0]); err != nil || string(enc3) != string(enc2) {
				t.Fatalf("JSON is no fixed point after one round trip:\n%s\n%s\n%s (%v)", enc, enc2, enc3, err)
			}
		}
	})
}

func errLines(in *input) []string {
	var out []string
	for _, e := range in.errs {
		out = append(out, e.String())
	}
	return out
}
