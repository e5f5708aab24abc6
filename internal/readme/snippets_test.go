package readme

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
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

// snippetMarker precedes a tour snippet: <!-- example: DIR ExampleName -->
// names the package directory (relative to the module root) and the
// Example function the snippet is taken from.
var snippetMarker = regexp.MustCompile("<!-- example: (\\S+) (Example\\w*) -->\\s*\n```go\n((?s:.*?))```")

// TestTourSnippetsAreExamples checks that every Go snippet of the README
// that follows an example marker is a run of consecutive lines of the
// named Example function's body (indentation aside), so that the README
// shows only code that compiles and whose output `go test` checks.
func TestTourSnippetsAreExamples(t *testing.T) {
	readme := readREADME(t)
	matches := snippetMarker.FindAllStringSubmatch(readme, -1)
	if len(matches) == 0 {
		t.Fatal("README.md has no example-marked Go snippets")
	}
	if n := strings.Count(readme, "```go"); n != len(matches) {
		t.Errorf("README.md has %d Go snippets but %d example markers: mark every snippet with <!-- example: DIR ExampleName -->", n, len(matches))
	}
	for _, m := range matches {
		dir, name, snippet := m[1], m[2], m[3]
		body, err := exampleBody(filepath.Join(moduleRoot(t), dir), name)
		if err != nil {
			t.Errorf("snippet for %s %s: %v", dir, name, err)
			continue
		}
		if err := isExcerpt(snippet, body); err != nil {
			t.Errorf("snippet for %s %s is not an excerpt of the Example: %v", dir, name, err)
		}
	}
}

// exampleBody returns the source lines of the named Example function's
// body in dir's test files.
func exampleBody(dir, name string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		file, err := parser.ParseFile(fset, f, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != name || fn.Body == nil {
				continue
			}
			start := fset.Position(fn.Body.Lbrace).Offset + 1
			end := fset.Position(fn.Body.Rbrace).Offset
			return strings.Split(string(src[start:end]), "\n"), nil
		}
	}
	return nil, fmt.Errorf("no function %s in %s", name, dir)
}

// isExcerpt reports whether the snippet's non-blank lines, trimmed, occur
// as consecutive non-blank lines of body, trimmed.
func isExcerpt(snippet string, body []string) error {
	var want, have []string
	for _, l := range strings.Split(snippet, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			want = append(want, l)
		}
	}
	for _, l := range body {
		if l = strings.TrimSpace(l); l != "" {
			have = append(have, l)
		}
	}
	if len(want) == 0 {
		return fmt.Errorf("empty snippet")
	}
	for i := 0; i+len(want) <= len(have); i++ {
		if have[i] != want[0] {
			continue
		}
		j := 1
		for j < len(want) && have[i+j] == want[j] {
			j++
		}
		if j == len(want) {
			return nil
		}
	}
	return fmt.Errorf("its lines do not appear in order in the Example body (first line %q)", want[0])
}
