package termination_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/termination"
)

func int64p(v int64) *int64 { return &v }

func examplePod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "default", UID: "uid-web-0", Generation: 1},
		Spec: api.PodSpec{
			NodeName:                      "node-1",
			TerminationGracePeriodSeconds: int64p(30),
			Containers: []api.Container{{
				Name:      "app",
				Image:     "nginx",
				Lifecycle: &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 5}}},
				LivenessProbe: &api.Probe{
					ProbeHandler:                  api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/healthz", Port: api.FromInt32(80)}},
					TerminationGracePeriodSeconds: int64p(6),
				},
			}},
		},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
}

var now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// A plain `kubectl delete` gives the pod its own 30 s; a second delete with
// a shorter grace period moves the deadline earlier; a longer one changes
// nothing.
func ExampleAPIServerGrace() {
	pod := examplePod()
	d, _ := termination.APIServerGrace(pod, &api.DeleteOptions{}, now)
	fmt.Println(d.Outcome, *d.DeletionGracePeriodSeconds, d.DeletionTimestamp.Format(time.TimeOnly), d.Generation)

	pod.DeletionTimestamp = api.NewTimePtr(*d.DeletionTimestamp)
	pod.DeletionGracePeriodSeconds = d.DeletionGracePeriodSeconds
	later := now.Add(10 * time.Second)
	d, _ = termination.APIServerGrace(pod, &api.DeleteOptions{GracePeriodSeconds: int64p(60)}, later)
	fmt.Println(d.Outcome, *d.DeletionGracePeriodSeconds)
	d, _ = termination.APIServerGrace(pod, &api.DeleteOptions{GracePeriodSeconds: int64p(15)}, later)
	fmt.Println(d.Outcome, *d.DeletionGracePeriodSeconds, d.DeletionTimestamp.Format(time.TimeOnly))
	// Output:
	// Graceful 30 12:00:30 2
	// Pending 30
	// Shortened 15 12:00:15
}

// The pod strategy alone: an unscheduled pod goes at once.
func ExampleCheckGracefulDelete() {
	pod := examplePod()
	fmt.Println(termination.CheckGracefulDelete(pod, &api.DeleteOptions{}))
	pod.Spec.NodeName = ""
	fmt.Println(termination.CheckGracefulDelete(pod, &api.DeleteOptions{GracePeriodSeconds: int64p(10)}))
	// Output:
	// {true 30 PodSpec}
	// {true 0 Unscheduled}
}

// The pod worker settles on the API server's deletionGracePeriodSeconds and
// lets a soft eviction shorten it, never lengthen it.
func ExampleKubeletPodGrace() {
	pod := examplePod()
	pod.DeletionGracePeriodSeconds = int64p(30)
	g := termination.KubeletPodGrace(pod, termination.PodWorkerState{})
	fmt.Println(g.GracePeriodSeconds, g.Source)

	evict := termination.EvictionGraceOverride(pod, false, termination.EvictionConfig{MaxPodGracePeriodSeconds: 10})
	g = termination.KubeletPodGrace(pod, termination.PodWorkerState{RecordedGracePeriodSeconds: g.GracePeriodSeconds, Override: &evict.GracePeriodSeconds})
	fmt.Println(g.GracePeriodSeconds, g.Source, g.Changed)
	// Output:
	// 30 DeletionGracePeriodSeconds
	// 10 KillOverride true
}

// Soft evictions are capped by evictionMaxPodGracePeriod (0 by default);
// hard evictions get 1 s.
func ExampleEvictionGraceOverride() {
	pod := examplePod()
	for _, hard := range []bool{false, true} {
		o := termination.EvictionGraceOverride(pod, hard, termination.EvictionConfig{})
		fmt.Println(o.GracePeriodSeconds, o.Source)
	}
	// Output:
	// 0 EvictionMaxPodGracePeriod
	// 1 HardEviction
}

// The stop timeout of one container: a liveness kill uses the probe's own
// grace period; a deletion uses the pod's, minus the 5 s the preStop hook
// slept.
func ExampleContainerGrace() {
	pod := examplePod()
	r, _ := termination.ContainerGrace(pod, termination.ContainerKill{ContainerName: "app", Reason: termination.KillReasonLivenessProbe})
	fmt.Println(r.GracePeriodSeconds, "-", r.Reason)
	r, _ = termination.ContainerGrace(pod, termination.ContainerKill{ContainerName: "app", GracePeriodOverride: int64p(30)})
	fmt.Println(r.GracePeriodSeconds, "-", r.Reason)
	// Output:
	// 2 - base 6s from LivenessProbe; preStop took 5s, leaving 1s; raised from 1s to the 2s minimum
	// 25 - base 30s from PodSpec; override 30s replaces it; preStop took 5s, leaving 25s
}

