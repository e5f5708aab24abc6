package netprobe

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

// HTTPDoer is a probe.HTTPDoer over net/http configured like the kubelet's
// HTTP prober (pkg/probe/http): no keep-alives, no compression, no proxy,
// TLS without certificate verification, and one deadline for the whole
// attempt (redirect hops included). Use a new one for every probe attempt;
// a nil *HTTPDoer (or one not made by NewHTTPDoer) sends nothing and
// returns an error wrapping api.ErrInvalidInput.
type HTTPDoer struct {
	client   *http.Client
	deadline time.Time
}

// NewHTTPDoer returns a doer whose attempt must end within timeout (the
// probe's timeoutSeconds) from now, read from the wall clock.
func NewHTTPDoer(timeout time.Duration) *HTTPDoer {
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // as the kubelet: probes do not verify certificates
		DisableKeepAlives:   true,
		DisableCompression:  true,
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: timeout}).DialContext,
		TLSHandshakeTimeout: timeout,
	}
	return &HTTPDoer{
		client: &http.Client{
			Transport: tr,
			// DoHTTP follows redirects itself.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		deadline: time.Now().Add(timeout),
	}
}

// Do sends req once, without following a redirect (probe.DoHTTP follows
// them), and reads at most probe.MaxBodyBytes+1 bytes of the body. The
// error is the transport's own, not wrapped in a *url.Error.
func (d *HTTPDoer) Do(req probe.Request) (probe.Response, error) {
	if d == nil || d.client == nil {
		return probe.Response{}, fmt.Errorf("netprobe: %w: doer: nil", api.ErrInvalidInput)
	}
	if req.URL == nil {
		return probe.Response{}, fmt.Errorf("netprobe: %w: request URL: nil", api.ErrInvalidInput)
	}
	hr, err := http.NewRequest(http.MethodGet, req.URL.String(), nil)
	if err != nil {
		return probe.Response{}, err
	}
	hr.URL = req.URL
	hr.Host = req.Host
	hr.Header = req.Header.Clone()
	c := *d.client
	c.Timeout = time.Until(d.deadline)
	if c.Timeout <= 0 {
		// A zero Timeout means none: keep the attempt bounded.
		c.Timeout = time.Nanosecond
	}
	resp, err := c.Do(hr)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return probe.Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, probe.MaxBodyBytes+1))
	return probe.Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: body, BodyErr: err}, nil
}
