package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

// where names one object of the input: the file, the document (counted
// from 1 among the file's non-empty documents), the item of a list
// document, and what the object says it is.
type where struct {
	file      string
	doc       int
	item      int // -1 for a document that is no list
	kind      string
	namespace string
	name      string
}

func (w where) String() string {
	if w.doc == 0 {
		return "" // the file as a whole
	}
	var b strings.Builder
	if w.kind != "" || w.name != "" {
		b.WriteString(strings.TrimSpace(w.kind + " " + w.nsName()))
		b.WriteString(" (")
	}
	fmt.Fprintf(&b, "document %d", w.doc)
	if w.item >= 0 {
		fmt.Fprintf(&b, ", items[%d]", w.item)
	}
	if w.kind != "" || w.name != "" {
		b.WriteString(")")
	}
	return b.String()
}

func (w where) nsName() string {
	if w.namespace == "" {
		return w.name
	}
	return w.namespace + "/" + w.name
}

// inputError is one piece of bad input: where it is, the field and its
// value when they are known, and what is wrong. It prints as one line,
// "FILE: OBJECT: FIELD: VALUE: problem".
type inputError struct {
	at      where
	field   string
	value   string
	problem string
}

func (e inputError) String() string {
	parts := []string{e.at.file}
	if s := e.at.String(); s != "" {
		parts = append(parts, s)
	}
	if e.field != "" {
		parts = append(parts, e.field)
	}
	if e.value != "" {
		parts = append(parts, e.value)
	}
	parts = append(parts, e.problem)
	return strings.Join(parts, ": ")
}

// decoded is one object api.Decode read, and where it came from.
type decoded struct {
	at  where
	obj api.Object
}

// input is everything read from a set of files.
type input struct {
	objects []decoded
	// configMaps and secrets feed the downward API's lookups
	// (configMapKeyRef, secretKeyRef, envFrom): api models neither kind,
	// but their data is what a container's environment reads.
	configMaps map[string]map[string]string
	secrets    map[string]map[string][]byte
	errs       []inputError
	// skipped counts the objects of kinds explain does not read (Ingress,
	// HorizontalPodAutoscaler, custom resources...), by kind, in the order
	// first met; a manifest repository is full of them.
	skipped   map[string]int
	skipOrder []string
	// empty names the files that hold no object at all.
	empty []string
	// held are the objects of kinds the cluster holds without modelling
	// them (cluster.HoldsKind: ConfigMaps, Secrets, ServiceAccounts, ...),
	// as api.Unstructured, for simulate; explain skips them.
	held []decoded
}

func newInput() *input {
	return &input{configMaps: map[string]map[string]string{}, secrets: map[string]map[string][]byte{}, skipped: map[string]int{}}
}

// size counts everything read so far, good or bad.
func (in *input) size() int {
	n := len(in.objects) + len(in.configMaps) + len(in.secrets) + len(in.errs)
	for _, c := range in.skipped {
		n += c
	}
	return n
}

// skip records one object of a kind explain does not read.
func (in *input) skip(kind string) {
	if kind == "" {
		kind = "(no kind)"
	}
	if in.skipped[kind] == 0 {
		in.skipOrder = append(in.skipOrder, kind)
	}
	in.skipped[kind]++
}

// notes are the lines explain prints under its header about what it did
// not read: files without objects, objects of kinds it skips.
func (in *input) notes() []string {
	var out []string
	for _, f := range in.empty {
		out = append(out, f+": empty: no Kubernetes object in it")
	}
	if len(in.skipOrder) > 0 {
		parts := make([]string, len(in.skipOrder))
		for i, k := range in.skipOrder {
			parts[i] = fmt.Sprintf("%d %s", in.skipped[k], k)
		}
		out = append(out, "skipped "+strings.Join(parts, ", ")+": not read by explain")
	}
	return out
}

// read adds the objects of one file. JSON (a file whose first character
// is '{') is read as a stream of JSON documents; anything else as YAML,
// possibly with several documents.
func (in *input) read(file string, data []byte) {
	before := in.size()
	defer func() {
		if in.size() == before {
			in.empty = append(in.empty, file)
		}
	}()
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		in.readJSON(file, trimmed)
		return
	}
	docs := splitYAML(data)
	for i, d := range docs {
		at := where{file: file, doc: i + 1, item: -1}
		tree, err := parseYAMLDoc(d)
		if err != nil {
			in.errs = append(in.errs, inputError{at: at, problem: strings.TrimPrefix(err.Error(), "yaml: ")})
			continue
		}
		if tree == nil {
			continue
		}
		in.document(at, tree)
	}
}

// readJSON reads a stream of JSON documents; a syntax error ends the
// file (nothing after it can be found again).
func (in *input) readJSON(file string, data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for n := 1; ; n++ {
		var tree any
		err := dec.Decode(&tree)
		if err == io.EOF {
			return
		}
		at := where{file: file, doc: n, item: -1}
		if err != nil {
			in.errs = append(in.errs, inputError{at: at, problem: jsonSyntaxProblem(data, err)})
			return
		}
		in.document(at, tree)
	}
}

