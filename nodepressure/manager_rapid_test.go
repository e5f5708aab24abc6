package nodepressure_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
	"pgregory.net/rapid"
)

// TestManagerProperties drives managers with random settings, pods
// and Summary series and checks, at every pass:
//
//   - a critical pod is never evicted, and the pod evicted is the first
//     pod that is not critical in RankForEviction's order for the
//     reclaimed signal, the critical pods before it being the ones skipped;
//   - no threshold is met (so none is acted on) before it has been in
//     force continuously for its grace period;
//   - a pressure condition is reported exactly while one of its
//     thresholds was in force less than the transition period ago: it
//     never clears earlier;
//   - an eviction only comes with a reclaim.
func TestManagerProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		settings := nodepressure.Settings{
			Hard: map[string]string{"nodefs.available": rapid.SampledFrom([]string{"10%", "5Gi"}).Draw(t, "nodefs")},
			Soft: map[string]string{"memory.available": rapid.SampledFrom([]string{"1Gi", "1.5Gi", "20%"}).Draw(t, "soft")},
			SoftGracePeriod: map[string]string{"memory.available": rapid.SampledFrom([]string{"0s", "30s", "1m", "1m30s"}).Draw(t, "grace"),
				"nodefs.available": "10s"},
			PressureTransitionPeriod: rapid.SampledFrom([]string{"", "0s", "30s", "1m"}).Draw(t, "transition"),
			MaxPodGracePeriodSeconds: rapid.Int64Range(-1, 60).Draw(t, "maxPodGrace"),
		}
		if rapid.Bool().Draw(t, "hard memory") {
			settings.Hard["memory.available"] = rapid.SampledFrom([]string{"100Mi", "500Mi"}).Draw(t, "hardMem")
		}
		if rapid.Bool().Draw(t, "min reclaim") {
			settings.MinimumReclaim = map[string]string{"memory.available": rapid.SampledFrom([]string{"0", "200Mi", "5%"}).Draw(t, "reclaim")}
		}
		layout := rapid.SampledFrom([]nodepressure.FilesystemLayout{nodepressure.LayoutShared, nodepressure.LayoutDedicatedImageFs}).Draw(t, "layout")
		m, err := nodepressure.NewManager(settings, layout)
		if err != nil {
			t.Fatal(err)
		}
		period := m.Policy().PressureTransitionPeriod

		n := rapid.IntRange(0, 16).Draw(t, "pods")
		var pods []*api.Pod
		var stats []nodepressure.PodStats
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("p%d", i)
			p := epod(name, rapid.SampledFrom([]int32{0, 0, 100, 2000000000}).Draw(t, "prio"),
				rapid.SampledFrom([]string{"", "64Mi", "256Mi"}).Draw(t, "mem"), rapid.SampledFrom([]string{"", "1Gi"}).Draw(t, "disk"))
			if rapid.IntRange(0, 6).Draw(t, "static?") == 0 {
				p.Annotations = map[string]string{api.ConfigSourceAnnotationKey: "file"}
			}
			if rapid.Bool().Draw(t, "tgps?") {
				p.Spec.TerminationGracePeriodSeconds = ptrTo(rapid.Int64Range(0, 90).Draw(t, "tgps"))
			}
			pods = append(pods, p)
			if rapid.IntRange(0, 5).Draw(t, "stats?") == 0 {
				continue
			}
			s := diskStats(name, uint64(rapid.IntRange(0, 4).Draw(t, "rootfs"))*256*mi, uint64(rapid.IntRange(0, 2).Draw(t, "logs"))*mi, nil)
			s.Memory = &nodepressure.MemoryStats{WorkingSetBytes: u(uint64(rapid.IntRange(0, 8).Draw(t, "ws")) * 64 * mi)}
			stats = append(stats, s)
		}

		runStart := map[string]time.Time{}
		var lastInForce [3]*time.Time
		conds := []api.NodeConditionType{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure}
		now, statsAt := t0, t0
		for k, steps := 0, rapid.IntRange(1, 10).Draw(t, "steps"); k < steps; k++ {
			now = now.Add(time.Duration(rapid.IntRange(1, 60).Draw(t, "dt")) * time.Second)
			if rapid.IntRange(0, 4).Draw(t, "stale?") != 0 {
				statsAt = now
			}
			sum := nodeSummary(statsAt, uint64(rapid.SampledFrom([]int{50, 300, 800, 1200, 1700, 4096}).Draw(t, "avail"))*mi, gi(4),
				uint64(rapid.SampledFrom([]int{2, 4, 8, 20}).Draw(t, "fsAvail"))*gi(1), gi(100))
			sum.Pods = stats
			st := m.Step(nodepressure.Observation{Summary: sum, Pods: pods}, now)

			inForce := map[string]bool{}
			for _, th := range st.InForce {
				key := th.String()
				inForce[key] = true
				if _, ok := runStart[key]; !ok {
					runStart[key] = now
				}
				c := slices.Index(conds, th.Signal.NodeCondition())
				at := now
				lastInForce[c] = &at
			}
			for key := range runStart {
				if !inForce[key] {
					delete(runStart, key)
				}
			}
			for _, th := range st.ThresholdsMet {
				start, ok := runStart[th.String()]
				if !ok || now.Sub(start) < th.GracePeriod {
					t.Fatalf("pass %d: %s met after %v in force, grace %v", k, th, now.Sub(start), th.GracePeriod)
				}
			}
			for c, last := range lastInForce {
				want := last != nil && now.Sub(*last) < period
				if got := slices.Contains(st.Conditions, conds[c]); got != want {
					t.Fatalf("pass %d: %s reported %v, want %v (last in force %v, period %v)", k, conds[c], got, want, last, period)
				}
			}

			e := st.Eviction
			if e == nil {
				continue
			}
			if st.Reclaim == nil {
				t.Fatalf("pass %d: eviction without reclaim", k)
			}
			if api.IsCriticalPod(e.Pod) {
				t.Fatalf("pass %d: critical pod %s evicted", k, e.Pod.Name)
			}
			ranks, err := nodepressure.RankForEviction(pods, nodepressure.StatsByUID(stats), st.Reclaim.Threshold.Signal, layout)
			if err != nil {
				t.Fatal(err)
			}
			var skipped []*api.Pod
			for _, r := range ranks {
				if !api.IsCriticalPod(r.Pod) {
					if r.Pod != e.Pod {
						t.Fatalf("pass %d: evicted %s, ranking says %s", k, e.Pod.Name, r.Pod.Name)
					}
					break
				}
				skipped = append(skipped, r.Pod)
			}
			if !slices.Equal(skipped, st.Reclaim.SkippedCritical) {
				t.Fatalf("pass %d: skipped %d critical pods, ranking has %d before %s", k, len(st.Reclaim.SkippedCritical), len(skipped), e.Pod.Name)
			}
			if e.Grace.GracePeriodSeconds != 1 && st.Reclaim.Threshold.Hard() {
				t.Fatalf("pass %d: hard eviction with grace %d", k, e.Grace.GracePeriodSeconds)
			}
			pods = slices.DeleteFunc(pods, func(p *api.Pod) bool { return p == e.Pod })
		}
	})
}

