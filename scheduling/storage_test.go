package scheduling

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/podsem/podsem/api"
)

// jsonCluster builds a snapshot from kubectl-style JSON objects.
func jsonCluster(t *testing.T, objs ...string) *Cluster {
	t.Helper()
	c, err := NewCluster(nil, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		decoded, err := api.Decode([]byte(o))
		if err != nil {
			t.Fatalf("%v: %s", err, o)
		}
		if err := c.AddObjects(decoded...); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func jsonPod(t *testing.T, s string) *api.Pod {
	t.Helper()
	objs, err := api.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("decoded %d objects, want one pod", len(objs))
	}
	p, ok := objs[0].(*api.Pod)
	if !ok {
		t.Fatalf("decoded a %T, want a pod", objs[0])
	}
	return p
}

// storageNode is a node of zone z with room for pods.
func storageNode(name, zone string) string {
	return fmt.Sprintf(`{"kind": "Node", "metadata": {"name": %q, "labels": {"kubernetes.io/hostname": %q, "topology.kubernetes.io/zone": %q}},
	  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}`, name, name, zone)
}

// claimPod is a pod in namespace default using the named claims.
func claimPod(name, node string, claims ...string) string {
	vols := ""
	for i, c := range claims {
		if i > 0 {
			vols += ","
		}
		vols += fmt.Sprintf(`{"name": "v%d", "persistentVolumeClaim": {"claimName": %q}}`, i, c)
	}
	return fmt.Sprintf(`{"kind": "Pod", "metadata": {"name": %q, "namespace": "default"},
	  "spec": {"nodeName": %q, "containers": [{"name": "c", "image": "busybox:1.37"}], "volumes": [%s]}}`, name, node, vols)
}

const (
	wffcClass      = `{"kind": "StorageClass", "metadata": {"name": "local"}, "provisioner": "kubernetes.io/no-provisioner", "volumeBindingMode": "WaitForFirstConsumer"}`
	dynClass       = `{"kind": "StorageClass", "metadata": {"name": "dyn"}, "provisioner": "csi.example.com", "volumeBindingMode": "WaitForFirstConsumer", "allowedTopologies": [{"matchLabelExpressions": [{"key": "topology.kubernetes.io/zone", "values": ["za"]}]}]}`
	immediateClass = `{"kind": "StorageClass", "metadata": {"name": "imm"}, "provisioner": "csi.example.com", "volumeBindingMode": "Immediate"}`
)

func jsonBoundClaim(name, pv, class, mode string) string {
	return fmt.Sprintf(`{"kind": "PersistentVolumeClaim", "metadata": {"name": %q, "namespace": "default", "uid": "uid-%s",
	  "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
	  "spec": {"accessModes": [%q], "resources": {"requests": {"storage": "1Gi"}}, "storageClassName": %q, "volumeName": %q},
	  "status": {"phase": "Bound"}}`, name, name, mode, class, pv)
}

func unboundClaim(name, class string) string {
	return fmt.Sprintf(`{"kind": "PersistentVolumeClaim", "metadata": {"name": %q, "namespace": "default"},
	  "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, "storageClassName": %q},
	  "status": {"phase": "Pending"}}`, name, class)
}

// localPV is an Available (claim "" ) or bound local volume pinned to host.
func localPV(name, host, claim string) string {
	ref, phase := "", "Available"
	if claim != "" {
		ref, phase = fmt.Sprintf(`, "claimRef": {"namespace": "default", "name": %q, "uid": "uid-%s"}`, claim, claim), "Bound"
	}
	return fmt.Sprintf(`{"kind": "PersistentVolume", "metadata": {"name": %q},
	  "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "5Gi"}, "storageClassName": "local", "local": {"path": "/mnt"},
	    "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": [%q]}]}]}}%s},
	  "status": {"phase": %q}}`, name, host, ref, phase)
}

func csiPV(name, claim, handle string, labels string) string {
	return fmt.Sprintf(`{"kind": "PersistentVolume", "metadata": {"name": %q, "labels": {%s}},
	  "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "5Gi"}, "storageClassName": "imm",
	    "csi": {"driver": "csi.example.com", "volumeHandle": %q},
	    "claimRef": {"namespace": "default", "name": %q, "uid": "uid-%s"}},
	  "status": {"phase": "Bound"}}`, name, labels, handle, claim, claim)
}

// verdicts is every node's status from Decide, "ok" for a fit.
func verdicts(c *Cluster, pod *api.Pod) map[string]string {
	d := c.NewCycle(pod).Decide(nil)
	out := map[string]string{}
	for i := range d.NumNodes() {
		st := d.Status(i)
		if st.Code == Success {
			out[c.NodeAt(i).Name()] = "ok"
			continue
		}
		out[c.NodeAt(i).Name()] = fmt.Sprintf("%s %s %v", st.Plugin, st.Code, st.Reasons)
	}
	return out
}

func TestVolumePlugins(t *testing.T) {
	nodes := []string{storageNode("a1", "za"), storageNode("b1", "zb")}
	rwop := "VolumeRestrictions Unschedulable [" + ReasonReadWriteOncePodConflict + "]"
	for _, tc := range []struct {
		name    string
		objs    []string
		pod     string
		want    map[string]string
		message string
	}{{
		name: "missing claim: VolumeRestrictions' PreFilter rejects everywhere",
		pod:  claimPod("in", "", "nope"),
		want: map[string]string{
			"a1": `VolumeRestrictions UnschedulableAndUnresolvable [persistentvolumeclaim "nope" not found]`,
			"b1": `VolumeRestrictions UnschedulableAndUnresolvable [persistentvolumeclaim "nope" not found]`},
		message: `0/2 nodes are available: persistentvolumeclaim "nope" not found.`,
	}, {
		name: "ReadWriteOncePod claim in use: every node",
		objs: []string{immediateClass, jsonBoundClaim("solo", "pv-solo", "imm", "ReadWriteOncePod"), csiPV("pv-solo", "solo", "h1", ""),
			claimPod("holder", "a1", "solo")},
		pod:  claimPod("in", "", "solo"),
		want: map[string]string{"a1": rwop, "b1": rwop},
	}, {
		name: "ReadWriteOnce claim in use: no restriction",
		objs: []string{immediateClass, jsonBoundClaim("shared", "pv-shared", "imm", "ReadWriteOnce"), csiPV("pv-shared", "shared", "h1", ""),
			claimPod("holder", "a1", "shared")},
		pod:  claimPod("in", "", "shared"),
		want: map[string]string{"a1": "ok", "b1": "ok"},
	}, {
		name: "unbound Immediate claim",
		objs: []string{immediateClass, unboundClaim("imm-0", "imm")},
		pod:  claimPod("in", "", "imm-0"),
		want: map[string]string{
			"a1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonUnboundImmediateClaims + "]",
			"b1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonUnboundImmediateClaims + "]"},
	}, {
		name: "bound local volume: only its node",
		objs: []string{wffcClass, jsonBoundClaim("data", "pv-data", "local", "ReadWriteOnce"), localPV("pv-data", "b1", "data")},
		pod:  claimPod("in", "", "data"),
		want: map[string]string{"a1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonVolumeNodeConflict + "]", "b1": "ok"},
	}, {
		// VolumeBinding's filter would say ReasonVolumePVNotExist, but
		// VolumeZone's PreFilter, which runs before any filter, looks the
		// volume up first.
		name: "bound claim whose volume is gone",
		objs: []string{wffcClass, jsonBoundClaim("data", "pv-gone", "local", "ReadWriteOnce")},
		pod:  claimPod("in", "", "data"),
		want: map[string]string{
			"a1": `VolumeZone UnschedulableAndUnresolvable [persistentvolume "pv-gone" not found]`,
			"b1": `VolumeZone UnschedulableAndUnresolvable [persistentvolume "pv-gone" not found]`},
	}, {
		name: "WaitForFirstConsumer: an available local volume on one node, no provisioner",
		objs: []string{wffcClass, unboundClaim("wait", "local"), localPV("pv-free", "a1", "")},
		pod:  claimPod("in", "", "wait"),
		want: map[string]string{"a1": "ok", "b1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonVolumeBindConflict + "]"},
	}, {
		name: "both reasons at once",
		objs: []string{wffcClass, jsonBoundClaim("data", "pv-data", "local", "ReadWriteOnce"), localPV("pv-data", "b1", "data"),
			unboundClaim("wait", "local"), localPV("pv-free", "b1", "")},
		pod: claimPod("in", "", "data", "wait"),
		want: map[string]string{"a1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonVolumeNodeConflict + " " + ReasonVolumeBindConflict + "]",
			"b1": "ok"},
		message: "",
	}, {
		name: "dynamic provisioning limited by allowedTopologies",
		objs: []string{dynClass, unboundClaim("dyn-0", "dyn")},
		pod:  claimPod("in", "", "dyn-0"),
		want: map[string]string{"a1": "ok", "b1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonVolumeBindConflict + "]"},
	}, {
		name: "a CSI driver tracking capacity, without capacity objects",
		objs: []string{dynClass, unboundClaim("dyn-0", "dyn"),
			`{"kind": "CSIDriver", "metadata": {"name": "csi.example.com"}, "spec": {"storageCapacity": true}}`},
		pod: claimPod("in", "", "dyn-0"),
		want: map[string]string{"a1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonVolumeNotEnoughSpace + "]",
			"b1": "VolumeBinding UnschedulableAndUnresolvable [" + ReasonVolumeBindConflict + "]"},
	}, {
		name: "zone label on the bound volume",
		objs: []string{immediateClass, jsonBoundClaim("z", "pv-z", "imm", "ReadWriteOnce"), csiPV("pv-z", "z", "h1", `"topology.kubernetes.io/zone": "zb"`)},
		pod:  claimPod("in", "", "z"),
		want: map[string]string{"a1": "VolumeZone UnschedulableAndUnresolvable [" + ReasonVolumeZoneConflict + "]", "b1": "ok"},
	}, {
		name: "attach limit of one volume per driver, a second volume does not fit",
		objs: []string{immediateClass, jsonBoundClaim("v1", "pv-1", "imm", "ReadWriteOnce"), csiPV("pv-1", "v1", "h1", ""),
			jsonBoundClaim("v2", "pv-2", "imm", "ReadWriteOnce"), csiPV("pv-2", "v2", "h2", ""), claimPod("other", "a1", "v1"),
			`{"kind": "CSINode", "metadata": {"name": "a1"}, "spec": {"drivers": [{"name": "csi.example.com", "nodeID": "a1", "allocatable": {"count": 1}}]}}`},
		pod:  claimPod("in", "", "v2"),
		want: map[string]string{"a1": "NodeVolumeLimits Unschedulable [" + ReasonMaxVolumeCountExceeded + "]", "b1": "ok"},
	}, {
		name: "attach limit: a volume already attached there counts once",
		objs: []string{immediateClass, jsonBoundClaim("v1", "pv-1", "imm", "ReadWriteOnce"), csiPV("pv-1", "v1", "h1", ""), claimPod("other", "a1", "v1"),
			`{"kind": "CSINode", "metadata": {"name": "a1"}, "spec": {"drivers": [{"name": "csi.example.com", "nodeID": "a1", "allocatable": {"count": 1}}]}}`},
		pod:  claimPod("in", "", "v1"),
		want: map[string]string{"a1": "ok", "b1": "ok"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := jsonCluster(t, append(append([]string(nil), nodes...), tc.objs...)...)
			pod := jsonPod(t, tc.pod)
			if got := verdicts(c, pod); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("verdicts\n got %v\nwant %v", got, tc.want)
			}
			if tc.message != "" {
				if got := c.NewCycle(pod).Decide(nil).Message(); got != tc.message {
					t.Errorf("message %q, want %q", got, tc.message)
				}
			}
		})
	}
}

