package termination_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// `kubectl delete pod web-0`: the API server marks the pod, the kubelet
// runs its preStop hook (sleep 5s), then sends SIGTERM, and the app takes
// 2s to exit; all well within the 30s grace period.
func ExampleBuildTimeline_preStop() {
	grace, now := int64(30), time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "default", UID: "uid-web-0"},
		Spec: api.PodSpec{NodeName: "node-1", TerminationGracePeriodSeconds: &grace, Containers: []api.Container{{
			Name: "app", Image: "nginx",
			Lifecycle: &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 5}}},
		}}},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
	tl, err := termination.BuildTimeline(pod, termination.DeleteRequest{
		ExitAfterSignal: map[string]time.Duration{"app": 2 * time.Second},
	}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range tl.Events {
		fmt.Printf("%3s %s\n", e.Offset, strings.TrimSpace(string(e.Kind)+" "+e.Container))
	}
	// Output:
	// 0s DeleteRequested
	//  0s MarkedTerminating
	//  0s RemovedFromEndpoints
	//  0s TerminationStarted
	//  0s PreStopStarted app
	//  5s PreStopFinished app
	//  5s StopSignal app
	//  7s ExitedAfterSignal app
	//  7s StatusReported
	//  7s ObjectRemoved
}
