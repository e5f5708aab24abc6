package lifecycle

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

func TestBackoffParams(t *testing.T) {
	tests := []struct {
		b            Backoff
		initial, max time.Duration
	}{
		{Backoff{}, 10 * time.Second, 300 * time.Second},
		{Backoff{MaxContainerRestartPeriod: 60 * time.Second}, 10 * time.Second, 60 * time.Second},
		{Backoff{MaxContainerRestartPeriod: 5 * time.Second}, 5 * time.Second, 5 * time.Second},
		{Backoff{MaxContainerRestartPeriod: 10 * time.Second}, 10 * time.Second, 10 * time.Second},
		{Backoff{ReduceDefaultDecay: true}, time.Second, 60 * time.Second},
		{Backoff{ReduceDefaultDecay: true, MaxContainerRestartPeriod: 500 * time.Millisecond}, 500 * time.Millisecond, 500 * time.Millisecond},
	}
	for _, tc := range tests {
		if got := tc.b.Initial(); got != tc.initial {
			t.Errorf("%+v: Initial = %s, want %s", tc.b, got, tc.initial)
		}
		if got := tc.b.Max(); got != tc.max {
			t.Errorf("%+v: Max = %s, want %s", tc.b, got, tc.max)
		}
	}
}

// replay runs a container through the kubelet's loop: each run lasts the
// given seconds, and the container is restarted as soon as NextRestart
// allows (keys[i] is run i's key, keys[len(runs)] the key after it). It
// returns the delay after each exit and the back-off recorded after each
// restart.
func replay(t *testing.T, b Backoff, runSeconds []int, keys []string) (delays, after []time.Duration) {
	t.Helper()
	var h RestartHistory
	start := fxT0
	for i, s := range runSeconds {
		finish := start.Add(time.Duration(s) * time.Second)
		h.Runs = append(h.Runs, Run{Key: keys[i], StartedAt: start, FinishedAt: finish})
		h.Key = keys[i+1]
		d, err := b.NextRestart(h, finish)
		if err != nil {
			t.Fatal(err)
		}
		if !d.At.Equal(finish.Add(d.Delay)) {
			t.Fatalf("run %d: At %v is not finish + Delay %s", i, d.At, d.Delay)
		}
		if d.Delay > 0 {
			if d.Allowed || d.Code != InBackoff || d.Reason != CrashLoopBackOff {
				t.Fatalf("run %d: at the exit with delay %s the restart must wait: %+v", i, d.Delay, d)
			}
			// One second before the end it still waits; at the end it may go.
			if early, _ := b.NextRestart(h, d.At.Add(-time.Second)); early.Allowed {
				t.Fatalf("run %d: allowed a second before %v", i, d.At)
			}
			if d, _ = b.NextRestart(h, d.At); !d.Allowed || d.Code != BackoffElapsed {
				t.Fatalf("run %d: not allowed at %v: %+v", i, d.At, d)
			}
		}
		delays = append(delays, d.Delay)
		after = append(after, d.Entry.Delay)
		start = d.At
	}
	return delays, after
}

func secs(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, s := range v {
		out[i] = time.Duration(s) * time.Second
	}
	return out
}

func sameKeys(n int) []string {
	keys := make([]string, n+1)
	for i := range keys {
		keys[i] = "k"
	}
	return keys
}

