package termination

import (
	"time"

	"github.com/podsem/podsem/api"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func i64(v int64) *int64 { return &v }

// runningPod is a scheduled, Running pod with one container "app" and the
// given terminationGracePeriodSeconds (nil leaves it unset).
func runningPod(tgps *int64) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"},
		Spec: api.PodSpec{
			NodeName:                      "node-1",
			TerminationGracePeriodSeconds: tgps,
			Containers:                    []api.Container{{Name: "app", Image: "busybox"}},
		},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
}

func withPreStopSleep(p *api.Pod, container string, seconds int64) *api.Pod {
	for i := range p.Spec.Containers {
		if p.Spec.Containers[i].Name == container {
			p.Spec.Containers[i].Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: seconds}}}
		}
	}
	return p
}

func terminating(p *api.Pod, at time.Time, grace int64) *api.Pod {
	p.DeletionTimestamp = api.NewTimePtr(at)
	p.DeletionGracePeriodSeconds = i64(grace)
	return p
}
