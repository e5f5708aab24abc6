// Command explain reads Kubernetes manifests as people have them — `kubectl
// get -o json` or `-o yaml` output, single objects or Lists, multi-document
// YAML files from a repository — and explains every pod in them with
// podsem's rules:
//
//   - validation: what the API server would reject on create (field, value,
//     rule), after v1 defaulting and the Priority admission plugin;
//   - effective requests and limits, QoS class and priority;
//   - phase, kubelet conditions and the `kubectl get pods` line of the pod
//     as read;
//   - its life on a happy path through the kubelet's pod state machine;
//   - the probe schedule (when each probe first runs, when the container
//     counts as started or ready, when failing probes kill it);
//   - the termination timeline of a plain `kubectl delete pod`;
//   - its downward API environment and volume files;
//   - when nodes are read too: on which node kube-scheduler would put it,
//     why not elsewhere, and whom it would preempt;
//   - whether the Eviction API would let it be evicted now, with the
//     PodDisruptionBudgets read.
//
// Usage:
//
//	go run ./examples/explain [--format text|mermaid] [--at TIME] [--cluster FILE]... [FILE|-]...
//
// Pods in the FILE arguments are explained; every object read, from FILE
// arguments and --cluster files alike, is the cluster they meet (nodes,
// pods already bound to nodes, PodDisruptionBudgets, PriorityClasses,
// Namespaces, Services and workload controllers, and ConfigMaps and
// Secrets for environment lookups). Objects without a namespace are in
// "default". With no FILE the embedded sample is explained: the pod
// sample/pod.yaml in the cluster sample/cluster.yaml (or in the --cluster
// files, when some are given).
//
// --at pins "now" (RFC 3339, or "now" for the wall clock). It defaults to
// 2025-06-01T12:00:00Z, so that the output of the same files is the same
// every time.
//
// --format mermaid prints Markdown with Mermaid diagrams instead, which
// GitHub and most Markdown viewers draw: the pod's lifecycle as a state
// diagram, the probe schedule and the termination timeline as Gantt
// charts, the scheduling answer as a per-zone flowchart of nodes with a
// table of fit, topology spread verdict, skew if placed and score, and the downward API
// values and the eviction answer as tables and text.
//
// Bad input — a file that cannot be read or parsed, an unknown kind, an
// invalid value — gets one line on stderr, "FILE: OBJECT: FIELD: VALUE:
// problem", and everything else is still explained. The exit status is 0
// when all input was good, 1 when some was bad, and 2 for a usage error.
package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
)

//go:embed sample/pod.yaml sample/cluster.yaml
var sample embed.FS

// defaultNow is "now" when --at is not given.
var defaultNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// files is a repeatable flag.
type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(s string) error { *f = append(*f, s); return nil }

// run is the program: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or mermaid")
	at := fs.String("at", defaultNow.Format(time.RFC3339), `the time taken as now (RFC 3339, or "now")`)
	var cluster files
	fs.Var(&cluster, "cluster", "a file of cluster objects (nodes, pods, budgets...) whose pods are not explained; repeatable")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: explain [--format text|mermaid] [--at TIME] [--cluster FILE]... [FILE|-]...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *format != "text" && *format != "mermaid" {
		fmt.Fprintf(stderr, "explain: --format %q: want text or mermaid\n", *format)
		return 2
	}
	now := time.Now().UTC()
	if *at != "now" {
		t, err := time.Parse(time.RFC3339, *at)
		if err != nil {
			fmt.Fprintf(stderr, "explain: --at %q: %v\n", *at, err)
			return 2
		}
		now = t
	}

	in := newInput()
	explained := map[string]bool{} // files whose pods are explained
	readOne := func(name string, data []byte, explain bool) {
		in.read(name, data)
		if explain {
			explained[name] = true
		}
	}
	readPath := func(name string, explain bool) {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			in.errs = append(in.errs, inputError{at: where{file: name}, problem: err.Error()})
			return
		}
		readOne(name, data, explain)
	}
	if fs.NArg() == 0 {
		for _, name := range []string{"sample/pod.yaml", "sample/cluster.yaml"} {
			if name == "sample/cluster.yaml" && len(cluster) > 0 {
				continue
			}
			data, err := sample.ReadFile(name)
			if err != nil {
				fmt.Fprintf(stderr, "explain: the embedded sample: %v\n", err)
				return 2
			}
			readOne(name, data, name == "sample/pod.yaml")
		}
	}
	for _, name := range fs.Args() {
		readPath(name, true)
	}
	for _, name := range cluster {
		readPath(name, false)
	}
	defaultNamespace(in)

	w := newWorld(in, now)
	var out strings.Builder
	var pods []decoded
	for _, d := range in.objects {
		if _, ok := d.obj.(*api.Pod); ok && explained[d.at.file] {
			pods = append(pods, d)
		}
	}
	if *format == "mermaid" {
		fmt.Fprintf(&out, "# explain (at %s)\n\n", now.Format(time.RFC3339))
	} else {
		fmt.Fprintf(&out, "explain: %s, at %s\n\n", summary(in), now.Format(time.RFC3339))
	}
	for _, d := range pods {
		r := w.explain(d.at, d.obj.(*api.Pod))
		if *format == "mermaid" {
			writeMermaid(&out, r)
		} else {
			writeText(&out, r, now)
		}
	}
	if len(pods) == 0 {
		fmt.Fprintf(&out, "%v\n", errNoPods)
	}
	io.WriteString(stdout, out.String())
	for _, e := range in.errs {
		fmt.Fprintln(stderr, e.String())
	}
	if len(in.errs) > 0 {
		return 1
	}
	return 0
}

// summary counts what was read, by kind.
func summary(in *input) string {
	counts := map[string]int{}
	var order []string
	for _, d := range in.objects {
		k := kindOf(d.obj)
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	if n := len(in.configMaps); n > 0 {
		order = append(order, "ConfigMap")
		counts["ConfigMap"] = n
	}
	if n := len(in.secrets); n > 0 {
		order = append(order, "Secret")
		counts["Secret"] = n
	}
	parts := make([]string, 0, len(order))
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	if len(parts) == 0 {
		return "nothing read"
	}
	return "read " + strings.Join(parts, ", ")
}
