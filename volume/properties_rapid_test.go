package volume_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/volume"
)

// runBinder steps the PersistentVolume controller over objs, storing its
// writes and feeding their informer events back, until it writes nothing.
func runBinder(t *rapid.T, objs *volume.Objects, now time.Time) {
	c := volume.NewPersistentVolumeController(volume.BinderConfig{})
	in := volume.BinderInput{}
	for round := 0; round < 50; round++ {
		in.Objects = *objs
		out, err := c.Step(in, now)
		if err != nil {
			t.Fatal(err)
		}
		in.Claims, in.Volumes = nil, nil
		wrote := false
		for _, s := range out.Syncs {
			for _, w := range s.Writes {
				wrote = true
				if w.Claim != nil {
					i := slices.IndexFunc(objs.Claims, func(c *api.PersistentVolumeClaim) bool { return c.Name == w.Claim.Name })
					objs.Claims[i] = w.Claim
					in.Claims = append(in.Claims, "default/"+w.Claim.Name)
				} else {
					i := slices.IndexFunc(objs.Volumes, func(v *api.PersistentVolume) bool { return v.Name == w.Volume.Name })
					objs.Volumes[i] = w.Volume
					in.Volumes = append(in.Volumes, w.Volume.Name)
				}
			}
		}
		if !wrote {
			return
		}
	}
	t.Fatal("the PersistentVolume controller kept writing")
}

// TestPropertyBinding: over random static volumes and claims of an
// Immediate class, the PersistentVolume controller never binds a volume to
// two claims, binds a claim only to a volume that satisfies it (class,
// size, access modes) and points back at it, and, once quiet, a resync
// writes nothing.
func TestPropertyBinding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		mode := api.VolumeBindingImmediate
		objs := volume.Objects{Classes: []*api.StorageClass{
			{ObjectMeta: api.ObjectMeta{Name: "a"}, Provisioner: "example.com/a", VolumeBindingMode: &mode},
			{ObjectMeta: api.ObjectMeta{Name: "b"}, Provisioner: "example.com/b", VolumeBindingMode: &mode}}}
		sizes := []string{"1Gi", "2Gi", "5Gi"}
		modes := []api.PersistentVolumeAccessMode{api.ReadWriteOnce, api.ReadWriteMany, api.ReadOnlyMany}
		for i := range rapid.IntRange(0, 5).Draw(t, "volumes") {
			v := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pv-%d", i), UID: fmt.Sprintf("v%d", i)},
				Spec: api.PersistentVolumeSpec{Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(rapid.SampledFrom(sizes).Draw(t, "size"))},
					StorageClassName: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "class"),
					AccessModes:      []api.PersistentVolumeAccessMode{rapid.SampledFrom(modes).Draw(t, "mode")}}}
			api.DefaultPersistentVolume(v)
			objs.Volumes = append(objs.Volumes, v)
		}
		for i := range rapid.IntRange(0, 5).Draw(t, "claims") {
			class := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "class")
			c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("c-%d", i), Namespace: "default", UID: fmt.Sprintf("c%d", i)},
				Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class,
					AccessModes: []api.PersistentVolumeAccessMode{rapid.SampledFrom(modes).Draw(t, "mode")},
					Resources:   api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(rapid.SampledFrom(sizes).Draw(t, "request"))}}}}
			api.DefaultPersistentVolumeClaim(c)
			objs.Claims = append(objs.Claims, c)
		}
		runBinder(t, &objs, now)
		owner := map[string]string{}
		for _, c := range objs.Claims {
			if c.Status.Phase != api.ClaimBound {
				continue
			}
			if prev, ok := owner[c.Spec.VolumeName]; ok {
				t.Fatalf("volume %s bound to %s and %s", c.Spec.VolumeName, prev, c.Name)
			}
			owner[c.Spec.VolumeName] = c.Name
			i := slices.IndexFunc(objs.Volumes, func(v *api.PersistentVolume) bool { return v.Name == c.Spec.VolumeName })
			if i < 0 {
				t.Fatalf("%s bound to a missing volume %s", c.Name, c.Spec.VolumeName)
			}
			v := objs.Volumes[i]
			req, qty := c.Spec.Resources.Requests[api.ResourceStorage], v.Spec.Capacity[api.ResourceStorage]
			if !v.IsBoundToClaim(c) || v.Status.Phase != api.VolumeBound || v.ClassName() != c.ClassName() || qty.Cmp(req) < 0 || !v.HasAccessModes(c.Spec.AccessModes) {
				t.Fatalf("%s bound to %s which does not serve it: %+v", c.Name, v.Name, v.Spec)
			}
		}
		// A resync of a quiet world writes nothing.
		c := volume.NewPersistentVolumeController(volume.BinderConfig{})
		out, err := c.Step(volume.BinderInput{Objects: objs}, now.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range out.Syncs {
			if len(s.Writes) > 0 {
				t.Fatalf("a resync of a settled world writes %v", s.Writes)
			}
		}
	})
}

