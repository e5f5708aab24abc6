package lifecycle

import (
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
)

// TestSameStatusCoversEveryField fails when a field is added to the
// status types sameStatus compares by hand, so that the comparison is
// extended with it.
func TestSameStatusCoversEveryField(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int
	}{
		{api.PodStatus{}, 9 + 4 + reflect.TypeOf(statusRest{}).NumField()},
		{api.ContainerStatus{}, 12},
		{api.ContainerState{}, 3},
		{api.PodCondition{}, 7}, // sameConditions' early answer names 5, the times aside
	} {
		if n := reflect.TypeOf(tc.v).NumField(); n != tc.want {
			t.Errorf("%T has %d fields, sameStatus compares %d: extend it", tc.v, n, tc.want)
		}
	}
}

// TestSameStatusIsDeepEqual checks sameStatus against reflect.DeepEqual on
// pairs of statuses drawn from a small domain, so that equal, nearly equal
// and nil-versus-empty pairs all occur.
func TestSameStatusIsDeepEqual(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	genTime := rapid.Custom(func(t *rapid.T) api.Time {
		return api.NewTime(t0.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, "s")) * time.Second))
	})
	genState := rapid.Custom(func(t *rapid.T) api.ContainerState {
		var s api.ContainerState
		switch rapid.IntRange(0, 3).Draw(t, "state") {
		case 1:
			s.Waiting = &api.ContainerStateWaiting{Reason: rapid.SampledFrom([]string{"", "CrashLoopBackOff"}).Draw(t, "reason")}
		case 2:
			s.Running = &api.ContainerStateRunning{StartedAt: genTime.Draw(t, "started")}
		case 3:
			s.Terminated = &api.ContainerStateTerminated{ExitCode: int32(rapid.IntRange(0, 1).Draw(t, "code")), FinishedAt: genTime.Draw(t, "finished")}
		}
		return s
	})
	genContainer := rapid.Custom(func(t *rapid.T) api.ContainerStatus {
		cs := api.ContainerStatus{
			Name: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "name"), Ready: rapid.Bool().Draw(t, "ready"),
			RestartCount: int32(rapid.IntRange(0, 1).Draw(t, "restarts")), State: genState.Draw(t, "state"),
			LastTerminationState: genState.Draw(t, "last"),
		}
		if rapid.Bool().Draw(t, "hasStarted") {
			b := rapid.Bool().Draw(t, "started")
			cs.Started = &b
		}
		if rapid.IntRange(0, 3).Draw(t, "alloc") == 0 {
			cs.AllocatedResources = api.ResourceList{}
		}
		return cs
	})
	genList := rapid.Custom(func(t *rapid.T) []api.ContainerStatus {
		switch rapid.IntRange(0, 4).Draw(t, "listKind") {
		case 0:
			return nil
		case 1:
			return []api.ContainerStatus{}
		}
		return rapid.SliceOfN(genContainer, 1, 2).Draw(t, "list")
	})
	genStatus := rapid.Custom(func(t *rapid.T) api.PodStatus {
		st := api.PodStatus{
			Phase:                 rapid.SampledFrom([]api.PodPhase{api.PodPending, api.PodRunning}).Draw(t, "phase"),
			ContainerStatuses:     genList.Draw(t, "containers"),
			InitContainerStatuses: genList.Draw(t, "init"),
		}
		if rapid.Bool().Draw(t, "hasConditions") {
			st.Conditions = []api.PodCondition{{Type: api.PodReady, Status: rapid.SampledFrom([]api.ConditionStatus{api.ConditionTrue, api.ConditionFalse}).Draw(t, "ready"),
				LastTransitionTime: genTime.Draw(t, "transition")}}
		}
		if rapid.Bool().Draw(t, "hasStart") {
			tm := genTime.Draw(t, "start")
			st.StartTime = &tm
		}
		return st
	})
	rapid.Check(t, func(t *rapid.T) {
		a := genStatus.Draw(t, "a")
		b := a
		if rapid.Bool().Draw(t, "independent") {
			b = genStatus.Draw(t, "b")
		}
		if got, want := sameStatus(&a, &b), reflect.DeepEqual(a, b); got != want {
			t.Fatalf("sameStatus = %v, reflect.DeepEqual = %v\na: %+v\nb: %+v", got, want, a, b)
		}
	})
}