func TestBackoffSequences(t *testing.T) {
	tests := []struct {
		name       string
		b          Backoff
		runs       []int
		keys       []string
		wantDelays []time.Duration
		wantAfter  []time.Duration
	}{
		{
			name:       "doubling to the cap",
			runs:       []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
			wantDelays: secs(0, 10, 20, 40, 80, 160, 300, 300, 300, 300),
			wantAfter:  secs(10, 20, 40, 80, 160, 300, 300, 300, 300, 300),
		},
		{
			name:       "a run over 10 minutes resets",
			runs:       []int{1, 1, 1, 700, 1},
			wantDelays: secs(0, 10, 20, 0, 10),
			wantAfter:  secs(10, 20, 40, 10, 20),
		},
		{
			name:       "a run of exactly 10 minutes does not reset",
			runs:       []int{1, 1, 600},
			wantDelays: secs(0, 10, 20),
			wantAfter:  secs(10, 20, 40),
		},
		{
			name:       "long runs within the window still wait",
			runs:       []int{30, 339, 5},
			wantDelays: secs(0, 10, 20),
			wantAfter:  secs(10, 20, 40),
		},
		{
			name:       "max restart period 60s",
			b:          Backoff{MaxContainerRestartPeriod: time.Minute},
			runs:       []int{1, 1, 1, 1, 1, 1},
			wantDelays: secs(0, 10, 20, 40, 60, 60),
			wantAfter:  secs(10, 20, 40, 60, 60, 60),
		},
		{
			name:       "max restart period below the initial delay",
			b:          Backoff{MaxContainerRestartPeriod: 5 * time.Second},
			runs:       []int{1, 1, 1},
			wantDelays: secs(0, 5, 5),
			wantAfter:  secs(5, 5, 5),
		},
		{
			name:       "a new image starts afresh",
			runs:       []int{1, 1, 1, 1, 1},
			keys:       []string{"v1", "v1", "v1", "v2", "v2", "v2"},
			wantDelays: secs(0, 10, 0, 10, 20),
			wantAfter:  secs(10, 20, 10, 20, 40),
		},
		{
			name:       "going back to an old image finds its back-off",
			runs:       []int{1, 1, 1, 1},
			keys:       []string{"v1", "v1", "v2", "v1", "v1"},
			wantDelays: secs(0, 0, 10, 20),
			wantAfter:  secs(10, 10, 20, 40),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			keys := tc.keys
			if keys == nil {
				keys = sameKeys(len(tc.runs))
			}
			delays, after := replay(t, tc.b, tc.runs, keys)
			if d := cmp.Diff(tc.wantDelays, delays); d != "" {
				t.Errorf("delays (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantAfter, after); d != "" {
				t.Errorf("back-off after restart (-want +got):\n%s", d)
			}
		})
	}
}

func TestNextRestartCodes(t *testing.T) {
	var b Backoff
	d, err := b.NextRestart(RestartHistory{}, fxT0)
	if err != nil || d.Code != NeverStarted || !d.Allowed {
		t.Errorf("empty history: %+v, %v", d, err)
	}
	d, err = b.NextRestart(RestartHistory{Runs: []Run{{Key: "k", StartedAt: fxT0}}}, fxT0.Add(time.Hour))
	if err != nil || d.Code != StillRunning || d.Allowed {
		t.Errorf("running container: %+v, %v", d, err)
	}
	d, err = b.NextRestart(RestartHistory{Runs: []Run{{Key: "k", StartedAt: fxT0, FinishedAt: fxT0.Add(time.Second)}}}, fxT0.Add(time.Second))
	if err != nil || d.Code != NoBackoff || !d.Allowed || d.Delay != 0 || d.Entry.Delay != 10*time.Second {
		t.Errorf("first exit: %+v, %v", d, err)
	}
	h := RestartHistory{Runs: []Run{
		{Key: "k", StartedAt: fxT0, FinishedAt: fxT0.Add(time.Second)},
		{Key: "k", StartedAt: fxT0.Add(time.Second), FinishedAt: fxT0.Add(20 * time.Minute)},
	}}
	d, err = b.NextRestart(h, fxT0.Add(20*time.Minute))
	if err != nil || d.Code != BackoffReset || !d.Allowed || d.Entry.Delay != 10*time.Second {
		t.Errorf("long run: %+v, %v", d, err)
	}
}