// TestPropertySingleAttach: over random sequences of pods started,
// deleted, terminated and removed on random nodes (some lost, some
// tainted out-of-service), with ReadWriteOnce and ReadWriteMany volumes,
// the attach-detach controller never has a ReadWriteOnce volume attached
// (or attaching) on two nodes, and once every pod is gone and no volume is
// mounted, it detaches everything. Its node status updater's reports, kept
// per node, always list exactly the volumes whose VolumeAttachment exists
// and says attached (a detach deletes it at once here), so a ReadWriteOnce
// volume is never reported on two nodes either.
func TestPropertySingleAttach(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
		c := volume.NewAttachDetachController(volume.AttachDetachConfig{})
		var w volume.World
		for i := range 3 {
			w.Nodes = append(w.Nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%d", i),
				Annotations: map[string]string{api.AnnControllerManagedAttachDetach: "true"}},
				Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}})
		}
		for i := range 2 {
			mode := api.ReadWriteOnce
			if i == 1 {
				mode = rapid.SampledFrom([]api.PersistentVolumeAccessMode{api.ReadWriteOnce, api.ReadWriteMany}).Draw(t, "mode")
			}
			name := fmt.Sprintf("pv%d", i)
			w.Volumes = append(w.Volumes, &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeSpec{
				AccessModes:            []api.PersistentVolumeAccessMode{mode},
				PersistentVolumeSource: api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: "d", VolumeHandle: name}}}})
			w.Claims = append(w.Claims, &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("c%d", i), Namespace: "default"},
				Spec: api.PersistentVolumeClaimSpec{VolumeName: name}, Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound}})
		}
		reported := map[string][]string{} // node → the volumes its status lists
		step := func() {
			for round := 0; round < 10; round++ {
				out, err := c.Step(w, now)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range out.Reported {
					reported[r.Node] = nil
					for _, v := range r.Attached {
						reported[r.Node] = append(reported[r.Node], v.Name)
					}
				}
				want := map[string][]string{}
				for _, va := range w.Attachments {
					// attachments the controller saw attached before this step and still keeps
					if va.Status.Attached && !slices.ContainsFunc(out.Detach, func(d volume.Detachment) bool { return d.Name == va.Name }) {
						want[va.Spec.NodeName] = append(want[va.Spec.NodeName], "kubernetes.io/csi/d^"+va.PersistentVolumeName())
					}
				}
				for _, n := range []string{"n0", "n1", "n2"} {
					slices.Sort(want[n])
					if !slices.Equal(reported[n], want[n]) {
						t.Fatalf("%s reports %v attached, its attached VolumeAttachments are %v", n, reported[n], want[n])
					}
				}
				for _, d := range out.Detach {
					w.Attachments = slices.DeleteFunc(w.Attachments, func(va *api.VolumeAttachment) bool { return va.Name == d.Name })
				}
				for _, va := range out.Attach {
					cp := *va
					cp.Status.Attached = rapid.Bool().Draw(t, "attached at once")
					w.Attachments = append(w.Attachments, &cp)
				}
				for _, pv := range w.Volumes {
					if pv.Spec.AccessModes[0] == api.ReadWriteOnce {
						if nodes := c.Attached(volume.UniqueVolumeName(pv)); len(nodes) > 1 {
							t.Fatalf("ReadWriteOnce %s held on %v", pv.Name, nodes)
						}
					}
				}
				if len(out.Attach) == 0 && len(out.Detach) == 0 {
					return
				}
			}
		}
		for i := range rapid.IntRange(1, 20).Draw(t, "inputs") {
			now = now.Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "gap")) * time.Second)
			switch rapid.IntRange(0, 5).Draw(t, "input") {
			case 0, 1:
				w.Pods = append(w.Pods, &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default"},
					Spec: api.PodSpec{NodeName: fmt.Sprintf("n%d", rapid.IntRange(0, 2).Draw(t, "node")), Volumes: []api.Volume{{Name: "v",
						VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: fmt.Sprintf("c%d", rapid.IntRange(0, 1).Draw(t, "claim"))}}}}},
					Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}}})
			case 2:
				if len(w.Pods) > 0 {
					j := rapid.IntRange(0, len(w.Pods)-1).Draw(t, "pod")
					w.Pods = slices.Delete(w.Pods, j, j+1)
				}
			case 3:
				n := rapid.IntRange(0, 2).Draw(t, "node")
				cp := *w.Nodes[n]
				cp.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}
				w.Nodes[n] = &cp
			case 4:
				n := rapid.IntRange(0, 2).Draw(t, "node")
				cp := *w.Nodes[n]
				cp.Spec.Taints = []api.Taint{{Key: api.TaintNodeOutOfService, Effect: api.TaintEffectNoExecute}}
				w.Nodes[n] = &cp
			case 5:
				// the attacher catches up
				for j, va := range w.Attachments {
					cp := *va
					cp.Status.Attached = true
					w.Attachments[j] = &cp
				}
			}
			step()
		}
		w.Pods = nil
		for j, va := range w.Attachments {
			cp := *va
			cp.Status.Attached = true
			w.Attachments[j] = &cp
		}
		step()
		step()
		if len(w.Attachments) > 0 {
			t.Fatalf("attachments left with no pod: %d", len(w.Attachments))
		}
	})
}
