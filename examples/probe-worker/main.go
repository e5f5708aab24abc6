// Command probe-worker replays the liveness exec example of the Kubernetes
// documentation ("Define a liveness command") through probe.Worker: the
// container creates /tmp/healthy, removes it after 30 seconds, and its
// liveness probe runs `cat /tmp/healthy` every 5 seconds after an initial
// delay of 5 seconds, with the default failureThreshold of 3.
//
// Each line is one tick of the kubelet's liveness worker: the container
// instance it sees, the outcome the exec probe would report, whether the
// worker actually ran it, the cached liveness result, whether the worker is
// on hold, and the effect the kubelet acts on. The third failure in a row
// kills the container; the worker holds until the restarted container
// appears, then probes it afresh.
//
// The pod and the timeline are embedded; run it with
//
//	go run ./examples/probe-worker
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

// podJSON is exec-liveness.yaml from the documentation, as JSON.
const podJSON = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {"name": "liveness-exec", "namespace": "default", "labels": {"test": "liveness"}},
  "spec": {
    "containers": [{
      "name": "liveness",
      "image": "registry.k8s.io/busybox:1.27.2",
      "args": ["/bin/sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"],
      "livenessProbe": {
        "exec": {"command": ["cat", "/tmp/healthy"]},
        "initialDelaySeconds": 5,
        "periodSeconds": 5
      }
    }]
  }
}`

// tick is what the kubelet knows at one probe tick: seconds since the pod
// started, the container instance and whether it runs, and what
// `cat /tmp/healthy` would return if the worker ran it.
type tick struct {
	at      int
	id      string
	started int // container start, seconds; -1 = exited (137)
	outcome probe.Outcome
}

var timeline = []tick{
	{0, "containerd://liveness-1", 0, probe.OutcomeSuccess},
	{5, "containerd://liveness-1", 0, probe.OutcomeSuccess},
	{10, "containerd://liveness-1", 0, probe.OutcomeSuccess},
	{15, "containerd://liveness-1", 0, probe.OutcomeSuccess},
	{20, "containerd://liveness-1", 0, probe.OutcomeSuccess},
	{25, "containerd://liveness-1", 0, probe.OutcomeSuccess},
	{30, "containerd://liveness-1", 0, probe.OutcomeFailure},
	{35, "containerd://liveness-1", 0, probe.OutcomeFailure},
	{40, "containerd://liveness-1", 0, probe.OutcomeFailure},
	{45, "containerd://liveness-1", -1, probe.OutcomeFailure},
	{50, "containerd://liveness-2", 47, probe.OutcomeSuccess},
	{55, "containerd://liveness-2", 47, probe.OutcomeSuccess},
	{60, "containerd://liveness-2", 47, probe.OutcomeSuccess},
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "probe-worker:", err)
		os.Exit(1)
	}
}

func run() error {
	var pod api.Pod
	if err := json.Unmarshal([]byte(podJSON), &pod); err != nil {
		return err
	}
	api.DefaultPod(&pod) // timeoutSeconds 1, successThreshold 1, failureThreshold 3
	w, err := probe.NewWorker(api.ProbeLiveness, &pod, "liveness", probe.WorkerConfig{})
	if err != nil {
		return err
	}
	p := pod.Spec.Containers[0].LivenessProbe
	fmt.Printf("liveness: exec %v, initialDelay %ds, period %ds, failureThreshold %d\n\n",
		p.Exec.Command, p.InitialDelaySeconds, p.PeriodSeconds, p.FailureThreshold)
	fmt.Printf("%4s  %-24s %-8s %-7s %-8s %-5s %s\n", "t", "container", "outcome", "probed", "result", "hold", "effect")

	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tk := range timeline {
		now := start.Add(time.Duration(tk.at) * time.Second)
		cs := api.ContainerStatus{Name: "liveness", ContainerID: tk.id}
		if tk.started < 0 {
			cs.State.Terminated = &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error"}
		} else {
			started := true
			cs.Started = &started
			cs.State.Running = &api.ContainerStateRunning{StartedAt: api.NewTime(start.Add(time.Duration(tk.started) * time.Second))}
		}
		status := &api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{cs}}
		st := w.Step(probe.Input{Status: status, Outcome: tk.outcome}, now)
		effect := ""
		if st.Effect != probe.EffectNone {
			effect = st.Effect.String()
		}
		fmt.Printf("%3ds  %-24s %-8s %-7v %-8s %-5v %s\n", tk.at, st.ContainerID, tk.outcome, st.Probed, st.Result, st.OnHold, effect)
		if !st.KeepGoing {
			break
		}
	}
	return nil
}
