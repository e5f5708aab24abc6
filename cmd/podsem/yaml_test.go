package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/conformance"
)

// decodedKinds are the kinds api.Decode accepts (api.Object's list).
var decodedKinds = []string{
	"Pod", "Node", "Namespace", "PodDisruptionBudget", "PriorityClass", "Eviction", "Service",
	"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController", "DaemonSet", "Job",
	"PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode", "CSIDriver",
}

// perKind bounds how many objects of one kind the property draws from.
const perKind = 40

var (
	vectorOnce    sync.Once
	vectorObjects map[string][]map[string]any
	vectorErr     error
)

// objectsByKind returns Kubernetes objects found in the in-module
// conformance vectors (next/ included), at most perKind of each kind, as
// generic JSON trees: they were written by Kubernetes' own encoders. Kinds
// the vectors lack (Job) come from testdata/jobs.json.
func objectsByKind(t testing.TB) map[string][]map[string]any {
	vectorOnce.Do(func() {
		files, err := conformance.ReadFiles(filepath.Join("..", "..", filepath.FromSlash(conformance.VendoredDir)))
		if err != nil {
			vectorErr = err
			return
		}
		vectorObjects = map[string][]map[string]any{}
		for _, f := range files {
			tree, err := conformance.DecodeNumbers(f.Data)
			if err != nil {
				vectorErr = fmt.Errorf("%s: %w", f.Name, err)
				return
			}
			conformance.WalkObjects(tree, func(o map[string]any) {
				k, _ := o["kind"].(string)
				if len(vectorObjects[k]) < perKind {
					vectorObjects[k] = append(vectorObjects[k], o)
				}
			})
		}
		extra, err := os.ReadFile(filepath.Join("testdata", "jobs.json"))
		if err != nil {
			vectorErr = err
			return
		}
		tree, err := conformance.DecodeNumbers(extra)
		if err != nil {
			vectorErr = err
			return
		}
		for _, it := range tree.(map[string]any)["items"].([]any) {
			o := it.(map[string]any)
			k := o["kind"].(string)
			vectorObjects[k] = append(vectorObjects[k], o)
		}
	})
	if vectorErr != nil {
		t.Fatal(vectorErr)
	}
	return vectorObjects
}

// yamlNode writes a generic JSON tree as the YAML a person would: keys
// sorted, numbers as written, strings quoted only where YAML would read
// them as something else.
func yamlNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, yamlNode(x[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, yamlNode(e))
		}
		return n
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(string(x), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}
	case string:
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x}
		if startsALineWithTab(x) {
			// yaml.v3 would write a literal block ("|") whose first line
			// is indented by spaces and then a tab, which YAML 1.2 does not
			// allow (a block's indentation is spaces only, so readers take
			// the tab for indentation and refuse it): such a string is
			// written double-quoted, with the tab as \t.
			n.Style = yaml.DoubleQuotedStyle
		}
		return n
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	panic(fmt.Sprintf("yamlNode: %T", v))
}

// startsALineWithTab reports whether a line of s begins with a tab.
func startsALineWithTab(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "\t") {
			return true
		}
	}
	return false
}

