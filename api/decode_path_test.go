package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Every decode error names the field path of the value that causes it,
// with list indices, whether encoding/json found a type mismatch or a
// field's own decoder (Quantity, Time, IntOrString) refused the value.
func TestDecodeErrorNamesField(t *testing.T) {
	pod := func(spec, status string) string {
		return `{"kind":"Pod","metadata":{"name":"web","namespace":"shop","labels":{"a":"1x"}},"spec":` + spec + `,"status":` + status + `}`
	}
	containers := func(resources string) string {
		return `{"containers":[{"name":"a"},{"name":"b","resources":` + resources + `}]}`
	}
	for _, tc := range []struct {
		name, doc, want string
		is              error
	}{
		{"quantity true", pod(containers(`{"requests":{"cpu":true}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.requests.cpu: quantity must be a string or a number, got true`, ErrFormatWrong},
		{"quantity object", pod(containers(`{"limits":{"memory":{"value":"1Gi"}}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.limits.memory: quantity must be a string or a number, got {"value":"1Gi"}`, ErrFormatWrong},
		{"quantity array", pod(containers(`{"requests":{"cpu":[1,2]}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.requests.cpu: quantity must be a string or a number, got [1,2]`, ErrFormatWrong},
		{"quantity empty array", pod(containers(`{"requests":{"cpu":[]}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.requests.cpu: quantity must be a string or a number, got []`, ErrFormatWrong},
		{"quantity long object is cut", pod(containers(`{"requests":{"cpu":{"aaaaaaaaaa":"bbbbbbbbbb","cccccccccc":"dddddddddd"}}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.requests.cpu: quantity must be a string or a number, got {"aaaaaaaaaa":"bbbbbbbbbb","ccccccccc...`, ErrFormatWrong},
		// The label "1x" spells the same text; the path is the quantity's.
		{"bad quantity text", pod(containers(`{"requests":{"cpu":"1x"}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.requests.cpu: quantity "1x": unexpected "x" at offset 1`, ErrFormatWrong},
		{"extended resource name", pod(containers(`{"limits":{"nvidia.com/gpu":false}}`), `{}`),
			`decode: Pod shop/web: spec.containers[1].resources.limits["nvidia.com/gpu"]: quantity must be a string or a number, got false`, ErrFormatWrong},
		{"creationTimestamp text",
			`{"kind":"Pod","metadata":{"name":"web","creationTimestamp":"yesterday"}}`,
			`decode: Pod web: metadata.creationTimestamp: time "yesterday": not RFC 3339: `, nil},
		{"creationTimestamp number",
			`{"kind":"Pod","metadata":{"name":"web","creationTimestamp":1700000000}}`,
			`decode: Pod web: metadata.creationTimestamp: time must be an RFC 3339 string or null, got 1700000000`, nil},
		{"startTime object", pod(`{}`, `{"startTime":{"seconds":5}}`),
			`decode: Pod shop/web: status.startTime: time must be an RFC 3339 string or null, got {"seconds":5}`, nil},
		{"condition time", pod(`{}`, `{"conditions":[{"type":"Ready"},{"type":"PodScheduled","lastTransitionTime":"2025-13-01T00:00:00Z"}]}`),
			`decode: Pod shop/web: status.conditions[1].lastTransitionTime: time "2025-13-01T00:00:00Z": not RFC 3339: `, nil},
		{"node heartbeat", `{"kind":"Node","metadata":{"name":"n1"},"status":{"conditions":[{"type":"Ready","lastHeartbeatTime":true}]}}`,
			`decode: Node n1: status.conditions[0].lastHeartbeatTime: time must be an RFC 3339 string or null, got true`, nil},
		{"minAvailable bool", `{"kind":"PodDisruptionBudget","metadata":{"name":"b"},"spec":{"minAvailable":true}}`,
			`decode: PodDisruptionBudget b: spec.minAvailable: int-or-string must be an integer or a string, got true`, nil},
		{"maxUnavailable fraction", `{"kind":"PodDisruptionBudget","metadata":{"name":"b"},"spec":{"maxUnavailable":1.5}}`,
			`decode: PodDisruptionBudget b: spec.maxUnavailable: int-or-string 1.5 is not an integer`, nil},
		{"maxUnavailable huge", `{"kind":"PodDisruptionBudget","metadata":{"name":"b"},"spec":{"maxUnavailable":99999999999999999999}}`,
			`decode: PodDisruptionBudget b: spec.maxUnavailable: int-or-string 99999999999999999999 is out of int32 range`, nil},
		{"maxSurge object", `{"kind":"Deployment","metadata":{"name":"d"},"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":{}}}}}`,
			`decode: Deployment d: spec.strategy.rollingUpdate.maxSurge: int-or-string must be an integer or a string, got {}`, nil},
		{"type mismatch with index", pod(`{"containers":[{"name":"a"},{"name":"b","ports":[{"containerPort":80},{"containerPort":"http"}]}]}`, `{}`),
			`decode: Pod shop/web: spec.containers[1].ports[1].containerPort: json: cannot unmarshal string into Go value of type int32`, nil},
		{"list item", `{"kind":"PodList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"spec":{"priority":"high"}}]}`,
			`decode: items[1]: Pod b: spec.priority: json: cannot unmarshal string into Go value of type int32`, nil},
		{"kind not a string", `{"kind":5}`,
			`decode: kind: json: cannot unmarshal number into Go value of type string`, nil},
		{"items not a list", `{"kind":"PodList","items":{"a":1}}`,
			`decode: items: json: cannot unmarshal object into Go value of type []json.RawMessage`, nil},
		{"item kind not a string", `{"kind":"List","items":[{"kind":["Pod"]}]}`,
			`decode: items[0]: kind: json: cannot unmarshal array into Go value of type string`, nil},
	} {
		_, err := Decode([]byte(tc.doc))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, err, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v does not wrap %v", tc.name, err, tc.is)
		}
	}
}

// A type mismatch stays a *json.UnmarshalTypeError for errors.As.
func TestDecodeErrorKeepsTypeError(t *testing.T) {
	_, err := Decode([]byte(`{"kind":"Pod","spec":{"priority":"high"}}`))
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Value != "string" {
		t.Errorf("error %v: not a *json.UnmarshalTypeError for the string", err)
	}
}

// A field's own decoder says what the field takes when handed a value of
// the wrong JSON kind.
func TestUnmarshalJSONWrongKind(t *testing.T) {
	for _, tc := range []struct {
		v    interface{ UnmarshalJSON([]byte) error }
		in   string
		want string
	}{
		{new(Quantity), `true`, `quantity must be a string or a number, got true`},
		{new(Quantity), `{}`, `quantity must be a string or a number, got {}`},
		{new(Quantity), `["1"]`, `quantity must be a string or a number, got ["1"]`},
		{new(Time), `false`, `time must be an RFC 3339 string or null, got false`},
		{new(Time), `[]`, `time must be an RFC 3339 string or null, got []`},
		{new(Time), `12`, `time must be an RFC 3339 string or null, got 12`},
		{new(IntOrString), `null`, `int-or-string must be an integer or a string, got null`},
		{new(IntOrString), `{"a":1}`, `int-or-string must be an integer or a string, got {"a":1}`},
		{new(IntOrString), `1e3`, `int-or-string 1e3 is not an integer`},
		{new(IntOrString), `-2147483649`, `int-or-string -2147483649 is out of int32 range`},
	} {
		err := tc.v.UnmarshalJSON([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%T.UnmarshalJSON(%s) = %v, want %q", tc.v, tc.in, err, tc.want)
		}
	}
	var v IntOrString
	if err := v.UnmarshalJSON([]byte(`-2147483648`)); err != nil || v != FromInt32(-2147483648) {
		t.Errorf("MinInt32: %+v, %v", v, err)
	}
}

// Property: whatever bad value sits at whichever quantity, time or
// int-or-string field of an object among good ones, the error names that
// field's path, with its indices, and shows the value.
func TestDecodeErrorPathProperty(t *testing.T) {
	badValues := []string{`true`, `false`, `{}`, `[]`, `{"a":1}`, `[1,"2"]`, `"1 Gi"`, `"x"`}
	rapid.Check(t, func(t *rapid.T) {
		bad := rapid.SampledFrom(badValues).Draw(t, "bad")
		var doc, path string
		switch rapid.IntRange(0, 2).Draw(t, "field") {
		case 0: // a quantity in one of several containers
			n := rapid.IntRange(1, 4).Draw(t, "containers")
			at := rapid.IntRange(0, n-1).Draw(t, "at")
			list := rapid.SampledFrom([]string{"requests", "limits"}).Draw(t, "list")
			res := rapid.SampledFrom([]string{"cpu", "memory", "ephemeral-storage", "example.com/dongle"}).Draw(t, "resource")
			var cs []string
			for i := range n {
				q := `"1"`
				if i == at {
					q = bad
				}
				cs = append(cs, fmt.Sprintf(`{"name":"c%d","resources":{%q:{%q:%s}}}`, i, list, res, q))
			}
			// The labels spell the bad strings too: the path is the
			// quantity's all the same.
			doc = `{"kind":"Pod","metadata":{"name":"p","labels":{"v":"x","w":"1 Gi"}},"spec":{"containers":[` + strings.Join(cs, ",") + `]}}`
			elem := "." + res
			if strings.Contains(res, "/") {
				elem = `["` + res + `"]`
			}
			path = fmt.Sprintf("spec.containers[%d].resources.%s%s", at, list, elem)
		case 1: // a time among conditions
			if bad == `"x"` || bad == `"1 Gi"` || bad == `[]` || bad == `{}` {
				bad = `7`
			}
			n := rapid.IntRange(1, 4).Draw(t, "conditions")
			at := rapid.IntRange(0, n-1).Draw(t, "at")
			var cs []string
			for i := range n {
				v := `"2025-06-01T12:00:00Z"`
				if i == at {
					v = bad
				}
				cs = append(cs, fmt.Sprintf(`{"type":"T%d","lastTransitionTime":%s}`, i, v))
			}
			doc = `{"kind":"Pod","metadata":{"name":"p"},"status":{"conditions":[` + strings.Join(cs, ",") + `]}}`
			path = fmt.Sprintf("status.conditions[%d].lastTransitionTime", at)
		case 2: // a budget's int-or-string
			if bad[0] == '"' {
				bad = `2.5`
			}
			f := rapid.SampledFrom([]string{"minAvailable", "maxUnavailable"}).Draw(t, "budget field")
			doc = `{"kind":"PodDisruptionBudget","metadata":{"name":"b"},"spec":{"selector":{},"` + f + `":` + bad + `}}`
			path = "spec." + f
		}
		_, err := Decode([]byte(doc))
		if err == nil {
			t.Fatalf("%s: no error", doc)
		}
		if !strings.Contains(err.Error(), ": "+path+": ") {
			t.Fatalf("%s:\nerror %q does not name %s", doc, err, path)
		}
		shown := bad
		if bad[0] == '"' {
			shown = strings.Trim(bad, `"`)
		}
		if !strings.Contains(err.Error(), shown) {
			t.Fatalf("%s:\nerror %q does not show the value %s", doc, err, bad)
		}
	})
}
