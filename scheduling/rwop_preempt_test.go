package scheduling_test

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/preemption"
	"github.com/podsem/podsem/scheduling"
)

// A lower-priority pod holding a ReadWriteOncePod claim is a preemption
// victim for a higher-priority pod wanting the claim: VolumeRestrictions
// rejects every node as Unschedulable, and the what-if that removes the
// holder frees the claim on the holder's node.
func TestReadWriteOncePodHolderIsPreempted(t *testing.T) {
	c, err := scheduling.NewCluster(nil, nil, scheduling.Config{})
	if err != nil {
		t.Fatal(err)
	}
	decodeInto(c,
		`{"kind": "Node", "metadata": {"name": "node-a"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`,
		`{"kind": "Node", "metadata": {"name": "node-b"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}`,
		`{"kind": "PersistentVolumeClaim", "metadata": {"name": "db", "namespace": "shop", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
		  "spec": {"accessModes": ["ReadWriteOncePod"], "resources": {"requests": {"storage": "1Gi"}}, "volumeName": "pv-db"},
		  "status": {"phase": "Bound"}}`,
		`{"kind": "PersistentVolume", "metadata": {"name": "pv-db"},
		  "spec": {"accessModes": ["ReadWriteOncePod"], "capacity": {"storage": "1Gi"}, "csi": {"driver": "csi.example.com", "volumeHandle": "v1"},
		    "claimRef": {"namespace": "shop", "name": "db"}}, "status": {"phase": "Bound"}}`,
		`{"kind": "Pod", "metadata": {"name": "old", "namespace": "shop"},
		  "spec": {"nodeName": "node-b", "priority": 10, "containers": [{"name": "c", "image": "busybox:1.37"}],
		    "volumes": [{"name": "d", "persistentVolumeClaim": {"claimName": "db"}}]}}`)
	prio := int32(1000)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "new", Namespace: "shop", UID: "uid-new"}, Spec: api.PodSpec{
		Priority: &prio, Containers: []api.Container{{Name: "c", Image: "busybox:1.37"}},
		Volumes: []api.Volume{{Name: "d", VolumeSource: api.VolumeSource{
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "db"}}}}}}
	cy := c.NewCycle(pod)
	var d scheduling.Decision
	if len(cy.Decide(&d).Feasible()) != 0 {
		t.Fatalf("feasible nodes %v, want none", d.Feasible())
	}
	r := preemption.Preempt(cy, &d, nil, preemption.Config{}, time.Unix(0, 0))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if r.Node != "node-b" || len(r.Victims) != 1 || r.Victims[0].Name != "old" {
		t.Fatalf("preemption: node %q victims %v, want node-b and the holder", r.Node, r.Victims)
	}
}
