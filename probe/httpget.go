package probe

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// UserAgent is the User-Agent the kubelet's prober sends unless the probe
// sets its own: "kube-probe/" and the kubelet's major.minor version.
const UserAgent = "kube-probe/1.36"

// Request is one HTTP GET as the kubelet's httpGet prober sends it. It is
// plain data: building it does no I/O, and an HTTPDoer sends it.
type Request struct {
	// URL is the target, as net/http's NewRequest parses it.
	URL *url.URL
	// Host overrides the Host header sent ("" = URL.Host). The kubelet
	// takes it from an httpHeaders entry named Host.
	Host string
	// Header holds the headers to send, keyed by canonical name, including
	// the kubelet's User-Agent and Accept defaults. A "Host" entry, when
	// present, is not sent as a header (Host carries it).
	Header http.Header
}

// NewHTTPRequest builds the request the kubelet sends for an httpGet probe
// of container in a pod whose IP is podIP (pkg/probe/http
// NewRequestForHTTPGetAction):
//
//   - scheme: the action's scheme lower-cased, "http" when empty;
//   - host: the action's host, else podIP; port: ResolvePort;
//   - path: parsed as a URL reference and given the scheme and host:port,
//     so a query and fragment are kept and a "//name/rest" path loses its
//     "//name" authority part to the pod's host; a path that does not
//     parse is kept verbatim (and escaped when printed);
//   - headers: the action's httpHeaders added in order under canonical
//     names; User-Agent defaults to UserAgent and Accept to "*/*" when not
//     given; an Accept whose first value is empty is removed, while an
//     empty User-Agent is kept (and net/http then sends none);
//   - Host: the first value of a Host header entry, if any.
//
// A port that does not resolve yields a *PortError; a URL that does not
// parse yields net/url's error. Both make the kubelet report the probe's
// result as unknown. A nil action is an error wrapping api.ErrInvalidInput; a nil
// container declares no ports (see ResolvePort).
func NewHTTPRequest(podIP string, container *api.Container, action *api.HTTPGetAction) (Request, error) {
	if action == nil {
		return Request{}, fmt.Errorf("%w: httpGet action: nil", errInvalidInput)
	}
	scheme := strings.ToLower(string(action.Scheme))
	if scheme == "" {
		scheme = "http"
	}
	host := action.Host
	if host == "" {
		host = podIP
	}
	port, err := ResolvePort(action.Port, container)
	if err != nil {
		return Request{}, err
	}
	u, perr := url.Parse(action.Path)
	if perr != nil {
		// Too late to reject a bad path: the kubelet sends it as is.
		u = &url.URL{Path: action.Path}
	}
	u.Scheme = scheme
	u.Host = net.JoinHostPort(host, strconv.Itoa(port))
	// net/http's NewRequest parses the printed form again; its answer is
	// what is sent (and what a failure message names).
	final, err := url.Parse(u.String())
	if err != nil {
		return Request{}, err
	}
	hdr := make(http.Header, len(action.HTTPHeaders)+2)
	for _, h := range action.HTTPHeaders {
		hdr.Add(h.Name, h.Value)
	}
	if _, ok := hdr["User-Agent"]; !ok {
		hdr.Set("User-Agent", UserAgent)
	}
	if _, ok := hdr["Accept"]; !ok {
		hdr.Set("Accept", "*/*")
	} else if hdr.Get("Accept") == "" {
		hdr.Del("Accept")
	}
	return Request{URL: final, Host: hdr.Get("Host"), Header: hdr}, nil
}
