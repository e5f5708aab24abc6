package netprobe

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

// TestHTTPDoerAgainstServer runs probe.DoHTTP over real net/http against a
// loopback server and checks what the server saw: the wire form the
// conformance adapter's in-memory server models (Connection: close, no
// Accept-Encoding, Referer on hops, the redirect cap).
func TestHTTPDoerAgainstServer(t *testing.T) {
	var mu sync.Mutex
	var saw []http.Header
	var uris []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		saw = append(saw, r.Header.Clone())
		uris = append(uris, r.RequestURI)
		mu.Unlock()
		switch r.URL.Path {
		case "/loop", "/start":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/ok":
			w.Write([]byte("fine"))
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		default:
			http.Error(w, "nope", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL)

	req := func(path string) probe.Request {
		u := *base
		u.Path = path
		return probe.Request{URL: &u, Header: http.Header{"User-Agent": {probe.UserAgent}, "Accept": {"*/*"}}}
	}

	res := probe.DoHTTP(NewHTTPDoer(5*time.Second), req("/ok"))
	if res.Outcome != probe.OutcomeSuccess || res.Output != "fine" {
		t.Fatalf("/ok: %+v", res)
	}
	want := http.Header{"User-Agent": {probe.UserAgent}, "Accept": {"*/*"}, "Connection": {"close"}}
	if len(saw) != 1 {
		t.Fatalf("/ok: the server saw %d requests, want 1", len(saw))
	}
	if d := cmp.Diff(want, saw[0]); d != "" {
		t.Errorf("wire headers (-want +got):\n%s", d)
	}

	saw, uris = nil, nil
	res = probe.DoHTTP(NewHTTPDoer(5*time.Second), req("/start"))
	if res.Outcome != probe.OutcomeFailure || res.Output != `Get "/loop": stopped after 10 redirects` || len(saw) != probe.MaxRedirects {
		t.Fatalf("/start: %+v after %d requests", res, len(saw))
	}
	if got := saw[1].Get("Referer"); got != srv.URL+"/start" {
		t.Errorf("first hop Referer %q", got)
	}

	res = probe.DoHTTP(NewHTTPDoer(5*time.Second), req("/bad"))
	if res.Outcome != probe.OutcomeFailure || res.Output != "HTTP probe failed with statuscode: 503" {
		t.Fatalf("/bad: %+v", res)
	}

	res = probe.DoHTTP(NewHTTPDoer(100*time.Millisecond), req("/slow"))
	wantOut := `Get "` + srv.URL + `/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`
	if res.Outcome != probe.OutcomeFailure || res.Output != wantOut {
		t.Fatalf("/slow: %+v", res)
	}
}

// TestHTTPDoerNil checks that a nil doer and a request without a URL are
// answered with an error, not a panic.
func TestHTTPDoerNil(t *testing.T) {
	var d *HTTPDoer
	if _, err := d.Do(probe.Request{URL: &url.URL{Scheme: "http", Host: "127.0.0.1:1"}}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil doer: err = %v, want api.ErrInvalidInput", err)
	}
	if _, err := NewHTTPDoer(time.Second).Do(probe.Request{}); !errors.Is(err, api.ErrInvalidInput) {
		t.Errorf("nil URL: err = %v, want api.ErrInvalidInput", err)
	}
}
