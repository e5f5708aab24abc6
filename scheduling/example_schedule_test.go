package scheduling_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/scheduling"
)

// decodeInto adds kubectl-style JSON objects to a snapshot.
func decodeInto(c *scheduling.Cluster, docs ...string) {
	for _, doc := range docs {
		objs, err := api.Decode([]byte(doc))
		if err != nil {
			panic(err)
		}
		if err := c.AddObjects(objs...); err != nil {
			panic(err)
		}
	}
}

// kube-scheduler stops filtering once it has found numFeasibleNodesToFind
// feasible nodes: with 300 nodes and percentageOfNodesToScore 50 that is
// 150. The cycle starts at the scheduler's start index, walks the node
// list (zones taken round robin), drops the 151st feasible node unevaluated
// and leaves the start index after the nodes it evaluated; only the nodes
// it found are scored.
func ExampleScheduler_ScheduleOne() {
	c, _ := scheduling.NewCluster(nil, nil, scheduling.Config{})
	for i := range 300 {
		zone := []string{"zone-a", "zone-b", "zone-c"}[i%3]
		decodeInto(c, fmt.Sprintf(`{"kind": "Node", "metadata": {"name": "node-%03d",
		  "labels": {"topology.kubernetes.io/zone": %q}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`, i, zone))
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx:1.29"}}}}

	s := scheduling.Scheduler{PercentageOfNodesToScore: 50, NextStartNodeIndex: 10}
	d, err := s.ScheduleOne(c.NewCycle(pod), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("looked for:", d.NumFeasibleNodesToFind())
	fmt.Println("evaluated:", len(d.Evaluated()), "feasible:", len(d.Feasible()), "scored:", len(d.Totals()))
	if ev := d.Evaluated(); len(ev) > 0 {
		fmt.Println("first evaluated:", c.NodeAt(ev[0]).Name())
	}
	fmt.Println("next start index:", s.NextStartNodeIndex)
	// Output:
	// looked for: 150
	// evaluated: 150 feasible: 150 scored: 150
	// first evaluated: node-010
	// next start index: 160
}

// A ReadWriteOncePod claim admits one pod in the whole cluster: while
// report-0 uses it, VolumeRestrictions rejects a second pod wanting it on
// every node, as Unschedulable, so preemption may help. Taking report-0
// away in a what-if (preemption's dry run) frees the claim on its node.
func ExampleCycle_WhatIf_readWriteOncePod() {
	c, _ := scheduling.NewCluster(nil, nil, scheduling.Config{})
	decodeInto(c,
		`{"kind": "Node", "metadata": {"name": "node-a"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`,
		`{"kind": "Node", "metadata": {"name": "node-b"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`,
		`{"kind": "PersistentVolumeClaim", "metadata": {"name": "reports", "namespace": "shop", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
		  "spec": {"accessModes": ["ReadWriteOncePod"], "resources": {"requests": {"storage": "1Gi"}}, "volumeName": "pv-reports"},
		  "status": {"phase": "Bound"}}`,
		`{"kind": "PersistentVolume", "metadata": {"name": "pv-reports"},
		  "spec": {"accessModes": ["ReadWriteOncePod"], "capacity": {"storage": "1Gi"}, "csi": {"driver": "csi.example.com", "volumeHandle": "v1"},
		    "claimRef": {"namespace": "shop", "name": "reports"}}, "status": {"phase": "Bound"}}`,
		`{"kind": "Pod", "metadata": {"name": "report-0", "namespace": "shop"},
		  "spec": {"nodeName": "node-a", "containers": [{"name": "w", "image": "busybox:1.37"}],
		    "volumes": [{"name": "out", "persistentVolumeClaim": {"claimName": "reports"}}]}}`)
	second := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "report-1", Namespace: "shop"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "w", Image: "busybox:1.37"}},
		Volumes: []api.Volume{{Name: "out", VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "reports"}}}}}}

	cy := c.NewCycle(second)
	fmt.Println(cy.Decide(nil).Message())
	w := cy.WhatIf(c.NodeByName("node-a"))
	w.RemovePod(w.Pod("shop", "report-0"))
	fmt.Println("node-a without report-0:", w.Filter())
	// Output:
	// 0/2 nodes are available: 2 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod.
	// node-a without report-0: Success
}

// ImageLocality favours nodes that already hold the pod's images, scaled by
// how many nodes hold them (so that a pod does not pile onto the one node
// with a big image) and matched by exact name: a pod's "nginx:1.25" is not
// the node's "docker.io/library/nginx:1.25". The 800 MiB image is on two
// nodes of three: 800 × 2/3 = 533 MiB, 100 × (533 − 23) / (1000 − 23) = 52.
func ExampleNormalizedImageName() {
	c, _ := scheduling.NewCluster(nil, nil, scheduling.Config{})
	images := `"images": [{"names": ["registry.example.com/ml/trainer:2.1"], "sizeBytes": 838860800},
	  {"names": ["docker.io/library/nginx:1.25"], "sizeBytes": 73400320}]`
	decodeInto(c,
		`{"kind": "Node", "metadata": {"name": "node-a"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}, `+images+`}}`,
		`{"kind": "Node", "metadata": {"name": "node-b"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}, `+images+`}}`,
		`{"kind": "Node", "metadata": {"name": "node-c"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}`)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "train", Namespace: "ml"}, Spec: api.PodSpec{Containers: []api.Container{
		{Name: "t", Image: "registry.example.com/ml/trainer:2.1"}}}}
	for _, s := range c.NewCycle(pod).Decide(nil).Scores(nil) {
		for _, p := range s.Plugins {
			if p.Plugin == scheduling.PluginImageLocality {
				fmt.Println(s.Node, p.Score)
			}
		}
	}
	fmt.Println(scheduling.NormalizedImageName("nginx"), scheduling.NormalizedImageName("nginx:1.25"))
	// Output:
	// node-a 52
	// node-b 52
	// node-c 0
	// nginx:latest nginx:1.25
}
