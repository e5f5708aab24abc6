package termination

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func drawOptInt64(t *rapid.T, name string, lo, hi int64) *int64 {
	if rapid.Bool().Draw(t, name+"-set") {
		v := rapid.Int64Range(lo, hi).Draw(t, name)
		return &v
	}
	return nil
}

func drawPod(t *rapid.T) *api.Pod {
	p := runningPod(drawOptInt64(t, "tgps", -5, 120))
	if rapid.IntRange(0, 9).Draw(t, "unscheduled") == 0 {
		p.Spec.NodeName = ""
	}
	p.Status.Phase = rapid.SampledFrom([]api.PodPhase{"", api.PodPending, api.PodRunning, api.PodRunning, api.PodUnknown, api.PodSucceeded, api.PodFailed}).Draw(t, "phase")
	p.Generation = rapid.Int64Range(0, 3).Draw(t, "generation")
	n := rapid.IntRange(1, 3).Draw(t, "containers")
	p.Spec.Containers = nil
	for i := 0; i < n; i++ {
		c := api.Container{Name: fmt.Sprintf("c%d", i)}
		if rapid.Bool().Draw(t, "prestop") {
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: rapid.Int64Range(0, 90).Draw(t, "sleep")}}}
		}
		if rapid.Bool().Draw(t, "liveness") {
			c.LivenessProbe = &api.Probe{TerminationGracePeriodSeconds: drawOptInt64(t, "probe-grace", -5, 120)}
		}
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	if rapid.IntRange(0, 3).Draw(t, "sidecar") == 0 {
		always := api.RestartPolicyAlways
		c := api.Container{Name: "sidecar", RestartPolicy: &always}
		if rapid.Bool().Draw(t, "sidecar-prestop") {
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: rapid.Int64Range(0, 40).Draw(t, "sidecar-sleep")}}}
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	return p
}

// A graceful deletion's grace period never grows, whatever sequence of
// DELETEs arrives, and its deadline never moves later than it was or than
// the moment of the request.
func TestPropertyAPIGraceNeverLengthens(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := drawPod(t)
		now := t0
		steps := rapid.IntRange(1, 8).Draw(t, "deletes")
		for i := 0; i < steps; i++ {
			now = now.Add(time.Duration(rapid.Int64Range(0, 60).Draw(t, "advance")) * time.Second)
			opts := &api.DeleteOptions{GracePeriodSeconds: drawOptInt64(t, "grace", -5, 120)}
			before := pod.DeletionGracePeriodSeconds
			var beforeTS time.Time
			if pod.DeletionTimestamp != nil {
				beforeTS = pod.DeletionTimestamp.Time
			}
			d, err := APIServerGrace(pod, opts, now)
			if err != nil {
				t.Fatal(err)
			}
			if d.DeletionGracePeriodSeconds == nil || *d.DeletionGracePeriodSeconds < 0 {
				if before != nil {
					t.Fatalf("a recorded deletion lost its grace period: %+v", d)
				}
			}
			if before != nil {
				prev := *before
				if prev < 0 {
					prev = 1 // the API server reads a negative stored value as 1
				}
				if got := *d.DeletionGracePeriodSeconds; got > prev {
					t.Fatalf("grace lengthened from %d to %d (%+v)", *before, got, d)
				}
				limit := beforeTS
				if now.After(limit) {
					limit = now
				}
				if d.DeletionTimestamp.After(limit) {
					t.Fatalf("deadline moved later: %s -> %s at %s", beforeTS, d.DeletionTimestamp, now)
				}
			}
			if d.Immediate {
				return // the object is gone
			}
			pod.DeletionTimestamp = api.NewTimePtr(*d.DeletionTimestamp)
			pod.DeletionGracePeriodSeconds = copyInt64(d.DeletionGracePeriodSeconds)
			pod.Generation = d.Generation
		}
	})
}