func TestNextRestartBadHistory(t *testing.T) {
	var b Backoff
	bad := []RestartHistory{
		{Runs: []Run{{StartedAt: fxT0, FinishedAt: fxT0.Add(-time.Second)}}},
		{Runs: []Run{{StartedAt: fxT0}, {StartedAt: fxT0.Add(time.Second)}}},
		{Runs: []Run{{StartedAt: fxT0, FinishedAt: fxT0.Add(time.Minute)}, {StartedAt: fxT0.Add(time.Second)}}},
	}
	for i, h := range bad {
		if _, err := b.NextRestart(h, fxT0); !errors.Is(err, ErrBadHistory) {
			t.Errorf("history %d: error %v, want ErrBadHistory", i, err)
		}
	}
}

func TestBackoffKey(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: "u"}}
	base := api.Container{Name: "app", Image: "busybox:1", Resources: api.ResourceRequirements{
		Limits: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("1"), api.ResourceMemory: api.MustParseQuantity("1Gi")},
	}}
	same := base
	same.Resources = api.ResourceRequirements{Limits: api.ResourceList{api.ResourceMemory: api.MustParseQuantity("1Gi"), api.ResourceCPU: api.MustParseQuantity("1000m")}}
	same.Command = []string{"sleep"} // not part of the key
	if BackoffKey(pod, &base) != BackoffKey(pod, &same) {
		t.Errorf("equal image and resources must give equal keys:\n%s\n%s", BackoffKey(pod, &base), BackoffKey(pod, &same))
	}
	newImage := base
	newImage.Image = "busybox:2"
	newRes := base
	newRes.Resources = api.ResourceRequirements{Limits: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("2")}}
	otherPod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: "v"}}
	for name, k := range map[string]string{
		"image":     BackoffKey(pod, &newImage),
		"resources": BackoffKey(pod, &newRes),
		"pod UID":   BackoffKey(otherPod, &base),
	} {
		if k == BackoffKey(pod, &base) {
			t.Errorf("a different %s must give a different key", name)
		}
	}
}

// TestBackoffProperties: whatever the run lengths and the configured cap,
// delays never exceed the cap, the first restart of a key is immediate, and
// each further back-off is the initial one (after a reset) or double the
// previous, capped.
func TestBackoffProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b Backoff
		if rapid.Bool().Draw(t, "configured") {
			b.MaxContainerRestartPeriod = time.Duration(rapid.IntRange(1, 900).Draw(t, "maxSeconds")) * time.Second
		}
		initial, max := b.Initial(), b.Max()
		if initial > max || initial <= 0 {
			t.Fatalf("initial %s, max %s", initial, max)
		}
		n := rapid.IntRange(1, 25).Draw(t, "runs")
		var h RestartHistory
		start := fxT0
		var prev time.Duration
		for i := range n {
			run := time.Duration(rapid.IntRange(0, 800).Draw(t, "runSeconds")) * time.Second
			finish := start.Add(run)
			h.Runs = append(h.Runs, Run{Key: "k", StartedAt: start, FinishedAt: finish})
			d, err := b.NextRestart(h, finish)
			if err != nil {
				t.Fatal(err)
			}
			if d.Delay > max || d.Entry.Delay > max {
				t.Fatalf("run %d: delay %s / back-off %s over the cap %s", i, d.Delay, d.Entry.Delay, max)
			}
			reset := i == 0 || run > BackoffResetAfter
			switch {
			case reset && (d.Delay != 0 || d.Entry.Delay != initial):
				t.Fatalf("run %d (%s): want an immediate restart and back-off %s, got %s / %s", i, run, initial, d.Delay, d.Entry.Delay)
			case !reset && d.Delay != prev:
				t.Fatalf("run %d: delay %s, want the recorded back-off %s", i, d.Delay, prev)
			case !reset && d.Entry.Delay != min(2*prev, max):
				t.Fatalf("run %d: back-off %s, want min(2×%s, %s)", i, d.Entry.Delay, prev, max)
			}
			prev = d.Entry.Delay
			start = d.At
			if start.Before(finish) {
				start = finish
			}
		}
	})
}
