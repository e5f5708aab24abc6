package lifecycle

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

// Status helpers shared by the sequencing and machine tests.

func stRunning(name string, started bool) api.ContainerStatus {
	return api.ContainerStatus{Name: name, Started: &started,
		State: api.ContainerState{Running: &api.ContainerStateRunning{}}}
}

func stExited(name string, code int32) api.ContainerStatus {
	f := false
	return api.ContainerStatus{Name: name, Started: &f,
		State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, Reason: TerminatedReason(code, false)}}}
}

func stBackOff(name string, code int32) api.ContainerStatus {
	f := false
	return api.ContainerStatus{Name: name, Started: &f, RestartCount: 1,
		State:                api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: CrashLoopBackOff}},
		LastTerminationState: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code}}}
}

func stWaiting(name, reason string) api.ContainerStatus {
	f := false
	return api.ContainerStatus{Name: name, Started: &f,
		State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}}
}

var readySandbox = []Sandbox{{Ready: true, HasNetworkStatus: true, IP: "10.0.0.5"}}

func seqPod(policy api.RestartPolicy, inits []api.Container, apps ...string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
	p.Spec.RestartPolicy = policy
	p.Spec.InitContainers = inits
	for _, a := range apps {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: a, Image: "busybox"})
	}
	return p
}

func initC(name string) api.Container { return api.Container{Name: name, Image: "busybox"} }

func sidecarC(name string, startupProbe bool) api.Container {
	always := api.RestartPolicyAlways
	c := api.Container{Name: name, Image: "envoy", RestartPolicy: &always}
	if startupProbe {
		c.StartupProbe = &api.Probe{ProbeHandler: api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"true"}}}}
	}
	return c
}

