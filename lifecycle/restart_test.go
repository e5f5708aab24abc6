package lifecycle

import (
	"testing"

	"github.com/podsem/podsem/api"
)

func rule(action api.ContainerRestartRuleAction, op string, codes ...int32) api.ContainerRestartRule {
	return api.ContainerRestartRule{Action: action, ExitCodes: &api.ContainerRestartRuleOnExitCodes{Operator: op, Values: codes}}
}

func TestShouldRestart(t *testing.T) {
	never := fxPtr(api.RestartPolicyNever)
	onFailure := fxPtr(api.RestartPolicyOnFailure)
	tests := []struct {
		name       string
		podPolicy  api.RestartPolicy
		kind       api.ContainerKind
		c          api.Container
		code       int32
		restart    bool
		restartAll bool
		source     RestartSource
		rule       int
	}{
		{name: "regular, default policy Always, exit 0", kind: api.ContainerKindRegular, code: 0, restart: true, source: FromPodPolicy, rule: -1},
		{name: "regular, OnFailure, exit 0", podPolicy: api.RestartPolicyOnFailure, kind: api.ContainerKindRegular, code: 0, restart: false, source: FromPodPolicy, rule: -1},
		{name: "regular, OnFailure, exit 1", podPolicy: api.RestartPolicyOnFailure, kind: api.ContainerKindRegular, code: 1, restart: true, source: FromPodPolicy, rule: -1},
		{name: "regular, Never, exit 1", podPolicy: api.RestartPolicyNever, kind: api.ContainerKindRegular, code: 1, restart: false, source: FromPodPolicy, rule: -1},
		{name: "container Never beats pod Always", kind: api.ContainerKindRegular, c: api.Container{RestartPolicy: never}, code: 1, restart: false, source: FromContainerPolicy, rule: -1},
		{name: "container OnFailure under pod Never", podPolicy: api.RestartPolicyNever, kind: api.ContainerKindRegular, c: api.Container{RestartPolicy: onFailure}, code: 2, restart: true, source: FromContainerPolicy, rule: -1},
		{name: "rule In matches", kind: api.ContainerKindRegular, c: api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 42, 43)}}, code: 43, restart: true, source: FromRule, rule: 0},
		{name: "rule NotIn matches", kind: api.ContainerKindRegular, c: api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 1), rule(api.RestartRuleActionRestart, api.ExitCodesOpNotIn, 0)}}, code: 7, restart: true, source: FromRule, rule: 1},
		{name: "rules ignored without container policy", podPolicy: api.RestartPolicyNever, kind: api.ContainerKindRegular, c: api.Container{RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 42)}}, code: 42, restart: false, source: FromPodPolicy, rule: -1},
		{name: "RestartAllContainers restarts whatever the container policy", kind: api.ContainerKindRegular, c: api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestartAllContainers, api.ExitCodesOpIn, 9)}}, code: 9, restart: true, restartAll: true, source: FromRule, rule: 0},
		{name: "init exit 0 under Always completes", kind: api.ContainerKindInit, code: 0, restart: false, source: FromInitCompletion, rule: -1},
		{name: "init failure under Always restarts", kind: api.ContainerKindInit, code: 1, restart: true, source: FromPodPolicy, rule: -1},
		{name: "init failure under Never", podPolicy: api.RestartPolicyNever, kind: api.ContainerKindInit, code: 1, restart: false, source: FromPodPolicy, rule: -1},
		{name: "sidecar exit 0 under Never restarts", podPolicy: api.RestartPolicyNever, kind: api.ContainerKindSidecar, c: fxSidecar("s"), code: 0, restart: true, source: FromSidecar, rule: -1},
		{name: "sidecar failure restarts", kind: api.ContainerKindSidecar, c: fxSidecar("s"), code: 137, restart: true, source: FromSidecar, rule: -1},
		{name: "ephemeral never", kind: api.ContainerKindEphemeral, code: 1, restart: false, source: FromEphemeral, rule: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := &api.PodSpec{RestartPolicy: tc.podPolicy}
			d := ShouldRestart(spec, tc.kind, &tc.c, tc.code)
			if d.Restart != tc.restart || d.RestartAll != tc.restartAll || d.Source != tc.source || d.Rule != tc.rule {
				t.Errorf("ShouldRestart = %+v (%s), want restart %v restartAll %v source %s rule %d", d, d, tc.restart, tc.restartAll, tc.source, tc.rule)
			}
			if d.String() == "" {
				t.Error("empty explanation")
			}
		})
	}
}

func TestIsContainerRestartable(t *testing.T) {
	never := fxPtr(api.RestartPolicyNever)
	spec := &api.PodSpec{RestartPolicy: api.RestartPolicyNever}
	withRule := api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 1)}}
	checks := []struct {
		spec *api.PodSpec
		kind api.ContainerKind
		c    api.Container
		want bool
	}{
		{spec, api.ContainerKindRegular, api.Container{}, false},
		{&api.PodSpec{}, api.ContainerKindRegular, api.Container{}, true},
		{spec, api.ContainerKindRegular, withRule, true},
		{&api.PodSpec{}, api.ContainerKindRegular, api.Container{RestartPolicy: never}, false},
		{spec, api.ContainerKindSidecar, fxSidecar("s"), true},
		{&api.PodSpec{}, api.ContainerKindEphemeral, api.Container{}, false},
	}
	for i, c := range checks {
		if got := IsContainerRestartable(c.spec, c.kind, &c.c); got != c.want {
			t.Errorf("check %d (%s): IsContainerRestartable = %v, want %v", i, c.kind, got, c.want)
		}
	}
}

func TestPodRestartPolicy(t *testing.T) {
	if got := PodRestartPolicy(&api.PodSpec{}); got != api.RestartPolicyAlways {
		t.Errorf("empty policy = %s, want Always", got)
	}
	if got := PodRestartPolicy(&api.PodSpec{RestartPolicy: api.RestartPolicyNever}); got != api.RestartPolicyNever {
		t.Errorf("Never = %s", got)
	}
}
