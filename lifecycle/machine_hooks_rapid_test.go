package lifecycle

import (
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// genPostStart draws no postStart hook, an exec hook or a short sleep hook.
func genPostStart(t *rapid.T) *api.LifecycleHandler {
	switch rapid.IntRange(0, 3).Draw(t, "postStart") {
	case 1:
		return &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"warm-up"}}}
	case 2:
		return &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: rapid.Int64Range(0, 3).Draw(t, "postStartSleep")}}
	}
	return nil
}

// A pod the kubelet rejects at admission never reaches Running, whatever
// the world reports afterwards: it is Failed with the admission reason
// from the rejection on, no container of it is ever running, and the
// Machine never asks for a sandbox, a pull or a start.
func TestPropertyRejectedPodNeverRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genMachinePod(t)
		d := &machineDriver{pod: pod, m: NewMachine(pod, MachineConfig{}), now: machineT0,
			initDone: map[string]bool{}, retryAt: map[string]time.Time{}, lastDelay: map[string]time.Duration{},
			restarts: map[string]int32{}, purged: map[string]bool{}, startedAt: map[string]time.Time{}}
		for range rapid.IntRange(0, 2).Draw(t, "ticksBefore") {
			d.m.Step(Tick(), d.now)
		}
		reason := rapid.SampledFrom([]string{"OutOfcpu", "OutOfmemory", "OutOfpods", "NodeAffinity", "UnexpectedAdmissionError"}).Draw(t, "reason")
		st, acts := d.m.Step(Rejected("node-1", reason, "refused"), d.now)
		if st.Phase != api.PodFailed || st.Reason != reason || st.Message != "Pod was rejected: refused" {
			t.Fatalf("after the rejection: phase %s, reason %q, message %q", st.Phase, st.Reason, st.Message)
		}
		if !hasAction(acts, ActionRecordEvent) || !hasAction(acts, ActionReportStatus) {
			t.Fatalf("after the rejection: actions %v, want the event and the status", acts)
		}
		names := d.names()
		for range rapid.IntRange(1, 60).Draw(t, "events") {
			d.now = d.now.Add(rapid.SampledFrom([]time.Duration{0, time.Second, time.Minute}).Draw(t, "dt"))
			c := rapid.SampledFrom(names).Draw(t, "container")
			ev := rapid.SampledFrom([]Event{Scheduled("node-1"), SandboxReady("10.0.0.3"), ImagePulled(c), ContainerStarted(c),
				ContainerExited(c, 1, ""), ProbeResult(c, api.ProbeLiveness, false), PostStartFinished(c), PreStopFinished(c),
				SandboxDied(), NodeUnreachable(), Tick(), Rejected("node-2", "OutOfcpu", "x"), DeletionRequested(30)}).Draw(t, "event")
			st, acts = d.m.Step(ev, d.now)
			if st.Phase != api.PodFailed || st.Reason != reason {
				t.Fatalf("after %v: phase %s, reason %q; want Failed, %s", ev, st.Phase, st.Reason, reason)
			}
			for _, list := range [][]api.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
				for _, cs := range list {
					if cs.State.Running != nil {
						t.Fatalf("after %v: container %s is running", ev, cs.Name)
					}
				}
			}
			for _, a := range acts {
				switch a.Kind {
				case ActionReportStatus, ActionRecordEvent, ActionRemovePod:
				default:
					t.Fatalf("after %v: a rejected pod asks for %v", ev, a)
				}
			}
		}
	})
}

// crashLoopShown is what `kubectl get pods -w` shows of a crash-looping
// container: Running, Error (its termination) or its waiting reason.
func crashLoopShown(cs *api.ContainerStatus) string {
	switch {
	case cs.State.Running != nil:
		return "Running"
	case cs.State.Terminated != nil:
		return "Error"
	case cs.State.Waiting != nil:
		return cs.State.Waiting.Reason
	}
	return ""
}