// The kubelet's pod grace never grows across kill requests, whatever the
// API server and the kubelet's own overrides ask for, and is at least 1 s.
func TestPropertyKubeletGraceNeverLengthens(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := drawPod(t)
		var recorded int64
		steps := rapid.IntRange(1, 10).Draw(t, "kills")
		for i := 0; i < steps; i++ {
			if rapid.Bool().Draw(t, "api-update") {
				pod.DeletionGracePeriodSeconds = drawOptInt64(t, "dgps", -5, 120)
			}
			st := PodWorkerState{RecordedGracePeriodSeconds: recorded, Override: drawOptInt64(t, "override", -5, 120)}
			g := KubeletPodGrace(pod, st)
			if g.GracePeriodSeconds < MinimumPodGracePeriodSeconds {
				t.Fatalf("pod grace %d below the minimum", g.GracePeriodSeconds)
			}
			if recorded != 0 && g.GracePeriodSeconds > recorded {
				// Upstream's one exception: a deletionGracePeriodSeconds of 0
				// (a force deletion) resets the comparison, so an override
				// that follows replaces the 1 s floor.
				dgpsZero := pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == 0
				if !dgpsZero || st.Override == nil || *st.Override != g.GracePeriodSeconds {
					t.Fatalf("pod grace lengthened from %d to %d (%+v)", recorded, g.GracePeriodSeconds, g)
				}
			}
			if g.Changed != (recorded != 0 && recorded != g.GracePeriodSeconds) {
				t.Fatalf("Changed = %v with recorded %d and result %d", g.Changed, recorded, g.GracePeriodSeconds)
			}
			recorded = g.GracePeriodSeconds
		}
	})
}

// Every result respects its floor: 1 s per pod, 2 s per container, 10 s kill
// timeout.
func TestPropertyMinimums(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := drawPod(t)
		pod.DeletionGracePeriodSeconds = drawOptInt64(t, "dgps", -5, 120)
		c := pod.Spec.Containers[rapid.IntRange(0, len(pod.Spec.Containers)-1).Draw(t, "which")]
		var pre *time.Duration
		if rapid.Bool().Draw(t, "prestop-given") {
			d := time.Duration(rapid.Int64Range(-1000, 200000).Draw(t, "prestop-ms")) * time.Millisecond
			pre = &d
		}
		k := ContainerKill{
			ContainerName:       c.Name,
			Reason:              rapid.SampledFrom([]KillReason{"", KillReasonUnknown, KillReasonLivenessProbe, KillReasonStartupProbe, KillReasonFailedPostStartHook, KillReasonRestartAllContainers}).Draw(t, "reason"),
			GracePeriodOverride: drawOptInt64(t, "override", -5, 120),
			PreStopDuration:     pre,
			OrderingWait:        time.Duration(rapid.Int64Range(0, 100000).Draw(t, "wait-ms")) * time.Millisecond,
		}
		r, err := ContainerGrace(pod, k)
		if err != nil {
			t.Fatal(err)
		}
		if r.GracePeriodSeconds < MinimumContainerGracePeriodSeconds {
			t.Fatalf("container grace %d below the minimum (%+v)", r.GracePeriodSeconds, r)
		}
		if g := KubeletPodGrace(pod, PodWorkerState{Override: k.GracePeriodOverride}); g.GracePeriodSeconds < MinimumPodGracePeriodSeconds {
			t.Fatalf("pod grace %d", g.GracePeriodSeconds)
		}
		if kt := KillTimeout(pod, k.GracePeriodOverride); kt < time.Duration(MinimumKillTimeoutSeconds)*time.Second {
			t.Fatalf("kill timeout %s", kt)
		}
	})
}