// The ReadWriteOncePod holder is a preemption victim: removing it in a
// what-if (preemption's dry run) frees the claim on its node.
func TestReadWriteOncePodWhatIf(t *testing.T) {
	c := jsonCluster(t, storageNode("a1", "za"), storageNode("b1", "zb"), immediateClass,
		jsonBoundClaim("solo", "pv-solo", "imm", "ReadWriteOncePod"), csiPV("pv-solo", "solo", "h1", ""), claimPod("holder", "a1", "solo"))
	cy := c.NewCycle(jsonPod(t, claimPod("in", "", "solo")))
	for _, name := range []string{"a1", "b1"} {
		w := cy.WhatIf(c.NodeByName(name))
		if st := w.Filter(); st.Code != Unschedulable || st.Plugin != PluginVolumeRestrictions {
			t.Fatalf("%s as is: %v", name, st)
		}
	}
	w := cy.WhatIf(c.NodeByName("a1"))
	holder := w.Pod("default", "holder")
	w.RemovePod(holder)
	if st := w.Filter(); st.Code != Success {
		t.Fatalf("a1 without the holder: %v, want Success", st)
	}
	w.AddPod(holder)
	if st := w.Filter(); st.Code != Unschedulable {
		t.Fatalf("a1 with the holder back: %v, want Unschedulable", st)
	}
}

