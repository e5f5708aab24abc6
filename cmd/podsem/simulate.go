package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/podsem/podsem/cluster"
)

// simulateUsage is `podsem help simulate`: the command's whole manual.
const simulateUsage = `usage: podsem simulate [--format text|json|mermaid] [--start TIME] [--setup] SCENARIO|-
       podsem simulate [flags] [--shard I/N] [--out-dir DIR] DIRECTORY
       podsem simulate --merge [FILE|-]...

Simulate runs a scenario on podsem's whole-cluster state machine (package
cluster: the API server, kube-scheduler, kube-controller-manager's
controllers, one kubelet per node and kubectl drain, each as Kubernetes
v1.36.3 runs it) and prints what happens, in order.

A scenario is a YAML or JSON file:

  include: [cluster.yaml]      # files of objects as kubectl get -A -o yaml|json prints them
  objects: []                  # and/or inline objects
  actions:                     # at offsets from t=0, applied in order (one offset's together)
  - {at: 0s,  drain: node-2}
  - {at: 30s, lose: node-3}
  - {at: 2m,  scale: {ref: Deployment/default/web, replicas: 10}}
  until: 30m
  config: {node-monitor-grace-period: 40s}

include names files relative to the scenario's directory (a List, a
multi-document YAML stream or single objects; kinds the cluster does not
model, ConfigMaps and Secrets are skipped with a note). Their objects come
first, then the inline objects. The objects are created and left to
settle; t=0 is the instant they have. Every action of the cluster package
is accepted (see its documentation); so are its config keys.

Output (--format, or -o):
  text     the timeline: one aligned line per record (offset since t=0,
           component, reason, object, message), then the pods at until
  json     one JSON object per line, the e2e harness's record: {"offset":
           seconds since t=0, "time": RFC 3339, "component", "type",
           "reason", "object", "message", "count", "source"}; after the last,
           one line {"final": List} holding the objects at until as
           kubectl get -o json prints them (apiVersion and kind on every item)
  mermaid  Markdown with a Mermaid Gantt chart of the timeline from t=0
           to until: a section per node (its NotReady and cordoned spans,
           a bar per pod's stay on it from binding to deletion, the
           terminating part apart), a section of pods waiting unscheduled,
           milestones for the actions and for the key events (warnings,
           NodeNotReady, taints, evictions, preemptions, drains; a repeat
           counted, not redrawn)
--setup adds the records from before t=0 (negative offsets). --start is
when the objects are created (RFC 3339; default 2025-06-01T12:00:00Z, so
that the same scenario prints the same bytes every time).

A DIRECTORY runs every scenario in it: its files named *.yaml, *.yml or
*.json (not its subdirectories, nor names starting with a dot; a file of
Kubernetes objects, whose top level has a kind, is not a scenario but one
to include), sorted by name, one after the other. --shard I/N runs only
the I-th of N shares (I from 0): the scenarios whose index in that order
is I modulo N. --shard /N takes I from $JOB_COMPLETION_INDEX, as an
Indexed Job's pod has it. Each scenario's output is what it alone prints,
labelled: with --out-dir, in DIR/<scenario file name>.jsonl (.txt, .md)
per scenario, so that merging shards is copying their files together;
else on standard output, each json line with a leading "scenario" field
(an "error" line for a scenario that fails), each text or Markdown block
under the scenario's name.

--merge reads json outputs of shards (files or "-") and prints them as one
run of the whole directory prints them: each scenario's lines in order,
the scenarios by name. A scenario found twice is an error.

Exit status: 0 when every scenario ran; 1 when a scenario could not be
read or run (its error on standard error, naming the file and the field);
2 for a usage error (a bad flag or flag value, a bad --shard).

Flags:
`

// simulateStart is the default --start: the same as explain's fixed
// clock, so that a scenario's output is the same bytes every time.
var simulateStart = fixedNow

// simulateOptions are simulate's flags.
type simulateOptions struct {
	format string
	start  string
	setup  bool
	shard  string
	outDir string
	merge  bool
}

