package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

// simulateGoldens are the runs of podsem simulate whose whole transcript
// testdata/simulate/golden holds (rewritten by go test -update; read the
// diff: a changed golden is a changed story).
//
// drain: a Deployment of 4 on two nodes, its budget allowing one
// disruption, and node-1 drained at 10 s: its first pod is evicted and
// replaced on node-2 at once, the second eviction refused (429,
// EvictionRefused naming the budget) until the replacement runs 1 s later;
// kubectl retries 5 s after the refusal and the drain ends at 16 s. The
// included List's Ingress is skipped with a note. The same run in each
// format.
//
// inline: inline objects in a JSON scenario (a node and a bare pod),
// cordon, delete of the pod (the kubelet kills it: exit 143, then removes
// it), uncordon; with --setup the records before t=0 come first, with
// negative offsets.
//
// sweep-shard: share 0 of 2 of a directory (its scenarios 0, 2 and 4 by
// name: a scale to 4, a drain, a misspelt action), each block under its
// scenario's name; the refused scenario's error is in its block and on
// stderr (exit 1); the directory's file of objects is noted as not run.
var simulateGoldens = []struct {
	name string
	args []string
}{
	{"drain.txt", []string{"testdata/simulate/drain.yaml"}},
	{"drain.jsonl.txt", []string{"-o", "json", "testdata/simulate/drain.yaml"}},
	{"drain.md", []string{"testdata/simulate/drain.yaml", "--format", "mermaid"}},
	{"inline.txt", []string{"--setup", "testdata/simulate/inline.json"}},
	{"inline.md", []string{"--format=mermaid", "testdata/simulate/inline.json"}},
	{"sweep-shard.txt", []string{"--shard", "0/2", "testdata/simulate-sweep"}},
}

func TestSimulateGolden(t *testing.T) {
	for _, g := range simulateGoldens {
		t.Run(g.name, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", "simulate", "golden", g.name), transcript("simulate", g.args, ""))
		})
	}
}

// checkGolden compares got with the golden file at path, or rewrites the
// file under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("output differs from %s (-want +got; go test -update rewrites it):\n%s", path, d)
	}
}

// transcript runs podsem COMMAND with args and returns what it printed,
// in the form the golden files hold: the command line, stdout, stderr and
// the exit status.
func transcript(command string, args []string, stdin string) string {
	var out, errb bytes.Buffer
	code := run(append([]string{command}, args...), strings.NewReader(stdin), &out, &errb)
	var b strings.Builder
	fmt.Fprintf(&b, "$ podsem %s %s\n%s", command, strings.Join(args, " "), out.String())
	if errb.Len() > 0 {
		fmt.Fprintf(&b, "--- stderr\n%s", errb.String())
	}
	fmt.Fprintf(&b, "--- exit %d\n", code)
	return b.String()
}

func runSimulateCmd(args []string, stdin string, stdout, stderr *bytes.Buffer) int {
	return run(append([]string{"simulate"}, args...), strings.NewReader(stdin), stdout, stderr)
}

