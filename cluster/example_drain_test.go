package cluster_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/cluster"
)

// Before an autoscaler removes node-1 it asks: if I drain it, where does
// each pod go, which PodDisruptionBudget holds the drain up, and for how
// long? Four replicas of web run on two nodes behind a budget of
// minAvailable 3; kubectl drain node-1 starts at 10 s. The first eviction
// is granted; the second, made at the same instant, lost the race for the
// budget, is tried again by the API server half a second later and
// refused (429) until the first pod's replacement is Ready; kubectl
// retries every 5 s.
func ExampleRun_drain() {
	scenario := `{
	  "objects": [
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-1"},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-2"},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web", "namespace": "shop"},
	     "spec": {"replicas": 4, "selector": {"matchLabels": {"app": "web"}},
	       "template": {"metadata": {"labels": {"app": "web"}},
	         "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27",
	           "readinessProbe": {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 5, "initialDelaySeconds": 5}}]}}}},
	    {"kind": "PodDisruptionBudget", "apiVersion": "policy/v1", "metadata": {"name": "web", "namespace": "shop"},
	     "spec": {"minAvailable": 3, "selector": {"matchLabels": {"app": "web"}}}}
	  ],
	  "actions": [{"at": "10s", "drain": "node-1"}],
	  "until": "1m"
	}`
	sc, err := cluster.ParseScenario([]byte(scenario))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := cluster.Run(sc, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Records {
		switch r.Reason {
		case "Cordoned", "Evicted", "Drained", "Scheduled":
			fmt.Printf("t=%4.1fs %-15s %s\n", r.Offset, r.Reason, r.Message)
		case "EvictionRefused": // podsem's record of a 429, naming the budget
			fmt.Printf("t=%4.1fs %-15s %s: %s\n", r.Offset, r.Reason, r.Object, r.Message)
		}
	}
	for _, b := range res.Answers.Budgets {
		fmt.Printf("budget %s held the drain up for %v (%d refusals)\n", b.Budget, b.Held, b.Refusals)
	}
	for _, p := range res.Answers.Pods {
		if p.Created > 0 {
			fmt.Printf("replacement on %s, unavailable for %v\n", p.Node, p.Unavailable)
		}
	}
	// Output:
	// t=10.0s Cordoned        node/node-1 cordoned
	// t=10.0s Scheduled       Successfully assigned shop/web-6465c6d879-wn5nz to node-2
	// t=10.5s EvictionRefused Pod/shop/web-6465c6d879-rhxqz: budget shop/web: Cannot evict pod as it would violate the pod's disruption budget.
	// t=11.0s Evicted         pod/web-6465c6d879-2dj75 evicted (gone)
	// t=15.5s EvictionRefused Pod/shop/web-6465c6d879-rhxqz: budget shop/web: Cannot evict pod as it would violate the pod's disruption budget.
	// t=20.5s Scheduled       Successfully assigned shop/web-6465c6d879-mjbd6 to node-2
	// t=21.5s Evicted         pod/web-6465c6d879-rhxqz evicted (gone)
	// t=21.5s Drained         node/node-1 drained
	// budget shop/web held the drain up for 10s (2 refusals)
	// replacement on node-2, unavailable for 6s
	// replacement on node-2, unavailable for 6s
}
