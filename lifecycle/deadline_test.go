package lifecycle

import (
	"math"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func TestPastActiveDeadline(t *testing.T) {
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	i64 := func(v int64) *int64 { return &v }
	tests := []struct {
		name      string
		ads       *int64
		start     *api.Time
		now       time.Time
		exceeded  bool
		remaining time.Duration
	}{
		{"no deadline", nil, api.NewTimePtr(start), start.Add(time.Hour), false, 0},
		{"no start time", i64(10), nil, start.Add(time.Hour), false, 0},
		{"zero start time", i64(10), &api.Time{}, start.Add(time.Hour), false, 0},
		{"before", i64(30), api.NewTimePtr(start), start.Add(10 * time.Second), false, 20 * time.Second},
		{"one nanosecond before", i64(30), api.NewTimePtr(start), start.Add(30*time.Second - 1), false, 1},
		{"exactly at the deadline", i64(30), api.NewTimePtr(start), start.Add(30 * time.Second), true, 0},
		{"after", i64(30), api.NewTimePtr(start), start.Add(45 * time.Second), true, -15 * time.Second},
		{"zero seconds", i64(0), api.NewTimePtr(start), start, true, 0},
		{"negative seconds", i64(-5), api.NewTimePtr(start), start, true, -5 * time.Second},
		{"now before start", i64(5), api.NewTimePtr(start), start.Add(-time.Second), false, 6 * time.Second},
		{"too large for a duration", i64(math.MaxInt64), api.NewTimePtr(start), start.Add(1000 * time.Hour), false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &api.Pod{Spec: api.PodSpec{ActiveDeadlineSeconds: tt.ads}, Status: api.PodStatus{StartTime: tt.start}}
			ex, rem := PastActiveDeadline(pod, tt.now)
			if ex != tt.exceeded || rem != tt.remaining {
				t.Errorf("PastActiveDeadline = (%v, %v), want (%v, %v)", ex, rem, tt.exceeded, tt.remaining)
			}
			d, ok := ActiveDeadline(pod)
			if ok != (tt.remaining != 0 || tt.exceeded) && tt.name != "zero seconds" {
				t.Errorf("ActiveDeadline ok = %v", ok)
			}
			if ok && !d.Equal(tt.now.Add(rem)) {
				t.Errorf("ActiveDeadline = %v, want now+remaining = %v", d, tt.now.Add(rem))
			}
		})
	}
}
