package termination

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func prioPod(name string, prio *int32, tgps *int64, phase api.PodPhase) *api.Pod {
	p := runningPod(tgps)
	p.Name, p.UID = name, "uid-"+name
	p.Spec.Priority = prio
	p.Status.Phase = phase
	return p
}

func i32(v int32) *int32 { return &v }

func TestPriorityGroups(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  ShutdownConfig
		want []ShutdownGracePeriodByPodPriority
		err  bool
	}{
		{"disabled", ShutdownConfig{}, nil, false},
		{"migrated", ShutdownConfig{GracePeriod: 30 * time.Second, GracePeriodCriticalPods: 10 * time.Second},
			[]ShutdownGracePeriodByPodPriority{{0, 20}, {2000000000, 10}}, false},
		{"migrated, no critical time", ShutdownConfig{GracePeriod: 60 * time.Second},
			[]ShutdownGracePeriodByPodPriority{{0, 60}, {2000000000, 0}}, false},
		{"sub-second parts truncate", ShutdownConfig{GracePeriod: 10500 * time.Millisecond, GracePeriodCriticalPods: 600 * time.Millisecond},
			[]ShutdownGracePeriodByPodPriority{{0, 9}, {2000000000, 0}}, false},
		{"by priority, sorted", ShutdownConfig{ByPodPriority: []ShutdownGracePeriodByPodPriority{{100000, 10}, {0, 60}, {1000, 120}}},
			[]ShutdownGracePeriodByPodPriority{{0, 60}, {1000, 120}, {100000, 10}}, false},
		{"critical above total", ShutdownConfig{GracePeriod: 10 * time.Second, GracePeriodCriticalPods: 20 * time.Second}, nil, true},
		{"both forms", ShutdownConfig{GracePeriod: 10 * time.Second, ByPodPriority: []ShutdownGracePeriodByPodPriority{{0, 1}}}, nil, true},
		{"negative", ShutdownConfig{GracePeriod: -time.Second}, nil, true},
		{"negative entry", ShutdownConfig{ByPodPriority: []ShutdownGracePeriodByPodPriority{{0, -1}}}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.cfg.PriorityGroups()
			if tc.err {
				if !errors.Is(err, api.ErrInvalidInput) {
					t.Fatalf("error %v, want api.ErrInvalidInput", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The documentation's example: shutdownGracePeriodByPodPriority with four
// classes; pods join the group with the largest priority not above their
// own, and pods below every group join the lowest.
func TestBuildShutdownTimelineByPriority(t *testing.T) {
	cfg := ShutdownConfig{ByPodPriority: []ShutdownGracePeriodByPodPriority{
		{100000, 10}, {10000, 180}, {1000, 120}, {0, 60}}}
	pods := []*api.Pod{
		prioPod("p0", nil, nil, api.PodRunning),
		prioPod("p999", i32(999), nil, api.PodRunning),
		prioPod("p1000", i32(1000), nil, api.PodRunning),
		prioPod("p50000", i32(50000), i64(300), api.PodRunning),
		prioPod("p200000", i32(200000), i64(0), api.PodRunning),
		prioPod("neg", i32(-5), nil, api.PodSucceeded),
	}
	tl, err := BuildShutdownTimeline(pods, cfg, t0)
	if err != nil {
		t.Fatal(err)
	}
	type kill struct {
		Pod   string
		Group int
		Grace int64
		Src   GraceSource
		Phase api.PodPhase
		At    time.Duration
	}
	var got []kill
	for _, k := range tl.Pods {
		got = append(got, kill{k.Pod.Name, k.Group, k.GracePeriodSeconds, k.Source, k.Status.Phase, k.At.Sub(t0)})
	}
	want := []kill{
		{"p0", 0, 60, SourceShutdownGroup, api.PodFailed, 0},
		{"p999", 0, 60, SourceShutdownGroup, api.PodFailed, 0},
		{"p1000", 1, 120, SourceShutdownGroup, api.PodFailed, 60 * time.Second},
		{"p50000", 2, 180, SourceShutdownGroup, api.PodFailed, 180 * time.Second},
		{"p200000", 3, 0, SourcePodSpec, api.PodFailed, 360 * time.Second},
		{"neg", 0, 60, SourceShutdownGroup, api.PodSucceeded, 0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kills (-want +got):\n%s", diff)
	}
	if d := tl.Deadline.Sub(t0); d != 370*time.Second {
		t.Errorf("deadline after %v, want 370s", d)
	}
	if w := tl.Pods[4].Worker.GracePeriodSeconds; w != MinimumPodGracePeriodSeconds {
		t.Errorf("pod worker grace for a 0 s override = %d, want the 1 s floor", w)
	}
	st := tl.Pods[0].Status
	c := api.FindCondition(st.Conditions, api.DisruptionTarget)
	if st.Reason != ReasonNodeShutdown || st.Message != MessageNodeShutdown || c == nil ||
		c.Reason != api.PodReasonTerminationByKubelet || c.Message != MessageNodeShutdown || c.Status != api.ConditionTrue {
		t.Errorf("final status %+v", st)
	}
	if s := tl.String(); s == "" {
		t.Error("empty rendering")
	}
}

func TestBuildShutdownTimelineDisabledAndErrors(t *testing.T) {
	tl, err := BuildShutdownTimeline([]*api.Pod{runningPod(nil)}, ShutdownConfig{}, t0)
	if err != nil || !tl.Disabled || len(tl.Pods) != 0 {
		t.Errorf("empty configuration: %+v, %v", tl, err)
	}
	if _, err := BuildShutdownTimeline([]*api.Pod{nil}, ShutdownConfig{GracePeriod: time.Second}, t0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: %v", err)
	}
}

// An earlier DisruptionTarget condition is replaced; its transition time is
// kept only when its status was already True.
func TestKubeletKillStatus(t *testing.T) {
	p := runningPod(nil)
	p.Generation = 4
	old := t0.Add(-time.Hour)
	p.Status.Conditions = []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue},
		{Type: api.DisruptionTarget, Status: api.ConditionFalse, Reason: "Other", LastTransitionTime: api.NewTime(old)},
	}
	st := KubeletKillStatus(p, api.PodFailed, "Evicted", "low", t0)
	want := []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue},
		{Type: api.DisruptionTarget, Status: api.ConditionTrue, ObservedGeneration: 4, Reason: api.PodReasonTerminationByKubelet, Message: "low", LastTransitionTime: api.NewTime(t0)},
	}
	if diff := cmp.Diff(want, st.Conditions); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if p.Status.Conditions[1].Status != api.ConditionFalse {
		t.Error("the pod was modified")
	}
	p.Status.Conditions[1].Status = api.ConditionTrue
	if st := KubeletKillStatus(p, api.PodFailed, "Evicted", "low", t0); !st.Conditions[1].LastTransitionTime.Equal(old) {
		t.Errorf("transition time %v, want the old %v kept", st.Conditions[1].LastTransitionTime, old)
	}
	if st := KubeletKillStatus(nil, api.PodFailed, "r", "m", t0); st.Phase != api.PodFailed || len(st.Conditions) != 1 {
		t.Errorf("nil pod: %+v", st)
	}
}

// Properties: every pod is killed once, in a group whose priority is the
// largest not above its own (or the lowest), with a grace no longer than
// the group's; groups run one after the other in priority order; a
// Succeeded pod stays Succeeded and every other ends Failed.
func TestBuildShutdownTimelineProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var cfg ShutdownConfig
		if rapid.Bool().Draw(t, "byPriority") {
			for i, n := 0, rapid.IntRange(1, 5).Draw(t, "groups"); i < n; i++ {
				cfg.ByPodPriority = append(cfg.ByPodPriority, ShutdownGracePeriodByPodPriority{
					Priority:                   rapid.SampledFrom([]int32{-10, 0, 1, 999, 1000, 100000, 2000000000}).Draw(t, "prio"),
					ShutdownGracePeriodSeconds: rapid.Int64Range(0, 120).Draw(t, "grace"),
				})
			}
		} else {
			total := rapid.Int64Range(1, 120).Draw(t, "total")
			cfg.GracePeriod = time.Duration(total) * time.Second
			cfg.GracePeriodCriticalPods = time.Duration(rapid.Int64Range(0, total).Draw(t, "critical")) * time.Second
		}
		var pods []*api.Pod
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "pods"); i < n; i++ {
			var prio *int32
			if rapid.Bool().Draw(t, "prio?") {
				prio = i32(rapid.SampledFrom([]int32{-20, 0, 5, 999, 1000, 50000, 2000000000, 2000001000}).Draw(t, "podPrio"))
			}
			var tgps *int64
			if rapid.Bool().Draw(t, "tgps?") {
				tgps = i64(rapid.Int64Range(0, 300).Draw(t, "tgps"))
			}
			pods = append(pods, prioPod(fmt.Sprintf("p%d", i), prio, tgps,
				rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodPending, api.PodSucceeded}).Draw(t, "phase")))
		}
		tl, err := BuildShutdownTimeline(pods, cfg, t0)
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Pods) != len(pods) {
			t.Fatalf("%d kills for %d pods", len(tl.Pods), len(pods))
		}
		for i := 1; i < len(tl.Groups); i++ {
			if tl.Groups[i].Priority < tl.Groups[i-1].Priority || tl.Groups[i].Start.Before(tl.Groups[i-1].End) {
				t.Fatalf("groups out of order: %+v", tl.Groups)
			}
		}
		for i, k := range tl.Pods {
			g := tl.Groups[k.Group]
			var p int32
			if pods[i].Spec.Priority != nil {
				p = *pods[i].Spec.Priority
			}
			lowest := tl.Groups[0].Priority
			if (g.Priority > p && g.Priority != lowest) || !slices.Contains(g.Pods, pods[i]) {
				t.Fatalf("%s (priority %d) in group %d (priority %d)", pods[i].Name, p, k.Group, g.Priority)
			}
			for _, other := range tl.Groups {
				if other.Priority > g.Priority && other.Priority <= p {
					t.Fatalf("%s (priority %d) should join the group of priority %d, not %d", pods[i].Name, p, other.Priority, g.Priority)
				}
			}
			if k.GracePeriodSeconds > g.GracePeriodSeconds || k.GracePeriodSeconds < 0 || !k.At.Equal(g.Start) {
				t.Fatalf("%s: grace %d at %v in group %+v", pods[i].Name, k.GracePeriodSeconds, k.At, g)
			}
			wantPhase := api.PodFailed
			if pods[i].Status.Phase == api.PodSucceeded {
				wantPhase = api.PodSucceeded
			}
			if k.Status.Phase != wantPhase || k.Status.Reason != ReasonNodeShutdown {
				t.Fatalf("%s: status %+v", pods[i].Name, k.Status)
			}
		}
	})
}
