package conformance

import (
	"bytes"
	"encoding/json"
	"sort"
)

// DecodeNumbers reads a JSON document into a generic tree, keeping numbers
// as json.Number so that int64 values survive exactly.
func DecodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// WalkObjects calls f for every Kubernetes object in a generic JSON tree
// (a JSON object carrying a kind and metadata), in a fixed order: map keys
// sorted, list elements in order. It does not descend into the objects it
// reports.
func WalkObjects(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if k, ok := x["kind"].(string); ok && k != "" {
			if _, ok := x["metadata"]; ok {
				f(x)
				return
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			WalkObjects(x[k], f)
		}
	case []any:
		for _, e := range x {
			WalkObjects(e, f)
		}
	}
}
