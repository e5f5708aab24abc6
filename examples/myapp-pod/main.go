// Command myapp-pod replays the init containers walkthrough of the
// Kubernetes pod documentation through lifecycle.Machine: myapp-pod has two
// init containers, init-myservice and init-mydb, that loop on nslookup
// until the services myservice and mydb exist, and a busybox app container
// that runs once both have completed.
//
// Each line shows the event fed to the machine, the phase it reports, the
// row `kubectl get pod` would print at that moment (READY, STATUS,
// RESTARTS, AGE from lifecycle.DisplayStatus) and the actions the machine
// asks its caller to perform. The STATUS column goes Init:0/2 (waiting for
// myservice), Init:1/2 (waiting for mydb), PodInitializing, Running, as in
// the documentation.
//
// The pod and the timeline are embedded; run it with
//
//	go run ./examples/myapp-pod
package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/lifecycle"
)

// podJSON is myapp.yaml from the documentation, as JSON.
const podJSON = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "myapp-pod",
    "namespace": "default",
    "labels": {"app.kubernetes.io/name": "MyApp"},
    "creationTimestamp": "2025-06-01T12:00:00Z"
  },
  "spec": {
    "containers": [
      {"name": "myapp-container", "image": "busybox:1.28",
       "command": ["sh", "-c", "echo The app is running! && sleep 3600"]}
    ],
    "initContainers": [
      {"name": "init-myservice", "image": "busybox:1.28",
       "command": ["sh", "-c", "until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done"]},
      {"name": "init-mydb", "image": "busybox:1.28",
       "command": ["sh", "-c", "until nslookup mydb.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for mydb; sleep 2; done"]}
    ]
  }
}`

// step is one moment of the story: the time since the pod was created, the
// event, and what happened in the cluster.
type step struct {
	at   time.Duration
	ev   lifecycle.Event
	note string
}

var timeline = []step{
	{0, lifecycle.Tick(), "kubectl apply -f myapp.yaml"},
	{1 * time.Second, lifecycle.Scheduled("172.17.4.201"), "the scheduler binds the pod"},
	{2 * time.Second, lifecycle.SandboxReady("10.244.1.5"), "the sandbox is up"},
	{5 * time.Second, lifecycle.ImagePulled("init-myservice"), `pulled image "busybox:1.28"`},
	{5 * time.Second, lifecycle.ContainerStarted("init-myservice"), "nslookup myservice fails, the loop waits"},
	{6 * time.Minute, lifecycle.Tick(), "kubectl get -f myapp.yaml"},
	{8 * time.Minute, lifecycle.ContainerExited("init-myservice", 0, ""), "kubectl apply -f services.yaml: myservice resolves"},
	{8*time.Minute + 1*time.Second, lifecycle.ContainerStarted("init-mydb"), "mydb resolves too"},
	{8*time.Minute + 3*time.Second, lifecycle.ContainerExited("init-mydb", 0, ""), "both init containers completed"},
	{8*time.Minute + 4*time.Second, lifecycle.ContainerStarted("myapp-container"), "The app is running!"},
	{9 * time.Minute, lifecycle.Tick(), "kubectl get -f myapp.yaml"},
}

func main() {
	objs, err := api.Decode([]byte(podJSON))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pod := objs[0].(*api.Pod)
	created := pod.CreationTimestamp.Time

	m := lifecycle.NewMachine(pod, lifecycle.MachineConfig{})
	fmt.Printf("%-6s %-38s %-8s %-10s %-6s %-16s %-9s %-4s %s\n",
		"T", "EVENT", "PHASE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "ACTIONS")
	for _, s := range timeline {
		now := created.Add(s.at)
		st, actions := m.Step(s.ev, now)
		row := lifecycle.DisplayStatus(m.Pod(), now)
		names := make([]string, len(actions))
		for i, a := range actions {
			names[i] = a.String()
		}
		line := fmt.Sprintf("%-6s %-38s %-8s %-10s %-6s %-16s %-9s %-4s %s",
			lifecycle.HumanDuration(s.at), s.ev, st.Phase, pod.Name, row.Ready, row.Status, row.Restarts, row.Age,
			strings.Join(names, ", "))
		fmt.Println(strings.TrimRight(line, " "))
		fmt.Printf("%-6s   # %s\n", "", s.note)
	}
}
