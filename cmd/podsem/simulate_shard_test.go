package main

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// sweep is a directory of small scenarios: four that run, one refused (a
// misspelt action: its error is a line of the output too), a file of
// objects left out, and the objects they include in a subdirectory.
const sweep = "testdata/simulate-sweep"

// simulateOut runs podsem simulate and returns stdout and the exit status.
func simulateOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runSimulateCmd(args, "", &out, &errb)
	if code == 2 {
		t.Fatalf("podsem simulate %v: usage error: %s", args, errb.String())
	}
	return out.String(), code
}

// The n shards' outputs together equal one run's, for n = 1..4: merged
// with --merge (the json streams), and as the files of --out-dir copied
// together. Every scenario is in exactly one share.
func TestShardsEqualOneRun(t *testing.T) {
	want, code := simulateOut(t, "-o", "json", sweep)
	if code != 1 {
		t.Errorf("the sweep exits %d, want 1 (one scenario is refused)", code)
	}
	scenarios := scenarioNames(t, want)
	if strings.Join(scenarios, " ") != "a-scale.yaml b-cordon.json c-drain.yaml d-lose.yaml e-misspelt.yaml" {
		t.Fatalf("one run holds scenarios %v", scenarios)
	}
	wantDir := t.TempDir()
	simulateOut(t, "-o", "json", "--out-dir", wantDir, sweep)
	wantFiles := readDir(t, wantDir)
	for n := 1; n <= 4; n++ {
		dir := t.TempDir()
		merged := t.TempDir()
		var shardFiles []string
		seen := map[string]int{}
		for i := range n {
			out, _ := simulateOut(t, "-o", "json", "--shard", fmt.Sprintf("%d/%d", i, n), sweep)
			for _, s := range scenarioNames(t, out) {
				seen[s]++
				if k := slices.Index(scenarios, s); k%n != i {
					t.Errorf("n=%d: scenario %s (index %d) ran in share %d", n, s, k, i)
				}
			}
			f := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			// Shares given in reverse order merge the same way.
			shardFiles = append([]string{f}, shardFiles...)
			simulateOut(t, "-o", "json", "--shard", fmt.Sprintf("%d/%d", i, n), "--out-dir", merged, sweep)
		}
		for _, s := range scenarios {
			if seen[s] != 1 {
				t.Errorf("n=%d: scenario %s ran %d times", n, s, seen[s])
			}
		}
		got, code := simulateOut(t, append([]string{"--merge"}, shardFiles...)...)
		if code != 0 {
			t.Errorf("n=%d: --merge exits %d", n, code)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("n=%d: merged shards differ from one run (-one +merged):\n%s", n, d)
		}
		if d := cmp.Diff(wantFiles, readDir(t, merged)); d != "" {
			t.Errorf("n=%d: --out-dir files of the shards differ from one run's (-one +shards):\n%s", n, d)
		}
	}
}

// scenarioNames lists the scenarios of a json stream, in order.
func scenarioNames(t *testing.T, out string) []string {
	t.Helper()
	var names []string
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(l, `{"scenario":"`), `"`)
		if len(names) == 0 || names[len(names)-1] != name {
			names = append(names, name)
		}
	}
	return names
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	return files
}

// Each --out-dir file is what the scenario alone prints, in every format;
// the directory's stream labels it.
func TestOutDirFileIsTheScenarioAlone(t *testing.T) {
	for _, format := range []string{"text", "json", "mermaid"} {
		dir := t.TempDir()
		simulateOut(t, "--format", format, "--out-dir", dir, sweep)
		files := readDir(t, dir)
		ext := outExt[format]
		if len(files) != 5 {
			t.Errorf("%s: %d files, want 5: %v", format, len(files), slices.Sorted(maps.Keys(files)))
		}
		for _, s := range []string{"a-scale.yaml", "c-drain.yaml"} {
			alone, code := simulateOut(t, "--format", format, filepath.Join(sweep, s))
			if code != 0 {
				t.Errorf("%s %s: exit %d", format, s, code)
			}
			if d := cmp.Diff(alone, files[s+ext]); d != "" {
				t.Errorf("%s: %s%s differs from the scenario run alone (-alone +file):\n%s", format, s, ext, d)
			}
		}
		if files["e-misspelt.yaml"+ext] != "" {
			t.Errorf("%s: the refused scenario's file holds %q", format, files["e-misspelt.yaml"+ext])
		}
	}
}

// --shard /N reads I from $JOB_COMPLETION_INDEX, as an Indexed Job's pod
// has it; an explicit I/N ignores the variable.
func TestShardFromJobCompletionIndex(t *testing.T) {
	want, _ := simulateOut(t, "-o", "json", "--shard", "1/3", sweep)
	t.Setenv(jobCompletionIndex, "1")
	got, _ := simulateOut(t, "-o", "json", "--shard", "/3", sweep)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("--shard /3 with index 1 differs from --shard 1/3:\n%s", d)
	}
	other, _ := simulateOut(t, "-o", "json", "--shard", "0/3", sweep)
	if other == got {
		t.Errorf("--shard 0/3 followed $%s", jobCompletionIndex)
	}
}

