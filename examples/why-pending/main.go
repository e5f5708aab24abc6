// Command why-pending answers "why is my pod Pending?" the way
// kube-scheduler v1.36.3 would decide: for every node, each filter plugin
// that rejects the pod with upstream's reason and the numbers behind it;
// the score breakdown of the nodes that pass; the message the scheduler
// records in the pod's events; and the node kube-scheduler itself would
// bind the pod to (ScheduleOne: the node tree walked from the first node,
// the adaptive percentageOfNodesToScore, selectHost's pick).
//
// Usage:
//
//	go run ./examples/why-pending                    # the embedded pods
//	go run ./examples/why-pending cluster.json       # its pending pods
//	go run ./examples/why-pending cluster.json pod.json
//
// cluster.json is a real dump, as
//
//	kubectl get nodes,pods,pvc,pv,storageclasses,csinodes,csidrivers,namespaces,services,replicasets,statefulsets -A -o json
//
// prints it; without pod.json every pending pod of the dump (no
// spec.nodeName, not finished) is explained. A pod with scheduling gates is
// reported as gated: the scheduler never tries it.
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
// that repels its peers from its zone, a report writer holding a
// ReadWriteOncePod claim, and node-b2 already holding the nginx image.
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
     "status": {"allocatable": {"cpu": "8", "memory": "32Gi", "pods": "110"},
       "images": [{"names": ["nginx:1.29"], "sizeBytes": 734003200}]}},
    {"kind": "Pod", "metadata": {"name": "postgres-0", "namespace": "shop", "labels": {"app": "postgres"}},
     "spec": {"nodeName": "node-a1", "containers": [{"name": "db", "image": "postgres:17",
       "resources": {"requests": {"cpu": "3", "memory": "8Gi"}}}],
       "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         {"labelSelector": {"matchLabels": {"app": "postgres"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}}},
    {"kind": "Pod", "metadata": {"name": "cache-0", "namespace": "shop", "labels": {"app": "cache"}},
     "spec": {"nodeName": "node-b2", "containers": [{"name": "redis", "image": "redis:8",
       "resources": {"requests": {"cpu": "6", "memory": "20Gi"}}}]}},
    {"kind": "Pod", "metadata": {"name": "report-0", "namespace": "shop", "labels": {"app": "report"}},
     "spec": {"nodeName": "node-b2", "containers": [{"name": "writer", "image": "busybox:1.37",
       "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}}}],
       "volumes": [{"name": "out", "persistentVolumeClaim": {"claimName": "reports"}}]}},
    {"kind": "PersistentVolumeClaim", "metadata": {"name": "reports", "namespace": "shop",
       "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
     "spec": {"accessModes": ["ReadWriteOncePod"], "resources": {"requests": {"storage": "1Gi"}},
       "storageClassName": "fast", "volumeName": "pv-reports"}, "status": {"phase": "Bound"}},
    {"kind": "PersistentVolume", "metadata": {"name": "pv-reports"},
     "spec": {"accessModes": ["ReadWriteOncePod"], "capacity": {"storage": "1Gi"}, "storageClassName": "fast",
       "csi": {"driver": "csi.example.com", "volumeHandle": "vol-reports"},
       "claimRef": {"namespace": "shop", "name": "reports"}}, "status": {"phase": "Bound"}},
    {"kind": "StorageClass", "metadata": {"name": "fast"}, "provisioner": "csi.example.com",
     "volumeBindingMode": "WaitForFirstConsumer"},
    {"kind": "Namespace", "metadata": {"name": "shop", "labels": {"kubernetes.io/metadata.name": "shop"}}}
  ]
}`

// pendingJSON are the pods to explain.
var pendingJSON = []string{
	// A second report writer wants the same ReadWriteOncePod claim: every
	// node rejects it while report-0 holds the claim.
	`{"kind": "Pod", "metadata": {"name": "report-1", "namespace": "shop", "labels": {"app": "report"}},
	  "spec": {"containers": [{"name": "writer", "image": "busybox:1.37", "resources": {"requests": {"cpu": "100m"}}}],
	    "volumes": [{"name": "out", "persistentVolumeClaim": {"claimName": "reports"}}]}}`,
	// A second database replica: its own anti-affinity rules out zone-a,
	// the GPU taint node-b1, and node-b2 has too little memory left.
	`{"kind": "Pod", "metadata": {"name": "postgres-1", "namespace": "shop", "labels": {"app": "postgres"}},
	  "spec": {"containers": [{"name": "db", "image": "postgres:17", "resources": {"requests": {"cpu": "2", "memory": "16Gi"}}}],
	    "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
	      {"labelSelector": {"matchLabels": {"app": "postgres"}}, "topologyKey": "topology.kubernetes.io/zone"}]}}}}`,
	// A web pod that prefers SSD nodes and to be near the cache: it fits
	// two nodes, and the scores say which one wins (node-b2 also holds its
	// image).
	`{"kind": "Pod", "metadata": {"name": "web-1", "namespace": "shop", "labels": {"app": "web"}},
	  "spec": {"containers": [{"name": "web", "image": "nginx:1.29", "resources": {"requests": {"cpu": "500m", "memory": "512Mi"}}}],
	    "affinity": {
	      "nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
	        {"weight": 20, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["ssd"]}]}}]},
	      "podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
	        {"weight": 50, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "cache"}}, "topologyKey": "topology.kubernetes.io/zone"}}]}}}}`,
}

func main() {
	clusterData := []byte(clusterJSON)
	var podData [][]byte
	for _, p := range pendingJSON {
		podData = append(podData, []byte(p))
	}
	switch len(os.Args) {
	case 1:
	case 2, 3:
		var err error
		if clusterData, err = os.ReadFile(os.Args[1]); err != nil {
			fail(err)
		}
		podData = nil
		if len(os.Args) == 3 {
			b, err := os.ReadFile(os.Args[2])
			if err != nil {
				fail(err)
			}
			podData = [][]byte{b}
		}
	default:
		fail(fmt.Errorf("usage: why-pending [cluster.json [pod.json]]"))
	}

	objs, err := api.Decode(clusterData)
	if err != nil {
		fail(err)
	}
	c, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
	if err != nil {
		fail(err)
	}
	if err := c.AddObjects(objs...); err != nil {
		fail(err)
	}
	var pending []*api.Pod
	for _, data := range podData {
		var p api.Pod
		if err := json.Unmarshal(data, &p); err != nil {
			fail(err)
		}
		pending = append(pending, &p)
	}
	if podData == nil {
		// Every pending pod of the dump.
		for _, o := range objs {
			if p, ok := o.(*api.Pod); ok && p.Spec.NodeName == "" &&
				p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
				pending = append(pending, p)
			}
		}
		if len(pending) == 0 {
			fmt.Println("no pending pod in", os.Args[1])
		}
	}
	for i, p := range pending {
		if i > 0 {
			fmt.Println()
		}
		if st := scheduling.SchedulingGatesPreEnqueue(p); !st.IsSuccess() {
			fmt.Printf("pod %s/%s is gated (%s): %s\n", p.Namespace, p.Name, st.Plugin, st.Reasons[0])
			continue
		}
		cy := c.NewCycle(p)
		fmt.Print(cy.Explain())
		var s scheduling.Scheduler
		d, err := s.ScheduleOne(cy, nil)
		if err != nil {
			fmt.Println("=>", err)
			continue
		}
		if n, ok := d.Chosen(); ok {
			fmt.Printf("=> kube-scheduler would bind it to %s (%d of %d nodes evaluated)\n",
				c.NodeAt(n).Name(), len(d.Evaluated()), c.NumNodes())
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "why-pending:", err)
	os.Exit(1)
}
