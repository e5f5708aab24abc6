package api

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decodeStorageList(t *testing.T) []Object {
	t.Helper()
	b, err := os.ReadFile("testdata/storage-list.json")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func TestDecodeStorageList(t *testing.T) {
	objs := decodeStorageList(t)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, typeName(o))
	}
	want := []string{"PersistentVolumeClaim", "PersistentVolumeClaim", "PersistentVolume", "PersistentVolume", "StorageClass", "StorageClass", "CSINode", "CSIDriver"}
	if d := cmp.Diff(want, kinds); d != "" {
		t.Fatalf("kinds (-want +got):\n%s", d)
	}

	bound := objectAs[*PersistentVolumeClaim](t, objs, 0)
	if got := bound.Spec.Resources.Requests[ResourceStorage]; got.Cmp(MustParseQuantity("10Gi")) != 0 {
		t.Errorf("storage request = %v", got)
	}
	if bound.Spec.VolumeName != "pvc-7d1c1c8e" || bound.Status.Phase != ClaimBound || !bound.IsReadWriteOncePod() {
		t.Errorf("bound claim = %+v", bound)
	}
	if bound.ClassName() != "gp3" || bound.Annotations[AnnBindCompleted] != "yes" {
		t.Errorf("class %q, annotations %v", bound.ClassName(), bound.Annotations)
	}

	pending := objectAs[*PersistentVolumeClaim](t, objs, 1)
	if pending.Spec.StorageClassName != nil || pending.ClassName() != "" {
		t.Errorf("null storageClassName decodes as unset: %v", pending.Spec.StorageClassName)
	}
	if ds := pending.Spec.DataSource; ds == nil || ds.APIGroup == nil || *ds.APIGroup != "snapshot.storage.k8s.io" || ds.Kind != "VolumeSnapshot" {
		t.Errorf("dataSource = %+v", ds)
	}
	if pending.Spec.Selector == nil || pending.Spec.Selector.MatchLabels["tier"] != "fast" {
		t.Errorf("selector = %+v", pending.Spec.Selector)
	}

	pv := objectAs[*PersistentVolume](t, objs, 2)
	if pv.Spec.CSI == nil || pv.Spec.CSI.Driver != "ebs.csi.aws.com" || pv.Spec.CSI.VolumeHandle != "vol-0abc" {
		t.Errorf("csi source = %+v", pv.Spec.CSI)
	}
	if !pv.IsBoundToClaim(bound) || pv.IsBoundToClaim(pending) {
		t.Errorf("claimRef %+v: bound to %s and not to %s expected", pv.Spec.ClaimRef, bound.Name, pending.Name)
	}
	if pv.Status.LastPhaseTransitionTime.IsZero() || pv.Labels[LabelTopologyZone] != "eu-west-1a" {
		t.Errorf("pv metadata/status = %+v %+v", pv.ObjectMeta, pv.Status)
	}
	if !pv.NodeAffinityMatches(map[string]string{LabelTopologyZone: "eu-west-1a"}) || pv.NodeAffinityMatches(map[string]string{LabelTopologyZone: "eu-west-1b"}) {
		t.Errorf("zone node affinity mismatched")
	}

	local := objectAs[*PersistentVolume](t, objs, 3)
	if local.Spec.Local == nil || local.Spec.Local.Path != "/mnt/disks/ssd0" || local.Spec.PersistentVolumeReclaimPolicy != PersistentVolumeReclaimRetain {
		t.Errorf("local pv = %+v", local.Spec)
	}

	gp3 := objectAs[*StorageClass](t, objs, 4)
	if gp3.BindingMode() != VolumeBindingWaitForFirstConsumer || gp3.Provisioner != "ebs.csi.aws.com" {
		t.Errorf("gp3 = %+v", gp3)
	}
	if len(gp3.AllowedTopologies) != 1 || len(gp3.AllowedTopologies[0].MatchLabelExpressions) != 1 ||
		!slices.Equal(gp3.AllowedTopologies[0].MatchLabelExpressions[0].Values, []string{"eu-west-1a", "eu-west-1b"}) {
		t.Errorf("allowedTopologies = %+v", gp3.AllowedTopologies)
	}
	if lc := objectAs[*StorageClass](t, objs, 5); lc.BindingMode() != VolumeBindingImmediate || lc.Provisioner != NotSupportedProvisioner {
		t.Errorf("an undefaulted class binds Immediate: %+v", lc)
	}

	csiNode := objectAs[*CSINode](t, objs, 6)
	ebs := csiNode.Driver("ebs.csi.aws.com")
	if ebs == nil || ebs.Allocatable == nil || ebs.Allocatable.Count == nil || *ebs.Allocatable.Count != 25 {
		t.Errorf("ebs driver = %+v", ebs)
	}
	if d := csiNode.Driver("secrets-store.csi.k8s.io"); d == nil || d.Allocatable != nil || d.TopologyKeys != nil {
		t.Errorf("driver without allocatable = %+v", d)
	}
	if csiNode.Driver("absent") != nil || csiNode.Annotations[AnnMigratedPlugins] == "" {
		t.Errorf("absent driver found or annotation lost")
	}

	drv := objectAs[*CSIDriver](t, objs, 7)
	if drv.Spec.AttachRequired == nil || !*drv.Spec.AttachRequired || drv.Spec.NodeAllocatableUpdatePeriodSeconds == nil || *drv.Spec.NodeAllocatableUpdatePeriodSeconds != 60 {
		t.Errorf("csi driver = %+v", drv.Spec)
	}
}

