package cluster

import (
	"fmt"
	"testing"
	"time"

	"github.com/podsem/podsem/disruption"
)

// TestEvictionConflict: kubectl drain evicts a node's three pods at once,
// under a budget of maxUnavailable n. The first eviction charges the
// budget; the others read it before that charge, so those the old status
// would have let through lose the write race and are answered by the API
// server's retry half a second later (disruption.EvictionConflictRetry),
// in turn: one more granted for each disruption left, the rest refused
// (429). Those the old status already refused are refused at once.
func TestEvictionConflict(t *testing.T) {
	scenario := `{
	  "objects": [
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-2", "labels": {"kubernetes.io/hostname": "node-2"}},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web", "namespace": "default"},
	     "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
	       "template": {"metadata": {"labels": {"app": "web"}},
	         "spec": {"nodeSelector": {"kubernetes.io/hostname": "node-1"}, "containers": [{"name": "c", "image": "nginx"}]}}}},
	    {"kind": "PodDisruptionBudget", "apiVersion": "policy/v1", "metadata": {"name": "web", "namespace": "default"},
	     "spec": {"maxUnavailable": %d, "selector": {"matchLabels": {"app": "web"}}}}
	  ],
	  "actions": [{"at": "10s", "drain": "node-1"}],
	  "until": "12s"
	}`
	for _, c := range []struct {
		maxUnavailable    int
		granted, refusals []float64 // offsets of the evictions' outcomes
	}{
		// One disruption: the first pod at once; the two others lost the
		// race, and their retries find the budget spent.
		{1, []float64{10}, []float64{10.5, 10.5}},
		// Two: the first at once; of the two retries the first takes the
		// disruption left, the second is refused.
		{2, []float64{10, 10.5}, []float64{10.5}},
		// Three: every eviction is allowed by the old status; the retries
		// find room for both.
		{3, []float64{10, 10.5, 10.5}, nil},
	} {
		t.Run(fmt.Sprintf("maxUnavailable=%d", c.maxUnavailable), func(t *testing.T) {
			sc, err := ParseScenario([]byte(fmt.Sprintf(scenario, c.maxUnavailable)))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
			if err != nil {
				t.Fatal(err)
			}
			var granted, refusals []float64
			for _, r := range res.Records {
				switch {
				case r.Reason == "EvictionRefused":
					refusals = append(refusals, r.Offset)
				case r.Reason == "PodModified" && r.Message == "disruptionTarget: ∅ -> EvictionByEvictionAPI":
					granted = append(granted, r.Offset)
				}
			}
			if !sameOffsets(granted, c.granted) || !sameOffsets(refusals, c.refusals) {
				t.Errorf("granted at %v, refused at %v; want %v and %v", granted, refusals, c.granted, c.refusals)
			}
		})
	}
	if disruption.EvictionConflictRetry != 500*time.Millisecond {
		t.Errorf("EvictionConflictRetry %v, upstream's EvictionsRetry is 500 ms", disruption.EvictionConflictRetry)
	}
}
