package probe_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

// "Define a liveness HTTP request" from the Kubernetes docs: the server
// answers /healthz with 200 for its first 10 seconds, then with 500. The
// prober records an Unhealthy event at each failure, as `kubectl describe
// pod liveness-http` lists them; the third failure kills the container,
// whose Killing event ("Container liveness failed liveness probe, will be
// restarted") the pod's machine records when it acts on the effect.
func ExampleWorker_events() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "liveness-http", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "liveness",
			LivenessProbe: &api.Probe{
				ProbeHandler:        api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/healthz", Port: api.FromInt(8080)}},
				InitialDelaySeconds: 3, PeriodSeconds: 3, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
			},
		}}}}
	w, err := probe.NewWorker(api.ProbeLiveness, pod, "liveness", probe.WorkerConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	status := &api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{
		Name: "liveness", ContainerID: "containerd://1", Started: boolPtr(true),
		State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(start)}},
	}}}
	for now := start; !now.IsZero() && now.Sub(start) <= 18*time.Second; now = w.NextDeadline() {
		in := probe.Input{Status: status, Outcome: probe.OutcomeSuccess}
		if now.Sub(start) > 10*time.Second {
			in.Outcome, in.Output = probe.OutcomeFailure, "HTTP probe failed with statuscode: 500"
		}
		rep := w.Step(in, now)
		if rep.Event != nil {
			e := rep.Event
			fmt.Printf("t=%2.0fs %s %s %s %s: %s\n", now.Sub(start).Seconds(), e.Type, e.Reason, e.Source, e.Regarding.FieldPath, e.Note)
		}
		if rep.Effect == probe.EffectKillContainer {
			fmt.Printf("t=%2.0fs %s\n", now.Sub(start).Seconds(), rep.Effect)
		}
	}
	// Output:
	// t=12s Warning Unhealthy kubelet spec.containers{liveness}: Liveness probe failed: HTTP probe failed with statuscode: 500
	// t=15s Warning Unhealthy kubelet spec.containers{liveness}: Liveness probe failed: HTTP probe failed with statuscode: 500
	// t=18s Warning Unhealthy kubelet spec.containers{liveness}: Liveness probe failed: HTTP probe failed with statuscode: 500
	// t=18s kill container
}