func typeName(o Object) string {
	switch o.(type) {
	case *PersistentVolumeClaim:
		return "PersistentVolumeClaim"
	case *PersistentVolume:
		return "PersistentVolume"
	case *StorageClass:
		return "StorageClass"
	case *CSINode:
		return "CSINode"
	case *CSIDriver:
		return "CSIDriver"
	}
	return "other"
}

func TestDecodeStorageTypedLists(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want string
	}{
		{`{"kind":"PersistentVolumeClaimList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},null]}`, "PersistentVolumeClaim"},
		{`{"kind":"PersistentVolumeList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}]}`, "PersistentVolume"},
		{`{"kind":"StorageClassList","apiVersion":"storage.k8s.io/v1","items":[{"metadata":{"name":"a"},"provisioner":"p"}]}`, "StorageClass"},
		{`{"kind":"CSINodeList","apiVersion":"storage.k8s.io/v1","items":[{"metadata":{"name":"a"},"spec":{"drivers":null}}]}`, "CSINode"},
		{`{"kind":"CSIDriverList","apiVersion":"storage.k8s.io/v1","items":[{"metadata":{"name":"a"},"spec":{}}]}`, "CSIDriver"},
		{`{"kind":"PersistentVolumeClaim","apiVersion":"v1","metadata":{"name":"a"},"spec":null,"status":null}`, "PersistentVolumeClaim"},
	} {
		objs, err := Decode([]byte(tc.doc))
		if err != nil {
			t.Errorf("%s: %v", tc.doc, err)
			continue
		}
		if len(objs) != 1 || typeName(objs[0]) != tc.want {
			t.Errorf("%s: got %#v, want one %s", tc.doc, objs, tc.want)
			continue
		}
		// Items of a typed list take the list's element kind.
		enc, _ := json.Marshal(objs[0])
		if again, err := Decode(enc); err != nil || len(again) != 1 || typeName(again[0]) != tc.want {
			t.Errorf("%s: re-decoding %s: %v", tc.doc, enc, err)
		}
	}
}

func TestDecodeStorageErrors(t *testing.T) {
	for _, doc := range []string{
		`{"kind":"PersistentVolumeClaim","spec":{"resources":{"requests":{"storage":"10Gx"}}}}`,
		`{"kind":"PersistentVolume","spec":{"capacity":{"storage":"lots"}}}`,
		`{"kind":"CSINode","spec":{"drivers":[{"allocatable":{"count":"25"}}]}}`,
		`{"kind":"StorageClass","provisioner":7}`,
		`{"kind":"CSIDriver","spec":{"attachRequired":"yes"}}`,
	} {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("%s: no error", doc)
		}
	}
}

