// Command apilisting prints the exported API of Go packages as plain
// text: every exported constant, variable, function, type, method and
// exported struct field with its signature, without doc comments or
// bodies, one package per file. It is the readable half of the API record
// in .ci/api (the other half is apidiff's export data, which is what the
// compatibility check compares); a change to a listing shows reviewers
// what an API change is.
//
// Run from the module root with NAME=DIR pairs, DIR being a package's
// directory relative to the module root:
//
//	go run ./internal/cmd/apilisting -o .ci/api api=api probe-netprobe=probe/netprobe ...
//	go run ./internal/cmd/apilisting -o .ci/api -check api=api ...
//
// -o writes <dir>/NAME.txt for each package (.ci/api-record chooses the
// names). -check writes nothing and exits 1 when a listing differs from
// the file, naming it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("o", "", "directory of the listings")
	check := flag.Bool("check", false, "compare with the listings in -o instead of writing them")
	module := flag.String("module", "", "the module path (default: read from ./go.mod)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: apilisting -o DIR [-check] [-module PATH] NAME=PKGDIR...")
		os.Exit(2)
	}
	modPath := *module
	if modPath == "" {
		var err error
		if modPath, err = modulePath("go.mod"); err != nil {
			fmt.Fprintln(os.Stderr, "apilisting:", err)
			os.Exit(1)
		}
	}
	stale := 0
	for _, arg := range flag.Args() {
		name, dir, ok := strings.Cut(arg, "=")
		if !ok || name == "" {
			fmt.Fprintf(os.Stderr, "apilisting: %q is not NAME=PKGDIR\n", arg)
			os.Exit(2)
		}
		rel := filepath.ToSlash(filepath.Clean(dir))
		var b bytes.Buffer
		if err := list(&b, dir, importPath(modPath, rel)); err != nil {
			fmt.Fprintln(os.Stderr, "apilisting:", err)
			os.Exit(1)
		}
		file := filepath.Join(*out, name+".txt")
		if *check {
			old, _ := os.ReadFile(file)
			if !bytes.Equal(old, b.Bytes()) {
				fmt.Printf("api listing %s is not the current API of %s\n", file, importPath(modPath, rel))
				stale++
			}
			continue
		}
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "apilisting:", err)
			os.Exit(1)
		}
	}
	if stale > 0 {
		os.Exit(1)
	}
}

func importPath(mod, rel string) string {
	if rel == "." {
		return mod
	}
	return mod + "/" + rel
}

func modulePath(gomod string) (string, error) {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

// list writes the exported API of the package in dir, in go/doc's order:
// constants, variables, functions, then each type with its constants,
// variables, constructors and methods.
func list(w io.Writer, dir, path string) error {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, path)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "package %s // import %q\n", p.Name, path)
	pr := func(decl ast.Decl) {
		var b bytes.Buffer
		cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
		if err := cfg.Fprint(&b, fset, decl); err != nil {
			fmt.Fprintf(w, "\n// %s\n", err)
			return
		}
		// Blank lines are where doc comments were.
		text := strings.ReplaceAll(b.String(), "\n\n", "\n")
		for strings.Contains(text, "\n\n") {
			text = strings.ReplaceAll(text, "\n\n", "\n")
		}
		if f, err := format.Source([]byte(text)); err == nil {
			text = string(f) // realigned without the comments' lines
		}
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(text, "\n"))
	}
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			pr(v.Decl)
		}
	}
	funcs := func(fs []*doc.Func) {
		for _, f := range fs {
			pr(f.Decl)
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs(p.Funcs)
	for _, t := range p.Types {
		pr(t.Decl)
		values(t.Consts)
		values(t.Vars)
		funcs(t.Funcs)
		funcs(t.Methods)
	}
	return nil
}
