package probe

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/podsem/podsem/api"
)

func TestWorkerEvents(t *testing.T) {
	ref := api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "p", UID: "uid-p", ResourceVersion: "7",
		FieldPath: "spec.containers{app}"}
	warn := func(reason, note string) *api.Event {
		return &api.Event{Type: api.EventTypeWarning, Reason: reason, Note: note, Regarding: ref, Source: "kubelet"}
	}
	cases := []struct {
		kind api.ProbeKind
		in   Input
		want *api.Event
	}{
		{api.ProbeLiveness, Input{Outcome: OutcomeFailure, Output: "HTTP probe failed with statuscode: 500"},
			warn("Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 500")},
		{api.ProbeReadiness, Input{Outcome: OutcomeFailure}, warn("Unhealthy", "Readiness probe failed: ")},
		{api.ProbeStartup, Input{Outcome: OutcomeWarning, Output: "Probe terminated redirects, Response body: moved"},
			warn("ProbeWarning", "Startup probe warning: Probe terminated redirects, Response body: moved")},
		{api.ProbeLiveness, Input{Outcome: OutcomeError, Output: "rpc error: code = Unavailable"},
			warn("Unhealthy", "Liveness probe errored and resulted in unknown state: rpc error: code = Unavailable")},
		{api.ProbeReadiness, Input{Outcome: OutcomeError, ErroredAs: OutcomeFailure, Output: "unexpected EOF"},
			warn("Unhealthy", "Readiness probe errored and resulted in failure state: unexpected EOF")},
		// Success and unknown record nothing, whatever the output.
		{api.ProbeLiveness, Input{Outcome: OutcomeSuccess, Output: "ok"}, nil},
		{api.ProbeLiveness, Input{Outcome: OutcomeUnknown, Output: "?"}, nil},
	}
	for _, tc := range cases {
		pod := testPod()
		pod.UID, pod.ResourceVersion = "uid-p", "7"
		w, err := NewWorker(tc.kind, pod, "app", WorkerConfig{})
		if err != nil {
			t.Fatal(err)
		}
		// A startup probe runs only until the container has started.
		tc.in.Status = running("c://1", ptr(tc.kind != api.ProbeStartup), t0)
		got := w.Step(tc.in, t0)
		if !got.Probed {
			t.Fatalf("%s %s: not probed: %+v", tc.kind, tc.in.Outcome, got)
		}
		if d := cmp.Diff(tc.want, got.Event); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", tc.kind, tc.in.Outcome, d)
		}
	}
}

// A tick that does not run the probe records nothing, even with a failing
// outcome at hand; a sidecar's events regard its place among the init
// containers.
func TestWorkerEventsOnlyWhenProbed(t *testing.T) {
	w, _ := NewWorker(api.ProbeReadiness, testPod(), "app", WorkerConfig{})
	if got := w.Step(Input{Status: running("c://1", ptr(false), t0), Outcome: OutcomeFailure, Output: "x"}, t0); got.Probed || got.Event != nil {
		t.Errorf("not started: %+v", got)
	}
	pod := testPod()
	sc := pod.Spec.Containers[0]
	sc.Name, sc.RestartPolicy = "proxy", ptr(api.RestartPolicyAlways)
	pod.Spec.InitContainers = []api.Container{sc}
	w, err := NewWorker(api.ProbeLiveness, pod, "proxy", WorkerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	st := &api.PodStatus{Phase: api.PodPending, InitContainerStatuses: []api.ContainerStatus{{Name: "proxy", ContainerID: "c://s",
		Started: ptr(true), State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(t0)}}}}}
	got := w.Step(Input{Status: st, Outcome: OutcomeFailure, Output: "down"}, t0)
	if got.Event == nil || got.Event.Regarding.FieldPath != "spec.initContainers{proxy}" || got.Event.Note != "Liveness probe failed: down" {
		t.Errorf("sidecar: %+v", got.Event)
	}
}