// jsonSyntaxProblem names the line of a JSON syntax error.
func jsonSyntaxProblem(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("line %d: %v", line, err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of JSON input"
	}
	return err.Error()
}

// document handles one parsed document: a list's items one by one (so one
// bad item spoils only itself), or a single object.
func (in *input) document(at where, tree any) {
	m, ok := tree.(map[string]any)
	if !ok {
		in.errs = append(in.errs, inputError{at: at, value: shortValue(tree), problem: errNotObject.Error()})
		return
	}
	kind, _ := m["kind"].(string)
	if items, ok := m["items"].([]any); ok && strings.HasSuffix(kind, "List") {
		for i, item := range items {
			if item == nil {
				continue
			}
			iat := at
			iat.item = i
			// Each item goes through api.Decode inside a one-item list of
			// the same kind, so that a typed list's rule for items without a
			// kind stays api's.
			wrap := func(it any) map[string]any {
				w := map[string]any{"kind": kind, "items": []any{it}}
				if v, ok := m["apiVersion"]; ok {
					w["apiVersion"] = v
				}
				return w
			}
			if kind != "List" {
				iat.kind = strings.TrimSuffix(kind, "List") // until the item names its own
			}
			in.object(iat, item, wrap)
		}
		return
	}
	in.object(at, m, func(o any) map[string]any { return o.(map[string]any) })
}

// object decodes one object; wrap turns the object's tree (or a pruned
// copy of it) into the document api.Decode reads.
func (in *input) object(at where, obj any, wrap func(any) map[string]any) {
	if m, ok := obj.(map[string]any); ok {
		if k, ok := m["kind"].(string); ok && k != "" {
			at.kind = k
		}
		if md, ok := m["metadata"].(map[string]any); ok {
			at.name, _ = md["name"].(string)
			at.namespace, _ = md["namespace"].(string)
		}
		switch at.kind {
		case "ConfigMap", "Secret":
			if err := in.dataObject(at, m); err != nil {
				in.errs = append(in.errs, *err)
				return
			}
			in.hold(at, wrap(obj))
			return
		}
	}
	objs, err := decodeTree(wrap(obj))
	if errors.Is(err, api.ErrUnknownKind) {
		in.skip(at.kind)
		if cluster.HoldsKind(at.kind) {
			in.hold(at, wrap(obj))
		}
		return
	}
	if err != nil {
		in.errs = append(in.errs, locate(at, obj, wrap, err))
		return
	}
	for _, o := range objs {
		if at.kind == "" {
			at.kind = kindOf(o)
		}
		in.objects = append(in.objects, decoded{at: at, obj: o})
	}
}

// hold keeps an object of a kind the cluster holds without modelling it.
func (in *input) hold(at where, tree map[string]any) {
	raw, err := json.Marshal(tree)
	if err != nil {
		return
	}
	objs, err := api.DecodeAll(raw)
	if err != nil {
		return
	}
	for _, o := range objs {
		in.held = append(in.held, decoded{at: at, obj: o})
	}
}

// dataObject keeps a ConfigMap's or Secret's data for the downward API's
// lookups, keyed "namespace/name" (namespace "default" when unset).
func (in *input) dataObject(at where, m map[string]any) *inputError {
	ns := at.namespace
	if ns == "" {
		ns = "default"
	}
	key := ns + "/" + at.name
	str := func(field string) (map[string]string, *inputError) {
		raw, ok := m[field]
		if !ok || raw == nil {
			return nil, nil
		}
		mm, ok := raw.(map[string]any)
		if !ok {
			return nil, &inputError{at: at, field: field, value: shortValue(raw), problem: "must be a map of strings"}
		}
		out := make(map[string]string, len(mm))
		for k, v := range mm {
			s, ok := v.(string)
			if !ok {
				return nil, &inputError{at: at, field: field + "." + k, value: shortValue(v), problem: "must be a string"}
			}
			out[k] = s
		}
		return out, nil
	}
	data, e := str("data")
	if e != nil {
		return e
	}
	if at.kind == "ConfigMap" {
		if data == nil {
			data = map[string]string{}
		}
		in.configMaps[key] = data
		return nil
	}
	sec := map[string][]byte{}
	for k, v := range data {
		b, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			return &inputError{at: at, field: "data." + k, value: strconv.Quote(v), problem: "not base64: " + err.Error()}
		}
		sec[k] = b
	}
	sd, e := str("stringData")
	if e != nil {
		return e
	}
	for k, v := range sd {
		sec[k] = []byte(v) // stringData wins over data, as the API server merges them
	}
	in.secrets[key] = sec
	return nil
}

