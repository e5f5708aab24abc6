// Package niltest holds what the packages' nil tests share: the list of a
// package's exported functions and methods that can be handed a nil
// argument, read from its source, and the check that a package's nil table
// covers each of them.
//
// The project's nil rule: a nil object pointer (or nil map, slice element,
// func or interface) passed to an exported function is bad input, never a
// panic. A function with an error result returns an error wrapping its
// package's invalid-input sentinel; one without returns its zero value and
// its doc comment says so. Each package's nil_test.go calls every function
// this package lists with nil arguments; Check keeps that table complete as
// functions are added.
package niltest

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Nilable lists the exported functions and methods declared in the
// non-test .go files of the package in dir that can receive nil: those with
// a parameter whose type is a pointer, slice, map, func, channel or
// interface (resolved through named types of the same module and of the
// standard library), and methods of exported types whose receiver can be
// nil (a pointer receiver, or a map, slice or interface type).
// Names are "F" for a function, "T.M" for a method with a value receiver and
// "(*T).M" for one with a pointer receiver, sorted.
func Nilable(dir string) ([]string, error) {
	r := &resolver{fset: token.NewFileSet(), pkgs: map[string]*pkgTypes{}}
	mod, root, err := module(dir)
	if err != nil {
		return nil, err
	}
	r.modPath, r.modRoot = mod, root
	p, err := r.parseDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range p.files {
		imports := fileImports(f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			name := fd.Name.Name
			byRecv := false
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				typ := fd.Recv.List[0].Type
				star := false
				if s, ok := typ.(*ast.StarExpr); ok {
					typ, star = s.X, true
				}
				switch t := typ.(type) {
				case *ast.IndexExpr:
					typ = t.X
				case *ast.IndexListExpr:
					typ = t.X
				}
				id, ok := typ.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				if star {
					name = "(*" + id.Name + ")." + name
				} else {
					name = id.Name + "." + name
				}
				byRecv = star || r.nilable(p, imports, id, nil, 0)
			}
			if byRecv || r.anyNilable(p, imports, fd.Type.Params, typeParams(fd)) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// Check fails t for each name Nilable(dir) lists that is neither a key of
// cases (the package's nil table) nor of excluded (names mapped to why they
// cannot be handed nil), and for each key of cases or excluded that the
// package no longer declares, so the table never goes stale either way.
func Check(t testing.TB, dir string, cases map[string]func(*testing.T), excluded map[string]string) {
	t.Helper()
	names, err := Nilable(dir)
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
		if cases[n] == nil && excluded[n] == "" {
			t.Errorf("%s can be handed nil but the nil table has no case for it", n)
		}
	}
	for n := range cases {
		if !have[n] {
			t.Errorf("the nil table covers %s, which is not an exported function or method that can be handed nil", n)
		}
	}
	for n := range excluded {
		if !have[n] {
			t.Errorf("%s is excluded, but it is not an exported function or method that can be handed nil", n)
		}
	}
}

// Run runs each case of a nil table as a subtest named by its key; a case
// that panics fails its subtest with the panic value instead of ending the
// test binary.
func Run(t *testing.T, cases map[string]func(*testing.T)) {
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			defer func() {
				if v := recover(); v != nil {
					t.Errorf("%s panicked on nil input: %v", n, v)
				}
			}()
			cases[n](t)
		})
	}
}

// Invalid fails t unless err wraps sentinel (the package's invalid-input
// error) and names the nil argument as "arg: nil".
func Invalid(t testing.TB, err, sentinel error, arg string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Errorf("got error %v, want one wrapping %q", err, sentinel)
		return
	}
	if !strings.Contains(err.Error(), arg+": nil") {
		t.Errorf("error %q does not name the argument (%q)", err, arg+": nil")
	}
}

