package layering

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A place is where a package stands in the module: its rank, and whether
// it belongs to the pure core.
type place struct {
	// pkg is the package's path inside the module ("api/validation"), or
	// "dir/..." for dir and every package under it. An exact entry wins
	// over a pattern.
	pkg string
	// rank orders the packages: a package may import only module packages
	// of a strictly lower rank, so the arrows run one way and there can be
	// no cycle. Packages of equal rank are siblings that never import one
	// another. Ranks leave gaps so that a new package fits between two.
	rank int
	// pure says the pure-core rules apply: no I/O imports, no wall clock,
	// no goroutines (see TestPureCore).
	pure bool
}

const (
	core  = true  // a library package of the pure core
	outer = false // tooling, programs and test support above the core
)

// layers is the one table of the module's packages, from the ground floor
// up. A new package must be placed here (TestEveryPackagePlaced): above
// every package it imports, below every package that imports it.
var layers = []place{
	// The data model: Kubernetes objects with their JSON, quantities,
	// selectors, API defaulting and the pod predicates every component
	// shares. The ground floor: it imports nothing of the module.
	{"api", 0, core},
	// The downward API (fieldRef, resourceFieldRef, volume files,
	// environment); reads api.
	{"downward", 10, core},
	// The EndpointSlice controller's view of a Service's pods (which are
	// endpoints, with which conditions and ports); reads api only.
	{"endpointslice", 10, core},
	// client-go's event correlation (aggregation, counts, spam filter);
	// reads api.
	{"record", 10, core},
	// Server-side apply's field management (k8s.io/apimachinery's
	// managedfields): JSON trees only, imports nothing of the module.
	{"managedfields", 10, core},
	// The API server's validation; uses downward's field-path vocabulary
	// for fieldRef selectors (intended: see floorExceptions).
	{"api/validation", 20, core},
	// The API server's admission plugins as pure functions.
	{"api/admission", 30, core},
	// Pod Security admission (k8s.io/pod-security-admission); answers with api/admission's Error.
	{"api/admission/podsecurity", 35, core},
	// The namespace registry, NamespaceLifecycle admission and the
	// namespace controller's deletion of a namespace's content (api only).
	{"namespace", 30, core},
	// Resource quota: what objects cost a ResourceQuota, the ResourceQuota
	// admission plugin's check and the resourcequota controller's tally
	// (answers with api/admission's Error).
	{"resourcequota", 40, core},
	// Grace periods, the delete timeline, force deletion, pod GC, node
	// shutdown; validates DeleteOptions with api/validation.
	{"termination", 40, core},
	// kube-scheduler: snapshot, plugins, ScheduleOne, queue, the loop.
	{"scheduling", 70, core},
	// The scheduler's DefaultPreemption, plugged into scheduling's
	// PostFilter seam.
	{"preemption", 80, core},
	// The kubelet's node-pressure eviction manager (api, termination).
	{"nodepressure", 90, core},
	// The node lifecycle controller and taint-based eviction (api,
	// termination).
	{"nodelifecycle", 90, core},
	// The storage controllers: the PersistentVolume controller's binding
	// and the attach-detach controller (api only).
	{"volume", 90, core},
	// The workload controllers: ReplicaSet, Deployment, StatefulSet,
	// DaemonSet, Job.
	{"workloads", 90, core},
	// The kubelet's pod life and its pod state machine; stops pods with
	// termination's calculators. Above scheduling and nodepressure because
	// the kubelet's pod admission runs kube-scheduler's GeneralPredicates
	// and the eviction manager's Admit.
	{"lifecycle", 95, core},
	// The kubelet's probe workers; their results feed lifecycle.
	{"probe", 96, core},
	// Real network probing for probe's httpGet over net/http: the one
	// library package allowed I/O and the clock.
	{"probe/netprobe", 97, outer},
	// PodDisruptionBudgets, the Eviction API and kubectl drain.
	{"disruption", 100, core},
	// The whole cluster as one pure state machine: the API server's
	// store, kube-scheduler, the controllers and the kubelets composed
	// through their public API (issue 22). Above every semantic package.
	{"cluster", 150, core},
	// Generators and invariant checks for users' property tests: uses
	// every semantic package, and none uses it; the only importer of rapid.
	{"proptest", 200, outer},
	// The story runner replaying the machines' testdata stories (tests
	// only).
	{"internal/story", 300, outer},
	// The nil-argument tables' completeness check (tests only).
	{"internal/niltest", 300, outer},
	// The conformance runner over the Kubernetes v1.36.3 vectors.
	{"internal/conformance", 300, outer},
	// The benchmark clusters' loader.
	{"internal/benchdata", 300, outer},
	// The README's snippet and table checks (tests only).
	{"internal/readme", 300, outer},
	// This package: the layering and pure-core checks (tests only).
	{"internal/layering", 300, outer},
	// The exported-API listing behind .ci/api-record.
	{"internal/cmd/apilisting", 300, outer},
	// The vector sync tool; reads internal/conformance's format.
	{"internal/cmd/syncvectors", 310, outer},
	// The podsem command (explain, simulate): the only place that reads
	// files or YAML; may import everything.
	{"cmd/...", 400, outer},
	// Short programs that teach the API; may import everything.
	{"examples/...", 400, outer},
}

