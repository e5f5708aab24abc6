package termination_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

// The graceful node shutdown page's example: shutdownGracePeriod 30s with
// 10s reserved for critical pods. Regular pods get the first 20 s, critical
// ones the last 10 s; a pod asking for less keeps its own grace period.
func ExampleBuildShutdownTimeline() {
	pod := func(name string, prio int32, tgps *int64) *api.Pod {
		return &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
			Spec: api.PodSpec{Priority: &prio, TerminationGracePeriodSeconds: tgps,
				Containers: []api.Container{{Name: "app", Image: "nginx"}}},
			Status: api.PodStatus{Phase: api.PodRunning},
		}
	}
	pods := []*api.Pod{pod("web", 0, nil), pod("coredns", 2000000000, nil), pod("node-agent", 2000001000, int64p(5))}
	tl, err := termination.BuildShutdownTimeline(pods, termination.ShutdownConfig{
		GracePeriod:             30 * time.Second,
		GracePeriodCriticalPods: 10 * time.Second,
	}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(tl)
	k := tl.Pods[0]
	fmt.Printf("%s: %s %s %q\n", k.Pod.Name, k.Status.Phase, k.Status.Reason, k.Status.Message)
	// Output:
	//   +0.0s  ShutdownStarted  3 pods in 2 priority groups
	//   +0.0s  GroupStarted     priority 0: 1 pods, waiting at most 20s
	//   +0.0s  PodKilled        [web] grace 20s from ShutdownGracePeriod
	//  +20.0s  GroupTimedOut    priority 0: 20s elapsed
	//  +20.0s  GroupStarted     priority 2000000000: 2 pods, waiting at most 10s
	//  +20.0s  PodKilled        [coredns] grace 10s from ShutdownGracePeriod
	//  +20.0s  PodKilled        [node-agent] grace 5s from PodSpec
	//  +30.0s  GroupTimedOut    priority 2000000000: 10s elapsed
	//  +30.0s  ShutdownFinished
	// web: Failed Terminated "Pod was terminated in response to imminent node shutdown."
}
