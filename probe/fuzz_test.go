package probe

import (
	"bytes"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// FuzzParseKindOutcome checks the two parsers of probe names against
// their String methods: a string parses exactly when it is what String
// prints for some value, parsing inverts String, and a refusal wraps
// api.ErrInvalidInput and quotes the input on one line.
func FuzzParseKindOutcome(f *testing.F) {
	for _, s := range []string{"liveness", "readiness", "startup", "Liveness", "success", "warning", "failure", "unknown", "error", "", " success", "ProbeKind(0)", "Outcome(9)", "\n"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		kinds := map[string]api.ProbeKind{}
		for _, k := range []api.ProbeKind{api.ProbeLiveness, api.ProbeReadiness, api.ProbeStartup} {
			kinds[k.String()] = k
		}
		k, err := api.ParseProbeKind(s)
		if want, ok := kinds[s]; ok {
			if err != nil || k != want {
				t.Fatalf("ParseProbeKind(%q) = %v, %v; want %v", s, k, err, want)
			}
		} else if err == nil || !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), strconv.Quote(s)) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("ParseProbeKind(%q) = %v, %v; want an ErrInvalidInput quoting the input", s, k, err)
		}
		pk := api.ProbeKind(n)
		back, named := kinds[pk.String()]
		if pk.String() == "" || (pk >= api.ProbeLiveness && pk <= api.ProbeStartup) != (named && back == pk) {
			t.Fatalf("ProbeKind(%d).String() = %q does not round-trip as it should", n, pk.String())
		}

		o, err := ParseOutcome(s)
		valid := false
		for v := OutcomeUnknown; v <= OutcomeError; v++ {
			if v.String() == s {
				valid = true
				if err != nil || o != v {
					t.Fatalf("ParseOutcome(%q) = %v, %v; want %v", s, o, err, v)
				}
			}
		}
		if !valid && (err == nil || !errors.Is(err, api.ErrInvalidInput) || !strings.Contains(err.Error(), strconv.Quote(s)) || strings.Contains(err.Error(), "\n")) {
			t.Fatalf("ParseOutcome(%q) = %v, %v; want an ErrInvalidInput quoting the input", s, o, err)
		}
		out := Outcome(n)
		if back, err := ParseOutcome(out.String()); (err == nil) != (out <= OutcomeError) || err == nil && back != out {
			t.Fatalf("Outcome(%d): String %q parses to %v, %v", n, out.String(), back, err)
		}
		// Only an error leaves the cached result alone; unknown counts as
		// failure and warning as success, as the kubelet's worker does.
		r, ok := out.Result()
		switch out {
		case OutcomeSuccess, OutcomeWarning:
			ok = ok && r == ResultSuccess
		case OutcomeFailure, OutcomeUnknown:
			ok = ok && r == ResultFailure
		default:
			ok = !ok && r == ResultNone
		}
		if !ok {
			t.Fatalf("Outcome(%d).Result() = %v", n, r)
		}
	})
}

// FuzzTCPAddressGRPCTarget builds tcpSocket and grpc probe targets from
// arbitrary hosts, pod IPs, ports and port names: a target is built
// exactly when the port resolves to 1-65535, the address splits back into
// the host the kubelet dials (the action's host, else the pod IP) and the
// port, and a refusal is a *PortError wrapping api.ErrInvalidInput.
func FuzzTCPAddressGRPCTarget(f *testing.F) {
	f.Add("10.0.0.7", "", "http", int32(0), false, "")
	f.Add("fd00::7", "", "", int32(8080), false, "svc")
	f.Add("", "db.local", "5432", int32(0), true, "")
	f.Add("10.0.0.7", "::1", "admin", int32(-1), true, "")
	f.Add("10.0.0.7", "", "", int32(65536), false, "")
	f.Add("10.0.0.7", "a:b", "0x10", int32(0), true, "\x00")
	f.Fuzz(func(t *testing.T, podIP, host, portName string, portNum int32, named bool, service string) {
		port := api.FromInt32(portNum)
		if named {
			port = api.FromString(portName)
		}
		n, perr := ResolvePort(port, webContainer)
		addr, err := TCPAddress(podIP, webContainer, &api.TCPSocketAction{Host: host, Port: port})
		if (err == nil) != (perr == nil) {
			t.Fatalf("TCPAddress error %v, ResolvePort error %v", err, perr)
		}
		if err != nil {
			var pe *PortError
			if !errors.As(err, &pe) || !errors.Is(err, api.ErrInvalidInput) || err.Error() == "" {
				t.Fatalf("TCPAddress error %v is no *PortError wrapping ErrInvalidInput", err)
			}
		} else {
			if n < 1 || n > 65535 {
				t.Fatalf("port %v resolved to %d", port, n)
			}
			want := host
			if want == "" {
				want = podIP
			}
			checkHostPort(t, addr, want, n)
		}

		svc := &service
		if service == "" {
			svc = nil
		}
		gaddr, gsvc, err := GRPCTarget(podIP, &api.GRPCAction{Port: portNum, Service: svc})
		if (err == nil) != (portNum >= 1 && portNum <= 65535) {
			t.Fatalf("GRPCTarget port %d: %v", portNum, err)
		}
		if err != nil {
			var pe *PortError
			if !errors.As(err, &pe) || !errors.Is(err, api.ErrInvalidInput) || pe.Number != int(portNum) {
				t.Fatalf("GRPCTarget error %v is no *PortError for %d", err, portNum)
			}
			return
		}
		if gsvc != service {
			t.Fatalf("GRPCTarget service %q, want %q", gsvc, service)
		}
		checkHostPort(t, gaddr, podIP, int(portNum))
	})
}

