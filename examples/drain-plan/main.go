// Command drain-plan shows what `kubectl drain node-1 --ignore-daemonsets
// --delete-emptydir-data` does on a small cluster: which pods it leaves
// (the DaemonSet's kube-proxy, with a warning; the mirror pod of etcd's
// static pod, silently), which it evicts (a finished Job pod, a Deployment
// pod with an emptyDir, two pods of a ZooKeeper StatefulSet), what the
// Eviction API answers for each (the budget zk-pdb, minAvailable 2 of 3,
// lets one zk pod go at a time: the second is refused with 429 and retried
// every 5 s), and how the drain gets through once the disruption
// controller counts the first pod's replacement healthy.
//
// The scenario (drain.json) runs on the whole cluster (package cluster):
// three nodes; zk-0 and zk-1 and web's first pod on node-1; the Job
// report-28765 finishes at t=10 s; the drain starts at t=30 s. The same
// file runs with `podsem simulate examples/drain-plan/drain.json`. Run it
// with
//
//	go run ./examples/drain-plan
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

//go:embed drain.json
var scenario []byte

func main() {
	sc, err := cluster.ParseScenario(scenario)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := cluster.Run(sc, time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("$ kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data   # at t=30s")
	for _, r := range res.Records {
		switch {
		case r.Component == "kubectl-drain":
			fmt.Printf("t=%2.0fs  %s\n", r.Offset, r.Message)
		case r.Reason == "PodDisruptionBudgetModified" && strings.Contains(r.Message, "disruptionsAllowed"):
			fmt.Printf("t=%2.0fs      [disruption controller] zk-pdb %s\n", r.Offset, r.Message)
		case r.Reason == "Scheduled":
			fmt.Printf("t=%2.0fs      [scheduler] %s\n", r.Offset, strings.TrimPrefix(r.Message, "Successfully assigned "))
		}
	}
	fmt.Println()
	fmt.Println("Left on node-1 (a DaemonSet pod and a mirror pod are not drained):")
	for _, o := range res.Objects {
		if p, ok := o.(*api.Pod); ok && p.Spec.NodeName == "node-1" {
			fmt.Printf("  %s/%s\n", p.Namespace, p.Name)
		}
	}
}
