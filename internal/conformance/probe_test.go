package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

func init() {
	register("probe.worker", runProbeWorker)
	register("probe.http", runProbeHTTP)
}

// --- probe.worker ---

type probeWorkerInput struct {
	ProbeType        string    `json:"probe_type"`
	Container        string    `json:"container"`
	Pod              api.Pod   `json:"pod"`
	KubeletStartTime time.Time `json:"kubelet_start_time"`
	Steps            []struct {
		At      time.Time      `json:"at"`
		Status  *api.PodStatus `json:"status"`
		Outcome string         `json:"outcome"`
	} `json:"steps"`
}

type probeWorkerStep struct {
	Probed    bool   `json:"probed"`
	Result    string `json:"result,omitempty"`
	OnHold    bool   `json:"on_hold"`
	KeepGoing bool   `json:"keep_going"`
}

func runProbeWorker(input, want json.RawMessage) error {
	var in probeWorkerInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w struct {
		Steps []probeWorkerStep `json:"steps"`
	}
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	kind, err := api.ParseProbeKind(in.ProbeType)
	if err != nil {
		return err
	}
	wk, err := probe.NewWorker(kind, &in.Pod, in.Container, probe.WorkerConfig{KubeletStart: in.KubeletStartTime})
	if err != nil {
		return err
	}
	var got []probeWorkerStep
	for _, s := range in.Steps {
		o, err := probe.ParseOutcome(s.Outcome)
		if err != nil {
			return err
		}
		st := wk.Step(probe.Input{Status: s.Status, Outcome: o}, s.At)
		got = append(got, probeWorkerStep{Probed: st.Probed, Result: st.Result.String(), OnHold: st.OnHold, KeepGoing: st.KeepGoing})
		if !st.KeepGoing {
			break
		}
	}
	if len(got) != len(w.Steps) {
		return Mismatch("steps", w.Steps, got)
	}
	for i := range got {
		if got[i] != w.Steps[i] {
			return Mismatch(fmt.Sprintf("step %d", i), w.Steps, got)
		}
	}
	return nil
}

// --- probe.http ---

type probeHTTPResponse struct {
	Status           int               `json:"status"`
	Headers          map[string]string `json:"headers"`
	Body             string            `json:"body"`
	BodyRepeat       int               `json:"body_repeat"`
	DelaySeconds     float64           `json:"delay_seconds"`
	BodyDelaySeconds float64           `json:"body_delay_seconds"`
}

type probeHTTPInput struct {
	PodIP     string        `json:"pod_ip"`
	Container api.Container `json:"container"`
	Probe     api.Probe     `json:"probe"`
	Server    struct {
		TLS       bool                `json:"tls"`
		Responses []probeHTTPResponse `json:"responses"`
	} `json:"server"`
}

type probeHTTPSaw struct {
	Method  string              `json:"method"`
	URI     string              `json:"uri"`
	Host    string              `json:"host"`
	Headers map[string][]string `json:"headers"`
}

type probeHTTPWant struct {
	Request *struct {
		URL     string              `json:"url"`
		Host    string              `json:"host"`
		Headers map[string][]string `json:"headers"`
	} `json:"request"`
	Result    string         `json:"result"`
	Output    string         `json:"output"`
	Error     *string        `json:"error"`
	ServerSaw []probeHTTPSaw `json:"server_saw"`
}

// scriptedServer is an in-memory stand-in for the vectors' loopback server
// together with the parts of net/http's transport the kubelet's prober
// relies on (header checks, Connection: close, refused ports, TLS mismatch,
// the client timeout spanning all hops). It implements probe.HTTPDoer.
type scriptedServer struct {
	podIP     string
	tls       bool
	responses []probeHTTPResponse
	timeout   float64 // seconds, for the whole attempt
	elapsed   float64
	saw       []probeHTTPSaw
	// slurp is the body delay of the previous response: when the client
	// comes back to follow a redirect, net/http first drains a small
	// redirect body (up to 2 KiB), waiting for it.
	slurp float64
}

const scriptedServerPort = "8080"

