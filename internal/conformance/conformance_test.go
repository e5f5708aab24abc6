package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

// adapter runs one case through podsem's public API and returns nil when
// the answer equals want, or an error describing the difference.
type adapter func(input, want json.RawMessage) error

// adapters maps family names to their adapters; each family's file
// registers itself in an init function.
var adapters = map[string]adapter{}

func register(family string, a adapter) {
	if _, dup := adapters[family]; dup {
		panic("conformance: family registered twice: " + family)
	}
	adapters[family] = a
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func loadFamilies(t *testing.T) []Family {
	t.Helper()
	dir := Dir(moduleRoot())
	fams, err := Load(dir)
	if err != nil {
		t.Fatalf("loading vectors from %s: %v", dir, err)
	}
	if len(fams) == 0 {
		t.Fatalf("no vector families in %s", dir)
	}
	return fams
}

// TestConformance runs every case of every family and prints one line per
// family. A family without an adapter is reported as not implemented and
// fails the test: every family in the vector directory must be answered.
func TestConformance(t *testing.T) {
	for _, fam := range loadFamilies(t) {
		a, ok := adapters[fam.Family]
		if !ok {
			fmt.Printf("conformance: %s: not implemented (%d cases)\n", fam.Family, len(fam.Cases))
			t.Errorf("%s (%s): no adapter for this family", fam.Family, fam.File)
			continue
		}
		passed, failed := 0, 0
		var report []string
		for _, c := range fam.Cases {
			err := runCase(a, c)
			if err == nil {
				passed++
				continue
			}
			failed++
			if len(report) < 15 {
				report = append(report, fmt.Sprintf("  %s: %v\n    input: %s", c.Name, err, gist(c.Input)))
			}
		}
		fmt.Printf("conformance: %s: %d passed, %d failed\n", fam.Family, passed, failed)
		if failed > 0 {
			t.Errorf("%s: %d of %d cases failed:\n%s", fam.Family, failed, len(fam.Cases), strings.Join(report, "\n"))
		}
	}
}

func runCase(a adapter, c Case) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return a(c.Input, c.Want)
}

func gist(b json.RawMessage) string {
	s := string(b)
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

// TestRoundTrip decodes every Kubernetes object found in every vector into
// the api types, encodes it again and checks that no value was lost, and
// that decoding the encoding gives the same object.
func TestRoundTrip(t *testing.T) {
	kinds := map[string]int{}
	for _, fam := range loadFamilies(t) {
		for _, c := range fam.Cases {
			tree, err := decodeNumbers(c.Input)
			if err != nil {
				t.Fatalf("%s/%s: %v", fam.Family, c.Name, err)
			}
			walkObjects(tree, func(obj map[string]any) {
				kind := obj["kind"].(string)
				raw, _ := json.Marshal(obj)
				objs, err := api.Decode(raw)
				if err != nil {
					t.Errorf("%s/%s: decode %s: %v", fam.Family, c.Name, kind, err)
					return
				}
				kinds[kind]++
				enc, err := json.Marshal(objs[0])
				if err != nil {
					t.Errorf("%s/%s: encode %s: %v", fam.Family, c.Name, kind, err)
					return
				}
				back, err := decodeNumbers(enc)
				if err != nil {
					t.Errorf("%s/%s: re-read %s: %v", fam.Family, c.Name, kind, err)
					return
				}
				if d := SameJSON(any(obj), back, kind); d != "" {
					t.Errorf("%s/%s: %s lost a value in the round trip: %s", fam.Family, c.Name, kind, d)
					return
				}
				again, err := api.Decode(enc)
				if err != nil {
					t.Errorf("%s/%s: decode of encoding %s: %v", fam.Family, c.Name, kind, err)
					return
				}
				if d := cmp.Diff(objs[0], again[0], cmp.Comparer(func(a, b api.Quantity) bool { return a.Cmp(b) == 0 })); d != "" {
					t.Errorf("%s/%s: %s differs after decode-encode-decode:\n%s", fam.Family, c.Name, kind, d)
				}
			})
		}
	}
	var ks []string
	for k, n := range kinds {
		ks = append(ks, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(ks)
	t.Logf("round-tripped objects: %s", strings.Join(ks, " "))
}

// decodeNumbers reads JSON keeping numbers as json.Number, so that int64
// values survive exactly.
func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// walkObjects calls f for every JSON object carrying a kind and metadata.
func walkObjects(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if k, ok := x["kind"].(string); ok && k != "" {
			if _, ok := x["metadata"]; ok {
				f(x)
				return
			}
		}
		for _, e := range x {
			walkObjects(e, f)
		}
	case []any:
		for _, e := range x {
			walkObjects(e, f)
		}
	}
}
