package scheduling

import (
	"encoding/json"
	"testing"

	"github.com/podsem/podsem/api"
)

// FuzzScheduleOne decodes a kubectl-style dump (nodes, pods, storage
// objects, workloads) and a pod from arbitrary JSON, adds the objects to a
// snapshot and makes a ScheduleOne decision and an Explanation for the pod:
// nothing may panic, a chosen node must be feasible, and the start index
// stays within the nodes.
func FuzzScheduleOne(f *testing.F) {
	f.Add(`{"kind": "List", "items": [
	  {"kind": "Node", "metadata": {"name": "a", "labels": {"topology.kubernetes.io/zone": "z"}}, "status": {"allocatable": {"cpu": "2", "pods": "3"},
	    "images": [{"names": ["nginx:1.25"], "sizeBytes": 50000000}]}},
	  {"kind": "Node", "metadata": {"name": "b"}, "spec": {"unschedulable": true}, "status": {"allocatable": {"cpu": "2", "pods": "3"}}},
	  {"kind": "PersistentVolumeClaim", "metadata": {"name": "c", "namespace": "d"}, "spec": {"accessModes": ["ReadWriteOncePod"], "storageClassName": "s"}},
	  {"kind": "StorageClass", "metadata": {"name": "s"}, "provisioner": "p", "volumeBindingMode": "WaitForFirstConsumer",
	    "allowedTopologies": [{"matchLabelExpressions": [{"key": "topology.kubernetes.io/zone", "values": ["z"]}]}]},
	  {"kind": "PersistentVolume", "metadata": {"name": "v", "labels": {"topology.kubernetes.io/zone": "z__y"}}, "spec": {"storageClassName": "s",
	    "capacity": {"storage": "1Gi"}, "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["x"]}]}]}}},
	    "status": {"phase": "Available"}},
	  {"kind": "CSINode", "metadata": {"name": "a"}, "spec": {"drivers": [{"name": "p", "nodeID": "a", "allocatable": {"count": 0}}]}},
	  {"kind": "Pod", "metadata": {"name": "x", "namespace": "d"}, "spec": {"nodeName": "a", "containers": [{"name": "c", "image": "nginx"}],
	    "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "c"}}]}}]}`,
		`{"kind": "Pod", "metadata": {"name": "p", "namespace": "d"}, "spec": {"containers": [{"name": "c", "image": "nginx:1.25"}],
		  "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "c"}}, {"name": "e", "ephemeral": {}}]}}`, int32(0), 1)
	f.Add(`{"kind": "NodeList", "items": [{"metadata": {"name": "n"}}]}`,
		`{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
		  {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n", "m"]}]}]}}}},
		  "status": {"nominatedNodeName": "n"}}`, int32(100), 7)
	f.Fuzz(func(t *testing.T, dump, podJSON string, pct int32, start int) {
		objs, err := api.Decode([]byte(dump))
		if err != nil {
			return
		}
		var pod api.Pod
		if err := json.Unmarshal([]byte(podJSON), &pod); err != nil {
			return
		}
		c, err := NewCluster(nil, nil, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddObjects(objs...); err != nil {
			return
		}
		cy := c.NewCycle(&pod)
		_ = cy.Explain().String()
		s := Scheduler{PercentageOfNodesToScore: pct, NextStartNodeIndex: start}
		d, err := s.ScheduleOne(cy, nil)
		if err != nil {
			return
		}
		_ = d.Message()
		_ = d.UnschedulablePlugins()
		if i, ok := d.Chosen(); ok && !d.Fits(i) {
			t.Fatalf("chosen node %d does not fit", i)
		}
		if n := c.NumNodes(); s.NextStartNodeIndex < 0 || (s.NextStartNodeIndex >= n && s.NextStartNodeIndex != start) {
			t.Fatalf("start index %d with %d nodes", s.NextStartNodeIndex, n)
		}
	})
}
