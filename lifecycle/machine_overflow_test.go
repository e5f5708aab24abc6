package lifecycle

import (
	"math"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
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
