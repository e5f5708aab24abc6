package probe

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// NetHTTPDoer is an HTTPDoer over net/http configured like the kubelet's
// HTTP prober: no keep-alives, no compression, no proxy, TLS without
// certificate verification, and one deadline for the whole attempt
// (redirect hops included). It does I/O; the rest of the package does not.
// Use a new one for every probe attempt.
type NetHTTPDoer struct {
	client   *http.Client
	deadline time.Time
}

// NewNetHTTPDoer returns a doer whose attempt must end within timeout
// (the probe's timeoutSeconds) from now.
func NewNetHTTPDoer(timeout time.Duration) *NetHTTPDoer {
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // as the kubelet: probes do not verify certificates
		DisableKeepAlives:   true,
		DisableCompression:  true,
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: timeout}).DialContext,
		TLSHandshakeTimeout: timeout,
	}
	return &NetHTTPDoer{
		client: &http.Client{
			Transport: tr,
			// DoHTTP follows redirects itself.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		deadline: time.Now().Add(timeout),
	}
}

// Do sends req once and reads at most MaxBodyBytes+1 bytes of the body.
func (d *NetHTTPDoer) Do(req Request) (Response, error) {
	hr, err := http.NewRequest(http.MethodGet, req.URL.String(), nil)
	if err != nil {
		return Response{}, err
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
		return Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	return Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: body, BodyErr: err}, nil
}