// floorExceptions lists the module packages an api/... package may import
// besides api/... itself, each with why.
var floorExceptions = map[string]map[string]string{
	"api/validation": {
		"downward": "the field-path vocabulary of fieldRef selectors: the paths validation accepts are the ones downward resolves",
	},
}

// forbiddenImports are the standard-library packages a pure-core package
// must not import (net/http's subpackages too): they do I/O, reach the
// process's environment, or draw randomness from outside the inputs.
var forbiddenImports = []string{
	"crypto/rand", "io/ioutil", "log", "log/slog", "math/rand", "math/rand/v2",
	"net", "net/http", "os", "os/exec", "os/signal", "syscall",
}

// knownImpure lists, per pure-core package, the forbidden imports it still
// has, each with what it uses them for. None of them does I/O; each is a
// debt to pay by using a pure equivalent, and an entry that is no longer
// needed fails the test so that the list only shrinks.
var knownImpure = map[string]map[string]string{
	"downward": {
		"net": "net.ParseIP and net.IP's text form for status.podIP(s) and hostIP(s) (downward/ips.go)",
	},
	"probe": {
		"net":      "net.JoinHostPort for the httpGet, tcpSocket and grpc targets",
		"net/http": "http.Header in the exported HTTPRequest and HTTPResult",
	},
}

// forbidden reports whether a pure-core package may not import ip.
func forbidden(ip string) bool {
	return slices.Contains(forbiddenImports, ip) || strings.HasPrefix(ip, "net/http/")
}

// clockFuncs are the time package's functions that read or wait on the
// wall clock.
var clockFuncs = []string{"After", "AfterFunc", "NewTicker", "NewTimer", "Now", "Since", "Sleep", "Tick", "Until"}

// printFuncs are fmt's functions that write to the process's stdout.
var printFuncs = []string{"Print", "Printf", "Println"}

const modulePath = "github.com/podsem/podsem"

// pkgSource is what the checks read of one package directory.
type pkgSource struct {
	// imports maps each module package imported by the package's non-test
	// files (relative to the module) to where.
	imports map[string][]token.Position
	// std maps each other import of the non-test files to where.
	std map[string][]token.Position
	// files are the non-test files, parsed.
	files []*ast.File
	fset  *token.FileSet
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "module "+modulePath+"\n") {
		t.Fatalf("%s is not the go.mod of %s", filepath.Join(root, "go.mod"), modulePath)
	}
	return root
}

// loadModule parses every package directory of the module under root
// (testdata, hidden and underscore directories and nested modules aside),
// keyed by its path relative to the module. A directory with only test
// files is a package too, with no imports. Files whose build constraint
// names the ignore tag are skipped; files for other platforms are read.
func loadModule(root string) (map[string]*pkgSource, error) {
	pkgs := map[string]*pkgSource{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		src, err := loadDir(root, rel)
		if err != nil || src == nil {
			return err
		}
		pkgs[filepath.ToSlash(rel)] = src
		return nil
	})
	return pkgs, err
}

