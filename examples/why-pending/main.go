// Command why-pending answers "why is my pod Pending?" for a small
// embedded cluster, the way kube-scheduler v1.36.3 would decide: for every
// node, each filter plugin that rejects the pod with upstream's reason and
// the numbers behind it; the score breakdown of the nodes that pass; and
// the message the scheduler records in the pod's events.
//
// Usage:
//
//	go run ./examples/why-pending            # explain the embedded pods
//	go run ./examples/why-pending cluster.json pod.json
//
// With arguments, cluster.json is a `kubectl get nodes,pods,namespaces -o
// json` List and pod.json the pending pod.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// clusterJSON is a four-node cluster over two zones: one node cordoned,
// one reserved for GPU work, the others partly used, with a database pod
// that repels its peers from its zone.
const clusterJSON = `{
  "kind": "List",
  "items": [
    {"kind": "Node", "metadata": {"name": "node-a1", "labels": {"kubernetes.io/hostname": "node-a1", "topology.kubernetes.io/zone": "zone-a", "disk": "ssd"}},
     "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},
    {"kind": "Node", "metadata": {"name": "node-a2", "labels": {"kubernetes.io/hostname": "node-a2", "topology.kubernetes.io/zone": "zone-a"}},
     "spec": {"unschedulable": true, "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]},
     "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}},
    {"kind": "Node", "metadata": {"name": "node-b1", "labels": {"kubernetes.io/hostname": "node-b1", "topology.kubernetes.io/zone": "zone-b", "disk": "ssd"}},
     "spec": {"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]},
     "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110", "nvidia.com/gpu": "4"}}},
    {"kind": "Node", "metadata": {"name": "node-b2", "labels": {"kubernetes.io/hostname": "node-b2", "topology.kubernetes.io/zone": "zone-b"}},
     "spec": {"taints": [{"key": "spot", "effect": "PreferNoSchedule"}]},
     "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"}}},
    {"kind": "Pod", "metadata": {"name": "postgres-0", "namespace": "shop", "labels": {"app": "postgres"}},
     "spec": {"nodeName": "node-a1", "containers": [{"name": "db", "image": "postgres:17",
       "resources": {"requests": {"cpu": "3", "memory": "8Gi"}}}],
       "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         {"labelSelector": {"matchLabels": {"app": "postgres"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}}},
    {"kind": "Pod", "metadata": {"name": "cache-0", "namespace": "shop", "labels": {"app": "cache"}},
     "spec": {"nodeName": "node-b2", "containers": [{"name": "redis", "image": "redis:8",
       "resources": {"requests": {"cpu": "6", "memory": "20Gi"}}}]}},
    {"kind": "Namespace", "metadata": {"name": "shop", "labels": {"kubernetes.io/metadata.name": "shop"}}}
  ]
}`

// pendingJSON are the pods to explain.
var pendingJSON = []string{
	// A second database replica: its own anti-affinity rules out zone-a,
	// the GPU taint node-b1, and node-b2 has too little memory left.
	`{"kind": "Pod", "metadata": {"name": "postgres-1", "namespace": "shop", "labels": {"app": "postgres"}},
	  "spec": {"containers": [{"name": "db", "image": "postgres:17", "resources": {"requests": {"cpu": "2", "memory": "16Gi"}}}],
	    "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
	      {"labelSelector": {"matchLabels": {"app": "postgres"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}}}`,
	// A web pod that prefers SSD nodes and to be near the cache: it fits
	// two nodes, and the scores say which one wins.
	`{"kind": "Pod", "metadata": {"name": "web-1", "namespace": "shop", "labels": {"app": "web"}},
	  "spec": {"containers": [{"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}],
	    "affinity": {
	      "nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
	        {"weight": 20, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}]},
	      "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
	        {"weight": 50, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "topology.kubernetes.io/zone"}}]}}}}`,
}

func main() {
	clusterData, podData := []byte(clusterJSON), make([][]byte, 0, len(pendingJSON))
	for _, p := range pendingJSON {
		podData = append(podData, []byte(p))
	}
	if len(os.Args) == 3 {
		var err error
		if clusterData, err = os.ReadFile(os.Args[1]); err != nil {
			fail(err)
		}
		b, err := os.ReadFile(os.Args[2])
		if err != nil {
			fail(err)
		}
		podData = [][]byte{b}
	} else if len(os.Args) != 1 {
		fail(fmt.Errorf("usage: why-pending [cluster.json pod.json]"))
	}

	objs, err := api.Decode(clusterData)
	if err != nil {
		fail(err)
	}
	var nodes []*api.Node
	var pods []*api.Pod
	var namespaces []*api.Namespace
	for _, o := range objs {
		switch o := o.(type) {
		case *api.Node:
			nodes = append(nodes, o)
		case *api.Pod:
			pods = append(pods, o)
		case *api.Namespace:
			namespaces = append(namespaces, o)
		}
	}
	c, err := scheduling.NewCluster(nodes, pods, scheduling.Config{})
	if err != nil {
		fail(err)
	}
	for _, ns := range namespaces {
		if err := c.SetNamespace(ns); err != nil {
			fail(err)
		}
	}
	for i, data := range podData {
		var p api.Pod
		if err := json.Unmarshal(data, &p); err != nil {
			fail(err)
		}
		if i > 0 {
			fmt.Println()
		}
		e := c.NewCycle(&p).Explain()
		fmt.Print(e)
		if len(e.Scores) > 0 {
			fmt.Printf("=> would be bound to %s\n", e.Scores[0].Node)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "why-pending:", err)
	os.Exit(1)
}
