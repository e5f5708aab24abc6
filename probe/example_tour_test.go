package probe_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

// The liveness probe of the Kubernetes docs' "Configure Liveness, Readiness
// and Startup Probes" page: after three failures in a row the kubelet kills
// the container. The caller runs each probe and steps the worker with the
// outcome at the deadline it names.
func ExampleWorker_liveness() {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{
		Name: "liveness",
		LivenessProbe: &api.Probe{
			ProbeHandler:        api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"cat", "/tmp/healthy"}}},
			InitialDelaySeconds: 5, PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
		},
	}}}}
	w, err := probe.NewWorker(api.ProbeLiveness, pod, "liveness", probe.WorkerConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	start, started := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), true
	status := &api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{
		Name: "liveness", ContainerID: "containerd://1", Started: &started,
		State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(start)}},
	}}}
	now := start
	for _, o := range []probe.Outcome{probe.OutcomeSuccess, probe.OutcomeSuccess,
		probe.OutcomeFailure, probe.OutcomeFailure, probe.OutcomeFailure} {
		rep := w.Step(probe.Input{Status: status, Outcome: o}, now)
		fmt.Printf("t=%2.0fs %s probed=%v result=%s effect=%s\n", now.Sub(start).Seconds(), o, rep.Probed, rep.Result, rep.Effect)
		now = w.NextDeadline()
	}
	// Output:
	// t= 0s success probed=false result=success effect=none
	// t= 5s success probed=true result=success effect=none
	// t=10s failure probed=true result=success effect=none
	// t=15s failure probed=true result=success effect=none
	// t=20s failure probed=true result=failure effect=kill container
}
