package probe_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/probe"
)

func boolPtr(b bool) *bool { return &b }

// A liveness probe with failureThreshold 3: two failures leave the
// container alone, the third asks the kubelet to kill it, and the worker
// holds until the replacement container appears.
func ExampleWorker() {
	pod := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{
		Name: "liveness",
		LivenessProbe: &api.Probe{
			ProbeHandler:        api.ProbeHandler{Exec: &api.ExecAction{Command: []string{"cat", "/tmp/healthy"}}},
			InitialDelaySeconds: 5, PeriodSeconds: 5, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
		},
	}}}}
	w, err := probe.NewWorker(api.ProbeLiveness, pod, "liveness", probe.WorkerConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	status := &api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{
		Name: "liveness", ContainerID: "containerd://1", Started: boolPtr(true),
		State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: api.NewTime(start)}},
	}}}
	outcomes := []probe.Outcome{probe.OutcomeSuccess, probe.OutcomeSuccess, probe.OutcomeFailure,
		probe.OutcomeFailure, probe.OutcomeFailure, probe.OutcomeFailure}
	now := start
	for _, o := range outcomes {
		rep := w.Step(probe.Input{Status: status, Outcome: o}, now)
		fmt.Printf("t=%2.0fs %-7s probed=%-5v result=%-7s hold=%-5v effect=%s\n",
			now.Sub(start).Seconds(), o, rep.Probed, rep.Result, rep.OnHold, rep.Effect)
		now = w.NextDeadline()
	}
	// Output:
	// t= 0s success probed=false result=success hold=false effect=none
	// t= 5s success probed=true  result=success hold=false effect=none
	// t=10s failure probed=true  result=success hold=false effect=none
	// t=15s failure probed=true  result=success hold=false effect=none
	// t=20s failure probed=true  result=failure hold=true  effect=kill container
	// t=25s failure probed=false result=failure hold=true  effect=none
}

// The request the kubelet sends for an httpGet probe on a named port, with
// a custom header and a virtual host.
func ExampleNewHTTPRequest() {
	c := &api.Container{Name: "app", Ports: []api.ContainerPort{{Name: "liveness-port", ContainerPort: 8080}}}
	req, err := probe.NewHTTPRequest("10.0.0.7", c, &api.HTTPGetAction{
		Path: "/healthz",
		Port: api.FromString("liveness-port"),
		HTTPHeaders: []api.HTTPHeader{
			{Name: "Custom-Header", Value: "Awesome"},
			{Name: "Host", Value: "myhost.example.com"},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(req.URL, req.Host)
	fmt.Println(req.Header.Get("User-Agent"), req.Header.Get("Accept"), req.Header.Get("Custom-Header"))
	// Output:
	// http://10.0.0.7:8080/healthz myhost.example.com
	// kube-probe/1.36 */* Awesome
}

// oneShot answers every request with the next canned response.
type oneShot struct {
	resps []probe.Response
	n     int
}

func (o *oneShot) Do(req probe.Request) (probe.Response, error) {
	r := o.resps[min(o.n, len(o.resps)-1)]
	o.n++
	return r, nil
}

// Redirects: one on the pod's own host is followed; one to another host is
// not, and the probe passes with a warning.
func ExampleDoHTTP() {
	req, _ := probe.NewHTTPRequest("127.0.0.1", nil, &api.HTTPGetAction{Path: "/old", Port: api.FromInt32(8080)})

	same := &oneShot{resps: []probe.Response{
		{StatusCode: 301, Header: http.Header{"Location": {"/new"}}},
		{StatusCode: 200, Body: []byte("ok")},
	}}
	res := probe.DoHTTP(same, req)
	fmt.Println(res.Outcome, res.Output, res.Requests)

	other := &oneShot{resps: []probe.Response{
		{StatusCode: 302, Header: http.Header{"Location": {"http://example.com/new"}}, Body: []byte("moved")},
	}}
	res = probe.DoHTTP(other, req)
	fmt.Println(res.Outcome, res.Output)

	failing := &oneShot{resps: []probe.Response{{StatusCode: 500, Body: []byte("stack trace")}}}
	res = probe.DoHTTP(failing, req)
	fmt.Println(res.Outcome, res.Output)
	// Output:
	// success ok 2
	// warning Probe terminated redirects, Response body: moved
	// failure HTTP probe failed with statuscode: 500
}

// A port name that matches no declared port is parsed as a number.
func ExampleResolvePort() {
	c := &api.Container{Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080}}}
	for _, p := range []api.IntOrString{api.FromString("http"), api.FromString("9090"), api.FromString("grpc"), api.FromInt32(0)} {
		n, err := probe.ResolvePort(p, c)
		fmt.Println(n, err)
	}
	// Output:
	// 8080 <nil>
	// 9090 <nil>
	// 0 strconv.Atoi: parsing "grpc": invalid syntax
	// 0 invalid port number: 0
}

// How exec, tcpSocket and grpc answers become outcomes.
func ExampleExecOutcome() {
	o, out, _ := probe.ExecOutcome(probe.ExecAnswer{Exited: true, ExitCode: 1, Output: []byte("cat: /tmp/healthy: No such file")})
	fmt.Println(o, out)
	o, out = probe.TCPOutcome(nil)
	fmt.Printf("%s %q\n", o, out)
	o, out = probe.GRPCOutcome("10.0.0.7:2379", time.Second, probe.GRPCAnswer{Status: "NOT_SERVING"})
	fmt.Println(o, out)
	// Output:
	// failure cat: /tmp/healthy: No such file
	// success ""
	// failure service unhealthy (responded with "NOT_SERVING")
}