func (s *scriptedServer) Do(req probe.Request) (probe.Response, error) {
	// Draining the previous redirect's body comes first, before the next
	// hop is even dialled; when it uses up the timeout, the next hop fails
	// at once (an https hop reports the bare context error).
	if s.slurp > 0 {
		s.elapsed += s.slurp
		s.slurp = 0
		if s.elapsed >= s.timeout {
			s.elapsed = s.timeout
			if req.URL.Scheme == "https" {
				return probe.Response{}, errors.New("context deadline exceeded")
			}
			return probe.Response{}, errors.New("context deadline exceeded (Client.Timeout exceeded while awaiting headers)")
		}
	}
	for k, vv := range req.Header {
		if !validHeaderName(k) {
			return probe.Response{}, fmt.Errorf("net/http: invalid header field name %q", k)
		}
		for _, v := range vv {
			if !validHeaderValue(v) {
				return probe.Response{}, fmt.Errorf("net/http: invalid header field value for %q", k)
			}
		}
	}
	host, port := req.URL.Hostname(), req.URL.Port()
	if port == "" {
		port = "80"
		if req.URL.Scheme == "https" {
			port = "443"
		}
	}
	ip := host
	if host == "localhost" {
		ip = "127.0.0.1"
	}
	if ip != s.podIP || port != scriptedServerPort {
		if net.ParseIP(ip) == nil {
			return probe.Response{}, fmt.Errorf("dial tcp: lookup %s: no such host", host)
		}
		return probe.Response{}, fmt.Errorf("dial tcp %s: connect: connection refused", net.JoinHostPort(ip, port))
	}
	https := req.URL.Scheme == "https"
	switch {
	case https && !s.tls:
		return probe.Response{}, errors.New("http: server gave HTTP response to HTTPS client")
	case !https && s.tls:
		// net/http's TLS server answers plain HTTP itself, before any
		// handler sees the request.
		return probe.Response{StatusCode: 400, Body: []byte("Client sent an HTTP request to an HTTPS server.\n")}, nil
	}
	// What net/http writes on the wire, as the server parses it back.
	seen := map[string][]string{}
	for k, vv := range req.Header {
		switch k {
		case "Host":
			continue
		case "User-Agent":
			if ua := req.Header.Get("User-Agent"); ua != "" {
				seen[k] = []string{ua}
			}
			continue
		}
		for _, v := range vv {
			seen[k] = append(seen[k], strings.Trim(v, " \t\r\n"))
		}
	}
	if !headerHasToken(req.Header["Connection"], "close") {
		seen["Connection"] = append(seen["Connection"], "close")
	}
	wireHost := req.Host
	if wireHost == "" {
		wireHost = req.URL.Host
	}
	if !validHostHeader(wireHost) {
		// net/http sends an empty Host rather than an invalid one.
		wireHost = ""
	}
	s.saw = append(s.saw, probeHTTPSaw{Method: "GET", URI: req.URL.RequestURI(), Host: wireHost, Headers: seen})

	r := s.responses[min(len(s.saw), len(s.responses))-1]
	if s.elapsed+r.DelaySeconds >= s.timeout && r.DelaySeconds > 0 {
		s.elapsed = s.timeout
		return probe.Response{}, errors.New("context deadline exceeded (Client.Timeout exceeded while awaiting headers)")
	}
	s.elapsed += r.DelaySeconds
	resp := probe.Response{StatusCode: r.Status, Header: http.Header{}}
	for k, v := range r.Headers {
		resp.Header.Set(k, v)
	}
	if r.Status == 204 || r.Status == 304 {
		return resp, nil
	}
	// An empty body (Content-Length: 0) is complete with the headers: its
	// delay is never waited for.
	bodyLen := len(r.Body) * max(r.BodyRepeat, 1)
	if bodyLen == 0 {
		return resp, nil
	}
	if bodyLen <= 2<<10 {
		s.slurp = r.BodyDelaySeconds
	}
	// The body's wait counts only if the client reads it: as the final
	// answer (checked here) or while draining a redirect (see slurp).
	if r.BodyDelaySeconds > 0 && s.elapsed+r.BodyDelaySeconds >= s.timeout {
		resp.BodyErr = errors.New("context deadline exceeded (Client.Timeout or context cancellation while reading body)")
		return resp, nil
	}
	resp.Body = []byte(strings.Repeat(r.Body, max(r.BodyRepeat, 1)))
	return resp, nil
}

func headerHasToken(vv []string, tok string) bool {
	for _, v := range vv {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), tok) {
				return true
			}
		}
	}
	return false
}

func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

func validHostHeader(h string) bool {
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!$%&'()*+,-.:;=[]_~", c) >= 0) {
			return false
		}
	}
	return true
}

func validHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

func runProbeHTTP(input, want json.RawMessage) error {
	var in probeHTTPInput
	if err := json.Unmarshal(input, &in); err != nil {
		return fmt.Errorf("decoding input: %w", err)
	}
	var w probeHTTPWant
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Errorf("decoding want: %w", err)
	}
	if in.Probe.HTTPGet == nil || len(in.Server.Responses) == 0 {
		return fmt.Errorf("case has no httpGet action or no scripted responses")
	}
	srv := &scriptedServer{podIP: in.PodIP, tls: in.Server.TLS, responses: in.Server.Responses, timeout: float64(in.Probe.TimeoutSeconds)}
	req, err := probe.NewHTTPRequest(in.PodIP, &in.Container, in.Probe.HTTPGet)
	var res probe.HTTPResult
	if err != nil {
		if w.Request != nil {
			return Mismatch("request", w.Request, err.Error())
		}
		res = probe.HTTPResult{Outcome: probe.OutcomeUnknown, Err: err}
	} else {
		if w.Request == nil {
			return Mismatch("request", nil, req.URL.String())
		}
		if got := req.URL.String(); got != w.Request.URL {
			return Mismatch("request.url", w.Request.URL, got)
		}
		if req.Host != w.Request.Host {
			return Mismatch("request.host", w.Request.Host, req.Host)
		}
		if !cmp.Equal(w.Request.Headers, map[string][]string(req.Header), cmpopts.EquateEmpty()) {
			return Mismatch("request.headers", w.Request.Headers, req.Header)
		}
		res = probe.DoHTTP(srv, req)
	}
	if res.Outcome.String() != w.Result {
		return Mismatch("result", w.Result, res.Outcome.String()+" ("+res.Output+")")
	}
	if res.Output != w.Output {
		return Mismatch("output", w.Output, res.Output)
	}
	gotErr := ""
	if res.Err != nil {
		gotErr = res.Err.Error()
	}
	wantErr := ""
	if w.Error != nil {
		wantErr = *w.Error
	}
	if gotErr != wantErr {
		return Mismatch("error", wantErr, gotErr)
	}
	if !cmp.Equal(w.ServerSaw, srv.saw, cmpopts.EquateEmpty()) {
		return Mismatch("server_saw", w.ServerSaw, srv.saw)
	}
	return nil
}
