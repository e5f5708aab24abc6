package netprobe_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
	"github.com/podsem/podsem/probe/netprobe"
)

// A liveness probe's httpGet against a server on this machine: probe builds
// the kubelet's request and reads the answer, netprobe sends it.
func ExampleHTTPDoer() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "healthy (%s)", r.Header.Get("User-Agent"))
	}))
	defer srv.Close()
	host, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	p, _ := strconv.Atoi(port)

	container := &api.Container{Name: "app"}
	action := &api.HTTPGetAction{Path: "/healthz", Port: api.FromInt32(int32(p))}
	req, err := probe.NewHTTPRequest(host, container, action)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := probe.DoHTTP(netprobe.NewHTTPDoer(time.Second), req)
	fmt.Println(res.Outcome, res.Output)
	// Output: success healthy (kube-probe/1.36)
}