// simulateFlags returns simulate's flag set, printing its usage and errors
// on out, and the options it sets.
func simulateFlags(out io.Writer) (*flag.FlagSet, *simulateOptions) {
	o := &simulateOptions{}
	fs := flag.NewFlagSet("podsem simulate", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.format, "format", "text", "output format: text, json or mermaid")
	fs.StringVar(&o.format, "o", "text", "the same as --format")
	fs.StringVar(&o.start, "start", "", "when the scenario's objects are created, RFC 3339 (default "+simulateStart.Format(time.RFC3339)+")")
	fs.BoolVar(&o.setup, "setup", false, "also print the records from before t=0, with negative offsets")
	fs.StringVar(&o.shard, "shard", "", "with a DIRECTORY: run its I-th share of N, I/N (from 0), or /N for I from $JOB_COMPLETION_INDEX")
	fs.StringVar(&o.outDir, "out-dir", "", "write each scenario's output to a file of this directory instead of standard output")
	fs.BoolVar(&o.merge, "merge", false, "merge the json outputs of shards (files or -) into one run's")
	fs.Usage = func() {
		io.WriteString(out, simulateUsage)
		fs.PrintDefaults()
	}
	return fs, o
}

// runSimulate is the simulate command: it returns the exit status.
func runSimulate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, opts := simulateFlags(stderr)
	names, status, ok := parseCommand(fs, args)
	if !ok {
		return status
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "podsem simulate: "+format+"\n", a...)
		return 2
	}
	switch opts.format {
	case "text", "json", "mermaid":
	default:
		return usageErr("--format %q: want text, json or mermaid", opts.format)
	}
	start := simulateStart
	if opts.start != "" {
		t, err := time.Parse(time.RFC3339, opts.start)
		if err != nil {
			return usageErr("--start %q: want an RFC 3339 time: %v", opts.start, err)
		}
		start = t
	}
	if opts.merge {
		if opts.shard != "" || opts.outDir != "" {
			return usageErr("--merge takes no --shard or --out-dir")
		}
		if len(names) == 0 {
			names = []string{"-"}
		}
		return runMerge(names, stdin, stdout, stderr)
	}
	if len(names) != 1 {
		return usageErr("want one SCENARIO file or DIRECTORY, got %d arguments (podsem help simulate)", len(names))
	}
	r := &simulation{opts: opts, start: start, stdout: stdout, stderr: stderr}
	if fi, err := os.Stat(names[0]); err == nil && fi.IsDir() {
		sh, err := parseShard(opts.shard, os.Getenv)
		if err != nil {
			return usageErr("%v", err)
		}
		return r.directory(names[0], sh)
	}
	if opts.shard != "" {
		return usageErr("--shard %q: %s is no directory: a shard is a share of a directory's scenarios", opts.shard, names[0])
	}
	return r.file(names[0], stdin)
}

// simulation is one invocation's settings and streams.
type simulation struct {
	opts           *simulateOptions
	start          time.Time
	stdout, stderr io.Writer
}

// outcome is one scenario simulated: its output as it alone prints it,
// and its error, if reading or running it failed.
type outcome struct {
	out []byte
	err error
}

// simulate reads and runs one scenario and renders it. Notes go to
// standard error at once.
func (r *simulation) simulate(name string, stdin io.Reader) outcome {
	ls, err := readScenarioPath(name, stdin)
	if err != nil {
		return outcome{err: err}
	}
	for _, n := range ls.notes {
		fmt.Fprintf(r.stderr, "podsem simulate: note: %s\n", n)
	}
	res, runErr := cluster.Run(ls.sc, r.start)
	if runErr != nil {
		runErr = fmt.Errorf("%s: %s%s", name, lineOfError(ls.root, nil, runErr), parseProblem(runErr))
		if len(res.Setup) == 0 && len(res.Records) == 0 {
			// Refused before anything happened (a bad config value):
			// bad input, with nothing to show.
			return outcome{err: runErr}
		}
	}
	var b bytes.Buffer
	if err := render(&b, r.opts.format, name, ls.sc, res, r.opts.setup, runErr); err != nil {
		return outcome{out: b.Bytes(), err: fmt.Errorf("%s: %w", name, err)}
	}
	return outcome{out: b.Bytes(), err: runErr}
}

