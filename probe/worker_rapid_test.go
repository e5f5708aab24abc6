package probe

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"pgregory.net/rapid"
)

// genWorker draws a pod with random probe settings and a worker for it.
func genWorker(t *rapid.T) (*Worker, api.ProbeKind, int, int) {
	kind := api.ProbeKind(rapid.IntRange(1, 3).Draw(t, "kind"))
	succ := rapid.IntRange(1, 4).Draw(t, "successThreshold")
	if kind != api.ProbeReadiness {
		succ = 1 // validation requires 1 for liveness and startup
	}
	fail := rapid.IntRange(1, 4).Draw(t, "failureThreshold")
	pod := testPod()
	p := kind.Of(&pod.Spec.Containers[0])
	p.SuccessThreshold, p.FailureThreshold = int32(succ), int32(fail)
	p.PeriodSeconds = int32(rapid.IntRange(1, 10).Draw(t, "period"))
	p.InitialDelaySeconds = int32(rapid.IntRange(0, 8).Draw(t, "initialDelay"))
	pod.Spec.RestartPolicy = rapid.SampledFrom([]api.RestartPolicy{"", api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever}).Draw(t, "restartPolicy")
	if rapid.Bool().Draw(t, "deleting") && rapid.IntRange(0, 4).Draw(t, "deletingOdds") == 0 {
		pod.DeletionTimestamp = api.NewTimePtr(t0)
	}
	w, err := NewWorker(kind, pod, "app", WorkerConfig{KubeletStart: t0.Add(time.Duration(rapid.IntRange(-60, 60).Draw(t, "kubeletStart")) * time.Second)})
	if err != nil {
		t.Fatalf("NewWorker: %v", err)
	}
	return w, kind, succ, fail
}

// genStatus draws the pod status the kubelet might hold at a tick.
func genStatus(t *rapid.T, now time.Time, i int) *api.PodStatus {
	switch rapid.IntRange(0, 19).Draw(t, fmt.Sprintf("shape%d", i)) {
	case 0:
		return nil
	case 1:
		return &api.PodStatus{Phase: api.PodRunning}
	case 2:
		if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("terminal%d", i)) == 0 {
			return &api.PodStatus{Phase: api.PodSucceeded}
		}
	}
	id := fmt.Sprintf("c://%d", rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("id%d", i)))
	switch rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("state%d", i)) {
	case 0:
		return terminated(id, int32(rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("code%d", i))))
	case 1:
		st := running(id, nil, now)
		st.ContainerStatuses[0].State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		return st
	}
	var started *bool
	switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("started%d", i)) {
	case 0:
		started = ptr(false)
	case 1:
		started = nil
	default:
		started = ptr(true)
	}
	age := time.Duration(rapid.IntRange(0, 120).Draw(t, fmt.Sprintf("age%d", i))) * time.Second
	return running(id, started, now.Add(-age))
}

func isStarted(st *api.PodStatus) bool {
	if st == nil || len(st.ContainerStatuses) == 0 {
		return false
	}
	s := st.ContainerStatuses[0].Started
	return s != nil && *s
}

func statusID(st *api.PodStatus) string {
	if st == nil || len(st.ContainerStatuses) == 0 {
		return ""
	}
	return st.ContainerStatuses[0].ContainerID
}

// TestWorkerProperties checks the worker's invariants over random runs:
//   - WouldProbe predicts Step's Probed;
//   - a worker on hold never probes the same container;
//   - liveness and readiness never probe a container that has not started,
//     and startup never probes one that has;
//   - a probe result is cached only after threshold equal results in a row
//     (the run survives a new container and is reset only by going on
//     hold), and then equals that result;
//   - an exited worker stays exited and changes nothing.
func TestWorkerProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w, kind, succ, fail := genWorker(t)
		now := t0
		var last Result = ResultSuccess
		run := 0
		var prev Report
		stopped := false
		n := rapid.IntRange(1, 40).Draw(t, "steps")
		for i := range n {
			now = now.Add(time.Duration(rapid.IntRange(0, 12).Draw(t, fmt.Sprintf("dt%d", i))) * time.Second)
			st := genStatus(t, now, i)
			o := Outcome(rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("outcome%d", i)))
			wasHeld := w.OnHold()
			sameID := statusID(st) != "" && statusID(st) == w.ContainerID()
			would := w.WouldProbe(st, now)
			got := w.Step(Input{Status: st, Outcome: o}, now)

			if got.Probed != would {
				t.Fatalf("step %d: WouldProbe %v but Probed %v", i, would, got.Probed)
			}
			// The next tick is one period after this one while the worker
			// runs; an exited worker has none.
			if next := w.NextDeadline(); got.KeepGoing != !next.IsZero() || (got.KeepGoing && !next.Equal(now.Add(w.Period()))) {
				t.Fatalf("step %d at %v: NextDeadline %v with KeepGoing %v (period %v)", i, now, next, got.KeepGoing, w.Period())
			}
			if stopped {
				if got.Probed || got.KeepGoing || got.Changed || got.Result != prev.Result {
					t.Fatalf("step %d: exited worker acted: %+v", i, got)
				}
				continue
			}
			if wasHeld && sameID && got.Probed {
				t.Fatalf("step %d: probed while on hold: %+v", i, got)
			}
			if got.Probed && kind != api.ProbeStartup && !isStarted(st) {
				t.Fatalf("step %d: %s probed before startup succeeded", i, kind)
			}
			if got.Probed && kind == api.ProbeStartup && isStarted(st) {
				t.Fatalf("step %d: startup probed a started container", i)
			}
			if got.Probed && got.Reason == ReasonProbed {
				r, _ := o.Result()
				if r == last {
					run++
				} else {
					last, run = r, 1
				}
				threshold := fail
				if r == ResultSuccess {
					threshold = succ
				}
				if sameID && got.Result != prev.Result && (run < threshold || got.Result != r) {
					t.Fatalf("step %d: result %s -> %s after %d x %s (threshold %d)", i, prev.Result, got.Result, run, r, threshold)
				}
				if got.OnHold {
					run = 0
				}
			}
			if !got.KeepGoing {
				stopped = true
			}
			prev = got
		}
	})
}
