// Package netprobe runs probes over the real network: it is where podsem
// does I/O and reads the wall clock, so that package probe can stay pure.
//
// HTTPDoer sends the requests of an httpGet probe over net/http with the
// transport the kubelet's HTTP prober uses (pkg/probe/http): no
// keep-alives, no compression, no proxy, TLS without certificate
// verification, and one deadline of timeoutSeconds for the whole attempt.
// probe.NewHTTPRequest builds the request and probe.DoHTTP follows the
// redirects and interprets the answer exactly as the kubelet does; the doer
// only moves bytes:
//
//	req, err := probe.NewHTTPRequest(podIP, container, action)
//	res := probe.DoHTTP(netprobe.NewHTTPDoer(timeout), req)
//
// A caller that runs probes on a runtime of its own implements
// probe.HTTPDoer or probe.Runner instead and never imports this package.
package netprobe
