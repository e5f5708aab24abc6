package resourcequota_test

import (
	"flag"

	_ "pgregory.net/rapid" // registers the flag set below, before this init runs
)

// Property failures are reported with the seed that reproduces them
// (-rapid.seed=N) and are not saved under testdata/rapid: rapid replays
// every file it finds there before anything else, so one saved failure
// would fail this package's tests on every later run, in this working
// tree only, until the folder is deleted. Pass -rapid.nofailfile=false to
// keep a failing case as a file.
func init() {
	if err := flag.Set("rapid.nofailfile", "true"); err != nil {
		panic(err)
	}
	// Shrinking a failure stops after 5 s (rapid's default is 30 s): a
	// failing property reports quickly, with the seed that replays it.
	if err := flag.Set("rapid.shrinktime", "5s"); err != nil {
		panic(err)
	}
}