// The kubelet waits one and a half grace periods, at least 10 s, for a kill
// it requested itself.
func ExampleKillTimeout() {
	pod := examplePod()
	fmt.Println(termination.KillTimeout(pod, nil), termination.KillTimeout(pod, int64p(1)))
	// Output:
	// 45s 10s
}

// What a default delete does to a pod whose process takes 2 s to exit after
// SIGTERM.
func ExampleBuildTimeline() {
	tl, _ := termination.BuildTimeline(examplePod(), termination.DeleteRequest{
		ExitAfterSignal: map[string]time.Duration{"app": 2 * time.Second},
	}, now)
	for _, e := range tl.Events {
		fmt.Printf("%3s %s", e.Offset, e.Kind)
		if e.Container != "" {
			fmt.Print(" ", e.Container)
		}
		fmt.Println()
	}
	// Output:
	//  0s DeleteRequested
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

// Only some actors may remove a running pod with grace 0.
func ExampleMayForceDelete() {
	pod := examplePod()
	for _, req := range []termination.ForceDeleteRequest{
		{Actor: termination.ActorController, NodeExists: true},
		{Actor: termination.ActorPodGC, NodeExists: false},
		{Actor: termination.ActorUser, NodeExists: true, Acknowledged: true},
	} {
		d := termination.MayForceDelete(pod, req)
		fmt.Println(req.Actor, d.Allowed, d.AtMostOneAtRisk)
	}
	// Output:
	// Controller false false
	// PodGC true false
	// User true true
}

// kubectl delete --force: grace 0 and the warning.
func ExampleKubectlDeleteOptions() {
	opts, warning, _ := termination.KubectlDeleteOptions(termination.KubectlDeleteFlags{Force: true})
	fmt.Println(*opts.GracePeriodSeconds, termination.IsForceDeletion(&opts))
	fmt.Println("Warning:", warning)
	// Output:
	// 0 true
	// Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.
}

// The collector deletes a pod whose node is gone only on a pass after the
// node's 40 s quarantine, marking it Failed with a DisruptionTarget
// condition first. Its NextDeadline says when that pass is, so the caller
// need not step it every 20 s.
func ExampleCollector() {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}
	orphan := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "web", Name: "orphan"}, Spec: api.PodSpec{NodeName: "node-gone"}, Status: api.PodStatus{Phase: api.PodRunning}}

	gc := termination.NewCollector(termination.GCConfig{})
	pass := gc.Step(termination.GCInput{Pods: []*api.Pod{orphan}, Nodes: []*api.Node{node}}, now)
	fmt.Printf("pass 1: %d deleted; quarantined %v; next pass after %v\n", len(pass.Actions), pass.Quarantined, gc.NextDeadline().Sub(now))
	pass = gc.Step(termination.GCInput{Pods: pass.Remaining, Nodes: []*api.Node{node}}, now.Add(termination.GCCheckPeriod))
	fmt.Println("at 20s: ran", pass.Ran, "deleted", len(pass.Actions))
	pass = gc.Step(termination.GCInput{Pods: pass.Remaining, Nodes: []*api.Node{node}}, gc.NextDeadline())
	for _, a := range pass.Actions {
		c := api.FindCondition(a.Patched.Conditions, api.DisruptionTarget)
		fmt.Println("pass 2:", a.Pod, a.Reason, a.Patched.Phase, c.Reason)
	}
	// Output:
	// pass 1: 0 deleted; quarantined [node-gone]; next pass after 40s
	// at 20s: ran false deleted 0
	// pass 2: web/orphan Orphaned Failed DeletionByPodGC
}

// A grace period longer than a time.Duration can hold saturates at the
// largest Duration instead of wrapping into the past.
func ExampleGraceDuration() {
	fmt.Println(termination.GraceDuration(30))
	fmt.Println(termination.GraceDuration(10_000_000_000)) // 1e10 s: past 2^63 ns
	// Output:
	// 30s
	// 2562047h47m16.854775807s
}

// A pod manifest without terminationGracePeriodSeconds is read as the API
// server stores it: with the default 30 s.
func ExampleStoredGracePeriodSeconds() {
	var pod api.Pod
	fmt.Println(termination.StoredGracePeriodSeconds(&pod))
	g := int64(5)
	pod.Spec.TerminationGracePeriodSeconds = &g
	fmt.Println(termination.StoredGracePeriodSeconds(&pod))
	// Output:
	// 30
	// 5
}
