package lifecycle

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// A DELETE with a grace period past 2^63 ns kills each container once,
// with that grace period, and waits: the SIGKILL deadline saturates at
// the largest Duration instead of wrapping into the past (which used to
// send the kill with grace 0 right after the first).
func TestMachineHugeGraceKillsOnce(t *testing.T) {
	for _, g := range []int64{10_000_000_000, 1 << 62, math.MaxInt64} {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "u-1"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "img:1", ImagePullPolicy: api.PullIfNotPresent}}}}
		m := NewMachine(pod, MachineConfig{ImagesPresent: []string{"img:1"}})
		t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
		for _, ev := range []Event{Scheduled("node-1"), SandboxReady("10.0.0.1"), ContainerStarted("app")} {
			m.Step(ev, t0)
		}
		now := t0.Add(time.Minute)
		_, acts := m.Step(DeletionRequested(g), now)
		var kills []Action
		for _, a := range acts {
			if a.Kind == ActionKillContainer {
				kills = append(kills, a)
			}
		}
		if len(kills) != 1 || kills[0].GraceSeconds != g {
			t.Errorf("grace %d: kills %v, want one KillContainer(app, %ds)", g, kills, g)
		}
		if d := m.NextDeadline(); !d.IsZero() && !d.After(now) {
			t.Errorf("grace %d: next deadline %v, not after the DELETE at %v", g, d, now)
		}
		if _, acts := m.Step(Tick(), now.Add(time.Hour)); len(acts) != 0 {
			t.Errorf("grace %d: an hour later the machine acts: %v", g, acts)
		}
	}
}

// No grace period or time changes sign on the Machine either: with grace
// periods and preStop sleeps drawn up to the int64 limit, every kill the
// Machine sends comes at or after the DELETE, every stop timeout is at
// least 2 s, and the Machine still stops each container exactly when
// termination.BuildTimeline says it does.
func TestPropertyMachineHugeGraceAgreesWithTimeline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := genStopScenario(t)
		huge := func(label string) int64 {
			return rapid.SampledFrom([]int64{1, 30, maxGraceSeconds - 1, maxGraceSeconds, maxGraceSeconds + 1, 10_000_000_000, 1 << 62, math.MaxInt64}).Draw(t, label)
		}
		if rapid.Bool().Draw(t, "huge-tgps") {
			g := huge("tgps")
			sc.pod.Spec.TerminationGracePeriodSeconds = &g
		}
		if rapid.Bool().Draw(t, "huge-delete") {
			sc.grace = huge("delete")
		}
		for _, list := range [][]api.Container{sc.pod.Spec.Containers, sc.pod.Spec.InitContainers} {
			for i := range list {
				if lc := list[i].Lifecycle; lc != nil && lc.PreStop != nil && lc.PreStop.Sleep != nil && rapid.Bool().Draw(t, "huge-sleep") {
					lc.PreStop.Sleep.Seconds = huge("sleep")
				}
			}
		}
		before, deleted, got := runMachineStop(t, sc)
		for name, f := range got {
			if f.SignalAt < 0 || f.StopAt < f.SignalAt || f.GraceSeconds < 2 {
				t.Fatalf("%s: signal at %v, stop at %v, stop timeout %ds", name, f.SignalAt, f.StopAt, f.GraceSeconds)
			}
		}
		want := timelineFacts(t, asWritten(before, sc.pod), sc, deleted)
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("Machine (+) and BuildTimeline (-) disagree:\n%s", d)
		}
	})
}

const maxGraceSeconds = int64(math.MaxInt64 / int64(time.Second))
