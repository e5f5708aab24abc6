package api

// deepCopyJSONValue copies a value of an opaque JSON field (map[string]any
// as encoding/json decodes one): maps and slices are copied, every other
// value (string, float64, bool, json.Number, nil) is immutable.
func deepCopyJSONValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopyJSONValue(e)
		}
		return m
	case []any:
		if x == nil {
			return x
		}
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = deepCopyJSONValue(e)
		}
		return s
	}
	return v
}