// file simulates one scenario file.
func (r *simulation) file(name string, stdin io.Reader) int {
	o := r.simulate(name, stdin)
	if r.opts.outDir != "" && name != "-" {
		if err := r.writeOut(filepath.Base(name), o.out); err != nil {
			fmt.Fprintf(r.stderr, "podsem simulate: %v\n", err)
			return 1
		}
	} else {
		r.stdout.Write(o.out)
	}
	if o.err != nil {
		fmt.Fprintf(r.stderr, "podsem simulate: %v\n", o.err)
		return 1
	}
	return 0
}

// outExt is the file extension of a format's output in --out-dir.
var outExt = map[string]string{"text": ".txt", "json": ".jsonl", "mermaid": ".md"}

// writeOut writes a scenario's output to --out-dir, named after the
// scenario file.
func (r *simulation) writeOut(base string, out []byte) error {
	if err := os.MkdirAll(r.opts.outDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.opts.outDir, base+outExt[r.opts.format]), out, 0o644)
}

// directory simulates the scenarios of dir in share sh.
func (r *simulation) directory(dir string, sh shard) int {
	names, notes, err := listScenarios(dir)
	if err != nil {
		fmt.Fprintf(r.stderr, "podsem simulate: %v\n", err)
		return 1
	}
	for _, n := range notes {
		fmt.Fprintf(r.stderr, "podsem simulate: note: %s\n", n)
	}
	code := 0
	for _, base := range sh.of(names) {
		o := r.simulate(filepath.Join(dir, base), nil)
		if o.err != nil {
			fmt.Fprintf(r.stderr, "podsem simulate: %v\n", o.err)
			code = 1
		}
		if r.opts.outDir != "" {
			if err := r.writeOut(base, o.out); err != nil {
				fmt.Fprintf(r.stderr, "podsem simulate: %v\n", err)
				code = 1
			}
			continue
		}
		r.stdout.Write(labelled(r.opts.format, base, o))
	}
	return code
}

// labelled is a scenario's output in a directory's stream: json lines
// with a leading "scenario" field (and an "error" line when it failed),
// a text block under "== NAME", Markdown under its own heading (which
// names the scenario) or, for an error, under "# NAME".
func labelled(format, base string, o outcome) []byte {
	var b bytes.Buffer
	switch format {
	case "json":
		prefix := []byte(`{"scenario":` + jsonString(base) + `,`)
		for _, line := range bytes.SplitAfter(o.out, []byte("\n")) {
			if len(line) < 2 || line[0] != '{' {
				continue
			}
			b.Write(prefix)
			b.Write(line[1:])
		}
		if o.err != nil {
			fmt.Fprintf(&b, "{\"scenario\":%s,\"error\":%s}\n", jsonString(base), jsonString(o.err.Error()))
		}
	case "text":
		fmt.Fprintf(&b, "== %s\n", base)
		b.Write(o.out)
		if o.err != nil {
			fmt.Fprintf(&b, "error: %v\n", o.err)
		}
		b.WriteString("\n")
	default:
		if len(o.out) == 0 {
			fmt.Fprintf(&b, "# %s\n\n", mdEscape(base))
		}
		b.Write(o.out)
		if o.err != nil {
			fmt.Fprintf(&b, "> error: %s\n\n", mdEscape(o.err.Error()))
		}
	}
	return b.Bytes()
}

// listScenarios lists a directory's scenario files by name: regular files
// (or links to them, as a ConfigMap volume holds them) named *.yaml, *.yml
// or *.json, not starting with a dot; a file of Kubernetes objects (its
// top level has a kind) is left out with a note, as one to include.
func listScenarios(dir string) ([]string, []string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, unwrapPath(err))
	}
	var names, notes []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".yaml", ".yml", ".json":
		default:
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			if _, _, err := scenarioTop(data); errors.Is(err, errObjectFile) {
				notes = append(notes, fmt.Sprintf("%s: skipped: %v", path, err))
				continue
			}
		}
		names = append(names, name)
	}
	return names, notes, nil
}