// checkHostPort checks that addr is host and port joined as net.Dial reads
// them. Hosts with brackets are left out: JoinHostPort does not escape
// them, and the kubelet passes them on unchanged just the same.
func checkHostPort(t *testing.T, addr, host string, port int) {
	t.Helper()
	if strings.ContainsAny(host, "[]") {
		return
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil || h != host || p != strconv.Itoa(port) {
		t.Fatalf("address %q splits into %q, %q, %v; want %q, %d", addr, h, p, err, host, port)
	}
}

// FuzzMechanismOutcomes interprets arbitrary exec, gRPC and TCP answers
// and checks the kubelet's reading of each (pkg/probe/exec, grpc, tcp):
// exec succeeds on exit code 0 or when it neither exited, timed out nor
// failed, fails on any other exit or a timeout, and is unknown with the
// error only when it could not run; its output is a prefix of what the
// command printed, at most MaxExecOutputBytes long. gRPC succeeds exactly
// when it connected, the check did not fail and the status is SERVING;
// TCP exactly when the dial did not fail, and its message is the dial
// error's.
func FuzzMechanismOutcomes(f *testing.F) {
	f.Add([]byte("ok\n"), true, 0, false, "", "", "", "SERVING", uint8(0))
	f.Add(bytes.Repeat([]byte("x"), MaxExecOutputBytes+1), true, 1, false, "", "", "", "NOT_SERVING", uint8(1))
	f.Add([]byte{}, false, 0, true, "boom", "Unimplemented", "m", "", uint8(7))
	f.Add([]byte{}, false, 137, false, "exec: not found", "DeadlineExceeded", "", "UNKNOWN", uint8(3))
	f.Fuzz(func(t *testing.T, output []byte, exited bool, code int, timedOut bool, errText, checkCode, checkMsg, status string, flags uint8) {
		var runErr error
		if errText != "" {
			runErr = errors.New(errText)
		}
		o, out, err := ExecOutcome(ExecAnswer{Output: output, Exited: exited, ExitCode: code, TimedOut: timedOut, Err: runErr})
		var want Outcome
		switch {
		case exited && code == 0:
			want = OutcomeSuccess
		case exited, timedOut:
			want = OutcomeFailure
		case runErr != nil:
			want = OutcomeUnknown
		default:
			want = OutcomeSuccess
		}
		if o != want || (err != nil) != (want == OutcomeUnknown) {
			t.Fatalf("ExecOutcome(exited=%v code=%d timedOut=%v err=%v) = %v, %v; want %v", exited, code, timedOut, runErr, o, err, want)
		}
		if len(out) > MaxExecOutputBytes || !bytes.HasPrefix(output, []byte(out)) || err == nil && len(out) != min(len(output), MaxExecOutputBytes) {
			t.Fatalf("ExecOutcome output %d bytes of %d", len(out), len(output))
		}

		a := GRPCAnswer{DialTimedOut: flags&4 != 0, CheckCode: checkCode, CheckMessage: checkMsg, Status: status}
		if flags&1 != 0 {
			a.DialErr = errors.New(errText)
		}
		if flags&2 != 0 {
			a.CheckErr = errors.New(errText)
		}
		g, msg := GRPCOutcome("10.0.0.7:9000", time.Second, a)
		healthy := a.DialErr == nil && a.CheckErr == nil && status == "SERVING"
		if (g == OutcomeSuccess) != healthy || g != OutcomeSuccess && g != OutcomeFailure || msg == "" {
			t.Fatalf("GRPCOutcome(%+v) = %v, %q", a, g, msg)
		}

		tcp, msg := TCPOutcome(runErr)
		if runErr == nil && (tcp != OutcomeSuccess || msg != "") || runErr != nil && (tcp != OutcomeFailure || msg != errText) {
			t.Fatalf("TCPOutcome(%v) = %v, %q", runErr, tcp, msg)
		}
	})
}
