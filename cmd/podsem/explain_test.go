package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldens are the end-to-end runs whose whole output testdata holds: the
// command line, stdout, stderr and the exit status.
var goldens = []struct {
	name string
	args []string
}{
	{"sample.txt", nil},
	{"sample.md", []string{"--format", "mermaid"}},
	{"list.txt", []string{"--at", "2025-06-01T12:00:00Z", "testdata/list.json"}},
	{"list.md", []string{"--format=mermaid", "--at", "2025-06-01T12:00:00Z", "testdata/list.json"}},
	{"multi.txt", []string{"testdata/multi.yaml"}},
	{"malformed.txt", []string{"testdata/malformed.yaml", "testdata/truncated.json", "testdata/missing.yaml"}},
	{"cluster-flag.txt", []string{"--at", "2025-06-01T12:10:00Z", "--cluster", "sample/cluster.yaml", "sample/pod.yaml"}},
	{"privileged.txt", []string{"--at", "2025-06-01T12:00:00Z", "testdata/privileged.yaml"}},
	// Issue 23.2: unknown kinds skipped with one note, an empty file
	// named, a typed List's kindless item read as its kind, no node read
	// (the scheduler's "0/0 nodes are available:"), an empty POD_IP, the
	// BudgetIgnored answer explained.
	{"kinds.txt", []string{"testdata/kinds.yaml", "testdata/empty.yaml"}},
	{"kinds.md", []string{"--format", "mermaid", "testdata/kinds.yaml", "testdata/empty.yaml"}},
	{"empty.txt", []string{"testdata/empty.yaml"}},
	// Issue 23.3: a live cluster's dump, every pod of it, the workloads
	// through the pods they own; the read phase and the computed one.
	{"dump.txt", []string{"testdata/cluster-dump.yaml", "--at", "2026-11-27T07:00:00Z"}},
	{"dump-pod.txt", []string{"testdata/cluster-dump.yaml", "--pod", "shop/web-7d4b9c6f8-m5zrt", "--at", "2026-11-27T07:00:00Z"}},
	{"dump-pod.md", []string{"--format", "mermaid", "testdata/cluster-dump.yaml", "--pod", "default/load-test", "--at", "2026-11-27T07:00:00Z"}},
	{"dump-pod-missing.txt", []string{"testdata/cluster-dump.yaml", "--pod", "shop/web-7d4b9c6f8", "--at", "2026-11-27T07:00:00Z"}},
	// Issue 19.7: workload manifests, explained through the pods their
	// controllers would create.
	{"workloads.txt", []string{"--at", "2025-06-01T12:00:00Z", "--cluster", "sample/cluster.yaml", "testdata/workloads.yaml"}},
	{"workloads.md", []string{"--format", "mermaid", "--at", "2025-06-01T12:00:00Z", "--cluster", "sample/cluster.yaml", "testdata/workloads.yaml"}},
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			checkGolden(t, filepath.Join("testdata", "golden", g.name), runTranscript(g.args, ""))
		})
	}
}

// runTranscript runs podsem explain with args and returns what it printed,
// in the form the golden files hold.
func runTranscript(args []string, stdin string) string {
	return transcript("explain", args, stdin)
}

// runExplainCmd runs podsem explain with args through the command's
// dispatch and returns its exit status.
func runExplainCmd(args []string, stdin string, stdout, stderr *bytes.Buffer) int {
	return run(append([]string{"explain"}, args...), strings.NewReader(stdin), stdout, stderr)
}

