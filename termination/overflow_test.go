package termination

import (
	"math"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// maxGraceSeconds is the longest grace period a time.Duration holds in
// whole seconds; anything longer saturates.
const maxGraceSeconds = int64(math.MaxInt64 / int64(time.Second))

func TestGraceDurationSaturates(t *testing.T) {
	tests := []struct {
		seconds int64
		want    time.Duration
	}{
		{0, 0},
		{30, 30 * time.Second},
		{-1, -time.Second},
		{maxGraceSeconds, time.Duration(maxGraceSeconds) * time.Second},
		{maxGraceSeconds + 1, math.MaxInt64},
		{10_000_000_000, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64},
		{-maxGraceSeconds - 1, math.MinInt64},
		{math.MinInt64, math.MinInt64},
	}
	for _, tt := range tests {
		if got := GraceDuration(tt.seconds); got != tt.want {
			t.Errorf("GraceDuration(%d) = %v, want %v", tt.seconds, got, tt.want)
		}
	}
}

// A deletion with a grace period past 2^63 ns is stamped in the future, not
// in 1733, and its SIGKILL comes after the request.
func TestBuildTimelineHugeGraceDoesNotWrap(t *testing.T) {
	for _, g := range []int64{10_000_000_000, 1 << 62, math.MaxInt64} {
		tl, err := BuildTimeline(runningPod(i64(g)), DeleteRequest{}, t0)
		if err != nil {
			t.Fatal(err)
		}
		if tl.API.DeletionTimestamp == nil || tl.API.DeletionTimestamp.Before(t0) {
			t.Errorf("grace %d: deletionTimestamp %v before the request at %v", g, tl.API.DeletionTimestamp, t0)
		}
		if tl.Deadline.Before(tl.Start) {
			t.Errorf("grace %d: deadline %v before the start %v", g, tl.Deadline, tl.Start)
		}
		killed := false
		for _, e := range tl.Events {
			if e.Offset < 0 || e.At.Before(t0) {
				t.Errorf("grace %d: %s at %v (offset %v) is before the request", g, e.Kind, e.At, e.Offset)
			}
			if e.Kind == TimelineKilled {
				killed = true
				if e.Offset <= 0 {
					t.Errorf("grace %d: SIGKILL at offset %v", g, e.Offset)
				}
			}
		}
		if !killed {
			t.Errorf("grace %d: no SIGKILL in\n%s", g, tl)
		}
	}
}

// The kubelet's kill timeout is at least 10 s however long the grace
// period: g + g/2 and the Duration product saturate instead of wrapping.
func TestKillTimeoutHugeGraceKeepsFloor(t *testing.T) {
	for _, g := range []int64{
		maxGraceSeconds, maxGraceSeconds + 1, 10_000_000_000,
		math.MaxInt64 / 3 * 2, math.MaxInt64/3*2 + 1, 1 << 62, math.MaxInt64,
		math.MinInt64, math.MinInt64 / 2, -1,
	} {
		got := KillTimeout(runningPod(i64(g)), nil)
		if got < 10*time.Second {
			t.Errorf("KillTimeout(grace %d) = %v, want at least 10s", g, got)
		}
		if g > 20 && got != math.MaxInt64 && got < GraceDuration(g) {
			t.Errorf("KillTimeout(grace %d) = %v, shorter than the grace period", g, got)
		}
	}
}

// A preStop sleep of 1e10 s does not "take 0s": its run time saturates at
// the largest Duration instead of wrapping.
func TestPreStopHugeSleepSaturates(t *testing.T) {
	p := withPreStopSleep(runningPod(i64(math.MaxInt64)), "app", 10_000_000_000)
	if got := PreStopRuntime(&p.Spec.Containers[0]); got != math.MaxInt64 {
		t.Errorf("PreStopRuntime = %v, want the largest Duration", got)
	}
	r, err := ContainerGrace(p, ContainerKill{ContainerName: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if r.PreStopElapsed != math.MaxInt64 || r.PreStopSeconds != maxGraceSeconds {
		t.Errorf("preStop elapsed %v (%ds), want the largest Duration (%ds)", r.PreStopElapsed, r.PreStopSeconds, maxGraceSeconds)
	}
	if r.GracePeriodSeconds != math.MaxInt64-maxGraceSeconds {
		t.Errorf("grace %d, want %d", r.GracePeriodSeconds, int64(math.MaxInt64)-maxGraceSeconds)
	}
}

// drawHugeSeconds draws a second count from the ranges where arithmetic
// goes wrong: small values, values around the largest Duration and values
// near the int64 limits, of either sign.
func drawHugeSeconds(t *rapid.T, label string) int64 {
	switch rapid.IntRange(0, 4).Draw(t, label+"-range") {
	case 0:
		return rapid.Int64Range(-5, 120).Draw(t, label)
	case 1:
		return rapid.Int64Range(maxGraceSeconds-100, maxGraceSeconds+100).Draw(t, label)
	case 2:
		return rapid.Int64Range(math.MaxInt64-100, math.MaxInt64).Draw(t, label)
	case 3:
		return rapid.Int64Range(math.MinInt64, math.MinInt64+100).Draw(t, label)
	}
	return rapid.Int64().Draw(t, label)
}

func drawHugeOpt(t *rapid.T, label string) *int64 {
	if rapid.Bool().Draw(t, label+"-set") {
		v := drawHugeSeconds(t, label)
		return &v
	}
	return nil
}

// No grace period, timeout or time in a timeline changes sign or goes
// backwards, however large the grace periods, preStop sleeps and process
// exit times: the deletion is stamped no earlier than the request, every
// step comes at or after it and in order, every stop timeout is at least
// 2 s, the kubelet's kill timeout at least 10 s and a preStop wait never
// negative.
func TestPropertyNoArithmeticChangesSign(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := runningPod(drawHugeOpt(t, "tgps"))
		for i := range p.Spec.Containers {
			if rapid.Bool().Draw(t, "prestop") {
				p.Spec.Containers[i].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: drawHugeSeconds(t, "sleep")}}}
			}
		}
		if rapid.Bool().Draw(t, "sidecar") {
			always := api.RestartPolicyAlways
			c := api.Container{Name: "sidecar", RestartPolicy: &always}
			if rapid.Bool().Draw(t, "sidecar-prestop") {
				c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: drawHugeSeconds(t, "sidecar-sleep")}}}
			}
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		}
		if rapid.Bool().Draw(t, "terminating") {
			p.DeletionTimestamp = api.NewTimePtr(t0.Add(time.Duration(rapid.Int64Range(-3600, 3600).Draw(t, "stamp")) * time.Second))
			p.DeletionGracePeriodSeconds = drawHugeOpt(t, "deletion-grace")
		}
		req := DeleteRequest{Options: &api.DeleteOptions{GracePeriodSeconds: drawHugeOpt(t, "delete-grace")},
			ExitAfterSignal: map[string]time.Duration{}}
		if rapid.Bool().Draw(t, "exits") {
			req.ExitAfterSignal["app"] = time.Duration(rapid.Int64Range(0, math.MaxInt64).Draw(t, "exit"))
		}
		if rapid.Bool().Draw(t, "restart") {
			d := time.Duration(rapid.Int64Range(0, math.MaxInt64).Draw(t, "restart-after"))
			req.KubeletRestart = &d
		}

		if d, err := APIServerGrace(p, req.Options, t0); err == nil && d.DeletionTimestamp != nil && p.DeletionTimestamp == nil && d.DeletionTimestamp.Before(t0) {
			t.Fatalf("deletionTimestamp %v before the request at %v", d.DeletionTimestamp, t0)
		}
		if k := KillTimeout(p, req.Options.GracePeriodSeconds); k < 10*time.Second {
			t.Fatalf("KillTimeout %v, below its 10 s floor", k)
		}
		for _, c := range p.Spec.Containers {
			if d := PreStopRuntime(&c); d < 0 {
				t.Fatalf("PreStopRuntime %v is negative", d)
			}
			r, err := ContainerGrace(p, ContainerKill{ContainerName: c.Name, GracePeriodOverride: req.Options.GracePeriodSeconds})
			if err != nil {
				t.Fatal(err)
			}
			if r.GracePeriodSeconds < MinimumContainerGracePeriodSeconds || r.PreStopElapsed < 0 || r.PreStopSeconds < 0 {
				t.Fatalf("ContainerGrace %+v: a stop timeout below 2 s or a negative preStop time", r)
			}
		}

		tl, err := BuildTimeline(p, req, t0)
		if err != nil {
			t.Fatal(err)
		}
		if !tl.Start.IsZero() && tl.Deadline.Before(tl.Start) {
			t.Fatalf("deadline %v before the start %v", tl.Deadline, tl.Start)
		}
		if tl.Grace.GracePeriodSeconds < 0 {
			t.Fatalf("pod grace %d is negative", tl.Grace.GracePeriodSeconds)
		}
		prev := t0
		for _, e := range tl.Events {
			if e.At.Before(prev) || e.Offset < 0 {
				t.Fatalf("%s [%s] at %v (offset %v) goes back before %v:\n%s", e.Kind, e.Container, e.At, e.Offset, prev, tl)
			}
			prev = e.At
			if e.Kind == TimelineStopSignal && e.GraceSeconds < MinimumContainerGracePeriodSeconds {
				t.Fatalf("stop timeout %d s below the 2 s floor", e.GraceSeconds)
			}
		}
	})
}

// A pod without terminationGracePeriodSeconds is deleted as the API server
// stores it, with the default 30 s, as lifecycle.Machine reads it too; it
// used to be removed at once.
func TestBuildTimelineUnsetGraceIsStoredDefault(t *testing.T) {
	unset, err := BuildTimeline(runningPod(nil), DeleteRequest{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	set, err := BuildTimeline(runningPod(i64(api.DefaultTerminationGracePeriodSeconds)), DeleteRequest{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if unset.API.Outcome != OutcomeGraceful || *unset.API.DeletionGracePeriodSeconds != 30 {
		t.Errorf("unset: %s with deletionGracePeriodSeconds %v, want Graceful with 30", unset.API.Outcome, ptrStr(unset.API.DeletionGracePeriodSeconds))
	}
	if unset.String() != set.String() {
		t.Errorf("unset field:\n%s\nwant as with 30 written out:\n%s", unset, set)
	}
}
