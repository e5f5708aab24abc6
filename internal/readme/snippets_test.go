package readme

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func moduleRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func readREADME(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// modulePath is the import path pkg.go.dev documents the module under.
const modulePath = "github.com/podsem/podsem"

// tourEntry matches a tour entry of the README:
//
//	<!-- tour: FILE ExampleName... -->
//	```go
//	(the whole of FILE)
//	```
//	LINKS
//
// FILE is a test file relative to the module root, the names are the
// Example functions it declares, and LINKS is the line that links each to
// its form on pkg.go.dev.
var tourEntry = regexp.MustCompile("<!-- tour: (\\S+)((?: Example\\w*)+) -->\n```go\n((?s:.*?))```\n\n?([^\n]*)")

// tourEntries returns the README's tour entries; it fails the test unless
// every Go block of the README is one.
func tourEntries(t *testing.T) [][]string {
	t.Helper()
	readme := readREADME(t)
	entries := tourEntry.FindAllStringSubmatch(readme, -1)
	if len(entries) == 0 {
		t.Fatal("README.md has no tour entries (<!-- tour: FILE ExampleName --> before a Go block)")
	}
	if n := strings.Count(readme, "```go"); n != len(entries) {
		t.Errorf("README.md has %d Go blocks but %d tour markers: put <!-- tour: FILE ExampleName --> before every Go block", n, len(entries))
	}
	return entries
}

// TestTourIsExampleFiles checks that every Go block of the README's tour
// is the whole of the test file its marker names (a trailing newline
// aside), that the file declares exactly the Example functions the marker
// names, each with its output checked by `go test` and shown by go doc and
// pkg.go.dev under an exported name of the package, and that the line
// under the block links each to its pkg.go.dev anchor.
func TestTourIsExampleFiles(t *testing.T) {
	root := moduleRoot(t)
	for _, e := range tourEntries(t) {
		file, names, block, links := e[1], strings.Fields(e[2]), e[3], e[4]
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Errorf("tour entry %s: %v", file, err)
			continue
		}
		if strings.TrimSuffix(string(src), "\n") != strings.TrimSuffix(block, "\n") {
			t.Errorf("tour entry %s: the README's block is not the file as it stands (copy the file into the README)", file)
		}
		if err := checkTourFile(root, file, names, links); err != nil {
			t.Errorf("tour entry %s: %v", file, err)
		}
	}
}

// checkTourFile checks file's Examples against the marker's names and the
// links under the block.
func checkTourFile(root, file string, names []string, links string) error {
	dir := filepath.Dir(filepath.FromSlash(file))
	if !strings.HasSuffix(file, "_test.go") {
		return fmt.Errorf("not a test file")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(file)), nil, parser.ParseComments)
	if err != nil {
		return err
	}
	var declared []string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Example") {
			declared = append(declared, fn.Name.Name)
		}
	}
	if !slices.Equal(declared, names) {
		return fmt.Errorf("declares the Examples %v, the marker names %v", declared, names)
	}
	for _, ex := range doc.Examples(f) {
		if ex.Output == "" && !ex.EmptyOutput {
			return fmt.Errorf("Example%s has no // Output: comment, so go test does not run it", ex.Name)
		}
	}
	shown, err := documentedExamples(fset, filepath.Join(root, dir))
	if err != nil {
		return err
	}
	for _, name := range names {
		if !shown[name] {
			return fmt.Errorf("go doc does not show %s: its name names no exported identifier of the package", name)
		}
		url := "https://pkg.go.dev/" + modulePath + "/" + filepath.ToSlash(dir) + "#" + exampleAnchor(name)
		if !strings.Contains(links, "("+url+")") {
			return fmt.Errorf("the line under the block does not link %s to %s", name, url)
		}
	}
	return nil
}

// documentedExamples returns the Example functions of the package in dir
// that go/doc (and so go doc and pkg.go.dev) attaches to the package or to
// one of its exported names; the others are dropped from the documentation.
func documentedExamples(fset *token.FileSet, dir string) (map[string]bool, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if !strings.HasSuffix(f.Name.Name, "_test") || strings.HasSuffix(p, "_test.go") {
			files = append(files, f)
		}
	}
	pkg, err := doc.NewFromFiles(fset, files, modulePath+"/"+filepath.ToSlash(dir))
	if err != nil {
		return nil, err
	}
	shown := map[string]bool{}
	add := func(exs []*doc.Example) {
		for _, ex := range exs {
			name := "Example" + ex.Name
			if ex.Suffix != "" {
				// NewFromFiles keeps the suffix apart.
				if !strings.HasSuffix(ex.Name, "_"+ex.Suffix) {
					name += "_" + ex.Suffix
				}
			}
			shown[name] = true
		}
	}
	add(pkg.Examples)
	for _, f := range pkg.Funcs {
		add(f.Examples)
	}
	for _, ty := range pkg.Types {
		add(ty.Examples)
		for _, f := range ty.Funcs {
			add(f.Examples)
		}
		for _, m := range ty.Methods {
			add(m.Examples)
		}
	}
	return shown, nil
}

// exampleAnchor returns the anchor pkg.go.dev gives an Example function:
// "example-" and the name it documents (Type.Method for a method), then
// "-" and the suffix with its first letter upper-cased; a package Example
// documents "package".
func exampleAnchor(fn string) string {
	name := strings.TrimPrefix(fn, "Example")
	var suffix string
	if i := strings.LastIndex(name, "_"); i >= 0 {
		if r, _ := utf8.DecodeRuneInString(name[i+1:]); unicode.IsLower(r) {
			name, suffix = name[:i], name[i+1:]
		}
	}
	id := strings.ReplaceAll(name, "_", ".")
	if id == "" {
		id = "package"
	}
	if suffix == "" {
		return "example-" + id
	}
	r, n := utf8.DecodeRuneInString(suffix)
	return "example-" + id + "-" + string(unicode.ToUpper(r)) + suffix[n:]
}

func TestExampleAnchor(t *testing.T) {
	for fn, want := range map[string]string{
		"ExampleDecode":              "example-Decode",
		"ExampleDecode_list":         "example-Decode-List",
		"ExampleCycle_Decide":        "example-Cycle.Decide",
		"ExampleCycle_Decide_reused": "example-Cycle.Decide-Reused",
		"Example":                    "example-package",
		"Example_toyScheduler":       "example-package-ToyScheduler",
	} {
		if got := exampleAnchor(fn); got != want {
			t.Errorf("exampleAnchor(%s) = %s, want %s", fn, got, want)
		}
	}
}

// TestTourCompilesAsItStands copies every Go block of the README's tour,
// alone, into a directory of its own inside the module and runs go vet on
// them: a reader who copies a block gets a file that builds without the
// rest of the package's tests.
func TestTourCompilesAsItStands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	root := moduleRoot(t)
	// Under testdata, which ./... skips: a go command running meanwhile
	// does not see the copies.
	testdata := filepath.Join(root, "internal", "readme", "testdata")
	if err := os.MkdirAll(testdata, 0o755); err != nil {
		t.Fatal(err)
	}
	build, err := os.MkdirTemp(testdata, "tourbuild-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.RemoveAll(build)
		os.Remove(testdata) // only if nothing else is there
	})
	rel, err := filepath.Rel(root, build)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"vet"}
	for i, e := range tourEntries(t) {
		dir := filepath.Join(build, "entry"+strconv.Itoa(i))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(e[1])), []byte(e[3]), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "./"+filepath.ToSlash(filepath.Join(rel, "entry"+strconv.Itoa(i))))
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet on the README's tour blocks, each alone: %v\n%s", err, out)
	}
}