// The reported status sequence of a crash loop alternates as upstream's,
// for a kubelet syncing every second: after each exit the sync that sees
// it reports Error; when the restart is held back, the next sync (one
// second later) reports CrashLoopBackOff, which stays until the container
// runs again; so the reported states read Running, Error, then either
// Running or CrashLoopBackOff and Running, and so on — never
// CrashLoopBackOff right after Running, never Error right after
// CrashLoopBackOff.
func TestPropertyCrashLoopStatusSequence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := MachineConfig{ImagesPresent: []string{"busybox:1.28"}}
		if rapid.Bool().Draw(t, "customBackoff") {
			cfg.Backoff.MaxContainerRestartPeriod = rapid.SampledFrom([]time.Duration{time.Second, 5 * time.Second, 45 * time.Second}).Draw(t, "max")
		}
		policy := rapid.SampledFrom([]api.RestartPolicy{api.RestartPolicyAlways, api.RestartPolicyOnFailure}).Draw(t, "policy")
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "crasher", Namespace: "default", UID: "c1"},
			Spec: api.PodSpec{RestartPolicy: policy, Containers: []api.Container{{Name: "app", Image: "busybox:1.28"}}}}
		m := NewMachine(pod, cfg)
		runs := rapid.SliceOfN(rapid.SampledFrom([]int{1, 2, 7, 30, 200, 601}), 1, 12).Draw(t, "runSeconds")
		var shown []string // the container's state at each reported status
		var shownAt []int  // and the second it was reported at
		var heldAt []int   // seconds at which a BackOff held a restart
		exitAt, started, second, exits := -1, 0, 0, 0
		var step func(ev Event)
		step = func(ev Event) {
			st, acts := m.Step(ev, machineT0.Add(time.Duration(second)*time.Second))
			for _, a := range acts {
				switch {
				case a.Kind == ActionReportStatus:
					if s := crashLoopShown(&st.ContainerStatuses[0]); len(shown) == 0 || shown[len(shown)-1] != s {
						shown = append(shown, s)
						shownAt = append(shownAt, second)
					}
				case a.Kind == ActionRecordEvent && a.Event.Reason == "BackOff":
					heldAt = append(heldAt, second)
				}
			}
			for _, a := range acts {
				switch a.Kind {
				case ActionCreateSandbox:
					step(SandboxReady("10.0.0.3"))
				case ActionStartContainer:
					step(ContainerStarted("app"))
					if started < len(runs) {
						exitAt = second + runs[started]
					}
					started++
				}
			}
		}
		step(Scheduled("node-1"))
		for second = 1; second < 4000 && started <= len(runs); second++ {
			// The kubelet syncs every second: on the exit (the runtime's
			// event), or on its own.
			if second == exitAt {
				exitAt = -1
				exits++
				step(ContainerExited("app", 1, ""))
			} else {
				step(Tick())
			}
		}
		for i := 1; i < len(shown); i++ {
			prev, cur := shown[i-1], shown[i]
			ok := prev == "ContainerCreating" && cur == "Running" ||
				prev == "Running" && cur == "Error" ||
				prev == "Error" && (cur == "Running" || cur == CrashLoopBackOff) ||
				prev == CrashLoopBackOff && cur == "Running"
			if !ok {
				t.Fatalf("reported %s after %s: %s", cur, prev, strings.Join(shown, " → "))
			}
			// CrashLoopBackOff comes with the sync after the one that
			// reported the exit, one second later.
			if cur == CrashLoopBackOff && shownAt[i] != shownAt[i-1]+1 {
				t.Fatalf("CrashLoopBackOff reported at %ds, Error at %ds: %s", shownAt[i], shownAt[i-1], strings.Join(shown, " → "))
			}
		}
		// Every restart held back shows CrashLoopBackOff; each exit
		// shows Error first.
		if n, m := strings.Count(strings.Join(shown, " "), CrashLoopBackOff), len(heldAt); n != m {
			t.Fatalf("%d back-offs held a restart, %d CrashLoopBackOff shown: %s", m, n, strings.Join(shown, " → "))
		}
		if n := strings.Count(strings.Join(shown, " "), "Error"); n != exits {
			t.Fatalf("%d exits, %d Error shown: %s", exits, n, strings.Join(shown, " → "))
		}
	})
}

// A container whose postStart hook is pending is never reported running
// nor started: from the ActionRunPostStart that begins an exec hook until
// the caller reports its end, and while the Machine's own record says the
// hook runs (sleep hooks included), its status shows no running state.
func TestPropertyPendingPostStartNeverRunning(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genMachinePod(t)
		// Every app container gets a postStart hook here.
		for i := range pod.Spec.Containers {
			c := &pod.Spec.Containers[i]
			if c.Lifecycle == nil {
				c.Lifecycle = &api.Lifecycle{}
			}
			if c.Lifecycle.PostStart == nil {
				c.Lifecycle.PostStart = &api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"warm-up"}}}
			}
		}
		d := &machineDriver{pod: pod, cfg: MachineConfig{ImagesPresent: []string{"busybox:1.28", "nginx", "envoy:v1"}}, now: machineT0,
			initDone: map[string]bool{}, retryAt: map[string]time.Time{}, lastDelay: map[string]time.Duration{},
			restarts: map[string]int32{}, purged: map[string]bool{}, startedAt: map[string]time.Time{}}
		d.m = NewMachine(pod, d.cfg)
		execPending := map[string]bool{} // exec hooks begun and not reported
		check := func(ev Event) {
			for name := range execPending {
				if cs := d.st.FindContainerStatus(name); cs != nil && (cs.State.Running != nil || cs.Started != nil && *cs.Started) {
					t.Fatalf("after %v: %s is reported running (started %v) while its postStart hook runs", ev, name, *cs.Started)
				}
			}
			d.m.eachContainer(func(c *mcontainer) {
				if !c.postStart {
					return
				}
				if cs := d.st.FindContainerStatus(c.spec.Name); cs != nil && cs.State.Running != nil {
					t.Fatalf("after %v: %s is reported running while its postStart hook is pending", ev, c.spec.Name)
				}
			})
		}
		d.step(t, Scheduled("node-1"))
		for range rapid.IntRange(1, 100).Draw(t, "steps") {
			d.now = d.now.Add(rapid.SampledFrom([]time.Duration{0, time.Second, 5 * time.Second, time.Minute}).Draw(t, "dt"))
			ev := d.drawEvent(t)
			if ev.Kind == EventPostStartFinished {
				delete(execPending, ev.Container)
			}
			d.step(t, ev)
			for _, a := range d.acts {
				if a.Kind == ActionRunPostStart {
					if c, _ := pod.Spec.FindContainer(a.Container); c.Container.Lifecycle.PostStart.Exec != nil {
						execPending[a.Container] = true
					}
				}
			}
			check(ev)
		}
	})
}
