package lifecycle

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// TestMachineRendersOnlyWhatChanged checks the Machine's incremental
// status against a full render: after every step each container's status
// in the Machine's lists is the one rendered afresh from its record, and
// no status a Step returned earlier has changed since (the lists are
// shared between steps and must never be written to).
func TestMachineRendersOnlyWhatChanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genMachinePod(t)
		cfg := MachineConfig{}
		if rapid.Bool().Draw(t, "imagesPresent") {
			cfg.ImagesPresent = []string{"busybox:1.28"}
		}
		d := &machineDriver{pod: pod, cfg: cfg, m: NewMachine(pod, cfg), now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
			initDone: map[string]bool{}, retryAt: map[string]time.Time{}, lastDelay: map[string]time.Duration{}, restarts: map[string]int32{},
			purged: map[string]bool{}, startedAt: map[string]time.Time{}}
		var returned []api.PodStatus
		var snapshots [][]byte
		check := func(ev Event) {
			m := d.m
			hasInit := len(m.init) > 0
			for k, list := range [3][]mcontainer{m.init, m.regular, m.ephemeral} {
				got := m.statuses[k]
				if got == nil || !m.scheduled || m.nodeLost || m.removed || m.frozen || m.rejected {
					continue // the step rendered no container status
				}
				for i := range list {
					if want := m.renderStatus(&list[i], hasInit); !reflect.DeepEqual(got[i], want) {
						t.Fatalf("after %v at %v: status of %s is stale:\n got: %+v\nwant: %+v", ev, d.now, list[i].spec.Name, got[i], want)
					}
				}
			}
			b, err := json.Marshal(d.st)
			if err != nil {
				t.Fatal(err)
			}
			returned, snapshots = append(returned, d.st), append(snapshots, b)
		}
		d.step(t, Scheduled("node-1"))
		check(Scheduled("node-1"))
		steps := rapid.IntRange(1, 80).Draw(t, "steps")
		for range steps {
			d.now = d.now.Add(rapid.SampledFrom([]time.Duration{0, time.Second, 5 * time.Second, 10 * time.Second,
				40 * time.Second, 5 * time.Minute}).Draw(t, "dt"))
			ev := d.drawEvent(t)
			d.step(t, ev)
			check(ev)
		}
		for i, st := range returned {
			if b, _ := json.Marshal(st); string(b) != string(snapshots[i]) {
				t.Fatalf("the status returned by step %d changed later:\nthen: %s\n now: %s", i, snapshots[i], b)
			}
		}
	})
}

// TestMachineStepAllocationsBounded checks that a step's work does not
// grow with the pod beyond a copy of a status list: a step that changes
// one container allocates as many objects in a pod of 1,000 containers as
// in a pod of 10, and a tick that changes nothing allocates nothing per
// container. (BenchmarkMachineStepContainers measures the time.)
func TestMachineStepAllocationsBounded(t *testing.T) {
	allocs := func(n int) (flip, tick float64) {
		apps := make([]api.Container, n)
		for i := range apps {
			apps[i] = api.Container{Name: "c" + strconv.Itoa(i), Image: "busybox", ReadinessProbe: &api.Probe{}}
		}
		pod := appPod(api.RestartPolicyAlways, nil, apps...)
		m := NewMachine(pod, present)
		now := machineT0
		m.Step(Scheduled("n1"), now)
		m.Step(SandboxReady("10.0.0.1"), now)
		for i := range apps {
			m.Step(ContainerStarted(apps[i].Name), now)
			m.Step(ProbeResult(apps[i].Name, api.ProbeReadiness, true), now)
		}
		if st := m.Pod().Status; st.Phase != api.PodRunning || api.FindCondition(st.Conditions, api.PodReady).Status != api.ConditionTrue {
			t.Fatalf("%d containers: pod not running and ready: %s", n, st.Phase)
		}
		ready := false
		flip = testing.AllocsPerRun(20, func() {
			now = now.Add(time.Second)
			m.Step(ProbeResult("c0", api.ProbeReadiness, ready), now)
			ready = !ready
		})
		tick = testing.AllocsPerRun(20, func() {
			now = now.Add(time.Second)
			m.Step(Tick(), now)
		})
		return flip, tick
	}
	smallFlip, smallTick := allocs(10)
	bigFlip, bigTick := allocs(1000)
	t.Logf("allocations per step: a readiness flip %v at 10 containers, %v at 1,000; a tick %v, %v", smallFlip, bigFlip, smallTick, bigTick)
	if bigFlip > smallFlip+5 || bigTick > smallTick+5 {
		t.Errorf("allocations per step grow with the pod: a readiness flip %v at 10 containers, %v at 1,000; a tick %v, %v",
			smallFlip, bigFlip, smallTick, bigTick)
	}
}

// TestMachineCrashLoopBackOffStaysUntilTheRestart: a container whose
// status shows CrashLoopBackOff while its pod re-runs its init containers
// in a new sandbox keeps that waiting reason past the end of its back-off,
// until it is started again, as the kubelet's reason cache keeps a failed
// start until a start succeeds: nothing happens when the back-off ends, so
// the Machine does not ask to be woken then.
func TestMachineCrashLoopBackOffStaysUntilTheRestart(t *testing.T) {
	pod := appPod(api.RestartPolicyAlways, []api.Container{initC("init-a")}, api.Container{Name: "app", Image: "busybox"})
	m := NewMachine(pod, present)
	at := func(d time.Duration) time.Time { return machineT0.Add(d) }
	for _, s := range []struct {
		d  time.Duration
		ev Event
	}{
		{0, Scheduled("n1")}, {0, SandboxReady("10.0.0.1")}, {0, ContainerStarted("init-a")},
		{time.Second, ContainerExited("init-a", 0, "")}, {time.Second, ContainerStarted("app")},
		{10 * time.Second, ContainerExited("app", 1, "")}, {10 * time.Second, ContainerStarted("app")}, // restarted at once
		{11 * time.Second, ContainerExited("app", 1, "")}, // back-off 10 s: until 21 s
		{12 * time.Second, SandboxDied()}, {13 * time.Second, SandboxReady("10.0.0.2")}, {13 * time.Second, ContainerStarted("init-a")},
	} {
		m.Step(s.ev, at(s.d))
	}
	waiting := func(when string) {
		t.Helper()
		if w := m.Pod().Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != CrashLoopBackOff {
			t.Fatalf("app at %s: %+v, want waiting in CrashLoopBackOff", when, m.Pod().Status.ContainerStatuses[0].State)
		}
	}
	waiting("13s")
	if got := m.NextDeadline(); !got.IsZero() {
		t.Errorf("NextDeadline = %v, want none: nothing is timed while init-a runs", got)
	}
	if _, acts := m.Step(Tick(), at(21*time.Second)); len(acts) != 0 {
		t.Errorf("at 21s: actions %v, want none", acts)
	}
	waiting("21s")
	_, acts := m.Step(ContainerExited("init-a", 0, ""), at(25*time.Second))
	if !hasAction(acts, ActionStartContainer) {
		t.Fatalf("at 25s: actions %v, want app started", acts)
	}
	waiting("25s, while app starts")
	st, _ := m.Step(ContainerStarted("app"), at(25*time.Second))
	if st.ContainerStatuses[0].State.Running == nil {
		t.Errorf("app after its start: %+v, want running", st.ContainerStatuses[0].State)
	}
}