// TestManagerDeadlineProperty checks NextDeadline's promise on random
// settings, pods and Summary series (stale readings and garbage
// collections included): after any pass, a tick at any time before the
// deadline (at any later time when there is none) decides nothing new —
// no eviction, the same conditions and the same thresholds met — and the
// deadline, when there is one, lies after the pass. The tick is fed to a
// second manager replaying the same inputs, so the first goes on
// undisturbed.
func TestManagerDeadlineProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		settings := nodepressure.Settings{
			Hard:                     map[string]string{"memory.available": "100Mi", "nodefs.available": "10%"},
			Soft:                     map[string]string{"memory.available": rapid.SampledFrom([]string{"1Gi", "1.5Gi"}).Draw(t, "soft")},
			SoftGracePeriod:          map[string]string{"memory.available": rapid.SampledFrom([]string{"0s", "15s", "1m", "1m35s"}).Draw(t, "grace")},
			PressureTransitionPeriod: rapid.SampledFrom([]string{"", "0s", "45s", "1m"}).Draw(t, "transition"),
			MaxPodGracePeriodSeconds: 30,
		}
		if rapid.Bool().Draw(t, "min reclaim") {
			settings.MinimumReclaim = map[string]string{"memory.available": "300Mi", "nodefs.available": "5Gi"}
		}
		build := func() *nodepressure.Manager {
			m, err := nodepressure.NewManager(settings, nodepressure.LayoutShared)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		var pods []*api.Pod
		var stats []nodepressure.PodStats
		for i, n := 0, rapid.IntRange(0, 5).Draw(t, "pods"); i < n; i++ {
			name := fmt.Sprintf("p%d", i)
			p := epod(name, rapid.SampledFrom([]int32{0, 100, 2000000000}).Draw(t, "prio"), rapid.SampledFrom([]string{"", "256Mi"}).Draw(t, "mem"), "")
			pods = append(pods, p)
			s := diskStats(name, uint64(rapid.IntRange(0, 4).Draw(t, "rootfs"))*256*mi, mi, nil)
			s.Memory = &nodepressure.MemoryStats{WorkingSetBytes: u(uint64(rapid.IntRange(0, 8).Draw(t, "ws")) * 64 * mi)}
			stats = append(stats, s)
		}

		type input struct {
			in  nodepressure.Observation
			now time.Time
		}
		var history []input
		m := build()
		now, statsAt := t0, t0
		for k, steps := 0, rapid.IntRange(1, 8).Draw(t, "steps"); k < steps; k++ {
			var in nodepressure.Observation
			if k > 0 && rapid.IntRange(0, 3).Draw(t, "tick?") == 0 {
				// Jump to the deadline, as a simulator does, or a bit past it.
				d := m.NextDeadline()
				if d.IsZero() {
					d = now.Add(time.Minute)
				}
				now = d.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "late")) * time.Second)
				in = nodepressure.Tick()
			} else {
				now = now.Add(time.Duration(rapid.IntRange(1, 90).Draw(t, "dt")) * time.Second)
				if rapid.IntRange(0, 4).Draw(t, "stale?") != 0 {
					statsAt = now
				}
				sum := nodeSummary(statsAt, uint64(rapid.SampledFrom([]int{50, 300, 800, 1200, 4096}).Draw(t, "avail"))*mi, gi(4),
					uint64(rapid.SampledFrom([]int{4, 8, 20}).Draw(t, "fsAvail"))*gi(1), gi(100))
				sum.Pods = stats
				in = nodepressure.Observation{Summary: sum, Pods: pods}
				if rapid.Bool().Draw(t, "gc?") {
					after := nodeSummary(statsAt, gi(4), gi(4), uint64(rapid.SampledFrom([]int{6, 20}).Draw(t, "fsAfter"))*gi(1), gi(100))
					in.AfterNodeGC = &after
				}
			}
			st := m.Step(in, now)
			history = append(history, input{in, now})
			if e := st.Eviction; e != nil && !in.Tick {
				pods = slices.DeleteFunc(slices.Clone(pods), func(p *api.Pod) bool { return p == e.Pod })
			}

			d := m.NextDeadline()
			if !d.IsZero() && !d.After(now) {
				t.Fatalf("pass %d at %v: deadline %v not after the pass", k, now, d)
			}
			limit := time.Hour
			if !d.IsZero() {
				limit = d.Sub(now) - 1
			}
			at := now.Add(time.Duration(rapid.Int64Range(1, int64(limit)).Draw(t, "tick at")))
			twin := build()
			for _, h := range history {
				twin.Step(h.in, h.now)
			}
			got := twin.Step(nodepressure.Tick(), at)
			if got.Eviction != nil {
				t.Fatalf("pass %d at %v, deadline %v: a tick at %v evicted %s", k, now, d, at, got.Eviction.Pod.Name)
			}
			if !slices.Equal(got.Conditions, st.Conditions) {
				t.Fatalf("pass %d at %v, deadline %v: a tick at %v reports %v, the pass %v", k, now, d, at, got.Conditions, st.Conditions)
			}
			if a, b := fmt.Sprint(got.ThresholdsMet), fmt.Sprint(st.ThresholdsMet); a != b {
				t.Fatalf("pass %d at %v, deadline %v: a tick at %v has met %s, the pass %s", k, now, d, at, a, b)
			}
		}
	})
}
