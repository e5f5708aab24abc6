package api_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
)

func TestProbeKind(t *testing.T) {
	c := &api.Container{LivenessProbe: &api.Probe{PeriodSeconds: 1}, ReadinessProbe: &api.Probe{PeriodSeconds: 2},
		StartupProbe: &api.Probe{PeriodSeconds: 3}}
	for i, k := range []api.ProbeKind{api.ProbeLiveness, api.ProbeReadiness, api.ProbeStartup} {
		got, err := api.ParseProbeKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseProbeKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
		if p := k.Of(c); p == nil || p.PeriodSeconds != int32(i+1) {
			t.Errorf("%v.Of picks %+v", k, p)
		}
	}
	if p := api.ProbeKind(0).Of(c); p != nil {
		t.Errorf("the zero kind picks %+v", p)
	}
	if s := api.ProbeKind(9).String(); s != "ProbeKind(9)" {
		t.Errorf("unknown kind renders %q", s)
	}
	if _, err := api.ParseProbeKind("Liveness"); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("ParseProbeKind(Liveness): %v, want an error wrapping ErrInvalidInput", err)
	}
}

// The kubelet's probe workers each look at one of the container's three
// probes.
func ExampleProbeKind_Of() {
	c := &api.Container{Name: "web", ReadinessProbe: &api.Probe{
		ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/ready", Port: api.FromInt32(8080)}}}}
	for _, k := range []api.ProbeKind{api.ProbeLiveness, api.ProbeReadiness, api.ProbeStartup} {
		fmt.Printf("%s: %v\n", k, k.Of(c) != nil)
	}
	// Output:
	// liveness: false
	// readiness: true
	// startup: false
}
