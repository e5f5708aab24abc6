package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// The clock: --at wins; otherwise objects read from a cluster take the
// current time, and manifests and the embedded sample a fixed one.
func TestChooseClock(t *testing.T) {
	wall := time.Date(2026, 11, 27, 7, 30, 15, 500, time.UTC)
	clock := func() time.Time { return wall }
	manifest := newInput()
	manifest.read("m.yaml", []byte("kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: i}]}\n"))
	live := newInput()
	live.read("c.yaml", []byte("kind: Node\nmetadata: {name: n, uid: u-1}\n"))
	pinned := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name   string
		flag   string
		in     *input
		sample bool
		want   time.Time
	}{
		{"manifest", "", manifest, false, fixedNow},
		{"sample", "", live, true, fixedNow},
		{"cluster", "", live, false, wall.Truncate(time.Second)},
		{"--at now", "now", manifest, false, wall.Truncate(time.Second)},
		{"--at", pinned.Format(time.RFC3339), live, false, pinned},
	} {
		got, why := chooseClock(c.flag, pinned, c.in, c.sample, clock)
		if !got.Equal(c.want) || why == "" {
			t.Errorf("%s: chooseClock = %v (%q), want %v", c.name, got, why, c.want)
		}
	}
}

// A cluster's dump explains every pod in it, exits 0, and reports each
// workload through the pods it owns, never through invented ones.
func TestDumpExplainsEveryPod(t *testing.T) {
	var out, errb bytes.Buffer
	code := runExplainCmd([]string{"testdata/cluster-dump.yaml"}, "", &out, &errb)
	if code != 0 || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	s := out.String()
	if !strings.Contains(s, "(the current time: objects were read from a cluster") {
		t.Errorf("the dump is not explained at the current time:\n%s", strings.SplitN(s, "\n", 2)[0])
	}
	in := newInput()
	data := mustRead(t, "testdata/cluster-dump.yaml")
	in.read("dump", data)
	var pods int
	for _, d := range in.objects {
		if p, ok := d.obj.(*api.Pod); ok {
			pods++
			if !strings.Contains(s, "== Pod "+p.Namespace+"/"+p.Name+" (testdata/cluster-dump.yaml") {
				t.Errorf("pod %s/%s is not explained", p.Namespace, p.Name)
			}
		}
	}
	if n := strings.Count(s, "== Pod "); n != pods {
		t.Errorf("%d pod reports for %d pods read: a workload invented pods", n, pods)
	}
	if strings.Contains(s, "no pod to explain") {
		t.Error(`the old "no pod to explain" appears`)
	}
}

// Every workload kind gets its pods explained.
func TestWorkloadKindsExplained(t *testing.T) {
	var out, errb bytes.Buffer
	code := runExplainCmd([]string{"--at", "2025-06-01T12:00:00Z", "testdata/workloads.yaml"}, "", &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{
		"== Pod shop/cart-", "a pod Deployment shop/cart would create",
		"== Pod shop/cache-0 ", "a pod StatefulSet shop/cache would create",
		"== Pod kube-system/log-shipper-", "a pod DaemonSet kube-system/log-shipper would create",
		"== Pod shop/reindex-0-", "a pod Job shop/reindex would create",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestSelectPod(t *testing.T) {
	pod := func(ns, name string) subject {
		return subject{pod: &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}}}
	}
	all := []subject{pod("shop", "web-0"), pod("shop", "web-1"), pod("default", "load-test")}
	if got, err := selectPod(all, "load-test"); err != nil || len(got) != 1 || got[0].pod.Name != "load-test" {
		t.Errorf("NAME alone: %v, %v", got, err)
	}
	_, err := selectPod(all, "shop/web-2")
	if err == nil || !strings.Contains(err.Error(), "shop/web-2") || !strings.Contains(err.Error(), "shop/web-0") {
		t.Errorf("missing pod: %v, want it named with close matches", err)
	}
	if _, err := selectPod(nil, "shop/web-0"); err == nil {
		t.Error("no pods: no error")
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A workload's pods are scheduled one after another until one fits
// nowhere, and the output says which and why.
func TestWorkloadPlacementSequence(t *testing.T) {
	const deploy = `apiVersion: apps/v1
kind: Deployment
metadata: {name: big, namespace: shop}
spec:
  replicas: 8
  selector: {matchLabels: {app: big}}
  template:
    metadata: {labels: {app: big}}
    spec:
      containers:
      - name: c
        image: busybox
        resources: {requests: {cpu: "1"}}
`
	var out, errb bytes.Buffer
	code := runExplainCmd([]string{"--at", "2025-06-01T12:00:00Z", "--cluster", "sample/cluster.yaml", "-"}, deploy, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	var line string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "one after another") {
			line = l
		}
	}
	if !strings.Contains(line, "fits nowhere: 0/4 nodes are available") || !strings.Contains(line, "Insufficient cpu") {
		t.Errorf("placement sequence line = %q, want the pod that fits nowhere and why", line)
	}
}
