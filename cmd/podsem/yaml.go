package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file turns YAML into the generic tree encoding/json produces with
// UseNumber (map[string]any, []any, string, json.Number, bool, nil), so
// that YAML and JSON input reach api.Decode through one JSON decoder.
//
// The conventions are Kubernetes': a file holds documents separated by
// lines that start with "---" (as apimachinery's YAML reader splits them),
// mapping keys become strings, and scalars are read as yaml.v3 resolves
// them (YAML 1.2 core schema: only true/false are booleans, so "yes" and
// "on" stay strings). A number keeps its literal text when that is a JSON
// number, so a quantity written as 0.5 or 128974848 reaches the quantity
// parser as written; other spellings (0x1F, 1_000, +1, .5) are converted.
// Timestamps and other tagged scalars stay strings as written.

// yamlDoc is one document of a YAML file: its text padded so that
// yaml.v3's line numbers are the file's, and the line it starts on.
type yamlDoc struct {
	text []byte
	line int
}

// splitYAML splits a YAML stream into documents at lines starting with
// "---" followed by nothing but blanks or a comment. Documents holding
// only blanks and comments are dropped.
func splitYAML(data []byte) []yamlDoc {
	var docs []yamlDoc
	var cur bytes.Buffer
	start := 1
	line := 0
	flush := func() {
		if hasContent(cur.Bytes()) {
			text := append(bytes.Repeat([]byte("\n"), start-1), cur.Bytes()...)
			docs = append(docs, yamlDoc{text: text, line: start})
		}
		cur.Reset()
	}
	for rest := data; len(rest) > 0; {
		line++
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		if isSeparator(l) {
			flush()
			start = line + 1
			continue
		}
		cur.Write(l)
	}
	flush()
	return docs
}

func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := strings.TrimSpace(string(line[3:]))
	return rest == "" || strings.HasPrefix(rest, "#")
}

// hasContent reports whether a document has anything besides blank lines,
// comments and a "..." end marker.
func hasContent(b []byte) bool {
	for _, l := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "#") && t != "..." {
			return true
		}
	}
	return false
}

// maxAliasExpansion bounds the nodes an aliased tree may expand to, so a
// "billion laughs" document is an error rather than an exhausted machine.
const maxAliasExpansion = 1 << 20

// parseYAMLDoc parses one document into the generic tree. A document that
// is empty or null gives nil.
func parseYAMLDoc(d yamlDoc) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(d.text, &n); err != nil {
		return nil, yamlSyntaxError(d.text, err)
	}
	if n.Kind == 0 {
		return nil, nil
	}
	budget := maxAliasExpansion
	return yamlToTree(&n, &budget, 0)
}

// yamlParserProblems are the problems yaml.v3's parser (as opposed to its
// scanner) reports. For these yaml.v3 prints a line counted from 0, where
// it counts scanner errors from 1; and a mark on the text's first line
// counts as no mark at all (it then falls back to the problem's mark, or
// prints no line).
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// yamlSyntaxError returns err, yaml.v3's error for a document's text, with
// the file's line. The text is parsed again behind one more blank line, so
// that no mark sits on the text's first line (every error gets a line, the
// context's when there is one: where the unclosed mapping or list opens),
// and the line yaml.v3 prints is corrected by the kind of error.
func yamlSyntaxError(text []byte, err error) error {
	var n yaml.Node
	again := yaml.Unmarshal(append([]byte("\n"), text...), &n)
	if again == nil {
		return err
	}
	msg := strings.TrimPrefix(again.Error(), "yaml: ")
	rest, ok := strings.CutPrefix(msg, "line ")
	if !ok {
		return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	num, problem, ok := strings.Cut(rest, ": ")
	line, convErr := strconv.Atoi(num)
	if !ok || convErr != nil {
		return errors.New(msg)
	}
	// Behind the extra line, a scanner error prints the file's line plus
	// one and a parser error the file's line.
	if !yamlParserProblems[problem] {
		line--
	}
	return fmt.Errorf("line %d: %s", line, problem)
}

// yamlToTree converts a yaml.v3 node.
func yamlToTree(n *yaml.Node, budget *int, depth int) (any, error) {
	*budget--
	if *budget < 0 {
		return nil, fmt.Errorf("line %d: aliases expand to more than %d nodes", n.Line, maxAliasExpansion)
	}
	if depth > 10000 {
		return nil, fmt.Errorf("line %d: nesting deeper than 10000", n.Line)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlToTree(n.Content[0], budget, depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("line %d: unknown alias %q", n.Line, n.Value)
		}
		return yamlToTree(n.Alias, budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlToTree(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return yamlMapping(n, budget, depth)
	case yaml.ScalarNode:
		return yamlScalar(n)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node kind %d", n.Line, n.Kind)
}

// yamlMapping converts a mapping, applying merge keys ("<<: *base"): keys
// written in the mapping win over merged ones, and an earlier merged
// mapping wins over a later one, as YAML's merge key type says.
func yamlMapping(n *yaml.Node, budget *int, depth int) (any, error) {
	out := make(map[string]any, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, err := yamlKey(k)
		if err != nil {
			return nil, err
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("line %d: mapping key %q already defined", k.Line, key)
		}
		val, err := yamlToTree(v, budget, depth+1)
		if err != nil {
			return nil, err
		}
		out[key] = val
	}
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, s := range srcs {
			v, err := yamlToTree(s, budget, depth+1)
			if err != nil {
				return nil, err
			}
			mm, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("line %d: a merge key takes a mapping or a list of mappings", s.Line)
			}
			for k, val := range mm {
				if _, set := out[k]; !set {
					out[k] = val
				}
			}
		}
	}
	return out, nil
}

// yamlKey is a mapping key as a string: a scalar's text (so 1 and true
// become "1" and "true", as JSON needs).
func yamlKey(k *yaml.Node) (string, error) {
	for k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("line %d: a mapping key must be a scalar", k.Line)
	}
	if k.ShortTag() == "!!null" {
		return "null", nil
	}
	return k.Value, nil
}

// yamlScalar converts a scalar as yaml.v3 resolved it.
func yamlScalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return b, nil
	case "!!int", "!!float":
		if isJSONNumber(n.Value) {
			return json.Number(n.Value), nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		switch x := v.(type) {
		case int:
			return json.Number(strconv.Itoa(x)), nil
		case int64:
			return json.Number(strconv.FormatInt(x, 10)), nil
		case uint64:
			return json.Number(strconv.FormatUint(x, 10)), nil
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
			}
			return json.Number(strconv.FormatFloat(x, 'g', -1, 64)), nil
		}
		return nil, fmt.Errorf("line %d: number %q has no JSON form", n.Line, n.Value)
	}
	return n.Value, nil
}

// isJSONNumber reports whether s is a number as JSON writes it.
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	var v any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return false
	}
	_, ok := v.(json.Number)
	return ok && d.InputOffset() == int64(len(s))
}

// errNotObject is a document that is no mapping.
var errNotObject = errors.New("a document must be an object (a mapping)")
