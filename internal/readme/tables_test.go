package readme

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/podsem/podsem/internal/conformance"
)

// conformanceRow is a row of the README's conformance table:
// | `family` | package | cases | what |
var conformanceRow = regexp.MustCompile("(?m)^\\| `([a-z0-9.-]+)` \\| [^|]+ \\| ([0-9,]+) \\|")

// TestConformanceTable checks that the README's conformance table lists
// every family of the in-module vectors with its number of public cases,
// and nothing else.
func TestConformanceTable(t *testing.T) {
	root := moduleRoot(t)
	fams, err := conformance.Load(filepath.Join(root, filepath.FromSlash(conformance.VendoredDir)))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int{}
	for _, m := range conformanceRow.FindAllStringSubmatch(readREADME(t), -1) {
		n, err := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
		if err != nil {
			t.Fatalf("row %s: cases %q: %v", m[1], m[2], err)
		}
		rows[m[1]] = n
	}
	for _, f := range fams {
		n, ok := rows[f.Family]
		switch {
		case !ok:
			t.Errorf("README conformance table lacks family %s (%d cases)", f.Family, len(f.Cases))
		case n != len(f.Cases):
			t.Errorf("README conformance table: %s has %d cases, the table says %d", f.Family, len(f.Cases), n)
		}
		delete(rows, f.Family)
	}
	for fam := range rows {
		t.Errorf("README conformance table lists %s, which has no vector file", fam)
	}
}

// TestExamplesTable checks that every program under examples/ is run by a
// row of the README's examples table.
func TestExamplesTable(t *testing.T) {
	root := moduleRoot(t)
	ents, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	readme := readREADME(t)
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if !strings.Contains(readme, "`go run ./examples/"+e.Name()) {
			t.Errorf("README examples table has no row for examples/%s", e.Name())
		}
	}
}
