//go:build race

package cluster

import "flag"

// Under the race detector (CI's `go test -race ./...`) each property runs
// 25 random cases instead of rapid's 100: the simulation runs ten to
// fifteen times slower there, and the race run is for finding data races,
// which the examples, goldens and the first cases reach as well. A plain
// `go test ./cluster` runs the full 100.
func init() {
	if err := flag.Set("rapid.checks", "25"); err != nil {
		panic(err)
	}
}
