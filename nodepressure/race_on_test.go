//go:build race

package nodepressure_test

// raceEnabled: the race detector's instrumentation allocates on its own,
// so allocation counts are not checked under it.
const raceEnabled = true
