package lifecycle

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// TestPropertyKilledPodNeverRunsAgain: once the kubelet kills a pod itself
// (Killed: an eviction, a node shutdown, a critical pod's admission),
// whatever its restartPolicy and whatever happens next (exits, probe
// results, deletions, more kills, nonsense), no container of it is started again and no sandbox is
// created; every status reported from then on has the kill's phase,
// reason and message and its DisruptionTarget condition; and once the
// runtime has answered every kill, the pod is terminal.
func TestPropertyKilledPodNeverRunsAgain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := genMachinePod(t)
		cfg := MachineConfig{ImagesPresent: []string{"busybox:1.28", "nginx", "envoy:v1"}}
		d := &machineDriver{pod: pod, cfg: cfg, m: NewMachine(pod, cfg), now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
			initDone: map[string]bool{}, retryAt: map[string]time.Time{}, lastDelay: map[string]time.Duration{}, restarts: map[string]int32{},
			purged: map[string]bool{}, startedAt: map[string]time.Time{}}
		d.step(t, Scheduled("node-1"))
		before := rapid.IntRange(0, 40).Draw(t, "before")
		after := rapid.IntRange(1, 60).Draw(t, "after")
		dt := rapid.SampledFrom([]time.Duration{0, time.Second, 5 * time.Second, 40 * time.Second, 5 * time.Minute})
		for i := 0; i < before; i++ {
			d.now = d.now.Add(dt.Draw(t, "dt"))
			d.step(t, d.drawEvent(t))
		}
		grace := rapid.SampledFrom([]int64{0, 1, 30}).Draw(t, "grace")
		reason, message, condMessage := "Evicted", "The node was low on resource: memory.", "The node was low on resource: memory."
		kill := Killed(grace, reason, message)
		if rapid.Bool().Draw(t, "criticalPodPreemption") {
			kill = KilledForCriticalPod()
			reason, message, condMessage = ReasonPreempting, PreemptedMessage, PreemptedConditionMessage
		}
		d.step(t, kill)
		if !d.m.killed {
			return // not running on the node: the kill was ignored
		}
		phase := d.m.phase
		check := func(ev Event) {
			for _, a := range d.acts {
				if a.Kind == ActionStartContainer || a.Kind == ActionCreateSandbox {
					t.Fatalf("after %v: %v after the kill", ev, a)
				}
			}
			st := d.m.Pod().Status
			if d.m.frozen || d.m.nodeLost {
				return // no status generated at this step
			}
			if st.Phase != phase || !phase.IsTerminal() || st.Reason != reason || st.Message != message {
				t.Fatalf("after %v: status %s/%s/%q, want %s/%s/%q", ev, st.Phase, st.Reason, st.Message, phase, reason, message)
			}
			c := api.FindCondition(st.Conditions, api.DisruptionTarget)
			if c == nil || c.Status != api.ConditionTrue || c.Reason != api.PodReasonTerminationByKubelet || c.Message != condMessage {
				t.Fatalf("after %v: DisruptionTarget %+v", ev, c)
			}
		}
		check(kill)
		for i := 0; i < after; i++ {
			d.now = d.now.Add(dt.Draw(t, "dt"))
			var ev Event
			if rapid.IntRange(0, 9).Draw(t, "killAgain") == 0 {
				ev = Killed(rapid.SampledFrom([]int64{0, 1, 30}).Draw(t, "grace"), "Evicted", "again")
			} else {
				ev = d.drawEvent(t)
			}
			d.step(t, ev)
			check(ev)
		}
		// The runtime answers every kill and postStart hook, the clock
		// passes every grace period: the pod ends.
		for i := 0; i < 100 && !d.m.Terminal() && !d.m.nodeLost; i++ {
			d.now = d.now.Add(time.Minute)
			ev := Tick()
			if len(d.pending) > 0 {
				ev, d.pending = d.pending[0], d.pending[1:]
			}
			d.step(t, ev)
			check(ev)
		}
		if !d.m.Terminal() && !d.m.nodeLost {
			t.Fatalf("killed pod not terminal: %s", d.m.Why())
		}
	})
}
