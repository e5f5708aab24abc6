package probe_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
	"github.com/podsem/podsem/probe"
)

// "Define a liveness HTTP request" from the Kubernetes docs: the server
// answers /healthz with 200 for its first 10 seconds, then with 500. The
// prober records an Unhealthy event at each failure; the third failure
// reaches the failureThreshold, and the pod's machine, acting on it,
// records the Killing event and kills the container to restart it — the
// events `kubectl describe pod liveness-http` lists.
func ExampleWorker_events() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "liveness-http", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "liveness", Image: "registry.k8s.io/e2e-test-images/agnhost:2.40",
			LivenessProbe: &api.Probe{
				ProbeHandler:        api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/healthz", Port: api.FromInt32(8080)}},
				InitialDelaySeconds: 3, PeriodSeconds: 3, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
		}}}}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{ImagesPresent: []string{pod.Spec.Containers[0].Image}})
	var st api.PodStatus
	for _, ev := range []lifecycle.Event{lifecycle.Scheduled("node-1"), lifecycle.SandboxReady("10.0.0.9"), lifecycle.ContainerStarted("liveness")} {
		st, _ = m.Step(ev, start)
	}
	w, err := probe.NewWorker(api.ProbeLiveness, pod, "liveness", probe.WorkerConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	show := func(now time.Time, e *api.Event) {
		fmt.Printf("t=%2.0fs %s %s (%s): %s\n", now.Sub(start).Seconds(), e.Type, e.Reason, e.Regarding.FieldPath, e.Note)
	}
	for now := start; now.Sub(start) <= 18*time.Second; now = w.NextDeadline() {
		in := probe.Input{Status: &st, Outcome: probe.OutcomeSuccess}
		if now.Sub(start) > 10*time.Second {
			in.Outcome, in.Output = probe.OutcomeFailure, "HTTP probe failed with statuscode: 500"
		}
		rep := w.Step(in, now)
		if rep.Event != nil {
			show(now, rep.Event)
		}
		if ev, ok := rep.MachineEvent(api.ProbeLiveness, "liveness"); ok {
			var acts []lifecycle.Action
			st, acts = m.Step(ev, now)
			for _, a := range acts {
				if a.Event != nil {
					show(now, a.Event)
				}
			}
		}
	}
	// Output:
	// t=12s Warning Unhealthy (spec.containers{liveness}): Liveness probe failed: HTTP probe failed with statuscode: 500
	// t=15s Warning Unhealthy (spec.containers{liveness}): Liveness probe failed: HTTP probe failed with statuscode: 500
	// t=18s Warning Unhealthy (spec.containers{liveness}): Liveness probe failed: HTTP probe failed with statuscode: 500
	// t=18s Normal Killing (spec.containers{liveness}): Container liveness failed liveness probe, will be restarted
}
