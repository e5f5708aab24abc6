//go:build !race

package preemption_test

const raceEnabled = false
