package termination

import (
	"errors"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func TestCheckGracefulDelete(t *testing.T) {
	tests := []struct {
		name     string
		pod      *api.Pod
		opts     *api.DeleteOptions
		graceful bool
		grace    int64
		source   GraceSource
	}{
		{"no options", runningPod(i64(30)), nil, false, 0, SourceUnset},
		{"spec grace", runningPod(i64(30)), &api.DeleteOptions{}, true, 30, SourcePodSpec},
		{"unset spec grace is 0", runningPod(nil), &api.DeleteOptions{}, true, 0, SourceUnset},
		{"options win", runningPod(i64(30)), &api.DeleteOptions{GracePeriodSeconds: i64(5)}, true, 5, SourceDeleteOptions},
		{"negative options become 1", runningPod(i64(30)), &api.DeleteOptions{GracePeriodSeconds: i64(-3)}, true, 1, SourceNegativeNormalized},
		{"negative spec becomes 1", runningPod(i64(-1)), &api.DeleteOptions{}, true, 1, SourceNegativeNormalized},
		{"unscheduled", func() *api.Pod { p := runningPod(i64(30)); p.Spec.NodeName = ""; return p }(), &api.DeleteOptions{GracePeriodSeconds: i64(10)}, true, 0, SourceUnscheduled},
		{"succeeded", func() *api.Pod { p := runningPod(i64(30)); p.Status.Phase = api.PodSucceeded; return p }(), &api.DeleteOptions{}, true, 0, SourceTerminalPhase},
		{"failed", func() *api.Pod { p := runningPod(i64(30)); p.Status.Phase = api.PodFailed; return p }(), &api.DeleteOptions{GracePeriodSeconds: i64(-1)}, true, 0, SourceTerminalPhase},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckGracefulDelete(tt.pod, tt.opts)
			if got.Graceful != tt.graceful || (tt.graceful && got.GracePeriodSeconds != tt.grace) || got.Source != tt.source {
				t.Errorf("CheckGracefulDelete = %+v, want graceful=%v grace=%d source=%s", got, tt.graceful, tt.grace, tt.source)
			}
		})
	}
}

