package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
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

// moduleRoot is the module's root directory: go test runs a package's
// tests in the package's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var loaded struct {
	sync.Once
	src       Source
	fams      []Family
	err       error
	top, next int // families at the top and in next/
}

// loadFamilies reads the vectors once per test binary and prints, the first
// time, which directory they came from.
func loadFamilies(t *testing.T) []Family {
	t.Helper()
	root := moduleRoot(t)
	loaded.Do(func() {
		loaded.src = Pick(root)
		loaded.fams, loaded.err = Load(loaded.src.Dir)
		for _, f := range loaded.fams {
			if f.Next {
				loaded.next++
			} else {
				loaded.top++
			}
		}
		fmt.Printf("conformance: vectors from %s: %d families, %d of them in %s/\n",
			loaded.src.Why, len(loaded.fams), loaded.next, NextDir)
	})
	if loaded.err != nil {
		t.Fatalf("loading vectors from %s: %v", loaded.src.Dir, loaded.err)
	}
	if loaded.top == 0 {
		t.Fatalf("no vector families in %s", loaded.src.Dir)
	}
	return loaded.fams
}

// TestConformance runs every case of every family and prints one line per
// family. A top-level family without an adapter is reported as not
// implemented and fails the test: every such family must be answered. A
// family in next/ (an open issue) without an adapter is reported as pending
// and does not fail; with one, it must pass like any other.
func TestConformance(t *testing.T) {
	for _, fam := range loadFamilies(t) {
		a, ok := adapters[fam.Family]
		if !ok {
			if fam.Next {
				fmt.Printf("conformance: %s: pending (%d cases)\n", fam.Family, len(fam.Cases))
				continue
			}
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
// that decoding the encoding gives the same object. An object of a family
// in next/ whose kind api does not decode yet (api.ErrUnknownKind) is
// counted and skipped; any other failure, there too, fails the test.
func TestRoundTrip(t *testing.T) {
	kinds := map[string]int{}
	unknown := map[string]int{}
	for _, fam := range loadFamilies(t) {
		for _, c := range fam.Cases {
			tree, err := DecodeNumbers(c.Input)
			if err != nil {
				t.Fatalf("%s/%s: %v", fam.Family, c.Name, err)
			}
			WalkObjects(tree, func(obj map[string]any) {
				kind, ok := obj["kind"].(string)
				if !ok {
					t.Errorf("%s/%s: an object's kind is %T, not a string", fam.Family, c.Name, obj["kind"])
					return
				}
				raw, _ := json.Marshal(obj)
				objs, err := api.Decode(raw)
				if err != nil && fam.Next && errors.Is(err, api.ErrUnknownKind) {
					unknown[kind]++
					return
				}
				if err != nil {
					t.Errorf("%s/%s: decode %s: %v", fam.Family, c.Name, kind, err)
					return
				}
				kinds[kind]++
				if len(objs) != 1 {
					t.Errorf("%s/%s: decode %s gave %d objects, want 1", fam.Family, c.Name, kind, len(objs))
					return
				}
				enc, err := json.Marshal(objs[0])
				if err != nil {
					t.Errorf("%s/%s: encode %s: %v", fam.Family, c.Name, kind, err)
					return
				}
				back, err := DecodeNumbers(enc)
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
				if len(again) != 1 {
					t.Errorf("%s/%s: decode of encoding %s gave %d objects, want 1", fam.Family, c.Name, kind, len(again))
					return
				}
				if d := cmp.Diff(objs[0], again[0], cmp.Comparer(func(a, b api.Quantity) bool { return a.Cmp(b) == 0 })); d != "" {
					t.Errorf("%s/%s: %s differs after decode-encode-decode:\n%s", fam.Family, c.Name, kind, d)
				}
			})
		}
	}
	t.Logf("round-tripped objects: %s", countList(kinds))
	if len(unknown) > 0 {
		t.Logf("skipped objects of kinds api does not decode yet (%s/ families only): %s", NextDir, countList(unknown))
	}
}

// countList prints counts per kind as "Kind=N ...", sorted by kind.
func countList(m map[string]int) string {
	ks := make([]string, 0, len(m))
	for k, n := range m {
		ks = append(ks, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}
