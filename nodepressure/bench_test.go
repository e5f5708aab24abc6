package nodepressure_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// BenchmarkEvictionManagerStep110Pods is one housekeeping pass of the
// eviction manager on a full node (110 pods) under hard memory pressure,
// with fresh statistics at every pass: the thresholds are evaluated, the
// pods ranked, a critical pod skipped and one pod evicted with its message
// and final status. The pods' requests are cached after the first pass,
// so a pass allocates a constant number of times whatever the pod count.
func BenchmarkEvictionManagerStep110Pods(b *testing.B) {
	var pods []*api.Pod
	var stats []nodepressure.PodStats
	for i := 0; i < 110; i++ {
		name := fmt.Sprintf("p%03d", i)
		prio := int32(i % 4)
		if i == 7 {
			prio = 2000001000 // the largest consumer is critical and skipped
		}
		pods = append(pods, epod(name, prio, fmt.Sprintf("%dMi", 64+i%7*32), ""))
		ws := uint64(i*37%500) * mi
		if i == 7 {
			ws = 4096 * mi
		}
		stats = append(stats, memStats(name, ws))
	}
	m, err := nodepressure.NewManager(nodepressure.Settings{}, nodepressure.LayoutShared)
	if err != nil {
		b.Fatal(err)
	}
	sum := nodeSummary(t0, 80*mi, 60*1024*mi, gi(50), gi(100))
	sum.Pods = stats
	obs := nodepressure.Observation{Summary: sum, Pods: pods}
	now := t0
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		now = now.Add(10 * time.Second)
		setSummaryTime(&obs.Summary, now)
		st := m.Step(obs, now)
		if st.Eviction == nil {
			b.Fatal("no eviction")
		}
	}
}

// BenchmarkRankForEviction ranks 110 pods (a full node) under memory
// pressure.
func BenchmarkRankForEviction(b *testing.B) {
	var pods []*api.Pod
	var stats []nodepressure.PodStats
	for i := 0; i < 110; i++ {
		name := fmt.Sprintf("p%03d", i)
		pods = append(pods, epod(name, int32(i%4), fmt.Sprintf("%dMi", 64+i%7*32), ""))
		stats = append(stats, memStats(name, uint64(i*37%500)*mi))
	}
	byUID := nodepressure.StatsByUID(stats)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := nodepressure.RankForEviction(pods, byUID, nodepressure.SignalMemoryAvailable, nodepressure.LayoutShared); err != nil {
			b.Fatal(err)
		}
	}
}
