package api

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeMixedList(t *testing.T) {
	b, err := os.ReadFile("testdata/mixed-list.json")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 4 {
		t.Fatalf("got %d objects, want 4", len(objs))
	}
	pod := objectAs[*Pod](t, objs, 0)
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("got %d containers, want 1", len(pod.Spec.Containers))
	}
	c := pod.Spec.Containers[0]
	if got := c.Resources.Requests.Cpu(); got.Cmp(MustParseQuantity("500m")) != 0 {
		t.Errorf("cpu request written as a JSON number: got %v, want 500m", got)
	}
	if got := c.Resources.Requests.Memory(); got.Cmp(MustParseQuantity("4")) != 0 {
		t.Errorf("memory request 4: got %v", got)
	}
	if q, ok := c.Resources.Limits[ResourceMemory]; !ok || !q.IsZero() {
		t.Errorf("an explicit null limit decodes as a present zero, as the API server reads it; got %v, %v", q, ok)
	}
	if ref := pod.ControllerRef(); ref == nil || ref.Kind != "StatefulSet" {
		t.Errorf("controller ref = %+v", ref)
	}
	node := objectAs[*Node](t, objs, 1)
	if len(node.Spec.Taints) != 1 || node.Spec.Taints[0].Effect != TaintEffectNoSchedule {
		t.Errorf("taints = %+v", node.Spec.Taints)
	}
	pdb := objectAs[*PodDisruptionBudget](t, objs, 2)
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.String() != "50%" {
		t.Errorf("v1beta1 PDB minAvailable = %+v", pdb.Spec.MinAvailable)
	}
	pc := objectAs[*PriorityClass](t, objs, 3)
	if pc.Value != 1000000 || pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != PreemptNever {
		t.Errorf("priority class = %+v", pc)
	}
}

func TestDecodeTypedListInfersKind(t *testing.T) {
	doc := `{"kind":"PodList","items":[{"metadata":{"name":"a"}},null,{"metadata":{"name":"b"}}]}`
	objs, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("got %#v, want 2 pods", objs)
	}
	if p := objectAs[*Pod](t, objs, 1); p.Name != "b" {
		t.Fatalf("got %#v", objs)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		is        error
	}{
		{"unknown kind", `{"kind":"Gadget","metadata":{}}`, ErrUnknownKind},
		{"no kind", `{"metadata":{"name":"x"}}`, nil},
		{"list item without kind", `{"kind":"List","items":[{"metadata":{}}]}`, nil},
		{"bad quantity", `{"kind":"Pod","spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1x"}}}]}}`, nil},
		{"not json", `{`, nil},
	} {
		_, err := Decode([]byte(tc.doc))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v does not wrap %v", tc.name, err, tc.is)
		}
	}
}

func TestEncodeLeavesEmptyFieldsOut(t *testing.T) {
	p := Pod{TypeMeta: TypeMeta{Kind: "Pod", APIVersion: "v1"}}
	p.Name = "x"
	p.Spec.Containers = []Container{{Name: "c", Image: "busybox"}}
	b, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestRoundTripTestdata(t *testing.T) {
	for _, name := range []string{"testdata/mixed-list.json", "testdata/storage-list.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			enc, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Decode(enc)
			if err != nil {
				t.Fatalf("%s: %v", enc, err)
			}
			if len(again) != 1 {
				t.Fatalf("%s: decoded %d objects, want 1", enc, len(again))
			}
			if d := cmp.Diff(o, again[0], cmp.Comparer(func(a, b Quantity) bool { return a.Cmp(b) == 0 })); d != "" {
				t.Errorf("%s: round trip differs:\n%s", name, d)
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{"testdata/mixed-list.json", "testdata/storage-list.json"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"kind":"Pod","spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":0.5}}}]}}`))
	f.Add([]byte(`{"kind":"PodDisruptionBudget","spec":{"maxUnavailable":1}}`))
	f.Add([]byte(`{"kind":"PersistentVolumeClaimList","items":[{"kind":"PersistentVolumeClaim","spec":{"resources":{"requests":{"storage":"1Gi"}},"storageClassName":null}}]}`))
	f.Add([]byte(`{"kind":"PersistentVolume","spec":{"capacity":{"storage":1e3},"csi":{"driver":"d","volumeHandle":"h"},"nodeAffinity":{"required":{"nodeSelectorTerms":[{}]}}}}`))
	f.Add([]byte(`{"kind":"CSINode","spec":{"drivers":[{"name":"d","allocatable":{"count":2},"topologyKeys":null}]}}`))
	f.Add([]byte(`{"kind":"StorageClass","provisioner":"p","allowedTopologies":[{"matchLabelExpressions":[{"key":"k","values":["v"]}]}]}`))
	f.Add([]byte(`{"kind":"CSIDriver","spec":{"volumeLifecycleModes":["Ephemeral"],"tokenRequests":[{"audience":"a"}]}}`))
	f.Add([]byte(`{"kind":"Pod","spec":{"volumes":[{"name":"v","rbd":{"monitors":["m"],"image":"i"}},{"name":"w","azureDisk":{"diskName":"d","diskURI":"u","readOnly":null}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := Decode(data)
		if err != nil {
			return
		}
		for _, o := range objs {
			enc, err := json.Marshal(o)
			if err != nil {
				t.Fatalf("encode of a decoded object failed: %v", err)
			}
			if _, err := Decode(enc); err != nil {
				t.Fatalf("re-decode of %s failed: %v", enc, err)
			}
		}
	})
}

// A value that fails its field's own decoder (a quantity) is reported with
// the object and the field path, which encoding/json alone does not give.
func TestDecodeErrorNamesQuantityField(t *testing.T) {
	doc := `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"shop"},
	  "spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"100m"},"limits":{"memory":" 2 Gi "}}}]}}`
	_, err := Decode([]byte(doc))
	if err == nil {
		t.Fatal("Decode accepted a bad quantity")
	}
	want := `decode: Pod shop/web: spec.containers[0].resources.limits.memory: quantity "2 Gi"`
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q\nwant prefix %q", err, want)
	}
	if !errors.Is(err, ErrFormatWrong) && !errors.Is(err, ErrSuffixUnknown) {
		t.Errorf("error %v wraps neither quantity sentinel", err)
	}
	if _, err := Decode([]byte(`{"kind":"NodeList","items":[{"metadata":{"name":"n1"},"status":{"allocatable":{"pods":"12 pods"}}}]}`)); err == nil || !strings.Contains(err.Error(), "items[0]: Node n1: status.allocatable.pods") {
		t.Errorf("list item error %v does not name the item, node and field", err)
	}
}
