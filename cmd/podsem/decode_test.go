package main

import "testing"

// A value of the wrong kind, or one its field's decoder refuses, gives one
// line naming the field (with the list index as written), the value and
// what is wrong, each said once.
func TestBadValueLines(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"quantity as a list", "kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    resources: {requests: {cpu: [1]}}\n",
			`Pod p (document 1): spec.containers[0].resources.requests.cpu: [1]: quantity must be a string or a number, got [1]`},
		{"quantity as a boolean", "kind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n  - name: b\n    resources: {limits: {memory: true}}\n",
			`Pod p (document 1): spec.containers[1].resources.limits.memory: true: quantity must be a string or a number, got true`},
		{"int-or-string as a mapping", "kind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: {a: 1}}\n",
			`PodDisruptionBudget b (document 1): spec.minAvailable: {"a":1}: int-or-string must be an integer or a string, got {"a":1}`},
		{"time as a number", "kind: Pod\nmetadata: {name: q, creationTimestamp: 5}\n",
			`Pod q (document 1): metadata.creationTimestamp: 5: time must be an RFC 3339 string or null, got 5`},
		{"condition time in the second condition", "kind: Pod\nmetadata: {name: r}\nstatus: {conditions: [{type: Ready}, {type: X, lastTransitionTime: nope}]}\n",
			`Pod r (document 1): status.conditions[1].lastTransitionTime: "nope": time "nope": not RFC 3339: parsing time "nope" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "nope" as "2006"`},
	} {
		in := newInput()
		in.read("f.yaml", []byte(tc.yaml))
		if len(in.errs) != 1 {
			t.Errorf("%s: %d errors, want 1", tc.name, len(in.errs))
			continue
		}
		if got, want := in.errs[0].String(), "f.yaml: "+tc.want; got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, want)
		}
	}
}
