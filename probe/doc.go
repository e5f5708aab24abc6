// Package probe is container probing as the kubelet does it, without the
// kubelet: the per-probe worker state machine, the httpGet request and its
// redirect rules, and how each mechanism's answer becomes a result — all
// pure, so a node agent, simulator or test can drive it with its own clock
// and its own way of reaching containers. Behaviour follows Kubernetes
// v1.36.3 (pkg/kubelet/prober and pkg/probe/...).
//
// # Probes in Kubernetes terms
//
// A container may have a liveness probe (failing it gets the container
// killed and restarted under its restart policy), a readiness probe
// (failing it takes the container, and so the pod, out of Service
// endpoints) and a startup probe (which holds off the other two until it
// succeeds once). Each probe uses one mechanism — exec, httpGet, tcpSocket
// or grpc — and timing fields: initialDelaySeconds, periodSeconds,
// timeoutSeconds, successThreshold and failureThreshold. Their API
// defaults come from api.DefaultPod and their validation from package
// api/validation (the API server's checks); this package reads them as
// given. Which of the three probes is meant is an api.ProbeKind.
//
// The kubelet runs one worker per probe per container. Every period the
// worker looks at the pod status the kubelet holds and, when the container
// is running, past its initial delay and (for liveness and readiness)
// started, runs the probe. Only successThreshold successes or
// failureThreshold failures in a row change the cached result; a liveness
// failure, and any startup verdict, puts the worker on hold until a new
// container instance appears. Subtleties kept from the kubelet: the run of
// equal results is not reset by a new container, only by going on hold; a
// container that stopped running has its result forced to failure; a probe
// that could not be run is retried three times and then ignored; an
// "unknown" answer counts as failure and a "warning" as success; while the
// pod is being deleted, liveness and startup report success and stop.
//
// # The API
//
// Worker is the state machine: NewWorker(kind, pod, container, cfg), then
// Step(Input{Status, Outcome}, now) at every tick — at once for a new
// worker, then at NextDeadline, one period later, until the worker exits
// and NextDeadline is the zero time (WouldProbe says whether the tick will
// consume an outcome, so the probe need only be run then).
// Each Step returns a Report: whether the probe ran and why (Reason), the
// cached Result, the hold, whether the worker keeps going, and the Effect
// for the caller to perform (kill the container, mark it ready or started),
// and the Event the kubelet's prober records for the probe run: Unhealthy
// for a failure or an attempt that errored, ProbeWarning for a warning,
// with the probe's output from Input.Output, regarding the container.
// The worker never runs anything. Its stories in testdata/worker show it
// tick by tick.
//
// For httpGet, NewHTTPRequest builds the exact request (URL, Host
// override, the User-Agent "kube-probe/1.36" and Accept "*/*" defaults),
// and DoHTTP sends it through an HTTPDoer — one request per call — while
// applying net/http's redirect rules under the kubelet's checker
// (same-host redirects only, at most 10 requests) and the kubelet's
// reading of the final response. The package does no I/O: the doer over
// net/http configured as the kubelet's transport is netprobe.HTTPDoer, in
// the subpackage probe/netprobe. ResolvePort, TCPAddress and GRPCTarget give the other
// mechanisms' targets; ExecOutcome, TCPOutcome and GRPCOutcome interpret
// their answers. Runner is the interface a caller implements to run a
// probe for real; RunWithRetries applies the kubelet's retries to it.
//
// A node agent that drives the pod with lifecycle.Machine passes each
// tick's settled result on with Report.MachineEvent: the worker decides
// when a result counts, the machine decides what the pod does about it.
package probe
