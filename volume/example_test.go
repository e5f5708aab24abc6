package volume_test

import (
	"fmt"
	"time"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/volume"
)

// A claim of a WaitForFirstConsumer StorageClass, after kube-scheduler
// picked a node for the pod that uses it: the PersistentVolume controller
// hands it to the class's external provisioner.
func ExampleSyncClaim() {
	mode := api.VolumeBindingWaitForFirstConsumer
	class := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "fast"}, Provisioner: "ebs.csi.aws.com", VolumeBindingMode: &mode}
	name := "fast"
	claim := &api.PersistentVolumeClaim{
		ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "shop", Annotations: map[string]string{api.AnnSelectedNode: "node-1"}},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce}, StorageClassName: &name,
			Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("10Gi")}}},
		Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending},
	}
	s, err := volume.SyncClaim(claim, volume.Objects{Classes: []*api.StorageClass{class}}, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range s.Writes {
		fmt.Println(w, w.Claim.Annotations[api.AnnStorageProvisioner])
	}
	for _, e := range s.Events {
		fmt.Println(e.Type, e.Reason)
	}
	// Output:
	// Update(PersistentVolumeClaim/shop/data) ebs.csi.aws.com
	// Normal ExternalProvisioning
}

// The message a replacement pod gets while its ReadWriteOnce volume is
// still attached to the node its predecessor ran on.
func ExampleMultiAttachMessage() {
	old := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-7d4b9-x2k8q", Namespace: "shop"}}
	replacement := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-7d4b9-p9zt5", Namespace: "shop"}}
	fmt.Println(volume.MultiAttachMessage(replacement, "pvc-3f1c", []*api.Pod{old}))
	// Output:
	// Multi-Attach error for volume "pvc-3f1c" Volume is already used by pod(s) db-7d4b9-x2k8q
}

// When may the attach-detach controller detach a volume that no pod on
// its node needs any more? At once if the kubelet does not report it
// mounted; when mounted, after 6 minutes on a node that is not Ready, or
// at once with the out-of-service taint.
func ExampleDecideDetach() {
	requested := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	lost := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}}}
	for _, after := range []time.Duration{time.Minute, 6*time.Minute + time.Second} {
		d := volume.DecideDetach(lost, true, requested, requested.Add(after), volume.DefaultMaxWaitForUnmount, false)
		fmt.Println("mounted, after", after, "->", d)
	}
	fmt.Println("not mounted ->", volume.DecideDetach(lost, false, requested, requested, volume.DefaultMaxWaitForUnmount, false))
	lost.Spec.Taints = []api.Taint{{Key: api.TaintNodeOutOfService, Effect: api.TaintEffectNoExecute}}
	fmt.Println("out-of-service ->", volume.DecideDetach(lost, true, requested, requested, volume.DefaultMaxWaitForUnmount, false))
	// Output:
	// mounted, after 1m0s -> Wait
	// mounted, after 6m1s -> ForceDetach(timeout)
	// not mounted -> Detach
	// out-of-service -> ForceDetach(out-of-service)
}

// The attach-detach controller attaches a pod's CSI volume to its node by
// creating a VolumeAttachment, named as the CSI attacher names it.
func ExampleAttachDetachController() {
	c := volume.NewAttachDetachController(volume.AttachDetachConfig{})
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pvc-1"}, Spec: api.PersistentVolumeSpec{
		AccessModes:            []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
		PersistentVolumeSource: api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: "pd.csi.storage.gke.io", VolumeHandle: "disk-1"}}}}
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "shop"},
		Spec: api.PersistentVolumeClaimSpec{VolumeName: "pvc-1"}, Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound}}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Annotations: map[string]string{api.AnnControllerManagedAttachDetach: "true"}}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db-0", Namespace: "shop"}, Spec: api.PodSpec{NodeName: "node-1",
		Volumes: []api.Volume{{Name: "data", VolumeSource: api.VolumeSource{PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}}}
	out, err := c.Step(volume.World{Pods: []*api.Pod{pod}, Nodes: []*api.Node{node}, Claims: []*api.PersistentVolumeClaim{claim},
		Volumes: []*api.PersistentVolume{pv}}, time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	va := out.Attach[0]
	fmt.Println(va.Name[:12]+"...", va.Spec.Attacher, va.Spec.NodeName, va.PersistentVolumeName())
	fmt.Println(c.Attached(volume.UniqueVolumeName(pv)))
	// Output:
	// csi-789a44ae... pd.csi.storage.gke.io node-1 pvc-1
	// [node-1]
}
