package probe

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
)

var webContainer = &api.Container{Name: "app", Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080}, {Name: "admin", ContainerPort: 9090}}}

func TestNewHTTPRequest(t *testing.T) {
	tests := []struct {
		name    string
		action  api.HTTPGetAction
		url     string
		host    string
		headers http.Header
		err     string
	}{
		{name: "defaults", action: api.HTTPGetAction{Path: "/healthz", Port: api.FromInt32(8080)},
			url: "http://10.0.0.7:8080/healthz", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}},
		{name: "named port and https", action: api.HTTPGetAction{Path: "/", Port: api.FromString("admin"), Scheme: "hTTps"},
			url: "https://10.0.0.7:9090/", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}},
		{name: "name parsed as number", action: api.HTTPGetAction{Port: api.FromString("8081")},
			url: "http://10.0.0.7:8081", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}},
		{name: "double slash path", action: api.HTTPGetAction{Path: "//double/slash", Port: api.FromInt32(80)},
			url: "http://10.0.0.7:80/slash", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}},
		{name: "bad escape kept", action: api.HTTPGetAction{Path: "/%zz", Port: api.FromInt32(80)},
			url: "http://10.0.0.7:80/%25zz", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}},
		{name: "empty accept first removes it, empty user agent stays",
			action: api.HTTPGetAction{Port: api.FromInt32(80), HTTPHeaders: []api.HTTPHeader{{Name: "Accept"}, {Name: "accept", Value: "text/plain"}, {Name: "User-Agent"}}},
			url:    "http://10.0.0.7:80", headers: http.Header{"User-Agent": {""}}},
		{name: "host header", action: api.HTTPGetAction{Port: api.FromInt32(80), Host: "localhost", HTTPHeaders: []api.HTTPHeader{{Name: "host", Value: "example.com"}}},
			url: "http://localhost:80", host: "example.com", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}, "Host": {"example.com"}}},
		{name: "ipv6 pod", action: api.HTTPGetAction{Port: api.FromInt32(80), Host: "::1"},
			url: "http://[::1]:80", headers: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}},
		{name: "missing name", action: api.HTTPGetAction{Port: api.FromString("metrics")}, err: `strconv.Atoi: parsing "metrics": invalid syntax`},
		{name: "port zero", action: api.HTTPGetAction{Port: api.FromInt32(0)}, err: "invalid port number: 0"},
		{name: "port too big", action: api.HTTPGetAction{Port: api.FromString("70000")}, err: "invalid port number: 70000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := NewHTTPRequest("10.0.0.7", webContainer, &tc.action)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || !errors.Is(err, api.ErrInvalidInput) {
					t.Fatalf("err = %v, want %q (and api.ErrInvalidInput)", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if req.URL.String() != tc.url || req.Host != tc.host {
				t.Errorf("url %q host %q, want %q %q", req.URL, req.Host, tc.url, tc.host)
			}
			if d := cmp.Diff(tc.headers, req.Header); d != "" {
				t.Errorf("headers (-want +got):\n%s", d)
			}
		})
	}
}

// scripted answers requests from a fixed list and records what it was sent.
type scripted struct {
	resps []Response
	errs  []error
	sent  []Request
}

func (s *scripted) Do(req Request) (Response, error) {
	i := min(len(s.sent), len(s.resps)-1)
	s.sent = append(s.sent, req)
	if i < len(s.errs) && s.errs[i] != nil {
		return Response{}, s.errs[i]
	}
	return s.resps[i], nil
}

func redirect(code int, loc string) Response {
	return Response{StatusCode: code, Header: http.Header{"Location": {loc}}}
}