func TestEncodeStorageAsKubectl(t *testing.T) {
	mode := VolumeBindingWaitForFirstConsumer
	sc := StorageClass{TypeMeta: TypeMeta{Kind: "StorageClass", APIVersion: "storage.k8s.io/v1"}, Provisioner: "csi.example.com", VolumeBindingMode: &mode}
	sc.Name = "fast"
	b, err := json.Marshal(&sc)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"StorageClass","apiVersion":"storage.k8s.io/v1","metadata":{"name":"fast"},"provisioner":"csi.example.com","volumeBindingMode":"WaitForFirstConsumer"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// A CSINode driver's topologyKeys and a node's drivers list are printed
	// even when empty, as the API server prints them.
	n := CSINode{Spec: CSINodeSpec{Drivers: []CSINodeDriver{{Name: "d", NodeID: "n"}}}}
	b, err = json.Marshal(&n)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"spec":{"drivers":[{"name":"d","nodeID":"n","topologyKeys":null}]}}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestClaimClassName(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name  string
		claim *PersistentVolumeClaim
		want  string
	}{
		{"nil claim", nil, ""},
		{"no class", &PersistentVolumeClaim{}, ""},
		{"spec class", &PersistentVolumeClaim{Spec: PersistentVolumeClaimSpec{StorageClassName: s("gp3")}}, "gp3"},
		{"explicit empty class", &PersistentVolumeClaim{Spec: PersistentVolumeClaimSpec{StorageClassName: s("")}}, ""},
		{"beta annotation wins", &PersistentVolumeClaim{
			ObjectMeta: ObjectMeta{Annotations: map[string]string{AnnBetaStorageClass: "old"}},
			Spec:       PersistentVolumeClaimSpec{StorageClassName: s("gp3")},
		}, "old"},
		{"empty beta annotation still wins", &PersistentVolumeClaim{
			ObjectMeta: ObjectMeta{Annotations: map[string]string{AnnBetaStorageClass: ""}},
			Spec:       PersistentVolumeClaimSpec{StorageClassName: s("gp3")},
		}, ""},
	} {
		if got := tc.claim.ClassName(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	var nilPV *PersistentVolume
	pv := &PersistentVolume{Spec: PersistentVolumeSpec{StorageClassName: "gp3"}}
	if nilPV.ClassName() != "" || pv.ClassName() != "gp3" {
		t.Errorf("volume class names: %q %q", nilPV.ClassName(), pv.ClassName())
	}
	pv.Annotations = map[string]string{AnnBetaStorageClass: "old"}
	if pv.ClassName() != "old" {
		t.Errorf("volume beta annotation ignored")
	}
}

func TestAccessModes(t *testing.T) {
	rwo := []PersistentVolumeAccessMode{ReadWriteOnce}
	both := []PersistentVolumeAccessMode{ReadWriteOnce, ReadWriteOncePod}
	for _, tc := range []struct {
		name   string
		pv     *PersistentVolume
		claim  []PersistentVolumeAccessMode
		offers bool
	}{
		{"equal", &PersistentVolume{Spec: PersistentVolumeSpec{AccessModes: rwo}}, rwo, true},
		{"superset", &PersistentVolume{Spec: PersistentVolumeSpec{AccessModes: both}}, rwo, true},
		{"missing mode", &PersistentVolume{Spec: PersistentVolumeSpec{AccessModes: rwo}}, both, false},
		{"claim asks nothing", &PersistentVolume{}, nil, true},
		{"nil volume, claim asks nothing", nil, nil, true},
		{"nil volume", nil, rwo, false},
	} {
		if got := tc.pv.HasAccessModes(tc.claim); got != tc.offers {
			t.Errorf("%s: HasAccessModes = %v, want %v", tc.name, got, tc.offers)
		}
	}
	var nilClaim *PersistentVolumeClaim
	if nilClaim.IsReadWriteOncePod() {
		t.Error("nil claim is ReadWriteOncePod")
	}
	if !(&PersistentVolumeClaim{Spec: PersistentVolumeClaimSpec{AccessModes: both}}).IsReadWriteOncePod() {
		t.Error("claim with ReadWriteOncePod among modes not detected")
	}
	if ContainsAccessMode(nil, ReadWriteOnce) || !ContainsAccessMode(both, ReadWriteOncePod) {
		t.Error("ContainsAccessMode")
	}
}

func TestEffectiveVolumeMode(t *testing.T) {
	block := PersistentVolumeBlock
	if EffectiveVolumeMode(nil) != PersistentVolumeFilesystem || EffectiveVolumeMode(&block) != PersistentVolumeBlock {
		t.Error("EffectiveVolumeMode")
	}
}

func TestIsBoundToClaim(t *testing.T) {
	claim := &PersistentVolumeClaim{ObjectMeta: ObjectMeta{Name: "c", Namespace: "ns", UID: "u1"}}
	for _, tc := range []struct {
		name string
		ref  *ObjectReference
		want bool
	}{
		{"no claimRef", nil, false},
		{"same name, namespace and uid", &ObjectReference{Name: "c", Namespace: "ns", UID: "u1"}, true},
		{"pre-bound by name (no uid)", &ObjectReference{Name: "c", Namespace: "ns"}, true},
		{"other uid: a deleted and recreated claim", &ObjectReference{Name: "c", Namespace: "ns", UID: "u0"}, false},
		{"other namespace", &ObjectReference{Name: "c", Namespace: "other", UID: "u1"}, false},
		{"other name", &ObjectReference{Name: "d", Namespace: "ns", UID: "u1"}, false},
	} {
		pv := &PersistentVolume{Spec: PersistentVolumeSpec{ClaimRef: tc.ref}}
		if got := pv.IsBoundToClaim(claim); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	var nilPV *PersistentVolume
	if nilPV.IsBoundToClaim(claim) || (&PersistentVolume{Spec: PersistentVolumeSpec{ClaimRef: &ObjectReference{}}}).IsBoundToClaim(nil) {
		t.Error("nil volume or claim reported bound")
	}
}

func TestVolumeNodeAffinity(t *testing.T) {
	terms := func(ts ...NodeSelectorTerm) *PersistentVolume {
		return &PersistentVolume{Spec: PersistentVolumeSpec{NodeAffinity: &VolumeNodeAffinity{Required: &NodeSelector{NodeSelectorTerms: ts}}}}
	}
	zoneA := NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{{Key: LabelTopologyZone, Operator: NodeSelectorOpIn, Values: []string{"a"}}}}
	byName := NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{{Key: NodeFieldName, Operator: NodeSelectorOpIn, Values: []string{"node-1"}}}}
	notByName := NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{{Key: NodeFieldName, Operator: NodeSelectorOpNotIn, Values: []string{"node-1"}}}}
	bad := NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{{Key: "x", Operator: "Near"}}}
	inA := map[string]string{LabelTopologyZone: "a", LabelHostname: "node-1"}
	inB := map[string]string{LabelTopologyZone: "b"}
	for _, tc := range []struct {
		name   string
		pv     *PersistentVolume
		labels map[string]string
		want   bool
	}{
		{"no node affinity: every node", &PersistentVolume{}, inB, true},
		{"affinity without required: every node", &PersistentVolume{Spec: PersistentVolumeSpec{NodeAffinity: &VolumeNodeAffinity{}}}, inB, true},
		{"zone term matches", terms(zoneA), inA, true},
		{"zone term does not match", terms(zoneA), inB, false},
		{"no terms: no node", terms(), inA, false},
		// CheckNodeAffinity's node has labels and no name, and a node
		// without a name passes every matchFields requirement.
		{"metadata.name In is not consulted", terms(byName), inB, true},
		{"metadata.name NotIn is not consulted", terms(notByName), inA, true},
		{"invalid term is skipped, valid one matches", terms(bad, zoneA), inA, true},
		{"only an invalid term", terms(bad), inA, false},
		{"nil volume", nil, inA, false},
	} {
		if got := tc.pv.NodeAffinityMatches(tc.labels); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	var nilPV *PersistentVolume
	if nilPV.RequiredNodeAffinity() != nil || (&PersistentVolume{}).RequiredNodeAffinity() != nil {
		t.Error("RequiredNodeAffinity of a volume without affinity")
	}
	if got := terms(zoneA).RequiredNodeAffinity(); got == nil || len(got.NodeSelectorTerms) != 1 {
		t.Errorf("RequiredNodeAffinity = %+v", got)
	}
}