// loadDir parses the Go files of the directory rel under root, naming
// them by their path from root; nil when it has none.
func loadDir(root, rel string) (*pkgSource, error) {
	ents, err := os.ReadDir(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	src := &pkgSource{imports: map[string][]token.Position{}, std: map[string][]token.Position{}, fset: token.NewFileSet()}
	found := false
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		found = true
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		text, err := os.ReadFile(filepath.Join(root, rel, name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(src.fset, filepath.ToSlash(filepath.Join(rel, name)), text, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if ignored(f) {
			continue
		}
		src.files = append(src.files, f)
		for _, im := range f.Imports {
			ip, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return nil, err
			}
			pos := src.fset.Position(im.Pos())
			switch {
			case ip == modulePath:
				src.imports["."] = append(src.imports["."], pos)
			case strings.HasPrefix(ip, modulePath+"/"):
				rel := strings.TrimPrefix(ip, modulePath+"/")
				src.imports[rel] = append(src.imports[rel], pos)
			default:
				src.std[ip] = append(src.std[ip], pos)
			}
		}
	}
	if !found {
		return nil, nil
	}
	return src, nil
}

// ignored reports whether f's build constraint names the ignore tag, the
// convention for files that are not part of the package.
func ignored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if line, ok := strings.CutPrefix(c.Text, "//go:build "); ok && slices.Contains(strings.Fields(line), "ignore") {
				return true
			}
		}
	}
	return false
}

// placeOf returns pkg's place in table: its exact entry, else the entry
// of the longest "dir/..." pattern that covers it.
func placeOf(table []place, pkg string) (place, bool) {
	var best place
	found := false
	for _, pl := range table {
		if pl.pkg == pkg {
			return pl, true
		}
		if dir, ok := strings.CutSuffix(pl.pkg, "/..."); ok && (pkg == dir || strings.HasPrefix(pkg, dir+"/")) {
			if !found || len(pl.pkg) > len(best.pkg) {
				best, found = pl, true
			}
		}
	}
	return best, found
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// unplaced lists a message for each package of pkgs that table does not
// place.
func unplaced(table []place, pkgs map[string]*pkgSource) []string {
	var msgs []string
	for _, pkg := range sortedKeys(pkgs) {
		if _, ok := placeOf(table, pkg); ok {
			continue
		}
		msgs = append(msgs, fmt.Sprintf("package %s has no place in the layering: add it to layers in internal/layering/layering_test.go, "+
			"with a rank above every module package it imports (%s) and below every package that imports it, "+
			"and a comment saying what it is", pkg, strings.Join(sortedKeys(pkgs[pkg].imports), ", ")))
	}
	return msgs
}

// rankViolations lists a message for each import of a module package by a
// package whose rank is not strictly higher.
func rankViolations(table []place, pkgs map[string]*pkgSource) []string {
	var msgs []string
	for _, pkg := range sortedKeys(pkgs) {
		from, ok := placeOf(table, pkg)
		if !ok {
			continue // reported by unplaced
		}
		for _, dep := range sortedKeys(pkgs[pkg].imports) {
			to, ok := placeOf(table, dep)
			if !ok {
				msgs = append(msgs, fmt.Sprintf("%s imports %s, which has no place in the layering", pkg, dep))
				continue
			}
			if to.rank >= from.rank {
				msgs = append(msgs, fmt.Sprintf("%s: %s (rank %d) imports %s (rank %d): a package may import only packages of a lower rank; "+
					"move the shared rule down to a package both can import, or, if the design places %s higher, change its rank",
					pkgs[pkg].imports[dep][0], pkg, from.rank, dep, to.rank, pkg))
			}
		}
	}
	return msgs
}

// floorViolations lists a message for each import by an api/... package
// of a module package outside api/... that floorExceptions does not
// allow, and for each exception no longer used.
func floorViolations(pkgs map[string]*pkgSource, exceptions map[string]map[string]string) []string {
	var msgs []string
	for _, pkg := range sortedKeys(pkgs) {
		if pkg != "api" && !strings.HasPrefix(pkg, "api/") {
			continue
		}
		for _, dep := range sortedKeys(pkgs[pkg].imports) {
			if dep == "api" || strings.HasPrefix(dep, "api/") || exceptions[pkg][dep] != "" {
				continue
			}
			msgs = append(msgs, fmt.Sprintf("%s: %s imports %s: api/... is the ground floor and imports only api/...; "+
				"move what it needs from %s down into api", pkgs[pkg].imports[dep][0], pkg, dep, dep))
		}
	}
	for _, pkg := range sortedKeys(exceptions) {
		for _, dep := range sortedKeys(exceptions[pkg]) {
			if src := pkgs[pkg]; src == nil || src.imports[dep] == nil {
				msgs = append(msgs, fmt.Sprintf("floorExceptions allows %s to import %s, which it no longer does: remove the entry", pkg, dep))
			}
		}
	}
	return msgs
}

// impurities lists a message for each pure-core package's use of a
// forbidden import, the wall clock, stdout or a goroutine, and for each
// knownImpure entry no longer needed.
func impurities(table []place, pkgs map[string]*pkgSource, known map[string]map[string]string) []string {
	var msgs []string
	for _, pkg := range sortedKeys(pkgs) {
		pl, ok := placeOf(table, pkg)
		if !ok || !pl.pure {
			continue
		}
		src := pkgs[pkg]
		for _, ip := range sortedKeys(src.std) {
			if !forbidden(ip) || known[pkg][ip] != "" {
				continue
			}
			msgs = append(msgs, fmt.Sprintf("%s: %s imports %s: the pure core does no I/O and reads no environment; "+
				"take what it needs as an argument or an interface the caller implements", src.std[ip][0], pkg, ip))
		}
		for _, f := range src.files {
			msgs = append(msgs, fileImpurities(src.fset, pkg, f)...)
		}
	}
	for _, pkg := range sortedKeys(known) {
		for _, ip := range sortedKeys(known[pkg]) {
			if src := pkgs[pkg]; src == nil || src.std[ip] == nil {
				msgs = append(msgs, fmt.Sprintf("knownImpure lets %s import %s, which it no longer does: remove the entry", pkg, ip))
			}
		}
	}
	return msgs
}

// fileImpurities lists f's go statements, references to the time
// package's clock functions and to fmt's printing to stdout, and calls of
// the print builtins.
func fileImpurities(fset *token.FileSet, pkg string, f *ast.File) []string {
	names := map[string]string{} // local name → import path, for time and fmt
	var msgs []string
	for _, im := range f.Imports {
		ip, _ := strconv.Unquote(im.Path.Value)
		if ip != "time" && ip != "fmt" {
			continue
		}
		name := path.Base(ip)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name == "." {
			msgs = append(msgs, fmt.Sprintf("%s: %s dot-imports %s, which hides its clock and printing functions from this check", fset.Position(im.Pos()), pkg, ip))
		}
		names[name] = ip
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			msgs = append(msgs, fmt.Sprintf("%s: %s starts a goroutine: the pure core returns what to do as values and lets the caller run it", fset.Position(n.Pos()), pkg))
		case *ast.SelectorExpr:
			id, ok := n.X.(*ast.Ident)
			if !ok {
				break
			}
			switch names[id.Name] {
			case "time":
				if slices.Contains(clockFuncs, n.Sel.Name) {
					msgs = append(msgs, fmt.Sprintf("%s: %s uses time.%s: the pure core takes the time as a now argument", fset.Position(n.Pos()), pkg, n.Sel.Name))
				}
			case "fmt":
				if slices.Contains(printFuncs, n.Sel.Name) {
					msgs = append(msgs, fmt.Sprintf("%s: %s uses fmt.%s: the pure core writes nothing; return the text", fset.Position(n.Pos()), pkg, n.Sel.Name))
				}
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
				msgs = append(msgs, fmt.Sprintf("%s: %s calls %s: the pure core writes nothing", fset.Position(n.Pos()), pkg, id.Name))
			}
		}
		return true
	})
	return msgs
}

