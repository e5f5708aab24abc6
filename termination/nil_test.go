package termination_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/termination"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilPodOnNode is a running pod, so that the nil cases of other arguments
// are not answered by "never scheduled".
func nilPodOnNode() *api.Pod {
	grace := int64(30)
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec:       api.PodSpec{NodeName: "n1", TerminationGracePeriodSeconds: &grace, Containers: []api.Container{{Name: "app"}}},
		Status:     api.PodStatus{Phase: api.PodRunning},
	}
}

// nilCases calls each exported function and method of termination that
// can be handed nil with nil arguments and checks the documented answer: a
// nil pod is an error wrapping api.ErrInvalidInput where there is
// an error result and the zero value elsewhere (KubeletKillStatus, whose
// doc says so, writes the kill's fields on an empty status); nil delete
// options are a DELETE without a body, a nil override is none, a nil
// nodeExists means every missing node is gone, and nil pods and nodes in
// lists are skipped. Keyed by the names niltest.Nilable lists;
// TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"NodeOutOfService": func(t *testing.T) {
		niltest.Zero(t, termination.NodeOutOfService(nil))
	},
	"TerminatedForGC": func(t *testing.T) {
		niltest.Zero(t, termination.TerminatedForGC(nil))
	},
	"(*Collector).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*termination.Collector)(nil).NextDeadline())
	},
	"(*Collector).NextPass": func(t *testing.T) {
		niltest.Zero(t, (*termination.Collector)(nil).NextPass(nilT0))
	},
	"(*Collector).Step": func(t *testing.T) {
		niltest.Zero(t, (*termination.Collector)(nil).Step(termination.GCInput{Pods: []*api.Pod{nilPodOnNode()}}, nilT0))
		res := termination.NewCollector(termination.GCConfig{}).Step(termination.GCInput{Pods: []*api.Pod{nil, nilPodOnNode()}, Nodes: []*api.Node{nil}}, nilT0)
		if len(res.Actions) != 0 || len(res.Remaining) != 1 || len(res.Quarantined) != 1 {
			t.Errorf("nil elements: got %+v, want the pod kept and its node quarantined", res)
		}
	},
	"APIServerDecision.Apply": func(t *testing.T) {
		if got := (termination.APIServerDecision{Outcome: termination.OutcomeGraceful}).Apply(nil); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"UpdateFinalizers": func(t *testing.T) {
		u, err := termination.UpdateFinalizers(nil, []string{"a/b"})
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		niltest.Zero(t, u)
	},
	"APIServerGrace": func(t *testing.T) {
		d, err := termination.APIServerGrace(nil, &api.DeleteOptions{}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
		if d.Outcome != termination.OutcomeRejected {
			t.Errorf("got outcome %v, want rejected", d.Outcome)
		}
		// Nil options are a DELETE without a body: the pod's own grace.
		d, err = termination.APIServerGrace(nilPodOnNode(), nil, nilT0)
		if err != nil || !d.Graceful || d.GracePeriodSeconds == nil || *d.GracePeriodSeconds != 30 {
			t.Errorf("nil options: got %+v, %v; want a graceful 30 s delete", d, err)
		}
	},
	"BuildShutdownTimeline": func(t *testing.T) {
		_, err := termination.BuildShutdownTimeline([]*api.Pod{nil}, termination.ShutdownConfig{GracePeriod: 30 * time.Second}, nilT0)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pods[0]")
		if _, err := termination.BuildShutdownTimeline(nil, termination.ShutdownConfig{GracePeriod: 30 * time.Second}, nilT0); err != nil {
			t.Errorf("no pods: %v", err)
		}
	},
	"BuildTimeline": func(t *testing.T) {
		tl, err := termination.BuildTimeline(nil, termination.DeleteRequest{}, nilT0)
		niltest.Zero(t, tl)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
	},
	"CheckGracefulDelete": func(t *testing.T) {
		niltest.Zero(t, termination.CheckGracefulDelete(nil, &api.DeleteOptions{}))
		if got := termination.CheckGracefulDelete(nilPodOnNode(), nil); got.Graceful || got.Source != termination.SourceUnset {
			t.Errorf("nil options: got %+v, want the strategy to decline", got)
		}
	},
	"CollectGarbage": func(t *testing.T) {
		res := termination.CollectGarbage([]*api.Pod{nil, nilPodOnNode()}, []*api.Node{nil}, termination.GCConfig{}, nilT0)
		if len(res.Actions) != 1 || res.Actions[0].Reason != termination.GCOrphaned {
			t.Errorf("nil elements: got %+v, want the pod of the missing node collected as an orphan", res)
		}
	},
	"ContainerGrace": func(t *testing.T) {
		g, err := termination.ContainerGrace(nil, termination.ContainerKill{ContainerName: "app"})
		niltest.Zero(t, g)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
	},
	"EvictionGraceOverride": func(t *testing.T) {
		niltest.Zero(t, termination.EvictionGraceOverride(nil, true, termination.EvictionConfig{}),
			termination.EvictionGraceOverride(nil, false, termination.EvictionConfig{MaxPodGracePeriodSeconds: 60}))
	},
	"IsForceDeletion": func(t *testing.T) {
		niltest.Zero(t, termination.IsForceDeletion(nil))
	},
	"KubeletKillStatus": func(t *testing.T) {
		// Documented exception to the zero value: a nil pod gives the status
		// holding only what the kill writes.
		st := termination.KubeletKillStatus(nil, api.PodFailed, "Evicted", "low on memory", nilT0)
		c := api.FindCondition(st.Conditions, api.DisruptionTarget)
		if st.Phase != api.PodFailed || st.Reason != "Evicted" || len(st.Conditions) != 1 || c == nil || c.Reason != api.PodReasonTerminationByKubelet {
			t.Errorf("got %+v, want only the kill's phase, reason and DisruptionTarget condition", st)
		}
	},
	"KillTimeout": func(t *testing.T) {
		niltest.Zero(t, termination.KillTimeout(nil, nil))
		// A nil override is none: the pod's grace counts.
		if got := termination.KillTimeout(nilPodOnNode(), nil); got != 45*time.Second {
			t.Errorf("nil override: got %v, want 45s", got)
		}
	},
	"KubeletPodGrace": func(t *testing.T) {
		niltest.Zero(t, termination.KubeletPodGrace(nil, termination.PodWorkerState{RecordedGracePeriodSeconds: 5}))
	},
	"MayForceDelete": func(t *testing.T) {
		niltest.Zero(t, termination.MayForceDelete(nil, termination.ForceDeleteRequest{Actor: termination.ActorUser, Acknowledged: true}))
	},
	"PreStopRuntime": func(t *testing.T) {
		niltest.Zero(t, termination.PreStopRuntime(nil))
	},
	"StoredGracePeriodSeconds": func(t *testing.T) {
		if got := termination.StoredGracePeriodSeconds(nil); got != api.DefaultTerminationGracePeriodSeconds {
			t.Errorf("nil pod: got %d, want the default %d", got, api.DefaultTerminationGracePeriodSeconds)
		}
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// termination that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