func TestEphemeralVolumeClaim(t *testing.T) {
	pod := &Pod{ObjectMeta: ObjectMeta{Name: "web-0", Namespace: "shop", UID: "pod-uid"}}
	vol := &Volume{Name: "scratch", VolumeSource: VolumeSource{Ephemeral: &EphemeralVolumeSource{}}}
	if got := EphemeralVolumeClaimName(pod, vol); got != "web-0-scratch" {
		t.Errorf("claim name = %q", got)
	}
	if EphemeralVolumeClaimName(nil, vol) != "" || EphemeralVolumeClaimName(pod, nil) != "" {
		t.Error("nil pod or volume must give no name")
	}
	yes, no := true, false
	owned := func(uid string, controller *bool) *PersistentVolumeClaim {
		return &PersistentVolumeClaim{ObjectMeta: ObjectMeta{Name: "web-0-scratch", Namespace: "shop",
			OwnerReferences: []OwnerReference{{Kind: "Pod", Name: "web-0", UID: uid, Controller: controller}}}}
	}
	for _, tc := range []struct {
		name  string
		claim *PersistentVolumeClaim
		err   string
	}{
		{"controlled by the pod", owned("pod-uid", &yes), ""},
		{"owned but not as controller", owned("pod-uid", &no), "PVC shop/web-0-scratch was not created for pod shop/web-0 (pod is not owner)"},
		{"controlled by another pod of the same name", owned("old-uid", &yes), "PVC shop/web-0-scratch was not created for pod shop/web-0 (pod is not owner)"},
		{"no owner", &PersistentVolumeClaim{ObjectMeta: ObjectMeta{Name: "web-0-scratch", Namespace: "shop"}}, "PVC shop/web-0-scratch was not created for pod shop/web-0 (pod is not owner)"},
		{"other namespace", func() *PersistentVolumeClaim { c := owned("pod-uid", &yes); c.Namespace = "other"; return c }(), "PVC other/web-0-scratch was not created for pod shop/web-0 (pod is not owner)"},
		{"nil claim", nil, "api: invalid input (claim not created for pod): claim: nil"},
	} {
		err := VolumeClaimIsForPod(pod, tc.claim)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.name, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.err)
		case tc.err != "" && !errors.Is(err, ErrClaimNotForPod):
			t.Errorf("%s: %v does not wrap ErrClaimNotForPod", tc.name, err)
		}
	}
	if err := VolumeClaimIsForPod(nil, owned("pod-uid", &yes)); err == nil || !errors.Is(err, ErrClaimNotForPod) || !strings.Contains(err.Error(), "pod: nil") {
		t.Errorf("nil pod: %v", err)
	}
}

