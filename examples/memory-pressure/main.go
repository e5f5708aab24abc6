// Command memory-pressure replays a node running out of memory through the
// kubelet's eviction manager, one housekeeping pass every 10 s, on the
// whole cluster (package cluster). A cache without memory requests grows
// until the soft threshold (memory.available<1Gi) has held for its
// one-minute grace period, and is evicted with a 30 s grace period
// (--eviction-max-pod-grace-period); later a batch job loads a dataset far
// beyond its request, breaches the hard threshold (memory.available<500Mi)
// and is evicted at once. The critical pods (kube-proxy,
// system-node-critical; coredns, system-cluster-critical) are never
// chosen. The MemoryPressure condition appears at the first breach and
// clears only once no threshold has been met for the 5-minute transition
// period.
//
// The scenario (pressure.json) gives the node's memory.available and each
// pod's working set at three moments (`pressure` actions with `usage`); an
// evicted pod gives its memory back. The same file runs with
// `podsem simulate examples/memory-pressure/pressure.json`. Run it with
//
//	go run ./examples/memory-pressure
package main

import (
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/cluster"
)

//go:embed pressure.json
var scenario []byte

func main() {
	sc, err := cluster.ParseScenario(scenario)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := cluster.Run(sc, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("kubelet flags: --eviction-hard=memory.available<500Mi --eviction-soft=memory.available<1Gi")
	fmt.Println("  --eviction-soft-grace-period=memory.available=1m --eviction-minimum-reclaim=memory.available=200Mi")
	fmt.Println("  --eviction-max-pod-grace-period=30; node-1 has 8Gi of memory.")
	fmt.Println()
	for _, r := range res.Records {
		var what string
		switch r.Reason {
		case "Action":
			f := strings.Fields(r.Message) // pressure node-1 memory.available=990Mi usage ...
			what = "node-1 reads " + f[2] + "; pods use " + strings.ReplaceAll(f[4], ",", " ")
		case "NodeHasInsufficientMemory", "NodeHasSufficientMemory", "EvictionThresholdMet":
			what = r.Reason + ": " + r.Message
		case "NodeModified":
			what = "node-1 " + r.Message
		case "Evicted":
			what = "evict " + r.Object + ": " + r.Message
		case "Killing":
			what = "kill " + r.Object + " (its container gets SIGTERM)"
		default:
			continue
		}
		fmt.Printf("t=%6s  %s\n", time.Duration(r.Offset*float64(time.Second)), what)
	}
	fmt.Println()
	fmt.Println("coredns and kube-proxy, critical, were never candidates; the pressure condition (and")
	fmt.Println("its taint) lasted until 5 minutes after the last pass that met a threshold.")
}