func TestAPIServerGrace(t *testing.T) {
	type want struct {
		outcome           DeleteOutcome
		graceful, pending bool
		opts              *int64
		ts                *time.Time
		dgps              *int64
		gen               int64
	}
	at := func(sec int) *time.Time { v := t0.Add(time.Duration(sec) * time.Second); return &v }
	tests := []struct {
		name string
		pod  *api.Pod
		opts *api.DeleteOptions
		want want
	}{
		{"default grace 30", runningPod(i64(30)), &api.DeleteOptions{},
			want{OutcomeGraceful, true, false, i64(30), at(30), i64(30), 0}},
		{"nil options act as empty", runningPod(i64(30)), nil,
			want{OutcomeGraceful, true, false, i64(30), at(30), i64(30), 0}},
		{"force", runningPod(i64(30)), &api.DeleteOptions{GracePeriodSeconds: i64(0)},
			want{OutcomeImmediate, true, false, i64(0), at(0), i64(0), 0}},
		{"negative becomes 1", runningPod(i64(30)), &api.DeleteOptions{GracePeriodSeconds: i64(-1)},
			want{OutcomeGraceful, true, false, i64(1), at(1), i64(1), 0}},
		{"generation bumped", func() *api.Pod { p := runningPod(i64(10)); p.Generation = 3; return p }(), &api.DeleteOptions{},
			want{OutcomeGraceful, true, false, i64(10), at(10), i64(10), 4}},
		{"unscheduled is immediate yet graceful", func() *api.Pod { p := runningPod(i64(30)); p.Spec.NodeName = ""; return p }(), &api.DeleteOptions{},
			want{OutcomeImmediate, true, false, i64(0), at(0), i64(0), 0}},
		{"shorten in progress, clamped to now", terminating(runningPod(i64(30)), t0.Add(20*time.Second), 30), &api.DeleteOptions{GracePeriodSeconds: i64(5)},
			want{OutcomeShortened, true, false, i64(5), at(0), i64(1), 0}},
		{"shorten in progress", terminating(runningPod(i64(30)), t0.Add(29*time.Second), 30), &api.DeleteOptions{GracePeriodSeconds: i64(10)},
			want{OutcomeShortened, true, false, i64(10), at(9), i64(10), 0}},
		{"force in progress", terminating(runningPod(i64(30)), t0.Add(20*time.Second), 30), &api.DeleteOptions{GracePeriodSeconds: i64(0)},
			want{OutcomeImmediate, true, false, i64(0), at(0), i64(0), 0}},
		{"lengthen is pending", terminating(runningPod(i64(30)), t0.Add(20*time.Second), 30), &api.DeleteOptions{GracePeriodSeconds: i64(60)},
			want{OutcomePending, false, true, i64(60), at(20), i64(30), 0}},
		{"repeat without grace is pending", terminating(runningPod(i64(30)), t0.Add(20*time.Second), 30), &api.DeleteOptions{},
			want{OutcomePending, false, true, i64(30), at(20), i64(30), 0}},
		{"in progress with grace 0 is removed", terminating(runningPod(i64(30)), t0, 0), &api.DeleteOptions{},
			want{OutcomeImmediate, false, false, nil, at(0), i64(0), 0}},
		{"negative stored grace treated as 1", terminating(runningPod(i64(30)), t0.Add(-15*time.Second), -1), &api.DeleteOptions{},
			want{OutcomePending, false, true, i64(1), at(-15), i64(1), 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := APIServerGrace(tt.pod, tt.opts, t0)
			if err != nil {
				t.Fatal(err)
			}
			w := tt.want
			if d.Outcome != w.outcome || d.Graceful != w.graceful || d.GracefulPending != w.pending || d.Generation != w.gen {
				t.Errorf("decision %+v, want %+v", d, w)
			}
			if !eqPtr(d.GracePeriodSeconds, w.opts) || !eqPtr(d.DeletionGracePeriodSeconds, w.dgps) {
				t.Errorf("options grace %v dgps %v, want %v %v", ptrStr(d.GracePeriodSeconds), ptrStr(d.DeletionGracePeriodSeconds), ptrStr(w.opts), ptrStr(w.dgps))
			}
			if (d.DeletionTimestamp == nil) != (w.ts == nil) || d.DeletionTimestamp != nil && !d.DeletionTimestamp.Equal(*w.ts) {
				t.Errorf("deletionTimestamp %v, want %v", d.DeletionTimestamp, w.ts)
			}
			if d.Reason == "" {
				t.Error("no reason given")
			}
		})
	}
}

func TestAPIServerGraceErrors(t *testing.T) {
	if _, err := APIServerGrace(nil, nil, t0); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: %v", err)
	}
	p := runningPod(i64(30))
	d, err := APIServerGrace(p, &api.DeleteOptions{GracePeriodSeconds: i64(-4), Preconditions: &api.Preconditions{UID: ptr("other")}}, t0)
	if !errors.Is(err, ErrPreconditionFailed) || d.Outcome != OutcomeRejected || *d.GracePeriodSeconds != -4 || d.DeletionTimestamp != nil {
		t.Errorf("UID mismatch: %+v, %v", d, err)
	}
	p.ResourceVersion = "7"
	if _, err := APIServerGrace(p, &api.DeleteOptions{Preconditions: &api.Preconditions{ResourceVersion: ptr("6")}}, t0); !errors.Is(err, ErrPreconditionFailed) {
		t.Errorf("resourceVersion mismatch: %v", err)
	}
	if _, err := APIServerGrace(p, &api.DeleteOptions{Preconditions: &api.Preconditions{UID: ptr("uid-web"), ResourceVersion: ptr("7")}}, t0); err != nil {
		t.Errorf("matching preconditions: %v", err)
	}
	bad := []api.DeleteOptions{
		{OrphanDependents: ptr(true), PropagationPolicy: ptr("Background")},
		{PropagationPolicy: ptr("Sometimes")},
		{DryRun: []string{"Some"}},
	}
	for _, o := range bad {
		if _, err := APIServerGrace(p, &o, t0); !errors.Is(err, ErrInvalidDeleteOptions) {
			t.Errorf("options %+v: %v", o, err)
		}
	}
	if _, err := APIServerGrace(p, &api.DeleteOptions{PropagationPolicy: ptr("Foreground"), DryRun: []string{"All"}}, t0); err != nil {
		t.Errorf("valid options rejected: %v", err)
	}
	_, err = APIServerGrace(p, &api.DeleteOptions{PropagationPolicy: ptr("Sometimes"), DryRun: []string{"All", "Some"}}, t0)
	const want = `termination: invalid delete options: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan"; dryRun[1]: Unsupported value: "Some": supported values: "All"`
	if err == nil || err.Error() != want {
		t.Errorf("bad options: %v, want %s", err, want)
	}
}