func TestSequence(t *testing.T) {
	twoInits := []api.Container{initC("init-a"), initC("init-b")}
	withSidecar := []api.Container{initC("init-a"), sidecarC("proxy", true), initC("init-b")}
	type start = ContainerStart
	tests := []struct {
		name      string
		pod       *api.Pod
		init, app []api.ContainerStatus
		eph       []api.EphemeralContainer
		ephSt     []api.ContainerStatus
		sandboxes []Sandbox
		deleting  bool
		want      SequencePlan
	}{
		{
			name: "no sandbox: create it, then the first init container",
			pod:  seqPod("", twoInits, "app"),
			want: SequencePlan{CreateSandbox: true, Start: []start{{"init-a", api.ContainerKindInit, 0, StartFirstRun}}},
		},
		{
			name: "no sandbox, no init containers: all app containers",
			pod:  seqPod("", nil, "a", "b"),
			want: SequencePlan{CreateSandbox: true, Start: []start{{"a", api.ContainerKindRegular, 0, StartFirstRun}, {"b", api.ContainerKindRegular, 1, StartFirstRun}}},
		},
		{
			name:      "sandbox ready, nothing ran: first init container",
			pod:       seqPod("", twoInits, "app"),
			init:      []api.ContainerStatus{stWaiting("init-a", PodInitializing), stWaiting("init-b", PodInitializing)},
			app:       []api.ContainerStatus{stWaiting("app", PodInitializing)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"init-a", api.ContainerKindInit, 0, StartFirstRun}}},
		},
		{
			name:      "first init container running: wait",
			pod:       seqPod("", twoInits, "app"),
			init:      []api.ContainerStatus{stRunning("init-a", false), stWaiting("init-b", PodInitializing)},
			sandboxes: readySandbox,
			want:      SequencePlan{},
		},
		{
			name:      "first init container done: the second starts",
			pod:       seqPod("", twoInits, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stWaiting("init-b", PodInitializing)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"init-b", api.ContainerKindInit, 1, StartAfterInit}}},
		},
		{
			name:      "init records of earlier containers gone: the last one decides",
			pod:       seqPod("", twoInits, "app"),
			init:      []api.ContainerStatus{stExited("init-b", 0)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"app", api.ContainerKindRegular, 0, StartFirstRun}}},
		},
		{
			name:      "init failed under Always: restarted (OnFailure)",
			pod:       seqPod(api.RestartPolicyAlways, twoInits, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 1)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"init-a", api.ContainerKindInit, 0, StartRestart}}},
		},
		{
			name:      "init in CrashLoopBackOff counts as exited",
			pod:       seqPod(api.RestartPolicyOnFailure, twoInits, "app"),
			init:      []api.ContainerStatus{stBackOff("init-a", 2)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"init-a", api.ContainerKindInit, 0, StartRestart}}},
		},
		{
			name:      "init failed under Never: the pod is done",
			pod:       seqPod(api.RestartPolicyNever, twoInits, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stExited("init-b", 3)},
			sandboxes: readySandbox,
			want:      SequencePlan{Done: true, FailedInit: "init-b"},
		},
		{
			name:      "all init done: app containers start together",
			pod:       seqPod("", twoInits, "a", "b"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stExited("init-b", 0)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"a", api.ContainerKindRegular, 0, StartFirstRun}, {"b", api.ContainerKindRegular, 1, StartFirstRun}}},
		},
		{
			name:      "sidecar not yet started (startup probe pending): next init waits",
			pod:       seqPod("", withSidecar, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stRunning("proxy", false)},
			sandboxes: readySandbox,
			want:      SequencePlan{},
		},
		{
			name:      "sidecar started: the next init container starts",
			pod:       seqPod("", withSidecar, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stRunning("proxy", true)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"init-b", api.ContainerKindInit, 2, StartAfterInit}}},
		},
		{
			name:      "sidecar without startup probe counts as started when running",
			pod:       seqPod("", []api.Container{sidecarC("log", false), initC("init-b")}, "app"),
			init:      []api.ContainerStatus{stRunning("log", false)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"init-b", api.ContainerKindInit, 1, StartAfterInit}}},
		},
		{
			name:      "sidecar exited during init: restarted, the next init keeps running",
			pod:       seqPod("", withSidecar, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stExited("proxy", 1), stRunning("init-b", false)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"proxy", api.ContainerKindSidecar, 1, StartRestart}}},
		},
		{
			name:      "sidecar exited after initialization: restarted even under Never",
			pod:       seqPod(api.RestartPolicyNever, withSidecar, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stExited("proxy", 0), stExited("init-b", 0)},
			app:       []api.ContainerStatus{stRunning("app", true)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"proxy", api.ContainerKindSidecar, 1, StartRestart}}},
		},
		{
			name:      "last init container is a started sidecar: initialized",
			pod:       seqPod("", []api.Container{initC("init-a"), sidecarC("proxy", false)}, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stRunning("proxy", true)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"app", api.ContainerKindRegular, 0, StartFirstRun}}},
		},
		{
			name:      "app exited 0 under OnFailure, other running: nothing",
			pod:       seqPod(api.RestartPolicyOnFailure, nil, "a", "b"),
			app:       []api.ContainerStatus{stExited("a", 0), stRunning("b", true)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true},
		},
		{
			name:      "app exited 1 under OnFailure: restart",
			pod:       seqPod(api.RestartPolicyOnFailure, nil, "a"),
			app:       []api.ContainerStatus{stExited("a", 1)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"a", api.ContainerKindRegular, 0, StartRestart}}},
		},
		{
			name:      "app exited 0 under Always: restart",
			pod:       seqPod(api.RestartPolicyAlways, nil, "a"),
			app:       []api.ContainerStatus{stExited("a", 0)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"a", api.ContainerKindRegular, 0, StartRestart}}},
		},
		{
			name:      "all apps stopped under Never: done, sidecar left to be stopped",
			pod:       seqPod(api.RestartPolicyNever, []api.Container{sidecarC("proxy", false)}, "a"),
			init:      []api.ContainerStatus{stRunning("proxy", true)},
			app:       []api.ContainerStatus{stExited("a", 0)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Done: true},
		},
		{
			name: "terminal phase: done, the exited sidecar is not restarted",
			pod: func() *api.Pod {
				p := seqPod(api.RestartPolicyNever, []api.Container{sidecarC("proxy", false)}, "a")
				p.Status.Phase = api.PodSucceeded
				return p
			}(),
			init:      []api.ContainerStatus{stExited("proxy", 137)},
			app:       []api.ContainerStatus{stExited("a", 0)},
			sandboxes: readySandbox,
			want:      SequencePlan{Done: true},
		},
		{
			name:      "sandbox died: start over from the first init container",
			pod:       seqPod(api.RestartPolicyAlways, twoInits, "app"),
			init:      []api.ContainerStatus{stExited("init-a", 0), stExited("init-b", 0)},
			app:       []api.ContainerStatus{stExited("app", 137)},
			sandboxes: []Sandbox{{Ready: false, Attempt: 0}},
			want:      SequencePlan{CreateSandbox: true, Start: []start{{"init-a", api.ContainerKindInit, 0, StartSandboxRecreated}}},
		},
		{
			name:      "sandbox died, new one up: old app exit does not count as initialized",
			pod:       seqPod(api.RestartPolicyAlways, twoInits, "app"),
			init:      []api.ContainerStatus{stRunning("init-a", false)},
			app:       []api.ContainerStatus{stExited("app", 137)},
			sandboxes: []Sandbox{{Ready: true, Attempt: 1}, {Ready: false}},
			want:      SequencePlan{},
		},
		{
			name:      "sandbox died under Never after containers ran: done",
			pod:       seqPod(api.RestartPolicyNever, nil, "app"),
			app:       []api.ContainerStatus{stExited("app", 137)},
			sandboxes: []Sandbox{{Ready: false}},
			want:      SequencePlan{Done: true},
		},
		{
			name:      "sandbox died under OnFailure, every app succeeded: done",
			pod:       seqPod(api.RestartPolicyOnFailure, nil, "a", "b"),
			app:       []api.ContainerStatus{stExited("a", 0), stExited("b", 0)},
			sandboxes: []Sandbox{{Ready: false}},
			want:      SequencePlan{Done: true},
		},
		{
			name:      "sandbox died under OnFailure: only the failed app restarts",
			pod:       seqPod(api.RestartPolicyOnFailure, nil, "a", "b"),
			app:       []api.ContainerStatus{stExited("a", 0), stExited("b", 1)},
			sandboxes: []Sandbox{{Ready: false}},
			want:      SequencePlan{CreateSandbox: true, Start: []start{{"b", api.ContainerKindRegular, 1, StartSandboxRecreated}}},
		},
		{
			name:      "ephemeral containers start once, before init is done",
			pod:       seqPod("", twoInits, "app"),
			init:      []api.ContainerStatus{stRunning("init-a", false)},
			eph:       []api.EphemeralContainer{{Container: api.Container{Name: "debug"}}, {Container: api.Container{Name: "old"}}},
			ephSt:     []api.ContainerStatus{stExited("old", 1)},
			sandboxes: readySandbox,
			want:      SequencePlan{Start: []start{{"debug", api.ContainerKindEphemeral, 0, StartFirstRun}}},
		},
		{
			name:      "being deleted: nothing starts",
			pod:       seqPod("", twoInits, "app"),
			sandboxes: readySandbox,
			deleting:  true,
			want:      SequencePlan{},
		},
		{
			name: "container restart rule overrides pod Never",
			pod: func() *api.Pod {
				p := seqPod(api.RestartPolicyNever, nil, "a")
				never := api.RestartPolicyNever
				p.Spec.Containers[0].RestartPolicy = &never
				p.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: api.RestartRuleActionRestart,
					ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: api.ExitCodesOpIn, Values: []int32{42}}}}
				return p
			}(),
			app:       []api.ContainerStatus{stExited("a", 42)},
			sandboxes: readySandbox,
			want:      SequencePlan{Initialized: true, Start: []start{{"a", api.ContainerKindRegular, 0, StartRestart}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.pod.Status.InitContainerStatuses = tt.init
			tt.pod.Status.ContainerStatuses = tt.app
			tt.pod.Spec.EphemeralContainers = tt.eph
			tt.pod.Status.EphemeralContainerStatuses = tt.ephSt
			if tt.deleting {
				tt.pod.DeletionTimestamp = api.NewTimePtr(time.Unix(0, 0))
			}
			got := Sequence(tt.pod, tt.sandboxes)
			if got.Why == "" {
				t.Errorf("empty Why")
			}
			got.Why = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sequence mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
