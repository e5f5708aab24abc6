package probe_test

import (
	"context"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/probe"
)

var nilT0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// nilRunner answers every probe with success, whatever it is handed.
type nilRunner struct{}

func (nilRunner) RunProbe(context.Context, api.ProbeKind, *api.Probe, *api.Pod, *api.PodStatus, *api.Container, string) (probe.Outcome, string, error) {
	return probe.OutcomeSuccess, "", nil
}

// nilCases calls each exported function and method of probe that can be
// handed nil with nil arguments and checks the documented answer: a nil
// action, pod, doer, runner or context is an error wrapping api.ErrInvalidInput
// (or OutcomeUnknown carrying one); a nil *Worker or *PortError answers
// with zero values; a nil container declares no ports, a nil status is a
// kubelet without one and a nil dial error is a connection. Keyed by the
// names niltest.Nilable lists; TestNilTableComplete keeps it complete.
var nilCases = map[string]func(t *testing.T){
	"(*PortError).Error": func(t *testing.T) {
		niltest.Zero(t, (*probe.PortError)(nil).Error())
	},
	"(*PortError).Unwrap": func(t *testing.T) {
		if got := (*probe.PortError)(nil).Unwrap(); got != nil {
			t.Errorf("got %v, want nil", got)
		}
	},
	"(*Worker).ContainerID":  func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).ContainerID()) },
	"(*Worker).Kind":         func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).Kind()) },
	"(*Worker).NextDeadline": func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).NextDeadline()) },
	"(*Worker).OnHold":       func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).OnHold()) },
	"(*Worker).Period":       func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).Period()) },
	"(*Worker).Result":       func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).Result()) },
	"(*Worker).Step": func(t *testing.T) {
		niltest.Zero(t, (*probe.Worker)(nil).Step(probe.Input{Status: &api.PodStatus{}, Outcome: probe.OutcomeSuccess}, nilT0))
		// A nil status is a kubelet whose status manager holds none.
		w := nilWorker(t)
		if st := w.Step(probe.Input{Status: nil, Outcome: probe.OutcomeSuccess}, nilT0); st.Probed || st.Reason != probe.ReasonNoStatus || !st.KeepGoing {
			t.Errorf("nil status: got %+v, want no probe for want of a status", st)
		}
	},
	"(*Worker).Stopped": func(t *testing.T) { niltest.Zero(t, (*probe.Worker)(nil).Stopped()) },
	"(*Worker).WouldProbe": func(t *testing.T) {
		niltest.Zero(t, (*probe.Worker)(nil).WouldProbe(&api.PodStatus{}, nilT0))
		niltest.Zero(t, nilWorker(t).WouldProbe(nil, nilT0))
	},
	"DoHTTP": func(t *testing.T) {
		res := probe.DoHTTP(nil, probe.Request{})
		if res.Outcome != probe.OutcomeUnknown || res.Requests != 0 {
			t.Errorf("got %+v, want an unknown outcome and no request", res)
		}
		niltest.Invalid(t, res.Err, api.ErrInvalidInput, "HTTPDoer")
	},
	"GRPCTarget": func(t *testing.T) {
		addr, svc, err := probe.GRPCTarget("10.0.0.1", nil)
		niltest.Zero(t, addr, svc)
		niltest.Invalid(t, err, api.ErrInvalidInput, "grpc action")
	},
	"NewHTTPRequest": func(t *testing.T) {
		req, err := probe.NewHTTPRequest("10.0.0.1", &api.Container{}, nil)
		niltest.Zero(t, req)
		niltest.Invalid(t, err, api.ErrInvalidInput, "httpGet action")
		// A nil container declares no ports: a numeric port still works.
		req, err = probe.NewHTTPRequest("10.0.0.1", nil, &api.HTTPGetAction{Port: api.FromInt32(8080)})
		if err != nil || req.URL == nil || req.URL.Host != "10.0.0.1:8080" {
			t.Errorf("nil container: got %+v, %v", req, err)
		}
	},
	"NewWorker": func(t *testing.T) {
		w, err := probe.NewWorker(api.ProbeLiveness, nil, "app", probe.WorkerConfig{})
		if w != nil {
			t.Errorf("got %v, want nil", w)
		}
		niltest.Invalid(t, err, api.ErrInvalidInput, "pod")
	},
	"ProbeHTTP": func(t *testing.T) {
		res := probe.ProbeHTTP(nil, "10.0.0.1", nil, &api.HTTPGetAction{Port: api.FromInt32(80)})
		if res.Outcome != probe.OutcomeUnknown {
			t.Errorf("nil doer: got %v, want unknown", res.Outcome)
		}
		niltest.Invalid(t, res.Err, api.ErrInvalidInput, "HTTPDoer")
		res = probe.ProbeHTTP(nil, "10.0.0.1", nil, nil)
		niltest.Invalid(t, res.Err, api.ErrInvalidInput, "httpGet action")
	},
	"ResolvePort": func(t *testing.T) {
		if n, err := probe.ResolvePort(api.FromString("http"), nil); err == nil || n != 0 {
			t.Errorf("a named port without a container: got %d, %v; want an error", n, err)
		}
		if n, err := probe.ResolvePort(api.FromString("8080"), nil); err != nil || n != 8080 {
			t.Errorf("a numeric name without a container: got %d, %v; want 8080", n, err)
		}
	},
	"RunWithRetries": func(t *testing.T) {
		o, out, err := probe.RunWithRetries(nil, nilRunner{}, api.ProbeLiveness, nil, nil, nil, nil, "") //nolint:staticcheck // a nil context on purpose
		niltest.Zero(t, o, out)
		niltest.Invalid(t, err, api.ErrInvalidInput, "context")
		o, out, err = probe.RunWithRetries(context.Background(), nil, api.ProbeLiveness, nil, nil, nil, nil, "")
		niltest.Zero(t, o, out)
		niltest.Invalid(t, err, api.ErrInvalidInput, "runner")
		// The probe, pod, status and container go to the runner as given.
		if o, _, err := probe.RunWithRetries(context.Background(), nilRunner{}, api.ProbeLiveness, nil, nil, nil, nil, ""); o != probe.OutcomeSuccess || err != nil {
			t.Errorf("nil objects for the runner: got %v, %v", o, err)
		}
	},
	"TCPAddress": func(t *testing.T) {
		addr, err := probe.TCPAddress("10.0.0.1", nil, nil)
		niltest.Zero(t, addr)
		niltest.Invalid(t, err, api.ErrInvalidInput, "tcpSocket action")
		if addr, err := probe.TCPAddress("10.0.0.1", nil, &api.TCPSocketAction{Port: api.FromInt32(5432)}); err != nil || addr != "10.0.0.1:5432" {
			t.Errorf("nil container: got %q, %v", addr, err)
		}
	},
	"TCPOutcome": func(t *testing.T) {
		// A nil dial error is a connection that opened.
		if o, out := probe.TCPOutcome(nil); o != probe.OutcomeSuccess || out != "" {
			t.Errorf("got %v, %q; want success", o, out)
		}
	},
}

// nilWorker is a liveness worker on a one-container pod.
func nilWorker(t *testing.T) *probe.Worker {
	t.Helper()
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app",
		LivenessProbe: &api.Probe{PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}}}}}
	w, err := probe.NewWorker(api.ProbeLiveness, pod, "app", probe.WorkerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// probe that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
