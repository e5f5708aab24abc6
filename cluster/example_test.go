package cluster_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/cluster"
)

// A Deployment of two replicas on one node; at 20 s one of its pods is
// deleted (kubectl delete pod; the names are deterministic: podsem's
// pod-template hash and the store's generateName suffixes). The ReplicaSet controller replaces it at
// once, kube-scheduler binds the replacement, the kubelet stops the old
// pod's container (exit 143 on SIGTERM) and starts the new one a second
// later. As on the e2e harness's real control plane, t=0 is when the
// scenario's objects have settled (here 1 s after their creation: both
// pods Ready); the setup's records have negative offsets. The Events, as
// `kubectl events` lists them.
func ExampleRun() {
	scenario := `{
	  "objects": [
	    {"kind": "Node", "apiVersion": "v1", "metadata": {"name": "node-1"},
	     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
	    {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web", "namespace": "shop"},
	     "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
	       "template": {"metadata": {"labels": {"app": "web"}},
	         "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}}}
	  ],
	  "actions": [{"at": "20s", "delete": "Pod/shop/web-7d876db474-qt7hn"}],
	  "until": "30s"
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
	for _, r := range append(res.Setup, res.Records...) {
		if r.Source == cluster.SourceEvent && r.Reason != "Pulled" && r.Reason != "Created" {
			fmt.Printf("t=%.0fs %-17s %s: %s\n", r.Offset, r.Reason, r.Object, r.Message)
		}
	}
	// Output:
	// t=-1s RegisteredNode    Node/node-1: Node node-1 event: Registered Node node-1 in Controller
	// t=-1s ScalingReplicaSet Deployment/shop/web: Scaled up replica set web-7d876db474 from 0 to 2
	// t=-1s SuccessfulCreate  ReplicaSet/shop/web-7d876db474: Created pod: web-7d876db474-qt7hn
	// t=-1s SuccessfulCreate  ReplicaSet/shop/web-7d876db474: Created pod: web-7d876db474-5xs52
	// t=-1s Scheduled         Pod/shop/web-7d876db474-qt7hn: Successfully assigned shop/web-7d876db474-qt7hn to node-1
	// t=-1s Scheduled         Pod/shop/web-7d876db474-5xs52: Successfully assigned shop/web-7d876db474-5xs52 to node-1
	// t=0s Started           Pod/shop/web-7d876db474-5xs52: Container started
	// t=0s Started           Pod/shop/web-7d876db474-qt7hn: Container started
	// t=20s SuccessfulCreate  ReplicaSet/shop/web-7d876db474: Created pod: web-7d876db474-8rc9c
	// t=20s Killing           Pod/shop/web-7d876db474-qt7hn: Stopping container nginx
	// t=20s Scheduled         Pod/shop/web-7d876db474-8rc9c: Successfully assigned shop/web-7d876db474-8rc9c to node-1
	// t=21s Started           Pod/shop/web-7d876db474-8rc9c: Container started
}
