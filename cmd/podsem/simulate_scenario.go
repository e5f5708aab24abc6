package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
	"go.yaml.in/yaml/v3"
)

// scenarioFields are the top-level fields of a scenario file (issue 22);
// any other is named in a warning, since the cluster package ignores it.
var scenarioFields = []string{"include", "objects", "actions", "until", "config"}

// errObjectFile is a file whose top level is a Kubernetes object or List
// (it has a kind): a file to include, not a scenario.
var errObjectFile = errors.New("a file of Kubernetes objects, not a scenario: name it in a scenario's include")

// loadedScenario is a scenario file read, its includes resolved: what
// cluster.Run takes, and what was said about the files on the way.
type loadedScenario struct {
	sc *cluster.Scenario
	// notes are what was not simulated: kinds skipped in included files,
	// empty included files, top-level fields the scenario format has not.
	notes []string
	// root is a YAML scenario's top-level node, for the lines of fields
	// named in errors (nil for JSON).
	root *yaml.Node
}

// scenarioTop parses a scenario file's single document into its top-level
// mapping, YAML or JSON (a file starting with '{' is JSON). yamlRoot is
// the YAML document's node, for the lines of fields named in errors; nil
// for JSON.
func scenarioTop(data []byte) (map[string]any, *yaml.Node, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return nil, nil, errors.New("empty: no scenario in it")
	}
	var tree any
	var root *yaml.Node
	if trimmed[0] == '{' || trimmed[0] == '[' {
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.UseNumber()
		if err := dec.Decode(&tree); err != nil {
			return nil, nil, errors.New(jsonSyntaxProblem(trimmed, err))
		}
		if dec.More() {
			return nil, nil, errors.New("more than one JSON document: want one scenario")
		}
	} else {
		docs := splitYAML(data)
		if len(docs) == 0 {
			return nil, nil, errors.New("empty: no scenario in it")
		}
		var err error
		if tree, err = parseYAMLDoc(docs[0]); err != nil {
			return nil, nil, err
		}
		if m, ok := tree.(map[string]any); ok && m["kind"] != nil {
			return nil, nil, fmt.Errorf("kind %s: %w", shortValue(m["kind"]), errObjectFile)
		}
		if len(docs) > 1 {
			return nil, nil, fmt.Errorf("%d YAML documents: want one scenario", len(docs))
		}
		var n yaml.Node
		if yaml.Unmarshal(docs[0].text, &n) == nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			root = n.Content[0]
		}
	}
	top, ok := tree.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("%s: a scenario must be a mapping of %s", shortValue(tree), strings.Join(scenarioFields, ", "))
	}
	if top["kind"] != nil {
		return nil, nil, fmt.Errorf("kind %s: %w", shortValue(top["kind"]), errObjectFile)
	}
	return top, root, nil
}