// TestTableWellFormed checks that layers names each package once.
func TestTableWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, pl := range layers {
		if seen[pl.pkg] {
			t.Errorf("layers places %s twice", pl.pkg)
		}
		seen[pl.pkg] = true
	}
}

// TestEveryPackagePlaced checks that every package of the module has a
// place in layers.
func TestEveryPackagePlaced(t *testing.T) {
	pkgs, err := loadModule(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) == 0 {
		t.Fatal("found no packages")
	}
	for _, msg := range unplaced(layers, pkgs) {
		t.Error(msg)
	}
}

// TestLayerOrder checks that every import of a module package by a
// package's non-test files goes to a lower rank (so the graph has no
// cycle), and that api/... imports only api/... and the exceptions of
// floorExceptions.
func TestLayerOrder(t *testing.T) {
	pkgs, err := loadModule(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range rankViolations(layers, pkgs) {
		t.Error(msg)
	}
	for _, msg := range floorViolations(pkgs, floorExceptions) {
		t.Error(msg)
	}
}

// TestPureCore checks the pure-core packages' non-test files: no
// forbidden import beyond knownImpure, no wall clock, no printing, no
// goroutine.
func TestPureCore(t *testing.T) {
	pkgs, err := loadModule(moduleRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range impurities(layers, pkgs, knownImpure) {
		t.Error(msg)
	}
}
