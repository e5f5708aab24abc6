package probe

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

func TestTCPAddress(t *testing.T) {
	addr, err := TCPAddress("10.0.0.7", webContainer, &api.TCPSocketAction{Port: api.FromString("http")})
	if err != nil || addr != "10.0.0.7:8080" {
		t.Fatalf("%q %v", addr, err)
	}
	addr, err = TCPAddress("10.0.0.7", webContainer, &api.TCPSocketAction{Port: api.FromInt32(22), Host: "fd00::1"})
	if err != nil || addr != "[fd00::1]:22" {
		t.Fatalf("%q %v", addr, err)
	}
	if _, err := TCPAddress("10.0.0.7", webContainer, &api.TCPSocketAction{Port: api.FromString("nope")}); !errors.Is(err, api.ErrInvalidInput) {
		t.Fatalf("unresolved port: %v", err)
	}
	if o, out := TCPOutcome(errors.New("dial tcp 10.0.0.7:8080: connect: connection refused")); o != OutcomeFailure || !strings.Contains(out, "refused") {
		t.Fatalf("%s %q", o, out)
	}
}

func TestGRPC(t *testing.T) {
	svc := "db"
	addr, service, err := GRPCTarget("10.0.0.7", &api.GRPCAction{Port: 2379, Service: &svc})
	if err != nil || addr != "10.0.0.7:2379" || service != "db" {
		t.Fatalf("%q %q %v", addr, service, err)
	}
	if _, _, err := GRPCTarget("10.0.0.7", &api.GRPCAction{Port: 0}); !errors.Is(err, api.ErrInvalidInput) {
		t.Fatalf("port 0: %v", err)
	}
	cases := []struct {
		a    GRPCAnswer
		o    Outcome
		want string
	}{
		{GRPCAnswer{Status: "SERVING"}, OutcomeSuccess, "service healthy"},
		{GRPCAnswer{DialErr: errors.New("context deadline exceeded"), DialTimedOut: true}, OutcomeFailure, `timeout: failed to connect service "a:1" within 1s: context deadline exceeded`},
		{GRPCAnswer{DialErr: errors.New("refused")}, OutcomeFailure, `error: failed to connect service at "a:1": refused`},
		{GRPCAnswer{CheckErr: errors.New("x"), CheckCode: "Unimplemented", CheckMessage: "unknown service"}, OutcomeFailure, "error: this server does not implement the grpc health protocol (grpc.health.v1.Health): unknown service"},
		{GRPCAnswer{CheckErr: errors.New("x"), CheckCode: "DeadlineExceeded"}, OutcomeFailure, "timeout: health rpc did not complete within 1s"},
		{GRPCAnswer{CheckErr: errors.New("rpc error: code = Internal desc = boom"), CheckCode: "Internal"}, OutcomeFailure, "error: health rpc probe failed: rpc error: code = Internal desc = boom"},
	}
	for _, c := range cases {
		if o, out := GRPCOutcome("a:1", time.Second, c.a); o != c.o || out != c.want {
			t.Errorf("%+v: got %s %q, want %s %q", c.a, o, out, c.o, c.want)
		}
	}
}

func TestExecOutcome(t *testing.T) {
	long := strings.Repeat("y", MaxExecOutputBytes+10)
	cases := []struct {
		a   ExecAnswer
		o   Outcome
		out string
		err bool
	}{
		{ExecAnswer{Exited: true, Output: []byte("ok")}, OutcomeSuccess, "ok", false},
		{ExecAnswer{Exited: true, ExitCode: 2, Output: []byte(long)}, OutcomeFailure, long[:MaxExecOutputBytes], false},
		{ExecAnswer{TimedOut: true}, OutcomeFailure, "", false},
		{ExecAnswer{Err: errors.New("no such container")}, OutcomeUnknown, "", true},
	}
	for _, c := range cases {
		o, out, err := ExecOutcome(c.a)
		if o != c.o || out != c.out || (err != nil) != c.err {
			t.Errorf("%+v: got %s (%d bytes) %v", c.a.Exited, o, len(out), err)
		}
	}
}

type flakyRunner struct {
	errs  int
	calls int
}

func (f *flakyRunner) RunProbe(context.Context, api.ProbeKind, *api.Probe, *api.Pod, *api.PodStatus, *api.Container, string) (Outcome, string, error) {
	f.calls++
	if f.calls <= f.errs {
		return OutcomeUnknown, "", errors.New("exec session failed")
	}
	return OutcomeSuccess, "fine", nil
}

func TestRunWithRetries(t *testing.T) {
	r := &flakyRunner{errs: 2}
	if o, out, err := RunWithRetries(context.Background(), r, api.ProbeLiveness, nil, nil, nil, nil, "c"); o != OutcomeSuccess || out != "fine" || err != nil || r.calls != 3 {
		t.Fatalf("two errors then success: %s %q %v after %d", o, out, err, r.calls)
	}
	r = &flakyRunner{errs: 5}
	if o, _, err := RunWithRetries(context.Background(), r, api.ProbeLiveness, nil, nil, nil, nil, "c"); o != OutcomeError || err == nil || r.calls != MaxProbeRetries {
		t.Fatalf("all errors: %s %v after %d", o, err, r.calls)
	}
}

// The kinds' names are api.ProbeKind's, tested there.
func TestNames(t *testing.T) {
	for _, s := range []string{"success", "warning", "failure", "unknown", "error"} {
		o, err := ParseOutcome(s)
		if err != nil || o.String() != s {
			t.Errorf("outcome %q: %v %v", s, o, err)
		}
	}
	if _, err := ParseOutcome("meh"); !errors.Is(err, api.ErrInvalidInput) {
		t.Error("bad outcome accepted")
	}
}