func TestDoHTTP(t *testing.T) {
	base, err := NewHTTPRequest("127.0.0.1", webContainer, &api.HTTPGetAction{Path: "/old", Port: api.FromInt32(8080)})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", MaxBodyBytes+5)
	tests := []struct {
		name     string
		srv      *scripted
		outcome  Outcome
		output   string
		err      string
		requests int
	}{
		{"200", &scripted{resps: []Response{{StatusCode: 200, Body: []byte("ok")}}}, OutcomeSuccess, "ok", "", 1},
		{"body truncated", &scripted{resps: []Response{{StatusCode: 200, Body: []byte(big)}}}, OutcomeSuccess, big[:MaxBodyBytes], "", 1},
		{"500 hides body", &scripted{resps: []Response{{StatusCode: 500, Body: []byte("boom")}}}, OutcomeFailure, "HTTP probe failed with statuscode: 500", "", 1},
		{"304 warning", &scripted{resps: []Response{{StatusCode: 304}}}, OutcomeWarning, "Probe terminated redirects, Response body: ", "", 1},
		{"302 without location", &scripted{resps: []Response{{StatusCode: 302, Body: []byte("b")}}}, OutcomeWarning, "Probe terminated redirects, Response body: b", "", 1},
		{"same host followed", &scripted{resps: []Response{redirect(301, "/new"), {StatusCode: 200, Body: []byte("new")}}}, OutcomeSuccess, "new", "", 2},
		{"other host not followed", &scripted{resps: []Response{{StatusCode: 302, Header: http.Header{"Location": {"http://localhost:8080/"}}, Body: []byte("moved")}}}, OutcomeWarning, "Probe terminated redirects, Response body: moved", "", 1},
		{"https same host followed", &scripted{resps: []Response{redirect(308, "https://127.0.0.1:8443/x"), {StatusCode: 200}}}, OutcomeSuccess, "", "", 2},
		{"loop", &scripted{resps: []Response{redirect(302, "/loop")}}, OutcomeFailure, `Get "/loop": stopped after 10 redirects`, "", 10},
		{"refused", &scripted{resps: []Response{{}}, errs: []error{errors.New("dial tcp 127.0.0.1:8080: connect: connection refused")}}, OutcomeFailure,
			`Get "http://127.0.0.1:8080/old": dial tcp 127.0.0.1:8080: connect: connection refused`, "", 1},
		{"bad location", &scripted{resps: []Response{redirect(302, "http://[::1")}}, OutcomeFailure,
			`Get "http://127.0.0.1:8080/old": failed to parse Location header "http://[::1": parse "http://[::1": missing ']' in host`, "", 1},
		{"body error", &scripted{resps: []Response{{StatusCode: 200, BodyErr: errors.New("unexpected EOF")}}}, OutcomeFailure, "", "unexpected EOF", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := DoHTTP(tc.srv, base)
			gotErr := ""
			if res.Err != nil {
				gotErr = res.Err.Error()
			}
			if res.Outcome != tc.outcome || res.Output != tc.output || gotErr != tc.err || res.Requests != tc.requests {
				t.Errorf("got %s %q err %q after %d, want %s %q err %q after %d", res.Outcome, res.Output, gotErr, res.Requests, tc.outcome, tc.output, tc.err, tc.requests)
			}
		})
	}
}

func TestDoHTTPHopHeaders(t *testing.T) {
	req, _ := NewHTTPRequest("127.0.0.1", webContainer, &api.HTTPGetAction{Path: "/a", Port: api.FromInt32(8080), Scheme: "HTTPS",
		HTTPHeaders: []api.HTTPHeader{{Name: "Host", Value: "vhost"}, {Name: "Authorization", Value: "Bearer t"}}})
	srv := &scripted{resps: []Response{redirect(302, "b"), redirect(302, "http://127.0.0.1:8080/c"), {StatusCode: 200}}}
	if res := DoHTTP(srv, req); res.Outcome != OutcomeSuccess {
		t.Fatalf("%+v", res)
	}
	if len(srv.sent) != 3 {
		t.Fatalf("sent %d requests, want 3", len(srv.sent))
	}
	hop := srv.sent[1]
	if hop.URL.String() != "https://127.0.0.1:8080/b" || hop.Host != "vhost" || hop.Header.Get("Referer") != "https://127.0.0.1:8080/a" || hop.Header.Get("Authorization") != "Bearer t" {
		t.Errorf("relative hop: %v host %q headers %v", hop.URL, hop.Host, hop.Header)
	}
	hop = srv.sent[2]
	if hop.Host != "" || hop.Header.Get("Referer") != "" {
		t.Errorf("absolute https->http hop: host %q referer %q", hop.Host, hop.Header.Get("Referer"))
	}
}

