package probe

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNetHTTPDoerAgainstServer runs DoHTTP over real net/http against a
// loopback server and checks what the server saw: the wire form the
// conformance adapter's in-memory server models (Connection: close, no
// Accept-Encoding, Referer on hops, the redirect cap).
func TestNetHTTPDoerAgainstServer(t *testing.T) {
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

	req := func(path string) Request {
		u := *base
		u.Path = path
		return Request{URL: &u, Header: http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}}}
	}

	res := DoHTTP(NewNetHTTPDoer(5*time.Second), req("/ok"))
	if res.Outcome != OutcomeSuccess || res.Output != "fine" {
		t.Fatalf("/ok: %+v", res)
	}
	want := http.Header{"User-Agent": {UserAgent}, "Accept": {"*/*"}, "Connection": {"close"}}
	if d := cmp.Diff(want, saw[0]); d != "" {
		t.Errorf("wire headers (-want +got):\n%s", d)
	}

	saw, uris = nil, nil
	res = DoHTTP(NewNetHTTPDoer(5*time.Second), req("/start"))
	if res.Outcome != OutcomeFailure || res.Output != `Get "/loop": stopped after 10 redirects` || len(saw) != MaxRedirects {
		t.Fatalf("/start: %+v after %d requests", res, len(saw))
	}
	if got := saw[1].Get("Referer"); got != srv.URL+"/start" {
		t.Errorf("first hop Referer %q", got)
	}

	res = DoHTTP(NewNetHTTPDoer(5*time.Second), req("/bad"))
	if res.Outcome != OutcomeFailure || res.Output != "HTTP probe failed with statuscode: 503" {
		t.Fatalf("/bad: %+v", res)
	}

	res = DoHTTP(NewNetHTTPDoer(100*time.Millisecond), req("/slow"))
	wantOut := `Get "` + srv.URL + `/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`
	if res.Outcome != OutcomeFailure || res.Output != wantOut {
		t.Fatalf("/slow: %+v", res)
	}
}
