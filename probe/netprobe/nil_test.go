package netprobe_test

import (
	"net/url"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/internal/niltest"
	"github.com/podsem/podsem/probe"
	"github.com/podsem/podsem/probe/netprobe"
)

// nilCases calls each exported function and method of netprobe that can be
// handed nil with nil arguments: a nil (or zero) *HTTPDoer and a request
// without a URL send nothing and give an error wrapping api.ErrInvalidInput.
// Keyed by the names niltest.Nilable lists; TestNilTableComplete keeps it
// complete.
var nilCases = map[string]func(t *testing.T){
	"(*HTTPDoer).Do": func(t *testing.T) {
		req := probe.Request{URL: &url.URL{Scheme: "http", Host: "127.0.0.1:1", Path: "/"}}
		resp, err := (*netprobe.HTTPDoer)(nil).Do(req)
		niltest.Zero(t, resp)
		niltest.Invalid(t, err, api.ErrInvalidInput, "doer")
		resp, err = (&netprobe.HTTPDoer{}).Do(req)
		niltest.Zero(t, resp)
		niltest.Invalid(t, err, api.ErrInvalidInput, "doer")
		resp, err = netprobe.NewHTTPDoer(0).Do(probe.Request{})
		niltest.Zero(t, resp)
		niltest.Invalid(t, err, api.ErrInvalidInput, "request URL")
	},
}

func TestNil(t *testing.T) { niltest.Run(t, nilCases) }

// TestNilTableComplete fails naming any exported function or method of
// netprobe that can be handed nil and has no case in nilCases.
func TestNilTableComplete(t *testing.T) { niltest.Check(t, ".", nilCases, nil) }