// The json output is the issue's: one object per line with offset (a
// number), time (RFC 3339), component, type, reason, object and message,
// then one {"final": List} line whose every item has its apiVersion and
// kind and decodes with api.Decode.
func TestSimulateJSONLines(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runSimulateCmd([]string{"-o", "json", "testdata/simulate/drain.yaml"}, "", &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for i, l := range lines[:len(lines)-1] {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if _, ok := rec["offset"].(float64); !ok {
			t.Errorf("line %d: offset %v is no number", i+1, rec["offset"])
		}
		for _, k := range []string{"time", "component", "type", "reason", "object", "message"} {
			if _, ok := rec[k].(string); !ok {
				t.Errorf("line %d: %s missing or no string: %s", i+1, k, l)
			}
		}
	}
	var final struct {
		Final struct {
			APIVersion string            `json:"apiVersion"`
			Kind       string            `json:"kind"`
			Items      []json.RawMessage `json:"items"`
		} `json:"final"`
	}
	last := lines[len(lines)-1]
	if err := json.Unmarshal([]byte(last), &final); err != nil || final.Final.Kind != "List" || final.Final.APIVersion != "v1" {
		t.Fatalf("last line is no {\"final\": List}: %.200s (%v)", last, err)
	}
	kinds := map[string]int{}
	for i, it := range final.Final.Items {
		var tm api.TypeMeta
		if err := json.Unmarshal(it, &tm); err != nil || tm.APIVersion == "" || tm.Kind == "" {
			t.Errorf("items[%d] lacks apiVersion or kind: %.120s", i, it)
		}
		objs, err := api.DecodeAll(it)
		if err != nil || len(objs) != 1 {
			t.Errorf("items[%d] does not decode: %v", i, err)
		}
		kinds[tm.Kind]++
	}
	if kinds["Pod"] != 4 || kinds["Node"] != 2 || kinds["ReplicaSet"] != 1 {
		t.Errorf("final objects by kind %v, want 4 pods, 2 nodes, 1 ReplicaSet", kinds)
	}
}

// Every kind package api decodes has the apiVersion the final List
// gives the objects a controller created without one.
func TestFinalAPIVersions(t *testing.T) {
	for _, k := range []string{"Pod", "Node", "Namespace", "PodDisruptionBudget", "PriorityClass", "Eviction",
		"Service", "Deployment", "ReplicaSet", "StatefulSet", "ControllerRevision", "ReplicationController",
		"DaemonSet", "Job", "PersistentVolumeClaim", "PersistentVolume", "StorageClass", "CSINode", "CSIDriver"} {
		objs, err := api.Decode([]byte(`{"kind":"` + k + `"}`))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		var b bytes.Buffer
		if err := writeFinal(&b, objs); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// A scenario read on standard input runs as the same file does; its
// includes are relative to the working directory.
func TestSimulateStdin(t *testing.T) {
	data, err := os.ReadFile("testdata/simulate/inline.json")
	if err != nil {
		t.Fatal(err)
	}
	var fromFile, fromStdin, e1, e2 bytes.Buffer
	runSimulateCmd([]string{"testdata/simulate/inline.json"}, "", &fromFile, &e1)
	runSimulateCmd([]string{"-"}, string(data), &fromStdin, &e2)
	want := strings.Replace(fromFile.String(), "testdata/simulate/inline.json", "-", 1)
	if d := cmp.Diff(want, fromStdin.String()); d != "" {
		t.Errorf("stdin differs from the file (-file +stdin):\n%s", d)
	}
}

// Bad input gets one message naming the file and the field or value, exit
// 1; a bad flag or --shard is a usage error, exit 2. Nothing panics.
func TestSimulateErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nodes := write("nodes.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
	for _, tc := range []struct {
		name   string
		args   []string
		env    string // JOB_COMPLETION_INDEX
		code   int
		stderr []string
	}{
		{name: "missing file", args: []string{filepath.Join(dir, "nope.yaml")}, code: 1,
			stderr: []string{"nope.yaml: no such file or directory"}},
		{name: "missing include", args: []string{write("inc.yaml", "include: [gone.yaml]\n")}, code: 1,
			stderr: []string{`inc.yaml: line 1: include[0]: "gone.yaml": no such file or directory`}},
		{name: "include not a list", args: []string{write("inc2.yaml", "include: {a: b}\n")}, code: 1,
			stderr: []string{`inc2.yaml: line 1: include: {"a":"b"}: want a list of file names`}},
		{name: "bad include object", args: []string{
			write("badobj.yaml", "include: [badpod.yaml]\n"),
		}, code: 1, stderr: []string{`badobj.yaml: include: `, `badpod.yaml: Pod p (document 1): spec.containers[0].resources.requests.cpu: "lots": `}},
		{name: "bad YAML", args: []string{write("bad.yaml", "actions:\n- {at: 1s, cordon: n1\n")}, code: 1,
			stderr: []string{"bad.yaml: line 2: did not find expected ',' or '}'"}},
		{name: "bad JSON", args: []string{write("bad.json", `{"actions": [}`)}, code: 1,
			stderr: []string{"bad.json: line 1: invalid character '}'"}},
		{name: "unknown action", args: []string{write("unknown.yaml", "actions:\n- {at: 1s, cordon: n1}\n- {at: 2s, explode: n1}\n")}, code: 1,
			stderr: []string{"unknown.yaml: line 3: unknown action explode: actions[1]: no action: want one of [apply"}},
		{name: "two actions", args: []string{write("two.yaml", "actions:\n- {at: 1s, cordon: n1, drain: n1}\n")}, code: 1,
			stderr: []string{"two.yaml: line 2: actions[0]: more than one action"}},
		{name: "bad at", args: []string{write("at.yaml", "actions:\n- {at: soon, cordon: n1}\n")}, code: 1,
			stderr: []string{`at.yaml: line 2: actions[0]: at: "soon": not a duration`}},
		{name: "bad until", args: []string{write("until.yaml", "until: -5s\n")}, code: 1,
			stderr: []string{`until.yaml: line 1: until: "-5s": negative`}},
		{name: "bad inline object", args: []string{write("obj.yaml", "objects:\n- {kind: Widget, metadata: {name: w}}\n")}, code: 1,
			stderr: []string{"obj.yaml: line 2: objects[0]: ", `unknown kind "Widget"`}},
		{name: "object file", args: []string{nodes}, code: 1,
			stderr: []string{`nodes.yaml: kind "Node": a file of Kubernetes objects, not a scenario`}},
		{name: "two documents", args: []string{write("docs.yaml", "until: 1m\n---\nuntil: 2m\n")}, code: 1,
			stderr: []string{"docs.yaml: 2 YAML documents: want one scenario"}},
		{name: "not a mapping", args: []string{write("list.yaml", "- a\n- b\n")}, code: 1,
			stderr: []string{`list.yaml: ["a","b"]: a scenario must be a mapping of include, objects, actions, until, config`}},
		{name: "empty", args: []string{write("empty.yaml", "# nothing\n")}, code: 1,
			stderr: []string{"empty.yaml: empty: no scenario in it"}},
		{name: "bad config", args: []string{write("config.yaml", "config: {pod-start-latency: slow}\n")}, code: 1,
			stderr: []string{"config.yaml: ", "config pod-start-latency", "slow"}},
		{name: "unknown field noted", args: []string{write("field.yaml", "until: 1s\nactoins: []\n")}, code: 0,
			stderr: []string{`note: ` + filepath.Join(dir, "field.yaml") + `: line 2: field "actoins" is not a scenario field`}},
		{name: "bad format", args: []string{"--format", "svg", nodes}, code: 2,
			stderr: []string{`podsem simulate: --format "svg": want text, json or mermaid`}},
		{name: "bad start", args: []string{"--start", "noon", nodes}, code: 2,
			stderr: []string{`podsem simulate: --start "noon": want an RFC 3339 time`}},
		{name: "unknown flag", args: []string{"--nope", nodes}, code: 2,
			stderr: []string{"flag provided but not defined: -nope", "usage: podsem simulate"}},
		{name: "no argument", code: 2, stderr: []string{"want one SCENARIO file or DIRECTORY, got 0 arguments"}},
		{name: "two arguments", args: []string{nodes, nodes}, code: 2, stderr: []string{"got 2 arguments"}},
		{name: "shard of a file", args: []string{"--shard", "0/2", nodes}, code: 2,
			stderr: []string{`--shard "0/2": ` + nodes + ` is no directory`}},
		{name: "shard no slash", args: []string{"--shard", "2", dir}, code: 2,
			stderr: []string{`--shard "2": want I/N (0 ≤ I < N), or /N with I from $JOB_COMPLETION_INDEX`}},
		{name: "shard index too big", args: []string{"--shard", "3/3", dir}, code: 2,
			stderr: []string{`--shard "3/3": I "3": want a whole number from 0 to 2`}},
		{name: "shard zero", args: []string{"--shard", "0/0", dir}, code: 2,
			stderr: []string{`--shard "0/0": N "0": want a whole number ≥ 1`}},
		{name: "shard negative", args: []string{"--shard", "-1/2", dir}, code: 2,
			stderr: []string{`--shard "-1/2": I "-1": want a whole number from 0 to 1`}},
		{name: "shard index unset", args: []string{"--shard", "/2", dir}, code: 2,
			stderr: []string{`--shard "/2": $JOB_COMPLETION_INDEX is not set: give I/N`}},
		{name: "shard index bad", args: []string{"--shard", "/2", dir}, env: "two", code: 2,
			stderr: []string{`--shard "/2": $JOB_COMPLETION_INDEX "two": want a whole number from 0 to 1`}},
		{name: "merge with shard", args: []string{"--merge", "--shard", "0/2"}, code: 2,
			stderr: []string{"--merge takes no --shard or --out-dir"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write("badpod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: lots}}\n")
			t.Setenv(jobCompletionIndex, tc.env)
			var out, errb bytes.Buffer
			code := runSimulateCmd(tc.args, "", &out, &errb)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errb.String())
			}
			for _, w := range tc.stderr {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr = %q, want it to hold %q", errb.String(), w)
				}
			}
		})
	}
}
