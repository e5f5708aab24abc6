// Command podsem answers questions about the pods of Kubernetes manifests
// with podsem's rules, which are Kubernetes v1.36.3's: what the API server,
// the kubelet, kube-scheduler and the disruption controller would do with
// them. It is the one part of the module that reads files and YAML; the
// library packages it is built on take values and return values.
//
// Install it with
//
//	go install github.com/podsem/podsem/cmd/podsem@latest
//
// or run it from a checkout with `go run ./cmd/podsem`.
//
// Usage:
//
//	podsem <command> [arguments]
//
// The commands are:
//
//	explain   explain every pod of some manifests, section by section
//	simulate  run a scenario on the whole cluster and print what happens
//	help      print this help, or a command's: podsem help explain
//	version   print podsem's version and the Kubernetes version it answers for
//
// # podsem explain
//
//	podsem explain [--format text|mermaid] [--at TIME] [--pod NS/NAME] [--cluster FILE]... [FILE|-]...
//
// Explain reads Kubernetes manifests as people have them — `kubectl get -o
// json` or `-o yaml` output, single objects or Lists, multi-document YAML
// files from a repository — and explains every pod in them:
//
//   - validation: what the API server would reject on create (field, value,
//     rule), after v1 defaulting and the Priority admission plugin, under
//     kube-apiserver's default flags — except that a pod read from a
//     cluster (it has a uid, resourceVersion or status) is checked with
//     --allow-privileged=true, as that cluster evidently runs, and the
//     output says so;
//   - effective requests and limits, QoS class and priority;
//   - phase, kubelet conditions and the `kubectl get pods` line of the pod
//     as read (the phase read and the one the kubelet would compute from
//     the container statuses read, both named when they differ);
//   - its life on a happy path through the kubelet's pod state machine;
//   - the probe schedule (when each probe first runs, when the container
//     counts as started or ready, when failing probes kill it);
//   - the termination timeline of a plain `kubectl delete pod`;
//   - its downward API environment and volume files (a pod IP not yet
//     assigned is said to be so);
//   - on which node kube-scheduler would put it, why not elsewhere, and
//     whom it would preempt (with no node read: why it stays Pending);
//   - whether the Eviction API would let it be evicted now, and why, with
//     the PodDisruptionBudgets read.
//
// A Deployment, ReplicaSet, StatefulSet, DaemonSet or Job is explained
// through its pods. Read with the pods it owns (a cluster's dump), it
// lists them by their ownerReferences, each explained as read. Read
// without them (a manifest), it says how many pods its controller would
// create and their names or generateName, where a DaemonSet puts one,
// what the PodDisruptionBudgets selecting them would allow once all run
// and are Ready, and explains the first of them as above.
//
// A live cluster reads in one go:
//
//	kubectl get nodes,pods,pdb,pvc,pv,storageclasses,csinodes,priorityclasses,deployments,replicasets,statefulsets,daemonsets,jobs -A -o yaml > cluster.yaml
//	podsem explain cluster.yaml
//	podsem explain cluster.yaml --pod shop/web-0
//
// Pods and workloads in the FILE arguments ("-" is standard input) are
// explained (--pod keeps one pod, NAMESPACE/NAME or NAME in default; a
// name not read is an error naming the closest pods read); every object
// read, from FILE arguments and --cluster files alike, is the cluster they
// meet (nodes, pods already bound to nodes, PodDisruptionBudgets,
// PriorityClasses, Namespaces, Services and workload controllers,
// claims, volumes, storage classes and CSI nodes, and ConfigMaps and
// Secrets for environment lookups). Objects without a namespace are in
// "default". Objects of other kinds (Ingress, HorizontalPodAutoscaler,
// custom resources...) are skipped with one note line; an empty file is
// named in a note. With no FILE an embedded sample is explained: the pod
// sample/pod.yaml in the cluster sample/cluster.yaml (or in the --cluster
// files, when some are given). Flags may follow the file names.
//
// --at pins "now" (RFC 3339, or "now" for the wall clock). Without it,
// files read from a cluster (an object with a uid or resourceVersion, a
// pod with a status) are explained at the current time, so that ages and
// timestamps are real; manifests and the embedded sample at
// 2025-06-01T12:00:00Z, so that their output is the same every time. The
// first line of the output says which clock was used.
//
// --format mermaid prints Markdown with Mermaid diagrams instead, which
// GitHub and most Markdown viewers draw: the pod's lifecycle as a state
// diagram, the probe schedule and the termination timeline as Gantt
// charts, the scheduling answer as a per-zone flowchart of nodes with a
// table of fit, topology spread verdict, skew if placed and score, and the
// downward API values and the eviction answer as tables and text.
//
// Bad input — a file that cannot be read or parsed, an object without a
// kind, an invalid value — gets one line on stderr, "FILE: OBJECT: FIELD:
// VALUE: problem", and everything else is still explained.
//
// # podsem simulate
//
//	podsem simulate [--format text|json|mermaid] [--start TIME] [--setup] SCENARIO|-
//	podsem simulate [flags] [--shard I/N] [--out-dir DIR] DIRECTORY
//	podsem simulate --merge [FILE|-]...
//
// Simulate runs a scenario file (issue 22: include, objects, actions,
// until, config; YAML or JSON) on package cluster's whole-cluster state
// machine and prints its event log: a readable timeline, the e2e
// harness's JSON lines followed by {"final": List}, or a Mermaid Gantt
// chart. A directory of scenarios runs whole or in shares (--shard I/N,
// or /N with I from $JOB_COMPLETION_INDEX, as an Indexed Job's pods
// have it), and --merge joins the shares' JSON outputs. `podsem help
// simulate` is its manual.
//
// # podsem version
//
// Version prints the module version Go recorded in the binary — the tag or
// pseudo-version `go install …@version` built; for a build from a checkout
// "(devel)", or the pseudo-version Go derives from the commit when it
// stamps version control information — and the Kubernetes release whose
// answers podsem gives.
//
// # Exit status
//
// 0 when the command did what was asked with good input (kinds explain
// skips are no bad input); 1 when explain read some bad input (and
// explained the rest) or --pod names a pod not read, or when simulate
// could not read or run a scenario; 2 for a usage error: no
// command, an unknown command, an unknown flag or a bad flag value.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usage is podsem's help: the commands that exist, one line each.
const usage = `podsem answers questions about the pods of Kubernetes manifests,
as Kubernetes ` + kubernetesVersion + ` would.

Usage:

	podsem <command> [arguments]

The commands are:

	explain   explain every pod of some manifests, section by section
	simulate  run a scenario on the whole cluster and print what happens
	help      print this help, or a command's: podsem help explain
	version   print podsem's version and the Kubernetes version it answers for

`

// run is the program: it dispatches args[0] to its command and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return 2
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "explain":
		return runExplain(rest, stdin, stdout, stderr)
	case "simulate":
		return runSimulate(rest, stdin, stdout, stderr)
	case "version":
		return runVersion(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return runHelp(rest, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "podsem: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// runHelp prints podsem's help, or one command's, on stdout.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		io.WriteString(stdout, usage)
		return 0
	case len(args) > 1:
		fmt.Fprintln(stderr, "usage: podsem help [command]")
		return 2
	}
	switch args[0] {
	case "explain":
		fs, _ := explainFlags(stdout)
		fs.Usage()
		return 0
	case "simulate":
		fs, _ := simulateFlags(stdout)
		fs.Usage()
		return 0
	case "version":
		fmt.Fprintln(stdout, versionUsage)
		return 0
	case "help":
		fmt.Fprintln(stdout, "usage: podsem help [command]")
		return 0
	}
	fmt.Fprintf(stderr, "podsem help: unknown command %q\n\n%s", args[0], usage)
	return 2
}
