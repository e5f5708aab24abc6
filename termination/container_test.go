package termination

import (
	"errors"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func probePod(tgps *int64, liveness, startup *int64) *api.Pod {
	p := runningPod(tgps)
	p.Spec.Containers[0].LivenessProbe = &api.Probe{TerminationGracePeriodSeconds: liveness}
	p.Spec.Containers[0].StartupProbe = &api.Probe{TerminationGracePeriodSeconds: startup}
	return p
}

func TestContainerGrace(t *testing.T) {
	d := func(s int) *time.Duration { v := time.Duration(s) * time.Second; return &v }
	tests := []struct {
		name       string
		pod        *api.Pod
		kill       ContainerKill
		base, want int64
		source     GraceSource
	}{
		{"spec", runningPod(i64(30)), ContainerKill{ContainerName: "app"}, 30, 30, SourcePodSpec},
		{"liveness probe grace", probePod(i64(3600), i64(6), i64(9)), ContainerKill{ContainerName: "app", Reason: KillReasonLivenessProbe}, 6, 6, SourceLivenessProbe},
		{"startup probe grace", probePod(i64(3600), i64(6), i64(9)), ContainerKill{ContainerName: "app", Reason: KillReasonStartupProbe}, 9, 9, SourceStartupProbe},
		{"probe grace not for deletion", probePod(i64(3600), i64(6), i64(9)), ContainerKill{ContainerName: "app"}, 3600, 3600, SourcePodSpec},
		{"probe grace needs a pod value", probePod(nil, i64(6), nil), ContainerKill{ContainerName: "app", Reason: KillReasonLivenessProbe}, 2, 2, SourceMinimum},
		{"deletion grace wins over probe", terminating(probePod(i64(30), i64(6), nil), t0, 12), ContainerKill{ContainerName: "app", Reason: KillReasonLivenessProbe}, 12, 12, SourceDeletionGracePeriod},
		{"override replaces", runningPod(i64(30)), ContainerKill{ContainerName: "app", GracePeriodOverride: i64(9)}, 30, 9, SourceKillOverride},
		{"override below minimum", runningPod(i64(30)), ContainerKill{ContainerName: "app", GracePeriodOverride: i64(1)}, 30, 2, SourceMinimum},
		{"preStop subtracted", withPreStopSleep(runningPod(i64(30)), "app", 5), ContainerKill{ContainerName: "app", GracePeriodOverride: i64(30)}, 30, 25, SourcePreStop},
		{"preStop beyond grace leaves the minimum", withPreStopSleep(runningPod(i64(30)), "app", 8), ContainerKill{ContainerName: "app", GracePeriodOverride: i64(5)}, 30, 2, SourceMinimum},
		{"preStop duration given", withPreStopSleep(runningPod(i64(30)), "app", 1), ContainerKill{ContainerName: "app", PreStopDuration: d(10)}, 30, 20, SourcePreStop},
		{"sub-second preStop not subtracted", withPreStopSleep(runningPod(i64(30)), "app", 0), ContainerKill{ContainerName: "app", PreStopDuration: func() *time.Duration { v := 900 * time.Millisecond; return &v }()}, 30, 30, SourcePodSpec},
		{"ordering wait subtracted", runningPod(i64(30)), ContainerKill{ContainerName: "app", OrderingWait: 12500 * time.Millisecond}, 30, 18, SourcePodSpec},
		{"zero grace skips preStop", withPreStopSleep(runningPod(i64(0)), "app", 4), ContainerKill{ContainerName: "app"}, 0, 2, SourceMinimum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ContainerGrace(tt.pod, tt.kill)
			if err != nil {
				t.Fatal(err)
			}
			if r.BaseGracePeriodSeconds != tt.base || r.GracePeriodSeconds != tt.want || r.Source != tt.source {
				t.Errorf("got base=%d grace=%d source=%s (%s), want base=%d grace=%d source=%s", r.BaseGracePeriodSeconds, r.GracePeriodSeconds, r.Source, r.Reason, tt.base, tt.want, tt.source)
			}
		})
	}
}

func TestContainerGraceFindsInitAndEphemeral(t *testing.T) {
	p := runningPod(i64(30))
	always := api.RestartPolicyAlways
	p.Spec.InitContainers = []api.Container{{Name: "proxy", RestartPolicy: &always}}
	p.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{Name: "debug"}}}
	for _, n := range []string{"proxy", "debug"} {
		if _, err := ContainerGrace(p, ContainerKill{ContainerName: n}); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if _, err := ContainerGrace(p, ContainerKill{ContainerName: "nope"}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("unknown container: %v", err)
	}
	if _, err := ContainerGrace(nil, ContainerKill{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil pod: %v", err)
	}
}

// The kubelet's container lookup walks init containers before regular ones,
// so a name repeated across the lists resolves to the init container.
func TestContainerGraceLookupOrderInitFirst(t *testing.T) {
	p := terminating(runningPod(i64(2)), t0, 30)
	p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "dup",
		Lifecycle: &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 1}}}})
	p.Spec.InitContainers = []api.Container{{Name: "dup"}}
	r, err := ContainerGrace(p, ContainerKill{ContainerName: "dup", Reason: KillReasonLivenessProbe})
	if err != nil {
		t.Fatal(err)
	}
	if r.BaseGracePeriodSeconds != 30 || r.GracePeriodSeconds != 30 || r.PreStopRan {
		t.Errorf("got base=%d grace=%d preStop=%v, want 30, 30 and no preStop (the init container has none)", r.BaseGracePeriodSeconds, r.GracePeriodSeconds, r.PreStopRan)
	}
}

// The preStop wait is bounded by the grace period as a Duration; for grace
// periods whose product would overflow (upstream's wraps, ending the wait at
// once) the bound saturates, so the hook's own time is subtracted as for
// any other grace period and the elapsed time is never negative.
func TestContainerGracePreStopWaitOverflow(t *testing.T) {
	tests := []struct {
		name  string
		grace int64
		sleep int64
		want  int64
	}{
		{"1e10 saturates", 10_000_000_000, 40, 9_999_999_960},
		{"2^62 saturates", 1 << 62, 7, 1<<62 - 7},
		{"max int64 saturates", 9223372036854775807, 5, 9223372036854775802},
		{"large but in range", 1_000_000_000, 40, 999_999_960},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := withPreStopSleep(runningPod(i64(30)), "app", tt.sleep)
			r, err := ContainerGrace(p, ContainerKill{ContainerName: "app", GracePeriodOverride: i64(tt.grace)})
			if err != nil {
				t.Fatal(err)
			}
			if r.GracePeriodSeconds != tt.want || r.PreStopElapsed < 0 {
				t.Errorf("grace %d elapsed %v, want %d and a non-negative elapsed", r.GracePeriodSeconds, r.PreStopElapsed, tt.want)
			}
		})
	}
}