func TestParseShard(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	for _, tc := range []struct {
		flag, env string
		want      shard
		err       string
	}{
		{flag: "", want: shard{0, 1}},
		{flag: "0/1", want: shard{0, 1}},
		{flag: "2/4", want: shard{2, 4}},
		{flag: "2/4", env: "3", want: shard{2, 4}},
		{flag: "/4", env: "3", want: shard{3, 4}},
		{flag: "/4", env: "4", err: `$JOB_COMPLETION_INDEX "4": want a whole number from 0 to 3`},
		{flag: "/4", err: "$JOB_COMPLETION_INDEX is not set"},
		{flag: "4/4", err: `I "4": want a whole number from 0 to 3`},
		{flag: "a/4", err: `I "a"`},
		{flag: "1/b", err: `N "b": want a whole number ≥ 1`},
		{flag: "1/-2", err: `N "-2"`},
		{flag: "1/2/3", err: `N "2/3"`},
		{flag: "1", err: "want I/N"},
	} {
		got, err := parseShard(tc.flag, env(tc.env))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("parseShard(%q, %q) = %v, %v; want error %q", tc.flag, tc.env, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("parseShard(%q, %q) = %v, %v; want %v", tc.flag, tc.env, got, err, tc.want)
		}
	}
}

// --merge regroups lines of shards that came interleaved (as kubectl logs
// of several pods may give them), and refuses a share given twice, a
// line of another command, a scenario without its result.
func TestMerge(t *testing.T) {
	one, _ := simulateOut(t, "-o", "json", sweep)
	s0, _ := simulateOut(t, "-o", "json", "--shard", "0/2", sweep)
	s1, _ := simulateOut(t, "-o", "json", "--shard", "1/2", sweep)
	a := strings.SplitAfter(s0, "\n")
	b := strings.SplitAfter(s1, "\n")
	var mixed strings.Builder
	for len(a) > 0 || len(b) > 0 {
		for k := 0; k < 3 && len(a) > 0; k++ {
			mixed.WriteString(a[0])
			a = a[1:]
		}
		for k := 0; k < 2 && len(b) > 0; k++ {
			mixed.WriteString(b[0])
			b = b[1:]
		}
	}
	var out, errb bytes.Buffer
	if code := runSimulateCmd([]string{"--merge"}, mixed.String(), &out, &errb); code != 0 {
		t.Errorf("--merge of interleaved shards: exit %d: %s", code, errb.String())
	}
	if d := cmp.Diff(one, out.String()); d != "" {
		t.Errorf("interleaved shards merge differently (-one +merged):\n%s", d)
	}
	for _, tc := range []struct {
		name, in, err string
	}{
		{"twice", s0 + s0, `has a result already (in - line`},
		{"foreign line", `{"offset": 1}` + "\n", `line 1: not a line of`},
		{"not json", "hello\n", `line 1: not a line of`},
		{"cut short", strings.Join(strings.SplitAfter(s1, "\n")[:3], ""), `has no result`},
	} {
		var out, errb bytes.Buffer
		if code := runSimulateCmd([]string{"--merge", "-"}, tc.in, &out, &errb); code != 1 || !strings.Contains(errb.String(), tc.err) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", tc.name, code, errb.String(), tc.err)
		}
	}
	var errb2 bytes.Buffer
	if code := runSimulateCmd([]string{"--merge", filepath.Join(t.TempDir(), "none.jsonl")}, "", &out, &errb2); code != 1 ||
		!strings.Contains(errb2.String(), "none.jsonl: no such file or directory") {
		t.Errorf("missing merge input: exit %d, stderr %q", code, errb2.String())
	}
}

// A ConfigMap volume holds each key as a link into a hidden directory
// (..data): the links are the scenarios, the hidden entries are not.
func TestListScenariosConfigMapVolume(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "..2026_11_27_08_00_00.000000001")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"b.yaml":     "until: 1s\n",
		"a.json":     `{"until": "1s"}`,
		"notes.txt":  "not a scenario",
		"nodes.yaml": "kind: List\nitems: []\n",
	} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Base(data), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b.yaml", "a.json", "notes.txt", "nodes.yaml"} {
		if err := os.Symlink(filepath.Join("..data", name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	names, notes, err := listScenarios(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != "a.json b.yaml" {
		t.Errorf("scenarios %v, want [a.json b.yaml]", names)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `nodes.yaml: skipped: kind "List"`) {
		t.Errorf("notes %q, want one about nodes.yaml", notes)
	}
}

// The N shares of any list of scenarios are disjoint, keep the list's
// order and together hold every scenario; share sizes differ by at most
// one (index modulo N balances them).
func TestPropertySharesPartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfDistinct(rapid.StringMatching(`[a-z]{1,6}\.yaml`), rapid.ID[string]).Draw(t, "names")
		slices.Sort(names)
		n := rapid.IntRange(1, 12).Draw(t, "n")
		var all []string
		sizes := map[int]bool{}
		for i := range n {
			share := shard{i, n}.of(names)
			sizes[len(share)] = true
			if !slices.IsSorted(share) {
				t.Fatalf("share %d/%d out of order: %v", i, n, share)
			}
			all = append(all, share...)
		}
		slices.Sort(all)
		if !slices.Equal(all, names) {
			t.Fatalf("shares of %d hold %v, want %v", n, all, names)
		}
		lo, hi := len(names), 0
		for s := range sizes {
			lo, hi = min(lo, s), max(hi, s)
		}
		if hi-lo > 1 {
			t.Fatalf("share sizes %v differ by more than one", sizes)
		}
	})
}
