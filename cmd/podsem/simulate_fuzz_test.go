package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReadScenario reads arbitrary bytes as a scenario file, as `podsem
// simulate SCENARIO` does (every include answering with a small List of
// objects, or not found when its name says "missing"), and checks what a
// user relies on:
//   - reading never panics and gives the same answer twice;
//   - an error's every line starts with the scenario file's name;
//   - a scenario read has an until after every action it runs, and each
//     action its kind; the included objects come before the inline ones.
func FuzzReadScenario(f *testing.F) {
	for _, s := range []string{
		"include: [cluster.yaml]\nactions:\n- {at: 10s, drain: node-1}\nuntil: 1m\n",
		"include: cluster.yaml\nobjects:\n- {apiVersion: v1, kind: Node, metadata: {name: n2}}\n",
		`{"include": ["a.json", "missing.yaml"], "actions": [{"at": 4, "delete": "Pod/default/p"}]}`,
		"actions:\n- {at: 1s, cordon: n1, drain: n1}\n",
		"actions:\n- {at: soon, explode: n1}\n",
		"config: {node-monitor-grace-period: 40s, unknown: 1}\nuntil: 2m\nextra: true\n",
		"kind: List\nitems: []\n",
		"until: 1m\n---\nuntil: 2m\n",
		"- a\n",
		"objects: [{kind: Pod, spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}}]\n",
		"actions: [{at: 1m, scale: {ref: Deployment/default/web, replicas: -1}}]\n",
		"actions: [{at: 1m, taint: {node: n, key: k, effect: NoExecute}}, {at: 2m, exit: {pod: a/b, container: c, code: 1}}]\n",
		"include: [{a: b}]\n",
		"",
	} {
		f.Add([]byte(s))
	}
	included := []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {kind: Ingress, metadata: {name: i}}\n")
	readFile := func(name string) ([]byte, error) {
		if strings.Contains(name, "missing") {
			return nil, errors.New("no such file")
		}
		return included, nil
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ls, err := readScenario("dir/s.yaml", data, readFile)
		again, err2 := readScenario("dir/s.yaml", data, readFile)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("two reads differ: %v / %v", err, err2)
		}
		if err != nil {
			for _, l := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(l, "dir/s.yaml: ") {
					t.Fatalf("error line %q does not name the file", l)
				}
			}
			return
		}
		if d := cmp.Diff(ls.notes, again.notes); d != "" {
			t.Fatalf("notes differ:\n%s", d)
		}
		sc := ls.sc
		if len(sc.Include) != 0 {
			t.Fatalf("includes left unresolved: %v", sc.Include)
		}
		for i, a := range sc.Actions {
			if a.Kind == "" {
				t.Fatalf("actions[%d] has no kind", i)
			}
			if a.At < 0 || (i > 0 && a.At < sc.Actions[i-1].At) {
				t.Fatalf("actions[%d] at %v out of order", i, a.At)
			}
		}
		if sc.Until <= 0 && len(sc.Actions) > 0 {
			t.Fatalf("until %v", sc.Until)
		}
	})
}
