package cluster_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/cluster"
)

func BenchmarkZoneTmp(b *testing.B) {
	w := loadBenchWorld(b)
	zone := slices.Sorted(maps.Keys(w.zones))[0]
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := settledMachine(b, w.objs)
		t0 := m.Now()
		b.StartTimer()
		began := time.Now()
		stop := timedProfile(b, i)
		for _, n := range w.zones[zone] {
			if _, err := m.Step(cluster.Do(cluster.Action{Kind: cluster.ActionLose, Node: n}), t0); err != nil {
				b.Fatal(err)
			}
		}
		steps := 0
		end := t0.Add(15 * time.Minute)
		for {
			d := m.NextDeadline()
			if d.After(end) {
				break
			}
			if _, err := m.Step(cluster.Tick(), d); err != nil {
				b.Fatal(err)
			}
			steps++
		}
		stop()
		b.ReportMetric(float64(steps), "steps")
		b.ReportMetric(m.Now().Sub(t0).Seconds()/time.Since(began).Seconds(), "sim-s/s")
	}
}
