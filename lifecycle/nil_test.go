package lifecycle_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/lifecycle"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilCases calls each exported function and method of lifecycle that can
// be handed nil with nil arguments and checks the documented answer: a nil
// pod, spec, container or state is bad input and gives the zero value; a
// nil back-off entry keeps its meaning (the container has no back-off
// yet). Keyed by the names niltest.Nilable lists; TestNilTableComplete
// keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*KubeletConditions).List": func(t *testing.T) {
		if got := (*lifecycle.KubeletConditions)(nil).List(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*Machine).NextDeadline": func(t *testing.T) {
		niltest.Zero(t, (*lifecycle.Machine)(nil).NextDeadline())
	},
	"(*Machine).Pod": func(t *testing.T) {
		if got := (*lifecycle.Machine)(nil).Pod(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*Machine).Removed": func(t *testing.T) {
		niltest.Zero(t, (*lifecycle.Machine)(nil).Removed())
	},
	"(*Machine).Step": func(t *testing.T) {
		st, acts := (*lifecycle.Machine)(nil).Step(lifecycle.Event{Kind: lifecycle.EventScheduled, Node: "n"}, nilT0)
		niltest.Zero(t, st, acts)
	},
	"(*Machine).Terminal": func(t *testing.T) {
		niltest.Zero(t, (*lifecycle.Machine)(nil).Terminal())
	},
	"(*Machine).Why": func(t *testing.T) {
		niltest.Zero(t, (*lifecycle.Machine)(nil).Why())
	},
	"NodeConditions": func(t *testing.T) {
		// No conditions yet: the kubelet's four, fresh, and no event.
		got, events := lifecycle.NodeConditions(nil, lifecycle.NodeStatusInput{Node: "n"}, nilT0)
		if len(got) != 4 || got[3].Type != api.NodeReady || got[3].Status != api.ConditionTrue || len(events) != 0 {
			t.Errorf("got %+v, %+v", got, events)
		}
	},
	"ActiveDeadline": func(t *testing.T) {
		d, ok := lifecycle.ActiveDeadline(nil)
		niltest.Zero(t, d, ok)
	},
	"Backoff.Advance": func(t *testing.T) {
		// A nil entry is a container without back-off: it starts at the
		// initial delay.
		got := lifecycle.Backoff{}.Advance(nil, nilT0, nilT0)
		if got.Delay != lifecycle.DefaultInitialBackoff || !got.LastUpdate.Equal(nilT0) {
			t.Errorf("got %+v, want the initial delay from now", got)
		}
	},
	"Backoff.InBackOff": func(t *testing.T) {
		// A nil entry never holds a restart back.
		if wait, until := (lifecycle.Backoff{}).InBackOff(nil, nilT0, nilT0); wait || !until.Equal(nilT0) {
			t.Errorf("got %v, %v; want false, finishedAt", wait, until)
		}
	},
	"BackoffKey": func(t *testing.T) {
		niltest.Zero(t, lifecycle.BackoffKey(nil, &api.Container{Name: "app"}), lifecycle.BackoffKey(&api.Pod{}, nil))
	},
	"Conditions": func(t *testing.T) {
		niltest.Zero(t, lifecycle.Conditions(nil, lifecycle.ConditionsInput{}, nilT0))
	},
	"ContainerShouldRestart": func(t *testing.T) {
		c := &api.Container{Name: "app"}
		noRestart(t, lifecycle.ContainerShouldRestart(nil, c, 1))
		noRestart(t, lifecycle.ContainerShouldRestart(&api.PodSpec{Containers: []api.Container{*c}}, nil, 1))
	},
	"Describe": func(t *testing.T) {
		niltest.Zero(t, lifecycle.Describe(nil))
	},
	"DescribeStatus": func(t *testing.T) {
		got := lifecycle.DescribeStatus(nil)
		niltest.Zero(t, got)
		if got.State.Kind != lifecycle.StateUnknown {
			t.Errorf("got %v, want an unknown state", got.State.Kind)
		}
	},
	"DisplayStatus": func(t *testing.T) {
		niltest.Zero(t, lifecycle.DisplayStatus(nil, nilT0))
	},
	"ExplainPhase": func(t *testing.T) {
		niltest.Zero(t, lifecycle.ExplainPhase(nil, lifecycle.PhaseOptions{}))
	},
	"IsContainerRestartable": func(t *testing.T) {
		c := &api.Container{Name: "app"}
		niltest.Zero(t, lifecycle.IsContainerRestartable(nil, api.ContainerKindRegular, c),
			lifecycle.IsContainerRestartable(&api.PodSpec{}, api.ContainerKindRegular, nil))
	},
	"NewMachine": func(t *testing.T) {
		if m := lifecycle.NewMachine(nil, lifecycle.MachineConfig{}); m != nil {
			t.Errorf("got %v, want nil", m)
		}
	},
	"PastActiveDeadline": func(t *testing.T) {
		past, remaining := lifecycle.PastActiveDeadline(nil, nilT0)
		niltest.Zero(t, past, remaining)
	},
	"Phase": func(t *testing.T) {
		niltest.Zero(t, lifecycle.Phase(nil, lifecycle.PhaseOptions{}))
	},
	"PodRestartPolicy": func(t *testing.T) {
		niltest.Zero(t, lifecycle.PodRestartPolicy(nil))
	},
	"SandboxChanged": func(t *testing.T) {
		niltest.Zero(t, lifecycle.SandboxChanged(nil, []lifecycle.Sandbox{{Ready: true}}))
	},
	"Sequence": func(t *testing.T) {
		niltest.Zero(t, lifecycle.Sequence(nil, nil))
	},
	"ShouldRestart": func(t *testing.T) {
		c := &api.Container{Name: "app"}
		noRestart(t, lifecycle.ShouldRestart(nil, api.ContainerKindRegular, c, 1))
		noRestart(t, lifecycle.ShouldRestart(&api.PodSpec{}, api.ContainerKindSidecar, nil, 1))
	},
	"Hostname": func(t *testing.T) {
		h, err := lifecycle.Hostname(nil, "cluster.local")
		niltest.Zero(t, h)
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
	},
	"EtcHosts": func(t *testing.T) {
		content, mounted := lifecycle.EtcHosts(nil, lifecycle.PodHostname{}, []string{"10.0.0.1"}, "")
		niltest.Zero(t, content, mounted)
	},
	"(*HostnameError).Error": func(t *testing.T) {
		niltest.Zero(t, (*lifecycle.HostnameError)(nil).Error())
	},
	"EtcHostsMountedIn": func(t *testing.T) {
		niltest.Zero(t, lifecycle.EtcHostsMountedIn(nil, true))
	},
}

// noRestart checks the restart decisions' answer to a nil spec or
// container: not restarted, by no rule. (The zero RestartDecision would
// name rule 0.)
func noRestart(t *testing.T, d lifecycle.RestartDecision) {
	t.Helper()
	if d != (lifecycle.RestartDecision{Rule: -1}) {
		t.Errorf("got %+v, want no restart and Rule -1", d)
	}
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// lifecycle that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
