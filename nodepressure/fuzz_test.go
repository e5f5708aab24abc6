package nodepressure_test

import (
	"encoding/json"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/nodepressure"
)

// FuzzRankForEviction feeds decoded pods and Summary API stats to the
// ranking: it must never panic, and on success must return every pod once.
func FuzzRankForEviction(f *testing.F) {
	f.Add([]byte(`{"signal":"memory.available","filesystems":"shared","pods":[{"metadata":{"name":"a","uid":"1"},"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":"1Gi"}}}]}},{"metadata":{"name":"b","uid":"2"},"spec":{"overhead":{"memory":"10Mi"}}}],"stats":[{"podRef":{"uid":"1"},"memory":{"workingSetBytes":18446744073709551615}}]}`))
	f.Add([]byte(`{"signal":"nodefs.inodesFree","filesystems":"dedicated-imagefs","pods":[{"metadata":{"name":"a","uid":"1"},"spec":{"volumes":[{"name":"v","emptyDir":{}},{"name":"v","configMap":{"name":"x"}}],"resources":{"requests":{"cpu":"1"}}}}],"stats":[{"podRef":{"uid":"1"},"containers":[{"name":"c","rootfs":{"inodesUsed":5},"logs":null}],"volume":[{"name":"v","inodesUsed":7}]}]}`))
	f.Add([]byte(`{"signal":"pid.available","pods":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"spec":{"priority":-5}}],"stats":[{"podRef":{"uid":""},"process_stats":{"process_count":3}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in struct {
			Signal      string                  `json:"signal"`
			Filesystems string                  `json:"filesystems"`
			Pods        []*api.Pod              `json:"pods"`
			Stats       []nodepressure.PodStats `json:"stats"`
		}
		if json.Unmarshal(data, &in) != nil {
			return
		}
		ranks, err := nodepressure.RankForEviction(in.Pods, nodepressure.StatsByUID(in.Stats),
			nodepressure.Signal(in.Signal), nodepressure.FilesystemLayout(in.Filesystems))
		if err != nil {
			return
		}
		if len(ranks) != len(in.Pods) {
			t.Fatalf("%d ranks for %d pods", len(ranks), len(in.Pods))
		}
		seen := map[*api.Pod]bool{}
		for _, r := range ranks {
			if seen[r.Pod] {
				t.Fatalf("pod %s ranked twice", r.Pod.Name)
			}
			seen[r.Pod] = true
			_ = r.Reason()
		}
	})
}
