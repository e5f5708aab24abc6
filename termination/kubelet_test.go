package termination

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func TestKubeletPodGrace(t *testing.T) {
	tests := []struct {
		name    string
		pod     *api.Pod
		st      PodWorkerState
		grace   int64
		changed bool
		source  GraceSource
	}{
		{"spec when nothing else", runningPod(i64(30)), PodWorkerState{}, 30, false, SourcePodSpec},
		{"nothing at all gives the minimum", runningPod(nil), PodWorkerState{}, 1, false, SourceMinimum},
		{"deletion grace", terminating(runningPod(i64(30)), t0, 10), PodWorkerState{}, 10, false, SourceDeletionGracePeriod},
		{"deletion grace 0 does not fall back to spec", terminating(runningPod(i64(60)), t0, 0), PodWorkerState{}, 1, false, SourceMinimum},
		{"second delete shortens", terminating(runningPod(i64(30)), t0, 5), PodWorkerState{RecordedGracePeriodSeconds: 30}, 5, true, SourceDeletionGracePeriod},
		{"longer deletion grace ignored", terminating(runningPod(i64(30)), t0, 60), PodWorkerState{RecordedGracePeriodSeconds: 30}, 30, false, SourceRecorded},
		{"eviction override shortens", terminating(runningPod(i64(30)), t0, 30), PodWorkerState{RecordedGracePeriodSeconds: 30, Override: i64(0)}, 1, true, SourceMinimum},
		{"longer override ignored", runningPod(i64(2)), PodWorkerState{RecordedGracePeriodSeconds: 30, Override: i64(60)}, 30, false, SourceRecorded},
		{"override without record", runningPod(i64(5)), PodWorkerState{Override: i64(60)}, 60, false, SourceKillOverride},
		{"negative override floors at 1", runningPod(i64(5)), PodWorkerState{RecordedGracePeriodSeconds: 2, Override: i64(-1)}, 1, true, SourceMinimum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := KubeletPodGrace(tt.pod, tt.st)
			if g.GracePeriodSeconds != tt.grace || g.Changed != tt.changed || g.Source != tt.source {
				t.Errorf("got %+v, want grace=%d changed=%v source=%s", g, tt.grace, tt.changed, tt.source)
			}
			if g.Reason == "" {
				t.Error("no reason")
			}
		})
	}
}

func TestEvictionGraceOverride(t *testing.T) {
	tests := []struct {
		name   string
		pod    *api.Pod
		hard   bool
		cfg    EvictionConfig
		want   int64
		source GraceSource
	}{
		{"hard", runningPod(i64(30)), true, EvictionConfig{MaxPodGracePeriodSeconds: 90}, HardEvictionGracePeriodSeconds, SourceHardEviction},
		{"soft default config", runningPod(i64(30)), false, EvictionConfig{}, 0, SourceEvictionMaxPodGrace},
		{"soft capped by config", runningPod(i64(120)), false, EvictionConfig{MaxPodGracePeriodSeconds: 60}, 60, SourceEvictionMaxPodGrace},
		{"soft capped by pod", runningPod(i64(20)), false, EvictionConfig{MaxPodGracePeriodSeconds: 60}, 20, SourcePodSpec},
		{"soft without pod value", runningPod(nil), false, EvictionConfig{MaxPodGracePeriodSeconds: 60}, 60, SourceEvictionMaxPodGrace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := EvictionGraceOverride(tt.pod, tt.hard, tt.cfg)
			if o.GracePeriodSeconds != tt.want || o.Source != tt.source || o.Reason == "" {
				t.Errorf("got %+v, want %d from %s", o, tt.want, tt.source)
			}
		})
	}
	// The default soft eviction gives the pod the 1 s floor.
	o := EvictionGraceOverride(runningPod(i64(30)), false, EvictionConfig{})
	if g := KubeletPodGrace(runningPod(i64(30)), PodWorkerState{Override: &o.GracePeriodSeconds}); g.GracePeriodSeconds != 1 {
		t.Errorf("default soft eviction: pod grace %d, want 1", g.GracePeriodSeconds)
	}
}

func TestKillTimeout(t *testing.T) {
	tests := []struct {
		pod      *api.Pod
		override *int64
		want     time.Duration
	}{
		{runningPod(i64(30)), nil, 45 * time.Second},
		{runningPod(i64(31)), nil, 46 * time.Second},
		{runningPod(i64(30)), i64(2), 10 * time.Second},
		{runningPod(nil), nil, 10 * time.Second},
		{runningPod(i64(30)), i64(100), 150 * time.Second},
		{nil, i64(30), 0}, // a nil pod has no kill to time
	}
	for _, tt := range tests {
		if got := KillTimeout(tt.pod, tt.override); got != tt.want {
			t.Errorf("KillTimeout(%v, %v) = %s, want %s", tt.pod, ptrStr(tt.override), got, tt.want)
		}
	}
}