// Zero fails t unless each of vs is the zero value of its type: the
// answer the nil rule gives for a nil argument to a function without an
// error result.
func Zero(t testing.TB, vs ...any) {
	t.Helper()
	for i, v := range vs {
		if v != nil && !reflect.ValueOf(v).IsZero() {
			t.Errorf("result %d is %#v, want the zero %T", i, v, v)
		}
	}
}

type pkgTypes struct {
	files []*ast.File
	// types maps a type name to its declared type expression and the
	// imports of the file declaring it.
	types map[string]typeDecl
}

type typeDecl struct {
	expr    ast.Expr
	imports map[string]string
}

type resolver struct {
	fset             *token.FileSet
	modPath, modRoot string
	pkgs             map[string]*pkgTypes
}

func module(dir string) (path, root string, err error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					return f[1], d, nil
				}
			}
			return "", "", fmt.Errorf("%s: no module line", filepath.Join(d, "go.mod"))
		}
		up := filepath.Dir(d)
		if up == d {
			return "", "", fmt.Errorf("no go.mod above %s", dir)
		}
		d = up
	}
}

func (r *resolver) parseDir(dir string) (*pkgTypes, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if p, ok := r.pkgs[abs]; ok {
		return p, nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	p := &pkgTypes{types: map[string]typeDecl{}}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(r.fset, filepath.Join(abs, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
		imports := fileImports(f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				p.types[ts.Name.Name] = typeDecl{expr: ts.Type, imports: imports}
			}
		}
	}
	r.pkgs[abs] = p
	return p, nil
}

func (r *resolver) importDir(path string) string {
	if path == r.modPath || strings.HasPrefix(path, r.modPath+"/") {
		return filepath.Join(r.modRoot, filepath.FromSlash(strings.TrimPrefix(path, r.modPath)))
	}
	return filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path))
}

// fileImports maps each import's name in f to its path.
func fileImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, is := range f.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if is.Name != nil {
			name = is.Name.Name
		}
		m[name] = path
	}
	return m
}

func typeParams(fd *ast.FuncDecl) map[string]bool {
	tp := map[string]bool{}
	if fd.Type.TypeParams != nil {
		for _, f := range fd.Type.TypeParams.List {
			for _, n := range f.Names {
				tp[n.Name] = true
			}
		}
	}
	return tp
}

func (r *resolver) anyNilable(p *pkgTypes, imports map[string]string, params *ast.FieldList, tparams map[string]bool) bool {
	if params == nil {
		return false
	}
	for _, f := range params.List {
		if r.nilable(p, imports, f.Type, tparams, 0) {
			return true
		}
	}
	return false
}

// nilable reports whether a value of type e can be nil.
func (r *resolver) nilable(p *pkgTypes, imports map[string]string, e ast.Expr, tparams map[string]bool, depth int) bool {
	if depth > 20 {
		return false
	}
	switch t := e.(type) {
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.FuncType, *ast.ChanType, *ast.InterfaceType, *ast.Ellipsis:
		if a, ok := t.(*ast.ArrayType); ok && a.Len != nil {
			return false // an array
		}
		return true
	case *ast.ParenExpr:
		return r.nilable(p, imports, t.X, tparams, depth+1)
	case *ast.IndexExpr:
		return r.nilable(p, imports, t.X, tparams, depth+1)
	case *ast.IndexListExpr:
		return r.nilable(p, imports, t.X, tparams, depth+1)
	case *ast.Ident:
		if tparams[t.Name] {
			return false
		}
		if d, ok := p.types[t.Name]; ok {
			return r.nilable(p, d.imports, d.expr, nil, depth+1)
		}
		return t.Name == "error" || t.Name == "any"
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		if !ok {
			return false
		}
		path, ok := imports[x.Name]
		if !ok {
			return false
		}
		q, err := r.parseDir(r.importDir(path))
		if err != nil {
			return false
		}
		if d, ok := q.types[t.Sel.Name]; ok {
			return r.nilable(q, d.imports, d.expr, nil, depth+1)
		}
	}
	return false
}