func TestAPIServerGraceDoesNotMutate(t *testing.T) {
	p := terminating(runningPod(i64(30)), t0.Add(20*time.Second), -3)
	o := &api.DeleteOptions{GracePeriodSeconds: i64(-2)}
	if _, err := APIServerGrace(p, o, t0); err != nil {
		t.Fatal(err)
	}
	if *p.DeletionGracePeriodSeconds != -3 || *o.GracePeriodSeconds != -2 {
		t.Errorf("inputs modified: pod dgps %d, options %d", *p.DeletionGracePeriodSeconds, *o.GracePeriodSeconds)
	}
}

func eqPtr(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func ptrStr(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// The deletionTimestamp is reported as stored: whole seconds. That shows for a
// request clock with a fraction and for grace periods so large that the
// seconds-to-duration product saturates at the largest Duration.
func TestAPIServerGraceTimestampWholeSeconds(t *testing.T) {
	frac := t0.Add(700 * time.Millisecond)
	d, err := APIServerGrace(runningPod(i64(30)), &api.DeleteOptions{}, frac)
	if err != nil {
		t.Fatal(err)
	}
	if want := t0.Add(30 * time.Second); !d.DeletionTimestamp.Equal(want) {
		t.Errorf("fractional clock: deletionTimestamp %v, want %v", d.DeletionTimestamp, want)
	}
	// 1e10 s is past the largest Duration (upstream's product wraps to
	// 1757-10-01T06:12:06Z): it saturates at 2^63-1 ns, landing on
	// 2317-09-11T11:47:16.854775807Z, stored as 11:47:16.
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	d, err = APIServerGrace(runningPod(i64(10)), &api.DeleteOptions{GracePeriodSeconds: i64(10_000_000_000)}, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2317, 9, 11, 11, 47, 16, 0, time.UTC); !d.DeletionTimestamp.Equal(want) {
		t.Errorf("saturated grace: deletionTimestamp %v, want %v", d.DeletionTimestamp, want)
	}
	// Shortening an in-progress deletion recorded with a huge grace period:
	// that deletion began long before now (upstream's wrapped arithmetic
	// puts the new deadline in 2293), so the new deadline has passed and
	// the timestamp becomes now with period 1.
	p := terminating(runningPod(i64(90)), time.Date(2025, 6, 1, 12, 0, 58, 0, time.UTC), 10_000_000_000)
	d, err = APIServerGrace(p, &api.DeleteOptions{GracePeriodSeconds: i64(30)}, now)
	if err != nil {
		t.Fatal(err)
	}
	if !d.DeletionTimestamp.Equal(now) || *d.DeletionGracePeriodSeconds != 1 {
		t.Errorf("saturated shorten: deletionTimestamp %v period %d, want %v and 1", d.DeletionTimestamp, *d.DeletionGracePeriodSeconds, now)
	}
	// A pending repeat delete reports the recorded timestamp as stored.
	p = terminating(runningPod(i64(90)), time.Date(2025, 6, 1, 11, 59, 53, 846_000_000, time.UTC), 60)
	d, err = APIServerGrace(p, &api.DeleteOptions{}, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2025, 6, 1, 11, 59, 53, 0, time.UTC); !d.GracefulPending || !d.DeletionTimestamp.Equal(want) {
		t.Errorf("pending: %+v, want pending with deletionTimestamp %v", d, want)
	}
}
