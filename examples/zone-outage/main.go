// Command zone-outage answers "a whole zone went dark: when is each node
// tainted and each pod evicted?" for a cluster of three zones, four nodes
// each, two pods per node admitted with the default tolerations (300 s).
//
// The node lifecycle controller does not taint a lost zone all at once: it
// queues each node and lets one through per 10 s per zone
// (--node-eviction-rate), fewer or none when a large share of a zone is
// down, and none at all when every zone is down — then the control plane,
// not the nodes, is the likely culprit. Two scenarios, run on the whole
// cluster (package cluster):
//
//   - outage1.json: zone-a's nodes lose contact at t=0 while zone-b and
//     zone-c stay healthy;
//   - outage2.json: every node loses contact at t=0, and zone-a's network
//     comes back at t=180 s while zone-b and zone-c stay cut off.
//
// The same files run with `podsem simulate examples/zone-outage/outage1.json`.
// Run it with
//
//	go run ./examples/zone-outage
package main

import (
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/podsem/podsem/cluster"
)

var (
	//go:embed outage1.json
	outage1 []byte
	//go:embed outage2.json
	outage2 []byte
)

func main() {
	fmt.Println("Outage 1: zone-a's four nodes lose contact at t=0; zone-b and zone-c stay healthy.")
	fmt.Println()
	run(outage1)
	fmt.Println()
	fmt.Println("zone-a has no Ready node (FullDisruption) but the other zones do, so it keeps the")
	fmt.Println("normal rate: one node every 10 s, and each node's pods go 300 s after its taint.")
	fmt.Println()
	fmt.Println("Outage 2: every node loses contact at t=0 (a partition around the control plane?);")
	fmt.Println("zone-a's network comes back at t=180 s, zone-b's and zone-c's do not.")
	fmt.Println()
	run(outage2)
	fmt.Println()
	fmt.Println("With every zone down the controller blames itself and taints nothing. Once zone-a is")
	fmt.Println("back, the others are zones without a Ready node among healthy ones: tainting resumes")
	fmt.Println("at the normal rate, from an empty bucket, in each zone.")
}

// run runs a scenario and prints what the node lifecycle and taint
// eviction controllers did, one line per instant and kind of change.
func run(scenario []byte) {
	sc, err := cluster.ParseScenario(scenario)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	res, err := cluster.Run(sc, time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var line []string
	var at float64
	var what string
	flush := func() {
		if len(line) > 0 {
			fmt.Printf("t=%5.0fs  %s %s\n", at, what, strings.Join(line, " "))
		}
		line = nil
	}
	for _, r := range res.Records {
		var w, who string
		switch {
		case r.Reason == "NodeNotReady" && strings.HasPrefix(r.Object, "Node/"):
			w, who = "Ready=Unknown (no Lease renewal for 50 s):", strings.TrimPrefix(r.Object, "Node/")
		case r.Reason == "NodeReady" || r.Reason == "NodeModified" && strings.Contains(r.Message, "-> True"):
			w, who = "Ready again:", strings.TrimPrefix(r.Object, "Node/")
		case r.Reason == "TaintAdded" && strings.HasSuffix(r.Message, ":NoExecute"):
			w, who = "tainted "+r.Message+":", strings.TrimPrefix(r.Object, "Node/")
		case r.Reason == "ZoneStateChanged" || r.Reason == "FullDisruption":
			w, who = r.Message, ""
		case r.Reason == "TaintManagerEviction":
			w, who = "deleted by taint eviction:", strings.TrimPrefix(r.Object, "Pod/shop/")
		default:
			continue
		}
		if r.Offset != at || w != what || who == "" {
			flush()
		}
		at, what = r.Offset, w
		if who != "" {
			line = append(line, who)
		} else {
			fmt.Printf("t=%5.0fs  %s\n", at, what)
		}
	}
	flush()
}
