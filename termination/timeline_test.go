package termination

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

type evKey struct {
	offset    time.Duration
	kind      TimelineEventKind
	container string
}

func keys(tl Timeline) []evKey {
	var out []evKey
	for _, e := range tl.Events {
		out = append(out, evKey{e.Offset, e.Kind, e.Container})
	}
	return out
}

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func checkEvents(t *testing.T, tl Timeline, want []evKey) {
	t.Helper()
	got := keys(tl)
	if len(got) != len(want) {
		t.Fatalf("events:\n%s\nwant %v", tl, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("event %d = %v, want %v; timeline:\n%s", i, got[i], want[i], tl)
		}
	}
}

func TestTimelineDefaultDelete(t *testing.T) {
	p := withPreStopSleep(runningPod(i64(30)), "app", 5)
	tl, err := BuildTimeline(p, DeleteRequest{ExitAfterSignal: map[string]time.Duration{"app": 2 * time.Second}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, tl, []evKey{
		{0, TimelineDeleteRequested, ""},
		{0, TimelineMarkedTerminating, ""},
		{0, TimelineRemovedFromEndpoints, ""},
		{0, TimelineTerminationStarted, ""},
		{0, TimelinePreStopStarted, "app"},
		{sec(5), TimelinePreStopFinished, "app"},
		{sec(5), TimelineStopSignal, "app"},
		{sec(7), TimelineExited, "app"},
		{sec(7), TimelineStatusReported, ""},
		{sec(7), TimelineObjectRemoved, ""},
	})
	if tl.ForceDeleted || tl.Grace.GracePeriodSeconds != 30 || !tl.Deadline.Equal(t0.Add(30*time.Second)) {
		t.Errorf("timeline %+v", tl)
	}
}

func TestTimelineSlowPreStopGetsExtension(t *testing.T) {
	p := withPreStopSleep(runningPod(i64(30)), "app", 45)
	tl, err := BuildTimeline(p, DeleteRequest{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, tl, []evKey{
		{0, TimelineDeleteRequested, ""},
		{0, TimelineMarkedTerminating, ""},
		{0, TimelineRemovedFromEndpoints, ""},
		{0, TimelineTerminationStarted, ""},
		{0, TimelinePreStopStarted, "app"},
		{sec(30), TimelinePreStopTimedOut, "app"},
		{sec(30), TimelineGraceExtended, "app"},
		{sec(30), TimelineStopSignal, "app"},
		{sec(32), TimelineKilled, "app"},
		{sec(32), TimelineStatusReported, ""},
		{sec(32), TimelineObjectRemoved, ""},
	})
}

func TestTimelineStopSignal(t *testing.T) {
	p := runningPod(i64(10))
	tl, _ := BuildTimeline(p, DeleteRequest{ImageStopSignal: map[string]string{"app": "SIGQUIT"}}, t0)
	if e := find(tl, TimelineStopSignal); e == nil || !strings.HasPrefix(e.Detail, "SIGQUIT") {
		t.Errorf("image STOPSIGNAL not used: %+v", e)
	}
	p.Spec.Containers[0].Lifecycle = &api.Lifecycle{StopSignal: ptr("SIGUSR1")}
	tl, _ = BuildTimeline(p, DeleteRequest{ImageStopSignal: map[string]string{"app": "SIGQUIT"}}, t0)
	if e := find(tl, TimelineStopSignal); e == nil || !strings.HasPrefix(e.Detail, "SIGUSR1") {
		t.Errorf("lifecycle.stopSignal not preferred: %+v", e)
	}
}

func TestTimelineForceDeletion(t *testing.T) {
	p := withPreStopSleep(runningPod(i64(30)), "app", 10)
	tl, err := BuildTimeline(p, DeleteRequest{Options: &api.DeleteOptions{GracePeriodSeconds: i64(0)}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !tl.ForceDeleted || tl.Warning != ForceDeleteWarning || tl.Grace.GracePeriodSeconds != 1 {
		t.Errorf("force: %+v", tl)
	}
	checkEvents(t, tl, []evKey{
		{0, TimelineDeleteRequested, ""},
		{0, TimelineObjectRemoved, ""},
		{0, TimelineRemovedFromEndpoints, ""},
		{0, TimelineTerminationStarted, ""},
		{0, TimelinePreStopStarted, "app"},
		{sec(1), TimelinePreStopTimedOut, "app"},
		{sec(1), TimelineGraceExtended, "app"},
		{sec(1), TimelineStopSignal, "app"},
		{sec(3), TimelineKilled, "app"},
	})
}

func TestTimelineNothingRunning(t *testing.T) {
	p := runningPod(i64(30))
	p.Spec.NodeName = ""
	tl, err := BuildTimeline(p, DeleteRequest{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, tl, []evKey{{0, TimelineDeleteRequested, ""}, {0, TimelineObjectRemoved, ""}})
	if tl.ForceDeleted {
		t.Error("an unscheduled pod is not a risky force deletion")
	}
}

func TestTimelinePendingRepeat(t *testing.T) {
	p := terminating(runningPod(i64(30)), t0.Add(20*time.Second), 30)
	tl, err := BuildTimeline(p, DeleteRequest{Options: &api.DeleteOptions{GracePeriodSeconds: i64(60)}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, tl, []evKey{{0, TimelineDeleteRequested, ""}, {0, TimelineNoChange, ""}})
}

func TestTimelineKubeletRestartRestartsGrace(t *testing.T) {
	p := withPreStopSleep(runningPod(i64(30)), "app", 45)
	r := 10 * time.Second
	tl, err := BuildTimeline(p, DeleteRequest{KubeletRestart: &r}, t0)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, tl, []evKey{
		{0, TimelineDeleteRequested, ""},
		{0, TimelineMarkedTerminating, ""},
		{0, TimelineRemovedFromEndpoints, ""},
		{0, TimelineTerminationStarted, ""},
		{0, TimelinePreStopStarted, "app"},
		{sec(10), TimelineKubeletRestarted, ""},
		{sec(10), TimelinePreStopStarted, "app"},
		{sec(40), TimelinePreStopTimedOut, "app"},
		{sec(40), TimelineGraceExtended, "app"},
		{sec(40), TimelineStopSignal, "app"},
		{sec(42), TimelineKilled, "app"},
		{sec(42), TimelineStatusReported, ""},
		{sec(42), TimelineObjectRemoved, ""},
	})
	if !tl.Deadline.Equal(t0.Add(40 * time.Second)) {
		t.Errorf("deadline %s", tl.Deadline)
	}
}

func TestTimelineSignalledProcessKeepsExitAcrossRestart(t *testing.T) {
	p := runningPod(i64(30))
	r := 5 * time.Second
	tl, err := BuildTimeline(p, DeleteRequest{KubeletRestart: &r, ExitAfterSignal: map[string]time.Duration{"app": 8 * time.Second}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	e := find(tl, TimelineExited)
	if e == nil || e.Offset != 8*time.Second {
		t.Errorf("exit: %+v\n%s", e, tl)
	}
}

func TestTimelineSidecarsStopLast(t *testing.T) {
	p := runningPod(i64(30))
	always := api.RestartPolicyAlways
	p.Spec.InitContainers = []api.Container{{Name: "proxy", RestartPolicy: &always}, {Name: "init-done"}}
	tl, err := BuildTimeline(p, DeleteRequest{ExitAfterSignal: map[string]time.Duration{"app": 4 * time.Second, "proxy": time.Second}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	var proxySignal, appExit *TimelineEvent
	for i := range tl.Events {
		e := &tl.Events[i]
		if e.Container == "init-done" {
			t.Errorf("completed init container has events: %+v", e)
		}
		if e.Kind == TimelineStopSignal && e.Container == "proxy" {
			proxySignal = e
		}
		if e.Kind == TimelineExited && e.Container == "app" {
			appExit = e
		}
	}
	if proxySignal == nil || appExit == nil || proxySignal.Offset != appExit.Offset {
		t.Errorf("sidecar should get its signal when the app exits:\n%s", tl)
	}
}

func TestTimelineErrors(t *testing.T) {
	if _, err := BuildTimeline(nil, DeleteRequest{}, t0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: %v", err)
	}
	p := runningPod(i64(30))
	if _, err := BuildTimeline(p, DeleteRequest{Options: &api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr("x")}}}, t0); !errors.Is(err, ErrPreconditionFailed) {
		t.Errorf("precondition: %v", err)
	}
}

func find(tl Timeline, k TimelineEventKind) *TimelineEvent {
	for i := range tl.Events {
		if tl.Events[i].Kind == k {
			return &tl.Events[i]
		}
	}
	return nil
}

func TestTimelineSkipsStoppedContainersAndRenders(t *testing.T) {
	p := runningPod(i64(30))
	p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "done"})
	p.Status.ContainerStatuses = []api.ContainerStatus{
		{Name: "app", State: api.ContainerState{Running: &api.ContainerStateRunning{}}},
		{Name: "done", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0}}},
	}
	tl, err := BuildTimeline(p, DeleteRequest{ExitAfterSignal: map[string]time.Duration{"app": 1500 * time.Millisecond}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range tl.Events {
		if e.Container == "done" {
			t.Errorf("stopped container has events: %+v", e)
		}
	}
	s := tl.String()
	for _, want := range []string{"  +0.0s  StopSignal           [app] SIGTERM; SIGKILL after 30s\n", "  +1.5s  ObjectRemoved "} {
		if !strings.Contains(s, want) {
			t.Errorf("rendering lacks %q:\n%s", want, s)
		}
	}
	// Every container already stopped: reported and removed at once.
	p.Status.ContainerStatuses[0].State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1}}
	tl, _ = BuildTimeline(p, DeleteRequest{}, t0)
	checkEvents(t, tl, []evKey{
		{0, TimelineDeleteRequested, ""}, {0, TimelineMarkedTerminating, ""}, {0, TimelineRemovedFromEndpoints, ""},
		{0, TimelineStatusReported, ""}, {0, TimelineObjectRemoved, ""},
	})
}

// A sidecar waits for the regular containers and for the next sidecar
// declared after it, not for every later one: when that next sidecar is no
// longer running, nothing holds it back (kuberuntime's termination
// ordering).
func TestTimelineSidecarWaitsForNextSidecarOnly(t *testing.T) {
	always := api.RestartPolicyAlways
	p := runningPod(i64(10))
	p.Spec.InitContainers = []api.Container{
		{Name: "s1", RestartPolicy: &always},
		{Name: "s2", RestartPolicy: &always},
		{Name: "s3", RestartPolicy: &always},
	}
	p.Status.InitContainerStatuses = []api.ContainerStatus{
		{Name: "s2", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1}}},
	}
	req := DeleteRequest{ExitAfterSignal: map[string]time.Duration{"app": 0, "s1": 0}} // s3 ignores its signal
	tl, err := BuildTimeline(p, req, t0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]TimelineEvent{}
	for _, e := range tl.Events {
		if e.Kind == TimelineStopSignal {
			got[e.Container] = e
		}
	}
	for name, want := range map[string]struct {
		at    time.Duration
		grace int64
	}{"app": {0, 10}, "s3": {0, 10}, "s1": {0, 10}} {
		e, ok := got[name]
		if !ok || e.Offset != want.at || e.GraceSeconds != want.grace || e.Signal != "SIGTERM" {
			t.Errorf("%s: stop signal %+v, want at %v with %ds", name, e, want.at, want.grace)
		}
	}
	if _, ok := got["s2"]; ok {
		t.Errorf("s2 has stopped already, yet it is signalled:\n%s", tl)
	}
}
