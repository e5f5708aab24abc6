package layering

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rapidDirs returns the directories under root (relative, slash-separated)
// whose test files import pgregory.net/rapid, and of those the ones with a
// rapid_test.go that turns rapid's fail files off and bounds its shrinking.
func rapidDirs(t *testing.T, root string) (uses, off []string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); path == "pgregory.net/rapid" && !slices.Contains(uses, rel) {
				uses = append(uses, rel)
			}
		}
		if filepath.Base(p) == "rapid_test.go" {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), `flag.Set("rapid.nofailfile", "true")`) &&
				strings.Contains(string(b), `flag.Set("rapid.shrinktime", `) {
				off = append(off, rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return uses, off
}

// Every package with rapid properties turns rapid's fail files off and
// bounds its shrink time in a rapid_test.go, so that no property can turn a
// working tree red for good, nor keep a failing run shrinking for 30 s:
// rapid replays each file under testdata/rapid on every run, before
// drawing anything, so one saved failure fails every later run of the
// package until someone deletes the folder.
func TestRapidFailFilesOff(t *testing.T) {
	uses, off := rapidDirs(t, moduleRoot(t))
	if len(uses) == 0 {
		t.Fatal("no package imports pgregory.net/rapid in its tests: the walk is broken")
	}
	for _, d := range uses {
		if !slices.Contains(off, d) {
			t.Errorf("%s: tests use rapid but no rapid_test.go sets -rapid.nofailfile and -rapid.shrinktime (copy api/rapid_test.go)", d)
		}
	}
}