// decodeTree encodes a generic tree as JSON and decodes it with api.Decode.
func decodeTree(tree any) ([]api.Object, error) {
	raw, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	return api.Decode(raw)
}

// locate turns a decode error into one line naming the field and value
// that cause it. api.Decode stops at the first bad value, and
// encoding/json does not say where a value's own decoder (a quantity's,
// say) failed, so locate looks for it: keeping the object's kind and
// apiVersion, it descends level by level into the first child (in key or
// index order) whose subtree alone still fails to decode, down to a leaf.
func locate(at where, obj any, wrap func(any) map[string]any, err error) inputError {
	m, ok := obj.(map[string]any)
	if !ok {
		return inputError{at: at, value: shortValue(obj), problem: problemText(err, at.kind)}
	}
	base := map[string]any{}
	for _, k := range []string{"kind", "apiVersion"} {
		if v, ok := m[k]; ok {
			base[k] = v
		}
	}
	fails := func(t any) error {
		_, err := decodeTree(wrap(t))
		return err
	}
	if e := fails(base); e != nil {
		kv := ""
		if v, ok := m["kind"]; ok {
			kv = shortValue(v)
		}
		return inputError{at: at, field: "kind", value: kv, problem: problemText(e, at.kind)}
	}
	// rebuild puts a pruned subtree of node back at its place in the
	// object, with the object's kind and apiVersion.
	var path []string
	var node any = m
	rebuild := func(sub any) any { return sub }
	last := err
	for {
		// A container refused as a whole (a list where a quantity
		// belongs) is refused empty as well: the path ends here.
		if len(path) > 0 {
			var empty any
			switch node.(type) {
			case map[string]any:
				empty = map[string]any{}
			case []any:
				empty = []any{}
			}
			if empty != nil && fails(rebuild(empty)) != nil {
				break
			}
		}
		found := false
		switch x := node.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				if _, isBase := base[k]; !isBase || len(path) > 0 {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				outer, top := rebuild, len(path) == 0
				r := func(sub any) any {
					mm := map[string]any{k: sub}
					if top {
						for bk, bv := range base {
							mm[bk] = bv
						}
					}
					return outer(mm)
				}
				if e := fails(r(x[k])); e != nil {
					path = append(path, fieldName(k))
					node, rebuild, last, found = x[k], r, e, true
					break
				}
			}
		case []any:
			for i, v := range x {
				outer := rebuild
				r := func(sub any) any { return outer([]any{sub}) }
				if e := fails(r(v)); e != nil {
					path = append(path, "["+strconv.Itoa(i)+"]")
					node, rebuild, last, found = v, r, e, true
					break
				}
			}
		}
		if !found {
			break
		}
	}
	if len(path) == 0 {
		return inputError{at: at, problem: problemText(last, at.kind)}
	}
	field := joinPath(path)
	// api.Decode names the field of the bad value; the line says it once.
	// The pruned document api.Decode read last holds each list's element
	// at index 0.
	pruned := make([]string, len(path))
	for i, p := range path {
		if strings.HasPrefix(p, "[") && !strings.HasPrefix(p, `["`) {
			p = "[0]"
		}
		pruned[i] = p
	}
	problem := strings.TrimPrefix(problemText(last, at.kind), joinPath(pruned)+": ")
	return inputError{at: at, field: field, value: shortValue(node), problem: problem}
}

// fieldName writes a map key as a path element, bracketing keys that are
// no plain identifiers (label keys, resource names with dots or slashes).
func fieldName(k string) string {
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "[" + strconv.Quote(k) + "]"
		}
	}
	return "." + k
}

func joinPath(p []string) string {
	return strings.TrimPrefix(strings.Join(p, ""), ".")
}

// problemText is a decode error without the prefixes api.Decode adds for
// the document ("decode: ", "items[0]: ", "Pod: "): the line's OBJECT
// part names those.
func problemText(err error, kind string) string {
	s := strings.TrimPrefix(err.Error(), "decode: ")
	if strings.HasPrefix(s, "items[") {
		if i := strings.Index(s, "]: "); i >= 0 {
			s = s[i+3:]
		}
	}
	if kind != "" {
		s = strings.TrimPrefix(s, kind+": ")
		// "Pod shop/web: ...": api.Decode names the object, as the line
		// already does.
		if rest, ok := strings.CutPrefix(s, kind+" "); ok {
			if i := strings.Index(rest, ": "); i >= 0 && !strings.ContainsAny(rest[:i], " \"") {
				s = rest[i+2:]
			}
		}
	}
	return s
}

// shortValue renders a value for an error line: strings quoted, numbers
// and booleans as written, objects and lists as compact JSON cut at 60
// characters.
func shortValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// kindOf is an object's kind as its Go type names it.
func kindOf(o api.Object) string {
	if u, ok := o.(*api.Unstructured); ok {
		return u.Kind
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", o), "*api.")
}
