package proptest_test

import (
	"flag"
	"strconv"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/proptest"
	"pgregory.net/rapid"
)

// podDraws is how many pods TestPodsPassCreateValidation checks.
const podDraws = 10000

// drawsPerCheck spreads n draws over the checks rapid runs
// (-rapid.checks, 100 by default), so that at least n are made whatever
// the flag says: 100 pods per check by default, one with
// -rapid.checks=10000.
func drawsPerCheck(n int) int {
	checks := 100
	if f := flag.Lookup("rapid.checks"); f != nil {
		if v, err := strconv.Atoi(f.Value.String()); err == nil && v > 0 {
			checks = v
		}
	}
	return (n + checks - 1) / checks
}

// Every generated pod, defaulted as the API server defaults it, passes
// the API server's create validation: at least 10,000 draws, half of them
// stored objects and half written by hand (AsWritten) and defaulted here,
// some with node names to pin to.
func TestPodsPassCreateValidation(t *testing.T) {
	stored := proptest.Pod(proptest.PodOptions{NodeNames: []string{"node-1", "node-2"}})
	written := proptest.Pod(proptest.PodOptions{AsWritten: true})
	per := drawsPerCheck(podDraws)
	rapid.Check(t, func(t *rapid.T) {
		for i := range per {
			var p *api.Pod
			if i%2 == 0 {
				p = stored.Draw(t, "pod")
			} else {
				p = written.Draw(t, "written")
			}
			api.DefaultPod(p)
			if errs := validateCreate(p); len(errs) != 0 {
				t.Fatalf("generated pod %s rejected on create: %v", p.Key(), errs)
			}
		}
	})
}