// The embedded sample explains without complaint: CI runs it.
func TestSampleExitsZero(t *testing.T) {
	for _, args := range [][]string{nil, {"--format", "mermaid"}} {
		var out, errb bytes.Buffer
		if code := runExplainCmd(args, "", &out, &errb); code != 0 || errb.Len() > 0 {
			t.Errorf("podsem explain %v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// Input on stdin ("-") is read like a file.
func TestStdin(t *testing.T) {
	data, err := os.ReadFile("testdata/multi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fromFile := runTranscript([]string{"testdata/multi.yaml"}, "")
	fromStdin := runTranscript([]string{"-"}, string(data))
	fromFile = strings.ReplaceAll(fromFile, "testdata/multi.yaml", "-")
	if d := cmp.Diff(fromFile, fromStdin); d != "" {
		t.Errorf("stdin differs from the file (-file +stdin):\n%s", d)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--format", "svg"},
		{"--at", "yesterday"},
		{"--no-such-flag"},
	} {
		var out, errb bytes.Buffer
		if code := runExplainCmd(args, "", &out, &errb); code != 2 {
			t.Errorf("podsem explain %v: exit %d, want 2 (stderr %q)", args, code, errb.String())
		}
	}
}

// Every bad-input line names the file and the object, and each bad object
// gets exactly one line.
func TestBadInputLines(t *testing.T) {
	var out, errb bytes.Buffer
	code := runExplainCmd([]string{"testdata/malformed.yaml"}, "", &out, &errb)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	want := []string{
		`testdata/malformed.yaml: Pod bad-quantity (document 1): spec.containers[0].resources.limits.cpu: "lots": `,
		`testdata/malformed.yaml: Pod bad-type (document 2): spec.containers[0].ports[0].containerPort: "http": `,
		`testdata/malformed.yaml: document 4: line 36: did not find expected ',' or '}'`,
		`testdata/malformed.yaml: document 5: `,
		`testdata/malformed.yaml: Pod listed-bad (document 6, items[1]): spec.containers[0].resources.requests.memory: "12XB": `,
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), errb.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], w)
		}
	}
	if !strings.Contains(out.String(), "note: skipped 1 Ingress: not read by explain\n") {
		t.Errorf("the Ingress was not noted as skipped:\n%s", out.String())
	}
	for _, name := range []string{"listed-good", "good"} {
		if !strings.Contains(out.String(), "== Pod default/"+name+" ") {
			t.Errorf("pod %s was not explained", name)
		}
	}
}

// A manifest pod is admitted as the API server would admit it in its
// namespace: the LimitRanges read give it their defaults, and one that
// breaks a range is refused by LimitRanger.
func TestExplainLimitRange(t *testing.T) {
	in := `apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: shop}
spec:
  limits:
  - {type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 250m}, max: {cpu: "1"}}
---
{apiVersion: v1, kind: Pod, metadata: {name: small, namespace: shop}, spec: {containers: [{name: c, image: nginx}]}}
---
{apiVersion: v1, kind: Pod, metadata: {name: big, namespace: shop}, spec: {containers: [{name: c, image: nginx, resources: {limits: {cpu: "2"}}}]}}
---
{apiVersion: v1, kind: Pod, metadata: {name: elsewhere, namespace: other}, spec: {containers: [{name: c, image: nginx}]}}
`
	out := runTranscript([]string{"-"}, in)
	section := func(name string) string {
		_, after, _ := strings.Cut(out, "== Pod "+name+" ")
		before, _, _ := strings.Cut(after, "\n== Pod ")
		return before
	}
	if s := section("shop/small"); !strings.Contains(s, "requests  cpu 250m") || !strings.Contains(s, "limits    cpu 500m") {
		t.Errorf("shop/small was not given the range's defaults:\n%s", s)
	}
	if s := section("shop/big"); !strings.Contains(s, `LimitRanger admission: pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2`) {
		t.Errorf("shop/big was not refused by LimitRanger:\n%s", s)
	}
	if s := section("other/elsewhere"); !strings.Contains(s, "requests  none") {
		t.Errorf("a range of another namespace applied to other/elsewhere:\n%s", s)
	}
}

// A manifest pod is checked against its namespace's ResourceQuotas: a
// quota read from a cluster with its status, and one from a manifest with
// the status its first sync would write from the pods read from a cluster.
func TestExplainResourceQuota(t *testing.T) {
	in := `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec: {hard: {requests.cpu: "1", limits.memory: 1Gi}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: pods, namespace: full, uid: u1, resourceVersion: "7"}
spec: {hard: {pods: "2"}}
status: {hard: {pods: "2"}, used: {pods: "2"}}
---
{apiVersion: v1, kind: Pod, metadata: {name: running, namespace: shop, uid: u2}, spec: {nodeName: n, containers: [{name: c, image: nginx, resources: {requests: {cpu: 800m}, limits: {memory: 100Mi}}}]}, status: {phase: Running}}
---
{apiVersion: v1, kind: Pod, metadata: {name: fits, namespace: shop}, spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 200m}, limits: {memory: 100Mi}}}]}}
---
{apiVersion: v1, kind: Pod, metadata: {name: over, namespace: shop}, spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 300m}, limits: {memory: 100Mi}}}]}}
---
{apiVersion: v1, kind: Pod, metadata: {name: bare, namespace: shop}, spec: {containers: [{name: c, image: nginx}]}}
---
{apiVersion: v1, kind: Pod, metadata: {name: third, namespace: full}, spec: {containers: [{name: c, image: nginx}]}}
`
	out := runTranscript([]string{"-"}, in)
	section := func(name string) string {
		_, after, _ := strings.Cut(out, "== Pod "+name+" ")
		before, _, _ := strings.Cut(after, "\n== Pod ")
		return before
	}
	if s := section("shop/fits"); strings.Contains(s, "ResourceQuota admission") {
		t.Errorf("shop/fits was refused:\n%s", s)
	}
	for name, want := range map[string]string{
		"shop/over":  `ResourceQuota admission: pods "over" is forbidden: exceeded quota: compute, requested: requests.cpu=300m, used: requests.cpu=800m, limited: requests.cpu=1`,
		"shop/bare":  `ResourceQuota admission: pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: c; requests.cpu for: c`,
		"full/third": `ResourceQuota admission: pods "third" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2`,
	} {
		if s := section(name); !strings.Contains(s, want) {
			t.Errorf("%s: want %q in:\n%s", name, want, s)
		}
	}
}

// A manifest's pod in a namespace read with Pod Security labels is judged
// by its level, and a refused pod is not said to be accepted.
func TestExplainPodSecurity(t *testing.T) {
	in := `apiVersion: v1
kind: Namespace
metadata: {name: secure, labels: {pod-security.kubernetes.io/enforce: baseline}}
---
{apiVersion: v1, kind: Pod, metadata: {name: hostnet, namespace: secure}, spec: {hostNetwork: true, containers: [{name: c, image: nginx}]}}
---
{apiVersion: v1, kind: Pod, metadata: {name: hostnet, namespace: open}, spec: {hostNetwork: true, containers: [{name: c, image: nginx}]}}
`
	out := runTranscript([]string{"-"}, in)
	_, secure, _ := strings.Cut(out, "== Pod secure/hostnet ")
	secure, open, _ := strings.Cut(secure, "== Pod open/hostnet ")
	if !strings.Contains(secure, `PodSecurity admission: pods "hostnet" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)`) ||
		strings.Contains(secure, "the API server accepts the pod") {
		t.Errorf("secure/hostnet:\n%s", secure)
	}
	if strings.Contains(open, "PodSecurity") || !strings.Contains(open, "the API server accepts the pod") {
		t.Errorf("open/hostnet (no labels: privileged):\n%s", open)
	}
}
