package cluster_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/podsem/podsem/cluster"
)

// node-2 dies at t=0: when is each of its pods evicted, when is it
// replaced, and when can the StatefulSet's db-2 come back? The node
// lifecycle controller notices the silence after the 50-s grace period
// and taints the node; taint eviction deletes its pods when their
// 300-s tolerations run out. The Deployment's pod is replaced at once,
// but db-2 is not: its object stays Terminating while no kubelet confirms
// the kill, and a StatefulSet never runs two pods of one identity. Only
// when the Node object is deleted (a cloud provider's doing, at 10 m) does
// pod GC force-delete the pod, and db-2 is created again.
func ExampleRun_nodeLost() {
	var objects []string
	for i := 1; i <= 4; i++ {
		objects = append(objects, fmt.Sprintf(`{"kind": "Node", "apiVersion": "v1",
		  "metadata": {"name": "node-%d", "labels": {"kubernetes.io/hostname": "node-%d"}},
		  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`, i, i))
	}
	objects = append(objects, `{"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": {"name": "db", "namespace": "shop"},
	  "spec": {"replicas": 3, "serviceName": "db", "selector": {"matchLabels": {"app": "db"}},
	    "template": {"metadata": {"labels": {"app": "db"}}, "spec": {
	      "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
	        {"labelSelector": {"matchLabels": {"app": "db"}}, "topologyKey": "kubernetes.io/hostname"}]}},
	      "containers": [{"name": "postgres", "image": "postgres:17"}]}}}}`,
		`{"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "web", "namespace": "shop"},
	  "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
	    "template": {"metadata": {"labels": {"app": "web"}},
	      "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}}}`)
	scenario := `{"objects": [` + strings.Join(objects, ",") + `],
	  "actions": [{"at": "0s", "lose": "node-2"}, {"at": "10m", "deleteNode": "node-2"}],
	  "until": "12m"}`
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
		show := false
		switch r.Reason {
		case "NodeNotReady", "RemovingNode":
			show = strings.HasPrefix(r.Object, "Node/")
		case "TaintAdded":
			show = strings.HasSuffix(r.Message, "NoExecute")
		case "TaintManagerEviction", "PodGCForceDeleted", "SuccessfulCreate", "Scheduled":
			show = true
		}
		if show {
			fmt.Printf("%6v %-20s %s: %s\n", time.Duration(r.Offset)*time.Second, r.Reason, r.Object, r.Message)
		}
	}
	for _, p := range res.Answers.Pods {
		if p.Pod == "shop/db-2" && p.Node == "node-2" {
			fmt.Printf("db-2 on node-2: unavailable for %v of the 12 minutes\n", p.Unavailable)
		}
	}
	// Output:
	// 47s NodeNotReady         Node/node-2: Node node-2 status is now: NodeNotReady
	//    47s TaintAdded           Node/node-2: node.kubernetes.io/unreachable:NoExecute
	//  5m47s TaintManagerEviction Pod/shop/db-2: Marking for deletion Pod shop/db-2
	//  5m47s TaintManagerEviction Pod/shop/web-7d876db474-cjqqh: Marking for deletion Pod shop/web-7d876db474-cjqqh
	//  5m47s SuccessfulCreate     ReplicaSet/shop/web-7d876db474: Created pod: web-7d876db474-hphdn
	//  5m47s Scheduled            Pod/shop/web-7d876db474-hphdn: Successfully assigned shop/web-7d876db474-hphdn to node-1
	//  10m2s RemovingNode         Node/node-2: Node node-2 event: Removing Node node-2 from Controller
	// 11m17s PodGCForceDeleted    Pod/shop/db-2: bound to node node-2, which has been missing for the 40s quarantine and is confirmed deleted
	// 11m17s PodGCForceDeleted    Pod/shop/web-7d876db474-cjqqh: bound to node node-2, which has been missing for the 40s quarantine and is confirmed deleted
	// 11m17s SuccessfulCreate     StatefulSet/shop/db: Create Pod db-2 in StatefulSet db successful
	// 11m17s Scheduled            Pod/shop/db-2: Successfully assigned shop/db-2 to node-4
	// db-2 on node-2: unavailable for 10m29.99s of the 12 minutes
}