// readScenario reads a scenario file (name, for messages and for resolving
// includes relative to its directory; data, its bytes): YAML or JSON, its
// `include` files read as `kubectl get -A -o yaml|json` prints objects (a
// List, a multi-document stream, single objects), their objects first,
// then the inline `objects`, handed to cluster.ParseScenario. Every error
// names the file and the field or object; a YAML scenario's also the line.
// readFile (os.ReadFile outside tests) reads the included files.
func readScenario(name string, data []byte, readFile func(string) ([]byte, error)) (*loadedScenario, error) {
	top, root, err := scenarioTop(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ls := &loadedScenario{root: root}
	var unknown []string
	for k := range top {
		if !slices.Contains(scenarioFields, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		// Dropped, not left to encoding/json, which would take "Until"
		// or "inClude" for the field of another case.
		delete(top, k)
		ls.notes = append(ls.notes, fmt.Sprintf("%s: %sfield %q is not a scenario field (%s): ignored",
			name, lineOf(root, k, -1), k, strings.Join(scenarioFields, ", ")))
	}
	includes, err := includeList(top["include"])
	if err != nil {
		return nil, fmt.Errorf("%s: %sinclude: %w", name, lineOf(root, "include", -1), err)
	}
	delete(top, "include")
	in := newInput()
	dir := filepath.Dir(name)
	for i, inc := range includes {
		path := inc
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		b, err := readFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %sinclude[%d]: %q: %w", name, lineOf(root, "include", i), i, inc, unwrapPath(err))
		}
		in.read(path, b)
	}
	if len(in.errs) > 0 {
		lines := make([]string, len(in.errs))
		for i, e := range in.errs {
			lines[i] = name + ": include: " + e.String()
		}
		return nil, errors.New(strings.Join(lines, "\n"))
	}
	ls.notes = append(ls.notes, includeNotes(in)...)
	raw, err := json.Marshal(top)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	sc, err := cluster.ParseScenario(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %s%s", name, lineOfError(root, top, err), parseProblem(err))
	}
	objs := make([]api.Object, 0, len(in.objects)+len(in.held)+len(sc.Objects))
	for _, d := range in.objects {
		objs = append(objs, d.obj)
	}
	for _, d := range in.held {
		objs = append(objs, d.obj)
	}
	sc.Objects = append(objs, sc.Objects...)
	// The system's time zone database (with Go's own embedded copy as the
	// fallback, tzdata.go) for CronJobs' spec.timeZone.
	sc.LoadLocation = time.LoadLocation
	ls.sc = sc
	return ls, nil
}

// includeList reads `include`: a list of file names (a single name is
// taken as a list of one).
func includeList(v any) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		if v == "" {
			return nil, errors.New(`"": want a file name`)
		}
		return []string{v}, nil
	case []any:
		out := make([]string, 0, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok || s == "" {
				return nil, fmt.Errorf("[%d]: %s: want a file name", i, shortValue(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: want a list of file names", shortValue(v))
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// includeNotes says what the included files held that is not simulated:
// the kinds the cluster package does not model and does not hold either
// (cluster.HoldsKind: a HorizontalPodAutoscaler, a custom
// resource are left out with this note), and files with no object.
func includeNotes(in *input) []string {
	var notes []string
	for _, f := range in.empty {
		notes = append(notes, f+": empty: no Kubernetes object in it")
	}
	kinds := slices.DeleteFunc(slices.Clone(in.skipOrder), cluster.HoldsKind)
	counts := in.skipped
	if len(kinds) > 0 {
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%d %s", counts[k], k)
		}
		notes = append(notes, "include: skipped "+strings.Join(parts, ", ")+": not simulated")
	}
	return notes
}

// parseProblem is cluster.ParseScenario's error without the package's
// prefix, which the command's own line replaces.
func parseProblem(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "cluster: ")
	s = strings.TrimPrefix(s, api.ErrInvalidInput.Error()+": ")
	return s
}

var errIndex = regexp.MustCompile(`^(objects|actions)\[(\d+)\]`)

// lineOfError is "line N: " for the field a ParseScenario error names, in
// a YAML scenario; for an action without an action key it also names the
// keys the action has, so that a misspelt action is seen.
func lineOfError(root *yaml.Node, top map[string]any, err error) string {
	p := parseProblem(err)
	if m := errIndex.FindStringSubmatch(p); m != nil {
		i, _ := strconv.Atoi(m[2])
		prefix := lineOf(root, m[1], i)
		if m[1] == "actions" && strings.Contains(p, "no action") {
			if l, ok := top["actions"].([]any); ok && i < len(l) {
				if a, ok := l[i].(map[string]any); ok {
					var keys []string
					for k := range a {
						if k != "at" {
							keys = append(keys, k)
						}
					}
					slices.Sort(keys)
					if len(keys) > 0 {
						prefix += fmt.Sprintf("unknown action %s: ", strings.Join(keys, ", "))
					}
				}
			}
		}
		return prefix
	}
	for _, f := range []string{"until", "config"} {
		if strings.HasPrefix(p, f+":") || strings.HasPrefix(p, f+" ") {
			return lineOf(root, f, -1)
		}
	}
	return ""
}

// lineOf is "line N: " for the top-level field key of a YAML scenario, or
// for its item i when i ≥ 0 and the field is a list; "" when unknown.
func lineOf(root *yaml.Node, key string, i int) string {
	if root == nil || root.Kind != yaml.MappingNode {
		return ""
	}
	for j := 0; j+1 < len(root.Content); j += 2 {
		if root.Content[j].Value != key {
			continue
		}
		v := root.Content[j+1]
		if i >= 0 && v.Kind == yaml.SequenceNode && i < len(v.Content) {
			return fmt.Sprintf("line %d: ", v.Content[i].Line)
		}
		return fmt.Sprintf("line %d: ", root.Content[j].Line)
	}
	return ""
}

// readScenarioPath reads the scenario file at name ("-": standard input,
// includes then relative to the working directory).
func readScenarioPath(name string, stdin io.Reader) (*loadedScenario, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	// filepath.Dir("-") is ".": the includes of a scenario read from
	// standard input are relative to the working directory.
	return readScenario(name, data, os.ReadFile)
}