// fataler is what the helpers need of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func toYAML(t fataler, v any) []byte {
	var b bytes.Buffer
	e := yaml.NewEncoder(&b)
	e.SetIndent(2)
	if err := e.Encode(yamlNode(v)); err != nil {
		t.Fatalf("encoding YAML: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readObjects runs a file through explain's reader.
func readObjects(t fataler, name string, data []byte) []api.Object {
	t.Helper()
	in := newInput()
	in.read(name, data)
	if len(in.errs) > 0 {
		var msgs []string
		for _, e := range in.errs {
			msgs = append(msgs, e.String())
		}
		t.Fatalf("reading %s:\n%s\n--- input:\n%s", name, strings.Join(msgs, "\n"), data)
	}
	out := make([]api.Object, len(in.objects))
	for i, d := range in.objects {
		out[i] = d.obj
	}
	return out
}

var byValue = cmp.Comparer(func(a, b api.Quantity) bool { return a.Cmp(b) == 0 })

// trickyStrings are strings YAML would read as something else unquoted.
var trickyStrings = []string{
	"yes", "no", "on", "off", "true", "False", "null", "~", "", "1", "0x1F", "1e3", "0644", ".inf",
	"-", "- a", "a: b", "#comment", "2025-06-01T12:00:00Z", " padded ", "multi\nline", "'quoted'", `"dq"`,
	"@at", "*alias", "&anchor", "!tag", "%pct", "{a: 1}", "[1, 2]", "---", "...",
}

// The YAML and JSON forms of the same object decode to equal objects, for
// every kind api.Decode accepts: objects from the conformance vectors,
// with labels and annotations drawn from strings YAML would misread if
// written carelessly.
func TestYAMLDecodesAsJSON(t *testing.T) {
	objs := objectsByKind(t)
	for _, k := range decodedKinds {
		if len(objs[k]) == 0 {
			t.Fatalf("no %s in the conformance vectors to test with", k)
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		kind := rapid.SampledFrom(decodedKinds).Draw(rt, "kind")
		obj := rapid.SampledFrom(objs[kind]).Draw(rt, "object")
		tree := cloneTree(obj)
		md, _ := tree["metadata"].(map[string]any)
		if md != nil {
			str := rapid.OneOf(rapid.SampledFrom(trickyStrings), rapid.String())
			labels := map[string]any{}
			for k, v := range rapid.MapOfN(rapid.StringMatching(`[a-z]{1,8}`), str, 0, 4).Draw(rt, "annotations") {
				labels[k] = v
			}
			if len(labels) > 0 {
				md["annotations"] = labels
			}
		}
		js, err := json.Marshal(tree)
		if err != nil {
			rt.Fatal(err)
		}
		ys := toYAML(rt, tree)
		fromJSON := readObjects(rt, "object.json", js)
		fromYAML := readObjects(rt, "object.yaml", ys)
		if d := cmp.Diff(fromJSON, fromYAML, byValue); d != "" {
			rt.Fatalf("%s: YAML and JSON decode differently (-json +yaml):\n%s\n--- YAML:\n%s", kind, d, ys)
		}
	})
}

// Strings whose lines start with a tab are written as YAML a reader
// accepts, and read back as they were: the cases the property above once
// drew and tripped on.
func TestYAMLWriterTabs(t *testing.T) {
	for _, s := range []string{"\t\n", "\tfoo\nbar", "a\n\tb", " \tx\ny", "\n\t", "\t"} {
		tree := map[string]any{"kind": "Pod", "metadata": map[string]any{"name": "p", "annotations": map[string]any{"a": s}}}
		js, err := json.Marshal(tree)
		if err != nil {
			t.Fatal(err)
		}
		fromJSON := readObjects(t, "object.json", js)
		fromYAML := readObjects(t, "object.yaml", toYAML(t, tree))
		if d := cmp.Diff(fromJSON, fromYAML, byValue); d != "" {
			t.Errorf("%q: (-json +yaml):\n%s", s, d)
		}
	}
}

// A multi-document YAML file holds the same objects as a JSON List of
// them, in order.
func TestMultiDocumentYAMLDecodesAsList(t *testing.T) {
	objs := objectsByKind(t)
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 5).Draw(rt, "n")
		var items []any
		var docs [][]byte
		for i := 0; i < n; i++ {
			kind := rapid.SampledFrom(decodedKinds).Draw(rt, fmt.Sprint("kind", i))
			o := rapid.SampledFrom(objs[kind]).Draw(rt, fmt.Sprint("object", i))
			items = append(items, o)
			docs = append(docs, toYAML(rt, o))
		}
		list, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
		if err != nil {
			rt.Fatal(err)
		}
		sep := rapid.SampledFrom([]string{"---\n", "--- # next\n", "\n---\n"}).Draw(rt, "separator")
		multi := append([]byte(rapid.SampledFrom([]string{"", "---\n", "# manifests\n"}).Draw(rt, "lead")), bytes.Join(docs, []byte(sep))...)
		fromJSON := readObjects(rt, "list.json", list)
		fromYAML := readObjects(rt, "multi.yaml", multi)
		if d := cmp.Diff(fromJSON, fromYAML, byValue); d != "" {
			rt.Fatalf("multi-document YAML differs from the List (-list +yaml):\n%s", d)
		}
	})
}

// YAML's own spellings that JSON lacks reach api.Decode as their values.
func TestYAMLScalars(t *testing.T) {
	y := `kind: Pod
metadata: {name: p, labels: {a: "yes", b: 'on', c: "1"}}
spec:
  terminationGracePeriodSeconds: 0x1E
  containers:
  - name: c
    resources: {requests: {cpu: .5, memory: 1_000}}
  volumes:
  - name: v
    downwardAPI: {defaultMode: 0644, items: [{path: x, fieldRef: {fieldPath: metadata.name}}]}
`
	j := `{"kind": "Pod", "metadata": {"name": "p", "labels": {"a": "yes", "b": "on", "c": "1"}},
"spec": {"terminationGracePeriodSeconds": 30, "containers": [{"name": "c", "resources": {"requests": {"cpu": "500m", "memory": "1000"}}}],
"volumes": [{"name": "v", "downwardAPI": {"defaultMode": 420, "items": [{"path": "x", "fieldRef": {"fieldPath": "metadata.name"}}]}}]}}`
	if d := cmp.Diff(readObjects(t, "j.json", []byte(j)), readObjects(t, "y.yaml", []byte(y)), byValue); d != "" {
		t.Errorf("(-json +yaml):\n%s", d)
	}
}

// Anchors, aliases and merge keys expand as YAML defines them.
func TestYAMLAliasesAndMerge(t *testing.T) {
	y := `kind: Node
metadata:
  name: n
  labels:
    <<: &base {zone: a, os: linux}
    os: windows
status:
  allocatable: &alloc {cpu: "2"}
  capacity: *alloc
`
	j := `{"kind": "Node", "metadata": {"name": "n", "labels": {"zone": "a", "os": "windows"}},
"status": {"allocatable": {"cpu": "2"}, "capacity": {"cpu": "2"}}}`
	if d := cmp.Diff(readObjects(t, "j.json", []byte(j)), readObjects(t, "y.yaml", []byte(y)), byValue); d != "" {
		t.Errorf("(-json +yaml):\n%s", d)
	}
}