func TestCSIAttachLimitKey(t *testing.T) {
	for _, tc := range []struct{ driver, want string }{
		{"ebs.csi.aws.com", "attachable-volumes-csi-ebs.csi.aws.com"},
		// 23 + 39 = 62 characters: still the plain name.
		{strings.Repeat("x", 39), "attachable-volumes-csi-" + strings.Repeat("x", 39)},
		// 63 characters and more are shortened with a hash; the expected
		// values were computed independently with Python's hashlib.
		{strings.Repeat("x", 40), "attachable-volumes-csi-xxxxxxxxxxxxxxxxxxxxxxx47372a7b27569d25"},
		{"this-is-a-very-long-csi-driver-name.storage.example.com", "attachable-volumes-csi-this-is-a-very-long-csi09b304696c678ba3"},
	} {
		got := CSIAttachLimitKey(tc.driver)
		if string(got) != tc.want {
			t.Errorf("%q: got %q, want %q", tc.driver, got, tc.want)
		}
		if len(got) > 63 || !got.IsScalar() {
			t.Errorf("%q: %q is not a valid attach-limit resource name", tc.driver, got)
		}
	}
}

func TestPodVolumeClaimName(t *testing.T) {
	pod := &Pod{ObjectMeta: ObjectMeta{Name: "web-0"}}
	for _, tc := range []struct {
		vol             Volume
		name            string
		ephemeral, isOK bool
	}{
		{Volume{Name: "data", VolumeSource: VolumeSource{PersistentVolumeClaim: &PersistentVolumeClaimVolumeSource{ClaimName: "db"}}}, "db", false, true},
		{Volume{Name: "scratch", VolumeSource: VolumeSource{Ephemeral: &EphemeralVolumeSource{}}}, "web-0-scratch", true, true},
		{Volume{Name: "tmp", VolumeSource: VolumeSource{EmptyDir: &EmptyDirVolumeSource{}}}, "", false, false},
	} {
		name, ephemeral, ok := PodVolumeClaimName(pod, &tc.vol)
		if name != tc.name || ephemeral != tc.ephemeral || ok != tc.isOK {
			t.Errorf("%s: %q %v %v", tc.vol.Name, name, ephemeral, ok)
		}
	}
}
