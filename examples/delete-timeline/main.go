// Command delete-timeline prints what happens, second by second, after a
// plain `kubectl delete pod` of a pod whose preStop hook is slower than its
// grace period: the pod is marked Terminating and leaves its endpoints, the
// hooks run, the kubelet stops waiting for the slow hook at the deadline,
// sends the stop signal with the one-time 2 s extension, kills what is still
// running, reports the status and removes the object.
//
// The pod and the request are embedded; run it with
//
//	go run ./examples/delete-timeline
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// podJSON is a running pod as `kubectl get pod web-0 -o json` would show it
// (trimmed). Its web container drains connections in a preStop hook that
// sleeps 45 s, longer than the default 30 s grace period; its metrics
// container has no hook and exits 3 s after SIGTERM.
const podJSON = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {"name": "web-0", "namespace": "default", "uid": "7d3c1e0a-5b9f-4c61-9d7e-0f4f2a1b6c55", "generation": 1},
  "spec": {
    "nodeName": "node-1",
    "terminationGracePeriodSeconds": 30,
    "containers": [
      {"name": "web", "image": "nginx:1.27",
       "lifecycle": {"preStop": {"sleep": {"seconds": 45}}}},
      {"name": "metrics", "image": "prom/statsd-exporter:v0.27.0"}
    ]
  },
  "status": {"phase": "Running"}
}`

func main() {
	var pod api.Pod
	if err := json.Unmarshal([]byte(podJSON), &pod); err != nil {
		fmt.Fprintln(os.Stderr, "decoding the embedded pod:", err)
		os.Exit(1)
	}

	// `kubectl delete pod web-0` with no flags.
	opts, warning, err := termination.KubectlDeleteOptions(termination.KubectlDeleteFlags{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if warning != "" {
		fmt.Println("Warning:", warning)
	}
	req := termination.DeleteRequest{
		Options:         &opts,
		ExitAfterSignal: map[string]time.Duration{"metrics": 3 * time.Second},
	}
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

	tl, err := termination.BuildTimeline(&pod, req, now)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("kubectl delete pod %s (at %s)\n", pod.Name, now.Format(time.RFC3339))
	fmt.Printf("API server: %s\n", tl.API.Reason)
	fmt.Printf("kubelet:    pod grace %ds, deadline %s\n\n", tl.Grace.GracePeriodSeconds, tl.Deadline.Format(time.RFC3339))
	fmt.Print(tl)
}
