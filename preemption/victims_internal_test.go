package preemption

import (
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
	"pgregory.net/rapid"
)

// sortByImportance leaves the pods' keys in the order upstream's
// sort.Slice leaves the pods in, ties on priority and start time included,
// below and above the insertion-sort threshold.
func TestSortByImportanceIsSortSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "pods")
		nd := &api.Node{}
		nd.Name = "n"
		var pods []*api.Pod
		base := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
		for i := 0; i < n; i++ {
			p := &api.Pod{}
			p.Name, p.Namespace, p.Spec.NodeName = fmt.Sprintf("p%02d", i), "default", "n"
			prio := int32(rapid.IntRange(0, 2).Draw(t, "prio"))
			p.Spec.Priority = &prio
			if m := rapid.IntRange(-1, 2).Draw(t, "start"); m >= 0 {
				p.Status.StartTime = api.NewTimePtr(base.Add(time.Duration(m) * time.Minute))
			}
			pods = append(pods, p)
		}
		c, err := scheduling.NewCluster([]*api.Node{nd}, pods, scheduling.Config{})
		if err != nil {
			t.Fatal(err)
		}
		now := rapid.SampledFrom([]time.Time{{}, base.Add(time.Minute)}).Draw(t, "now")
		infos := c.NodeAt(0).Pods()
		want := slices.Clone(infos)
		d := &dryRun{now: now}
		keys := d.keysOf(nil, infos)
		d.sortByImportance(keys)
		var got []*scheduling.PodInfo
		for _, k := range keys {
			got = append(got, infos[k.pos])
		}
		sort.Slice(want, func(i, j int) bool {
			a, b := want[i], want[j]
			if a.Priority() != b.Priority() {
				return a.Priority() > b.Priority()
			}
			return startNanos(a, now) < startNanos(b, now)
		})
		if !slices.Equal(got, want) {
			t.Fatalf("order differs from sort.Slice")
		}
	})
}
