package termination

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// FuzzCalculators feeds arbitrary pods (as JSON) and numbers to every
// calculator: none may panic, and the floors must hold.
func FuzzCalculators(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"a","namespace":"b"},"spec":{"nodeName":"n","terminationGracePeriodSeconds":30,"containers":[{"name":"app","lifecycle":{"preStop":{"sleep":{"seconds":45}}}}]},"status":{"phase":"Running"}}`), int64(-1), int64(5000), "app")
	f.Add([]byte(`{"metadata":{"deletionTimestamp":"2025-06-01T12:00:10Z","deletionGracePeriodSeconds":-3},"spec":{"nodeName":"n","initContainers":[{"name":"s","restartPolicy":"Always"}],"containers":[{"name":"c","livenessProbe":{"terminationGracePeriodSeconds":4}}]}}`), int64(0), int64(-1), "s")
	f.Add([]byte(`{}`), int64(1<<40), int64(0), "")
	f.Fuzz(func(t *testing.T, podJSON []byte, grace int64, restartMs int64, container string) {
		var pod api.Pod
		if err := json.Unmarshal(podJSON, &pod); err != nil {
			return
		}
		if grace > 1<<32 || grace < -1<<32 {
			grace %= 1 << 32
		}
		opts := &api.DeleteOptions{GracePeriodSeconds: &grace}
		CheckGracefulDelete(&pod, opts)
		_, _ = APIServerGrace(&pod, opts, t0)
		if g := KubeletPodGrace(&pod, PodWorkerState{RecordedGracePeriodSeconds: grace, Override: &grace}); g.GracePeriodSeconds < 1 {
			t.Fatalf("pod grace %d", g.GracePeriodSeconds)
		}
		if r, err := ContainerGrace(&pod, ContainerKill{ContainerName: container, GracePeriodOverride: &grace}); err == nil && r.GracePeriodSeconds < 2 {
			t.Fatalf("container grace %d", r.GracePeriodSeconds)
		}
		EvictionGraceOverride(&pod, grace%2 == 0, EvictionConfig{MaxPodGracePeriodSeconds: grace})
		KillTimeout(&pod, &grace)
		MayForceDelete(&pod, ForceDeleteRequest{Actor: ActorUser})
		restart := time.Duration(restartMs%100000) * time.Millisecond
		_, _ = BuildTimeline(&pod, DeleteRequest{Options: opts, KubeletRestart: &restart}, t0)
		CollectGarbage([]*api.Pod{&pod}, nil, GCConfig{TerminatedPodThreshold: int(grace % 3)}, t0)
	})
}
