//go:build !race

package nodepressure_test

const raceEnabled = false
