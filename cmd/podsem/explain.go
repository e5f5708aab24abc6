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
)

//go:embed sample/pod.yaml sample/cluster.yaml
var sample embed.FS

// fixedNow is "now" when --at is not given and nothing was read from a
// cluster: manifests (and the embedded sample) explain the same way every
// time.
var fixedNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// files is a repeatable flag.
type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(s string) error { *f = append(*f, s); return nil }

// explainOptions are explain's flags.
type explainOptions struct {
	format  string
	at      string
	cluster files
	pod     string
}

// explainFlags returns explain's flag set, which prints its usage and
// errors on out, and the options it sets.
func explainFlags(out io.Writer) (*flag.FlagSet, *explainOptions) {
	o := &explainOptions{}
	fs := flag.NewFlagSet("podsem explain", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.format, "format", "text", "output format: text or mermaid")
	fs.StringVar(&o.at, "at", "", `the time taken as now (RFC 3339, or "now"); default: the current time when objects read come from a cluster, else `+fixedNow.Format(time.RFC3339))
	fs.StringVar(&o.pod, "pod", "", "explain only this pod, NAMESPACE/NAME (or NAME in default), of the objects read")
	fs.Var(&o.cluster, "cluster", "a file of cluster objects (nodes, pods, budgets...) whose pods and workloads are not explained; repeatable")
	fs.Usage = func() {
		fmt.Fprintln(out, "usage: podsem explain [--format text|mermaid] [--at TIME] [--pod NS/NAME] [--cluster FILE]... [FILE|-]...")
		fs.PrintDefaults()
	}
	return fs, o
}

// runExplain is the explain command (see the package doc): it returns the
// exit status.
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, opts := explainFlags(stderr)
	names, status, ok := parseCommand(fs, args)
	if !ok {
		return status
	}
	if opts.format != "text" && opts.format != "mermaid" {
		fmt.Fprintf(stderr, "podsem explain: --format %q: want text or mermaid\n", opts.format)
		return 2
	}
	var at time.Time
	switch opts.at {
	case "", "now":
	default:
		t, err := time.Parse(time.RFC3339, opts.at)
		if err != nil {
			fmt.Fprintf(stderr, "podsem explain: --at %q: %v\n", opts.at, err)
			return 2
		}
		at = t
	}

	in := newInput()
	explained := map[string]bool{} // files whose pods and workloads are explained
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
	sampleOnly := len(names) == 0
	if sampleOnly {
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
	for _, name := range names {
		readPath(name, true)
	}
	for _, name := range opts.cluster {
		readPath(name, false)
	}
	defaultNamespace(in)

	now, clock := chooseClock(opts.at, at, in, sampleOnly, time.Now)
	w := newWorld(in, now)
	subjects := w.subjects(in, explained)
	if opts.pod != "" {
		one, err := selectPod(subjects, opts.pod)
		if err != nil {
			fmt.Fprintf(stderr, "podsem explain: --pod %s: %v\n", opts.pod, err)
			return 1
		}
		subjects = one
	}

	var out strings.Builder
	if opts.format == "mermaid" {
		fmt.Fprintf(&out, "# explain (at %s, %s)\n\n", now.Format(time.RFC3339), clock)
		for _, n := range in.notes() {
			fmt.Fprintf(&out, "> %s\n\n", mdEscape(n))
		}
	} else {
		fmt.Fprintf(&out, "explain: %s, at %s (%s)\n", summary(in), now.Format(time.RFC3339), clock)
		for _, n := range in.notes() {
			fmt.Fprintf(&out, "note: %s\n", n)
		}
		out.WriteString("\n")
	}
	for _, s := range subjects {
		switch {
		case s.workload != nil:
			r := w.explainWorkload(s.at, s.workload)
			if opts.format == "mermaid" {
				writeWorkloadMermaid(&out, r)
			} else {
				writeWorkloadText(&out, r)
			}
		default:
			r := w.explain(s.at, s.pod)
			if opts.format == "mermaid" {
				writeMermaid(&out, r)
			} else {
				writeText(&out, r, now)
			}
		}
	}
	if len(subjects) == 0 {
		fmt.Fprintf(&out, "%v\n", errNothingToExplain)
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

// parseInterspersed parses args as fs's flags mixed with file names, as
// `podsem explain cluster.yaml --pod shop/web-0` is typed; "--" ends the
// flags. It returns the file names in order.
// parseCommand parses a command's arguments (parseInterspersed); when
// they cannot run the command it says with which exit status: 0 after
// -h (the usage printed), 2 for a bad flag (the flag package printed the
// error and the usage).
func parseCommand(fs *flag.FlagSet, args []string) (names []string, status int, ok bool) {
	names, err := parseInterspersed(fs, args)
	switch {
	case err == nil:
		return names, 0, true
	case errors.Is(err, flag.ErrHelp):
		return nil, 0, false
	}
	return nil, 2, false
}

func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return names, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(names, rest...), nil
		}
		names = append(names, rest[0])
		args = rest[1:]
	}
}

// chooseClock returns "now" and says where it comes from: --at when it
// names a time (at), the current time for --at now or when objects read
// come from a cluster (their ages and timestamps are real), else a fixed
// time, so that manifests and the embedded sample explain the same way
// every time.
func chooseClock(flag string, at time.Time, in *input, sample bool, clock func() time.Time) (time.Time, string) {
	switch {
	case flag == "" && sample:
		return fixedNow, "a fixed clock for the embedded sample; --at now uses the current time"
	case flag == "now":
		return clock().UTC().Truncate(time.Second), "the current time, --at now"
	case flag != "":
		return at, "--at"
	case in.fromCluster():
		return clock().UTC().Truncate(time.Second), "the current time: objects were read from a cluster; --at pins another"
	}
	return fixedNow, "a fixed clock, as nothing was read from a cluster; --at now uses the current time"
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
