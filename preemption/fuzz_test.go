package preemption_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// FuzzPreempt runs preemption on decoded clusters: it must never panic,
// and victims must always have a lower priority than the preemptor.
func FuzzPreempt(f *testing.F) {
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"n"},"status":{"allocatable":{"cpu":"1","pods":"2"}}}],"pods":[{"metadata":{"name":"a","namespace":"d","labels":{"x":"y"}},"spec":{"nodeName":"n","priority":-1,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}],"pdbs":[{"metadata":{"name":"p","namespace":"d"},"spec":{"selector":{"matchLabels":{"x":"y"}}},"status":{"disruptionsAllowed":0}}],"preemptor":{"metadata":{"name":"p","namespace":"d"},"spec":{"priority":5,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]},"status":{"nominatedNodeName":"n"}}}`))
	f.Add([]byte(`{"nodes":[{"metadata":{"name":"n"},"spec":{"unschedulable":true}},{"metadata":{"name":"m"}}],"pods":[],"preemptor":{"metadata":{"name":"p"},"spec":{"preemptionPolicy":"Never"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in struct {
			Nodes     []*api.Node                `json:"nodes"`
			Pods      []*api.Pod                 `json:"pods"`
			PDBs      []*api.PodDisruptionBudget `json:"pdbs"`
			Preemptor *api.Pod                   `json:"preemptor"`
			Offset    int                        `json:"offset"`
		}
		if json.Unmarshal(data, &in) != nil || in.Preemptor == nil {
			return
		}
		for _, n := range in.Nodes {
			if n == nil {
				return
			}
		}
		for _, p := range in.Pods {
			if p == nil {
				return
			}
		}
		c, err := scheduling.NewCluster(in.Nodes, in.Pods, scheduling.Config{})
		if err != nil {
			return
		}
		r := preempt(c, in.Preemptor, in.PDBs, preemption.Config{Offset: in.Offset}, time.Time{})
		_ = r.String()
		for _, cand := range r.Candidates {
			for _, v := range cand.Victims {
				if api.PodPriority(v) >= api.PodPriority(in.Preemptor) {
					t.Fatalf("victim %s not of lower priority", v.Name)
				}
			}
		}
	})
}
