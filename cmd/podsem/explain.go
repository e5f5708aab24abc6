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

// files is a repeatable flag.
type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(s string) error { *f = append(*f, s); return nil }

// explainOptions are explain's flags.
type explainOptions struct {
	format  string
	at      string
	cluster files
}

// explainFlags returns explain's flag set, which prints its usage and
// errors on out, and the options it sets.
func explainFlags(out io.Writer) (*flag.FlagSet, *explainOptions) {
	o := &explainOptions{}
	fs := flag.NewFlagSet("podsem explain", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.format, "format", "text", "output format: text or mermaid")
	fs.StringVar(&o.at, "at", defaultNow.Format(time.RFC3339), `the time taken as now (RFC 3339, or "now")`)
	fs.Var(&o.cluster, "cluster", "a file of cluster objects (nodes, pods, budgets...) whose pods are not explained; repeatable")
	fs.Usage = func() {
		fmt.Fprintln(out, "usage: podsem explain [--format text|mermaid] [--at TIME] [--cluster FILE]... [FILE|-]...")
		fs.PrintDefaults()
	}
	return fs, o
}

// runExplain is the explain command (see the package doc): it returns the
// exit status.
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, opts := explainFlags(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if opts.format != "text" && opts.format != "mermaid" {
		fmt.Fprintf(stderr, "podsem explain: --format %q: want text or mermaid\n", opts.format)
		return 2
	}
	now := time.Now().UTC()
	if opts.at != "now" {
		t, err := time.Parse(time.RFC3339, opts.at)
		if err != nil {
			fmt.Fprintf(stderr, "podsem explain: --at %q: %v\n", opts.at, err)
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
			if name == "sample/cluster.yaml" && len(opts.cluster) > 0 {
				continue
			}
			data, err := sample.ReadFile(name)
			if err != nil {
				fmt.Fprintf(stderr, "podsem explain: the embedded sample: %v\n", err)
				return 2
			}
			readOne(name, data, name == "sample/pod.yaml")
		}
	}
	for _, name := range fs.Args() {
		readPath(name, true)
	}
	for _, name := range opts.cluster {
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
	if opts.format == "mermaid" {
		fmt.Fprintf(&out, "# explain (at %s)\n\n", now.Format(time.RFC3339))
	} else {
		fmt.Fprintf(&out, "explain: %s, at %s\n\n", summary(in), now.Format(time.RFC3339))
	}
	for _, d := range pods {
		r := w.explain(d.at, d.obj.(*api.Pod))
		if opts.format == "mermaid" {
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