func TestDoHTTPNil(t *testing.T) {
	if res := DoHTTP(nil, Request{}); res.Outcome != OutcomeUnknown || !errors.Is(res.Err, api.ErrInvalidInput) {
		t.Fatalf("%+v", res)
	}
	if _, err := NewHTTPRequest("1.2.3.4", nil, nil); !errors.Is(err, api.ErrInvalidInput) {
		t.Fatalf("nil action: %v", err)
	}
}

func FuzzNewHTTPRequest(f *testing.F) {
	f.Add("/healthz", "", "http", "8080", "X-A", "v", "10.0.0.7")
	f.Add("//double/slash", "localhost", "HTTPS", "http", "Host", "example.com", "::1")
	f.Add("/%zz?x#f", "a b", "", "-1", "Accept", "", "")
	f.Fuzz(func(t *testing.T, path, host, scheme, port, hname, hval, podIP string) {
		action := &api.HTTPGetAction{Path: path, Host: host, Scheme: api.URIScheme(scheme), Port: api.FromString(port),
			HTTPHeaders: []api.HTTPHeader{{Name: hname, Value: hval}}}
		req, err := NewHTTPRequest(podIP, webContainer, action)
		if err != nil {
			return
		}
		if req.URL == nil || req.Header.Get("User-Agent") == "" && len(req.Header["User-Agent"]) == 0 {
			t.Fatalf("request without URL or User-Agent entry: %+v", req)
		}
		// Whatever was built must survive a redirect walk without panicking.
		DoHTTP(&scripted{resps: []Response{redirect(302, path), {StatusCode: 200}}}, req)
	})
}

func FuzzResolvePort(f *testing.F) {
	for _, s := range []string{"http", "8080", "0", "-5", "99999", "", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ResolvePort(api.FromString(s), webContainer)
		if err == nil && (n < 1 || n > 65535) {
			t.Fatalf("%q resolved to %d without error", s, n)
		}
	})
}

func FuzzDoHTTPLocation(f *testing.F) {
	for _, s := range []string{"/loop", "next", "//127.0.0.1:8080/x", "https://127.0.0.1:8080/n", "http://[::1", "http://example.com/", "%zz", "?q#f"} {
		f.Add(s, 302)
	}
	f.Fuzz(func(t *testing.T, loc string, code int) {
		req, err := NewHTTPRequest("127.0.0.1", webContainer, &api.HTTPGetAction{Path: "/a", Port: api.FromInt32(8080),
			HTTPHeaders: []api.HTTPHeader{{Name: "Host", Value: "vhost"}}})
		if err != nil {
			t.Fatal(err)
		}
		srv := &scripted{resps: []Response{{StatusCode: code, Header: http.Header{"Location": {loc}}, Body: []byte("b")}}}
		res := DoHTTP(srv, req)
		if res.Requests < 1 || res.Requests > MaxRedirects {
			t.Fatalf("%d requests", res.Requests)
		}
		if res.Outcome == OutcomeSuccess && (code < 200 || code > 299) {
			t.Fatalf("status %d gave success", code)
		}
	})
}

func BenchmarkNewHTTPRequest(b *testing.B) {
	action := &api.HTTPGetAction{Path: "/healthz", Port: api.FromString("http"), HTTPHeaders: []api.HTTPHeader{{Name: "Custom-Header", Value: "Awesome"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewHTTPRequest("10.0.0.7", webContainer, action); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDoHTTPRedirect(b *testing.B) {
	req, _ := NewHTTPRequest("10.0.0.7", webContainer, &api.HTTPGetAction{Path: "/old", Port: api.FromInt32(8080)})
	resps := []Response{redirect(301, "/new"), {StatusCode: 200, Body: []byte("ok")}}
	b.ReportAllocs()
	for b.Loop() {
		DoHTTP(&scripted{resps: resps, sent: make([]Request, 0, 2)}, req)
	}
}
