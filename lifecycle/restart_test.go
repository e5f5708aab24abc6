package lifecycle

import (
	"strings"
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
		kind       ContainerKind
		c          api.Container
		code       int32
		restart    bool
		restartAll bool
		source     RestartSource
		rule       int
	}{
		{name: "regular, default policy Always, exit 0", kind: RegularContainer, code: 0, restart: true, source: FromPodPolicy, rule: -1},
		{name: "regular, OnFailure, exit 0", podPolicy: api.RestartPolicyOnFailure, kind: RegularContainer, code: 0, restart: false, source: FromPodPolicy, rule: -1},
		{name: "regular, OnFailure, exit 1", podPolicy: api.RestartPolicyOnFailure, kind: RegularContainer, code: 1, restart: true, source: FromPodPolicy, rule: -1},
		{name: "regular, Never, exit 1", podPolicy: api.RestartPolicyNever, kind: RegularContainer, code: 1, restart: false, source: FromPodPolicy, rule: -1},
		{name: "container Never beats pod Always", kind: RegularContainer, c: api.Container{RestartPolicy: never}, code: 1, restart: false, source: FromContainerPolicy, rule: -1},
		{name: "container OnFailure under pod Never", podPolicy: api.RestartPolicyNever, kind: RegularContainer, c: api.Container{RestartPolicy: onFailure}, code: 2, restart: true, source: FromContainerPolicy, rule: -1},
		{name: "rule In matches", kind: RegularContainer, c: api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 42, 43)}}, code: 43, restart: true, source: FromRule, rule: 0},
		{name: "rule NotIn matches", kind: RegularContainer, c: api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 1), rule(api.RestartRuleActionRestart, api.ExitCodesOpNotIn, 0)}}, code: 7, restart: true, source: FromRule, rule: 1},
		{name: "rules ignored without container policy", podPolicy: api.RestartPolicyNever, kind: RegularContainer, c: api.Container{RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestart, api.ExitCodesOpIn, 42)}}, code: 42, restart: false, source: FromPodPolicy, rule: -1},
		{name: "RestartAllContainers restarts whatever the container policy", kind: RegularContainer, c: api.Container{RestartPolicy: never, RestartPolicyRules: []api.ContainerRestartRule{
			rule(api.RestartRuleActionRestartAllContainers, api.ExitCodesOpIn, 9)}}, code: 9, restart: true, restartAll: true, source: FromRule, rule: 0},
		{name: "init exit 0 under Always completes", kind: InitContainer, code: 0, restart: false, source: FromInitCompletion, rule: -1},
		{name: "init failure under Always restarts", kind: InitContainer, code: 1, restart: true, source: FromPodPolicy, rule: -1},
		{name: "init failure under Never", podPolicy: api.RestartPolicyNever, kind: InitContainer, code: 1, restart: false, source: FromPodPolicy, rule: -1},
		{name: "sidecar exit 0 under Never restarts", podPolicy: api.RestartPolicyNever, kind: SidecarContainer, c: fxSidecar("s"), code: 0, restart: true, source: FromSidecar, rule: -1},
		{name: "sidecar failure restarts", kind: SidecarContainer, c: fxSidecar("s"), code: 137, restart: true, source: FromSidecar, rule: -1},
		{name: "ephemeral never", kind: EphemeralContainer, code: 1, restart: false, source: FromEphemeral, rule: -1},
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
		kind ContainerKind
		c    api.Container
		want bool
	}{
		{spec, RegularContainer, api.Container{}, false},
		{&api.PodSpec{}, RegularContainer, api.Container{}, true},
		{spec, RegularContainer, withRule, true},
		{&api.PodSpec{}, RegularContainer, api.Container{RestartPolicy: never}, false},
		{spec, SidecarContainer, fxSidecar("s"), true},
		{&api.PodSpec{}, EphemeralContainer, api.Container{}, false},
	}
	for i, c := range checks {
		if got := IsContainerRestartable(c.spec, c.kind, &c.c); got != c.want {
			t.Errorf("check %d (%s): IsContainerRestartable = %v, want %v", i, c.kind, got, c.want)
		}
	}
}

func TestFindContainer(t *testing.T) {
	spec := &api.PodSpec{
		InitContainers:      []api.Container{{Name: "init"}, fxSidecar("side")},
		Containers:          []api.Container{{Name: "app"}},
		EphemeralContainers: []api.EphemeralContainer{{Container: api.Container{Name: "debug"}}},
	}
	for name, want := range map[string]ContainerKind{"init": InitContainer, "side": SidecarContainer, "app": RegularContainer, "debug": EphemeralContainer} {
		c, kind, ok := FindContainer(spec, name)
		if !ok || kind != want || c.Name != name {
			t.Errorf("FindContainer(%q) = %v, %s, %v; want kind %s", name, c, kind, ok, want)
		}
	}
	if _, _, ok := FindContainer(spec, "nope"); ok {
		t.Error("found a container that does not exist")
	}
	if !strings.Contains(SidecarContainer.String(), "sidecar") || ContainerKind(9).String() == "" {
		t.Error("ContainerKind.String")
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