// YAML that has no JSON form is bad input, never a panic.
func TestYAMLWithoutJSONForm(t *testing.T) {
	for _, y := range []string{
		"kind: Pod\nmetadata: {name: p}\nspec: {priority: .inf}\n",
		"kind: Pod\nmetadata: {name: p, name: q}\n",
		"kind: Pod\nmetadata: {name: p}\n? [a, b]\n: c\n",
		"a: &a [*a]\n",
		"kind: Pod\nmetadata: *nowhere\n",
	} {
		in := newInput()
		in.read("bad.yaml", []byte(y))
		if len(in.errs) != 1 || len(in.objects) != 0 {
			t.Errorf("%q: %d errors, %d objects; want 1 error", y, len(in.errs), len(in.objects))
		}
	}
}

func cloneTree(m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	v, err := conformance.DecodeNumbers(b)
	if err != nil {
		panic(err)
	}
	return v.(map[string]any)
}

// Whatever bytes arrive, reading them gives objects or error lines.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"kind: Pod\nmetadata: {name: p}\n",
		`{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"p"}}]}`,
		"---\n- a\n---\nkind: Node\n",
		"a: &a {b: *a}\n",
		"kind: PodList\nitems: [{metadata: {name: x}, spec: {containers: [{name: c, resources: {limits: {cpu: x}}}]}}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := newInput()
		in.read("fuzz", data)
		for _, e := range in.errs {
			if strings.Contains(e.String(), "\n") {
				t.Errorf("error line with a newline: %q", e.String())
			}
		}
	})
}

// A YAML syntax error names the file's line: where the unclosed mapping,
// list or scalar opens, or where the token that cannot be read sits. yaml.v3
// counts a parser error's line from 0 and a scanner error's from 1, and
// gives no line for a mark on a text's first line; each case here pins the
// line a reader of the file would look at.
func TestYAMLErrorLines(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"flow mapping left open", "kind: Pod\nmetadata:\n  labels: {app: web\nspec: {}\n",
			"document 1: line 3: did not find expected ',' or '}'"},
		{"flow list left open", "kind: Pod\nmetadata:\n  name: [a, b\nspec: {}\n",
			"document 1: line 3: did not find expected ',' or ']'"},
		{"flow mapping open on the first line", "a: {b: c\nd: e\n",
			"document 1: line 1: did not find expected ',' or '}'"},
		{"list entry missing", "kind: Pod\nspec:\n  - a\n  b: c\n",
			"document 1: line 3: did not find expected '-' indicator"},
		{"list entry missing on the first line", "- a\nb: c\n",
			"document 1: line 1: did not find expected '-' indicator"},
		{"bad indentation", "kind: Pod\n  bad: indent\n",
			"document 1: line 2: mapping values are not allowed in this context"},
		{"mapping value on the first line", "a: b: c\n",
			"document 1: line 1: mapping values are not allowed in this context"},
		{"tab indentation", "kind: Pod\nmetadata:\n\tname: x\n",
			"document 1: line 3: found character that cannot start any token"},
		{"reserved indicator", "kind: Pod\nmetadata: {name: x}\nspec: @x\n",
			"document 1: line 3: found character that cannot start any token"},
		{"quoted scalar left open", "kind: Pod\nx: \"unterminated\n",
			"document 1: line 2: found unexpected end of stream"},
		{"duplicate key", "kind: Pod\nkind: Node\n",
			`document 1: line 2: mapping key "kind" already defined`},
		{"second document", "kind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata:\n  labels: {app: web\nspec: {}\n",
			"document 2: line 6: did not find expected ',' or '}'"},
		{"second document, scanner error", "kind: Pod\nmetadata: {name: a}\n--- # next\nkind: Pod\n  bad: indent\n",
			"document 2: line 5: mapping values are not allowed in this context"},
		{"after a leading separator and comments", "---\n# one\n# two\nkind: Pod\nspec:\n  - a\n  b: c\n",
			"document 1: line 6: did not find expected '-' indicator"},
		{"after an empty document", "# nothing\n---\n---\nkind: Pod\nmetadata: {name: [x}\n",
			"document 1: line 5: did not find expected ',' or ']'"},
		{"CRLF line ends", "kind: Pod\r\nmetadata:\r\n  labels: {app: web\r\nspec: {}\r\n",
			"document 1: line 3: did not find expected ',' or '}'"},
	} {
		in := newInput()
		in.read("f.yaml", []byte(tc.yaml))
		if len(in.errs) != 1 {
			t.Errorf("%s: %d errors, want 1", tc.name, len(in.errs))
			continue
		}
		if got, want := in.errs[0].String(), "f.yaml: "+tc.want; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
}
