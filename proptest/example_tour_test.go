package proptest_test

import (
	"errors"
	"fmt"

	"github.com/podsem/podsem/proptest"
	"github.com/podsem/podsem/scheduling"
)

// A controller under test binds every pending pod to the first node. The
// property: kube-scheduler's filters accept each binding. Generated
// clusters find the flaw; in a test, rapid.Check draws them and shrinks
// the counterexample, here fixed seeds keep the run repeatable.
func ExampleCheckPlacementFeasible_firstNode() {
	clusters := proptest.Cluster(proptest.ClusterOptions{Pending: 3})
	for seed := range 100 {
		c := clusters.Example(seed)
		snap, err := c.Snapshot(scheduling.Config{})
		if err != nil || len(c.Nodes) == 0 {
			continue
		}
		for _, p := range c.Pending() {
			err := proptest.CheckPlacementFeasible(snap, p, c.Nodes[0].Name)
			if errors.Is(err, proptest.ErrViolation) {
				fmt.Printf("seed %d: %v\n", seed, err)
				return
			}
		}
	}
	fmt.Println("no counterexample in 100 clusters")
	// Output:
	// seed 1: proptest: guarantee violated: pod default/cache-2nczkl6k5w-nwsvf does not fit node ip-10-0-0-4.us-east-1.compute.internal: NodeResourcesFit: UnschedulableAndUnresolvable: Insufficient cpu
}
