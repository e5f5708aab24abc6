// Command node-lost answers "my node died at 10:00: what happens to each of
// my pods, and when?" on the whole cluster (package cluster): three nodes
// running a StatefulSet (db), a Deployment (web, tolerating an unreachable
// node for 60 s) and a DaemonSet (node-exporter, tolerating everything),
// one pod of each per node. node-2's kubelet goes silent at t=0; the node
// lifecycle controller marks it Unknown once its Lease is 50 s old, taints
// it and marks its pods not ready; taint eviction deletes web's pod after
// 60 s and db-1 after 300 s; the ReplicaSet replaces its pod at once, the
// StatefulSet cannot while the object db-1 exists, Terminating, with no
// kubelet to confirm the kill. Pod GC removes it in one of two endings at
// t=600 s: the Node object is deleted (node-deleted.json), or the node is
// tainted out-of-service (out-of-service.json). The same files run with
// `podsem simulate examples/node-lost/node-deleted.json`. Run it with
//
//	go run ./examples/node-lost
package main

import (
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/cluster"
)

var (
	//go:embed node-deleted.json
	nodeDeleted []byte
	//go:embed out-of-service.json
	outOfService []byte
)

func main() {
	fmt.Println("node-2 runs db-1, a web pod and a node-exporter pod; its kubelet goes silent at t=0.")
	fmt.Println("web tolerates an unreachable node for 60 s, db for the default 300 s (DefaultTolerationSeconds")
	fmt.Println("admission), node-exporter for ever.")
	fmt.Println()
	fmt.Println("Ending 1: at t=600s the cloud provider deletes the Node object node-2.")
	run(nodeDeleted)
	fmt.Println()
	fmt.Println("Ending 2: at t=600s an operator taints node-2 node.kubernetes.io/out-of-service:NoExecute.")
	run(outOfService)
	fmt.Println()
	fmt.Println("From 359s to the ending nothing happens to db-1: the StatefulSet controller makes no")
	fmt.Println("second db-1 while the object exists, and only pod GC removes a pod no kubelet answers for.")
}

// run runs a scenario and prints what the controllers did to node-2 and
// the pods, then where each pod runs at the end.
func run(scenario []byte) {
	sc, err := cluster.ParseScenario(scenario)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := cluster.Run(sc, time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, r := range res.Records {
		switch r.Reason {
		case "Action", "NodeNotReady", "TaintAdded", "TaintManagerEviction", "NodeDeleted", "PodGCForceDeleted", "SuccessfulCreate", "Scheduled":
			who := strings.TrimPrefix(strings.TrimPrefix(r.Object, "Pod/default/"), "Node/")
			fmt.Printf("t=%4.0fs  %-21s %-23s %s\n", r.Offset, r.Reason, who, r.Message)
		}
	}
	fmt.Print("at the end:")
	for _, o := range res.Objects {
		if p, ok := o.(*api.Pod); ok {
			fmt.Printf(" %s@%s", p.Name, p.Spec.NodeName)
		}
	}
	fmt.Println()
}
