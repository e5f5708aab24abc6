package scheduling

import (
	"testing"
	"time"

	"github.com/podsem/podsem/api"
)

// TestPreBindVolumes: a pod with two unbound WaitForFirstConsumer claims —
// one an available static volume matches on the chosen node, one none
// does — is bound with VolumeBinding's PreBind: the first claim's volume
// to pre-bind, the second claim to annotate with the selected node, both
// to wait for; a pod whose claims are bound has nothing to do.
func TestPreBindVolumes(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{api.LabelTopologyZone: "a"}},
		Status: api.NodeStatus{Allocatable: api.ResourceList{"cpu": api.MustParseQuantity("2"), "memory": api.MustParseQuantity("2Gi"), "pods": api.MustParseQuantity("10")}}}
	c, err := NewCluster([]*api.Node{node}, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLoop(c, LoopConfig{}, now)
	if err != nil {
		t.Fatal(err)
	}
	mode := api.VolumeBindingWaitForFirstConsumer
	class := "wffc"
	claim := func(name, size string) *api.PersistentVolumeClaim {
		return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
			Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(size)}}},
			Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}}
	}
	objs := []api.Object{
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: class}, Provisioner: "csi.example.com", VolumeBindingMode: &mode},
		&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "local-1"}, Spec: api.PersistentVolumeSpec{StorageClassName: class,
			Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("5Gi")}, AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce}},
			Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}},
		claim("small", "1Gi"), claim("huge", "100Gi"),
	}
	for _, o := range objs {
		if _, err := l.Step(ObjectSet(o), now); err != nil {
			t.Fatal(err)
		}
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default", UID: "uid-db"}, Spec: api.PodSpec{
		Containers: []api.Container{{Name: "c"}},
		Volumes: []api.Volume{
			{Name: "a", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "small"}}},
			{Name: "b", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "huge"}}}}}}
	if _, err := l.Step(PodAdded(pod), now); err != nil {
		t.Fatal(err)
	}
	res, err := l.Step(Tick(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Actions) != 1 || res.Actions[0].Kind != ActionBind {
		t.Fatalf("actions %v, want one bind", res.Actions)
	}
	v := res.Actions[0].Volumes
	if v == nil || len(v.Bind) != 1 || v.Bind[0].Volume.Name != "local-1" || v.Bind[0].Claim.Name != "small" ||
		len(v.Provision) != 1 || v.Provision[0].Name != "huge" || len(v.Claims) != 2 {
		t.Fatalf("PreBind %+v", v)
	}

	// A pod without claims binds with nothing to wait for.
	plain := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}
	if _, err := l.Step(PodAdded(plain), now); err != nil {
		t.Fatal(err)
	}
	res, err = l.Step(Tick(), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Actions) != 1 || res.Actions[0].Volumes != nil {
		t.Fatalf("actions %v, want a bind without volumes", res.Actions)
	}
}