func TestImageLocalityScore(t *testing.T) {
	// 500 MiB on one node of two: spread 1/2, 250 MiB, so
	// 100 × (250 − 23) / (1000 − 23) = 23; a node without it 0.
	img := `"images": [{"names": ["registry.example.com/app:1.0"], "sizeBytes": 524288000}]`
	c := jsonCluster(t,
		`{"kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}, `+img+`}}`,
		`{"kind": "Node", "metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}`)
	pod := jsonPod(t, `{"kind": "Pod", "metadata": {"name": "p", "namespace": "d"}, "spec": {"containers": [{"name": "c", "image": "registry.example.com/app:1.0"}]}}`)
	got := map[string]int64{}
	for _, s := range c.NewCycle(pod).Decide(nil).Scores(nil) {
		for _, p := range s.Plugins {
			if p.Plugin == PluginImageLocality {
				got[s.Node] = p.Score
			}
		}
	}
	if want := map[string]int64{"n1": 23, "n2": 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("ImageLocality %v, want %v", got, want)
	}
	for in, want := range map[string]string{"nginx": "nginx:latest", "nginx:1.25": "nginx:1.25",
		"localhost:5000/app": "localhost:5000/app:latest", "nginx@sha256:abc": "nginx@sha256:abc"} {
		if got := NormalizedImageName(in); got != want {
			t.Errorf("NormalizedImageName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Storage objects are replaced by name and removed; bad input is an error.
func TestStorageObjects(t *testing.T) {
	c, _ := NewCluster(nil, nil, Config{})
	for _, err := range []error{
		c.SetPersistentVolumeClaim(nil), c.SetPersistentVolume(&api.PersistentVolume{}), c.SetStorageClass(nil),
		c.SetCSINode(nil), c.SetCSIDriver(&api.CSIDriver{}), c.RemovePersistentVolumeClaim("d", "x"),
		c.RemovePersistentVolume("x"), c.RemoveStorageClass("x"), c.RemoveCSINode("x"), c.RemoveCSIDriver("x"),
	} {
		if err == nil {
			t.Error("bad input accepted")
		}
	}
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv"}, Spec: api.PersistentVolumeSpec{StorageClassName: "a"}}
	if err := c.SetPersistentVolume(pv); err != nil {
		t.Fatal(err)
	}
	moved := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv"}, Spec: api.PersistentVolumeSpec{StorageClassName: "b"}}
	if err := c.SetPersistentVolume(moved); err != nil {
		t.Fatal(err)
	}
	if len(c.storage.byClass["a"]) != 0 || len(c.storage.byClass["b"]) != 1 {
		t.Fatalf("class index after a class change: %v", c.storage.byClass)
	}
	if err := c.RemovePersistentVolume("pv"); err != nil || len(c.storage.byClass) != 0 {
		t.Fatalf("after removal: %v %v", err, c.storage.byClass)
	}
	var nilCluster *Cluster
	if nilCluster.AddObjects() == nil || nilCluster.SetStorageClass(&api.StorageClass{}) == nil {
		t.Error("nil Cluster accepted objects")
	}
}