// Timelines are ordered; no container is killed before it was signalled or
// later than the deadline plus the 2 s extension; the object is removed
// last (or first, for a force deletion).
func TestPropertyTimelineOrdered(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := drawPod(t)
		req := DeleteRequest{ExitAfterSignal: map[string]time.Duration{}}
		if rapid.Bool().Draw(t, "options") {
			req.Options = &api.DeleteOptions{GracePeriodSeconds: drawOptInt64(t, "grace", -5, 90)}
		}
		all := append(append([]api.Container{}, pod.Spec.Containers...), pod.Spec.InitContainers...)
		for _, c := range all {
			if rapid.Bool().Draw(t, "exits") {
				req.ExitAfterSignal[c.Name] = time.Duration(rapid.Int64Range(0, 120000).Draw(t, "exit-ms")) * time.Millisecond
			}
		}
		if rapid.IntRange(0, 3).Draw(t, "restart") == 0 {
			r := time.Duration(rapid.Int64Range(0, 90000).Draw(t, "restart-ms")) * time.Millisecond
			req.KubeletRestart = &r
		}
		tl, err := BuildTimeline(pod, req, t0)
		if err != nil {
			t.Fatal(err)
		}
		signalled := map[string]bool{}
		limit := tl.Deadline.Add(time.Duration(MinimumContainerGracePeriodSeconds) * time.Second)
		for i, e := range tl.Events {
			if i > 0 && e.At.Before(tl.Events[i-1].At) {
				t.Fatalf("events out of order:\n%s", tl)
			}
			if e.Offset != e.At.Sub(t0) {
				t.Fatalf("offset %s for %s", e.Offset, e.At)
			}
			switch e.Kind {
			case TimelineStopSignal:
				signalled[e.Container] = true
			case TimelineKilled:
				if !signalled[e.Container] {
					t.Fatalf("%s killed before its stop signal:\n%s", e.Container, tl)
				}
				if e.At.After(limit) {
					t.Fatalf("%s killed at %s, after deadline %s + 2s:\n%s", e.Container, e.At, tl.Deadline, tl)
				}
			}
		}
		last := tl.Events[len(tl.Events)-1]
		if !tl.API.Immediate && tl.API.Outcome != OutcomePending && last.Kind != TimelineObjectRemoved {
			t.Fatalf("graceful deletion does not end with the object's removal:\n%s", tl)
		}
	})
}

// The collector deletes each pod at most once per pass, never an orphan in
// the pass that first sees its node missing, and only pods it has a rule
// for.
func TestPropertyCollector(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := []*api.Node{
			gcNode("ready", api.ConditionTrue),
			gcNode("down", api.ConditionFalse, api.TaintNodeOutOfService),
			gcNode("notready", api.ConditionFalse),
		}
		var pods []*api.Pod
		n := rapid.IntRange(0, 12).Draw(t, "pods")
		for i := 0; i < n; i++ {
			node := rapid.SampledFrom([]string{"", "ready", "down", "notready", "gone"}).Draw(t, "node")
			phase := rapid.SampledFrom([]api.PodPhase{"", api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown}).Draw(t, "phase")
			p := gcPod("ns", fmt.Sprintf("p%d", i), node, phase, t0.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "age"))*time.Minute))
			if rapid.Bool().Draw(t, "terminating") {
				terminating(p, t0, 30)
			}
			pods = append(pods, p)
		}
		c := NewCollector(GCConfig{TerminatedPodThreshold: rapid.IntRange(-1, 5).Draw(t, "threshold")})
		r1 := c.Step(GCInput{Pods: pods, Nodes: nodes}, t0)
		seen := map[string]bool{}
		for _, a := range r1.Actions {
			if seen[a.Pod] {
				t.Fatalf("%s deleted twice", a.Pod)
			}
			seen[a.Pod] = true
			if a.Reason == GCOrphaned {
				t.Fatalf("orphan %s deleted in the first pass", a.Pod)
			}
		}
		if len(r1.Remaining)+len(r1.Actions) != len(pods) {
			t.Fatalf("%d remaining + %d deleted != %d", len(r1.Remaining), len(r1.Actions), len(pods))
		}
		r2 := c.Step(GCInput{Pods: r1.Remaining, Nodes: nodes}, t0.Add(DefaultOrphanQuarantine))
		for _, p := range r2.Remaining {
			if p.Spec.NodeName == "gone" {
				t.Fatalf("orphan %s survived the second pass", p.Key())
			}
		}
	})
}
