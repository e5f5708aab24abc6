package probe

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/podsem/podsem/api"
)

// MaxBodyBytes is how much of a response body the kubelet keeps as probe
// output (10 KiB); the rest is ignored.
const MaxBodyBytes = 10 << 10

// MaxRedirects is how many requests one httpGet probe sends at most while
// following same-host redirects; the redirect that would lead to one more
// fails the probe.
const MaxRedirects = 10

// Response is what one HTTP request received: the status code, headers
// (Location matters) and body. BodyErr is an error met while reading the
// body (a body cut short by the probe's timeout, for instance); Body then
// holds what arrived before it.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	BodyErr    error
}

// HTTPDoer sends one request and returns the response without following
// redirects. The error is the transport's own (a refused connection, a TLS
// mismatch, a timeout), not wrapped in a *url.Error: DoHTTP adds the
// "Get \"<url>\": " context itself as net/http's client does. A Doer used
// for one probe attempt should apply the probe's timeoutSeconds to the
// attempt as a whole, across redirect hops.
type HTTPDoer interface {
	Do(req Request) (Response, error)
}

// HTTPResult is the outcome of one httpGet probe attempt, as the kubelet's
// pkg/probe/http DoHTTPProbe reports it.
type HTTPResult struct {
	// Outcome is success (2xx, or 3xx... see below), warning, failure or
	// unknown (the request could not be built).
	Outcome Outcome
	// Output is the probe output: the body (up to MaxBodyBytes) on
	// success; "Probe terminated redirects, Response body: <body>" on
	// warning; "HTTP probe failed with statuscode: <code>" for a status
	// outside 200-399 (never the body); the client's error text when no
	// response arrived.
	Output string
	// Err is a body read error, or the request building error for
	// OutcomeUnknown; nil otherwise.
	Err error
	// Requests counts the requests sent (redirect hops included).
	Requests int
}

// ProbeHTTP builds the request for an httpGet action and runs it with d
// (NewHTTPRequest then DoHTTP). A request that cannot be built, or a nil
// d, gives OutcomeUnknown with the error (wrapping api.ErrInvalidInput for nil
// arguments).
func ProbeHTTP(d HTTPDoer, podIP string, container *api.Container, action *api.HTTPGetAction) HTTPResult {
	req, err := NewHTTPRequest(podIP, container, action)
	if err != nil {
		return HTTPResult{Outcome: OutcomeUnknown, Err: err}
	}
	return DoHTTP(d, req)
}

// DoHTTP sends req with d and interprets the answer as the kubelet's HTTP
// prober does, following redirects the way net/http's client does under
// the kubelet's redirect checker (followNonLocalRedirects=false):
//
//   - 301, 302, 303, 307 and 308 with a Location are redirects; other 3xx,
//     or a redirect without Location, end the probe with that response;
//   - the Location is resolved against the current URL; a relative one
//     keeps a Host override; every hop carries the first request's headers
//     plus a Referer naming the previous URL (none from https to http);
//   - a redirect to another host name (compared as written: 127.0.0.1 and
//     localhost differ) is not followed: the redirect response itself is
//     the answer, a warning; a change of scheme or port on the same host
//     is followed;
//   - the redirect that would send an eleventh request fails the probe with
//     `Get "<location>": stopped after 10 redirects`.
//
// The final response gives success for 200-299, warning for 300-399 and
// failure otherwise; see HTTPResult for the output. A nil d or request URL
// gives OutcomeUnknown with an error wrapping api.ErrInvalidInput.
func DoHTTP(d HTTPDoer, req Request) HTTPResult {
	switch {
	case d == nil:
		return HTTPResult{Outcome: OutcomeUnknown, Err: fmt.Errorf("%w: HTTPDoer: nil", errInvalidInput)}
	case req.URL == nil:
		return HTTPResult{Outcome: OutcomeUnknown, Err: fmt.Errorf("%w: request URL: nil", errInvalidInput)}
	}
	first := req
	cur := req
	var res HTTPResult
	var resp Response
	for {
		var err error
		resp, err = d.Do(cur)
		res.Requests++
		if err != nil {
			res.Outcome = OutcomeFailure
			res.Output = (&url.Error{Op: "Get", URL: redactedURL(cur.URL), Err: err}).Error()
			return res
		}
		if !isRedirect(resp.StatusCode) {
			break
		}
		loc := resp.Header.Get("Location")
		if loc == "" {
			break
		}
		next, err := cur.URL.Parse(loc)
		if err != nil {
			res.Outcome = OutcomeFailure
			res.Output = (&url.Error{Op: "Get", URL: redactedURL(cur.URL),
				Err: fmt.Errorf("failed to parse Location header %q: %v", loc, err)}).Error()
			return res
		}
		host := ""
		if cur.Host != "" && cur.Host != cur.URL.Host {
			if l, _ := url.Parse(loc); l != nil && !l.IsAbs() {
				host = cur.Host
			}
		}
		// Only hops to the first request's host name are followed, and
		// net/http strips credentials only when the host name changes, so
		// every followed hop carries all of the first request's headers.
		hdr := make(http.Header, len(first.Header)+1)
		for k, v := range first.Header {
			hdr[k] = v
		}
		if ref := referer(cur.URL, next, hdr.Get("Referer")); ref != "" {
			hdr.Set("Referer", ref)
		}
		if next.Hostname() != first.URL.Hostname() {
			// The kubelet does not follow redirects off the pod: the
			// redirect response is the answer.
			break
		}
		if res.Requests >= MaxRedirects {
			res.Outcome = OutcomeFailure
			res.Output = (&url.Error{Op: "Get", URL: loc, Err: errTooManyRedirects}).Error()
			return res
		}
		cur = Request{URL: next, Host: host, Header: hdr}
	}
	return interpretHTTP(resp, res.Requests)
}

var errTooManyRedirects = errors.New("stopped after 10 redirects")

func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// referer is net/http's Referer for a redirect from last to next: none
// from https to http, an explicit one kept, else last without user info.
func referer(last, next *url.URL, explicit string) string {
	if last.Scheme == "https" && next.Scheme == "http" {
		return ""
	}
	if explicit != "" {
		return explicit
	}
	s := last.String()
	if last.User != nil {
		s = strings.Replace(s, last.User.String()+"@", "", 1)
	}
	return s
}

// redactedURL prints u with any password masked, as net/http's client
// errors do.
func redactedURL(u *url.URL) string {
	if _, ok := u.User.Password(); ok {
		return strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1)
	}
	return u.String()
}

// interpretHTTP is the kubelet's verdict on the final response.
func interpretHTTP(resp Response, requests int) HTTPResult {
	res := HTTPResult{Requests: requests}
	if resp.BodyErr != nil {
		res.Outcome, res.Err = OutcomeFailure, resp.BodyErr
		return res
	}
	body := resp.Body
	if len(body) > MaxBodyBytes {
		body = body[:MaxBodyBytes]
	}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		res.Outcome, res.Output = OutcomeSuccess, string(body)
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		res.Outcome, res.Output = OutcomeWarning, "Probe terminated redirects, Response body: "+string(body)
	default:
		res.Outcome, res.Output = OutcomeFailure, fmt.Sprintf("HTTP probe failed with statuscode: %d", resp.StatusCode)
	}
	return res
}
