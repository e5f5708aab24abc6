package api

import (
	"encoding/json"
	"testing"
)

// TestVolumeAttachmentRoundTrip: a VolumeAttachment as `kubectl get
// volumeattachment -o json` prints it decodes and encodes back to the same
// document.
func TestVolumeAttachmentRoundTrip(t *testing.T) {
	doc := `{"kind":"VolumeAttachment","apiVersion":"storage.k8s.io/v1","metadata":{"name":"csi-0c1d","uid":"u-1","resourceVersion":"7"},` +
		`"spec":{"attacher":"csi.example.com","source":{"persistentVolumeName":"pvc-1"},"nodeName":"node-1"},` +
		`"status":{"attached":true,"attachmentMetadata":{"devicePath":"/dev/xvdb"},"detachError":{"time":"2026-01-01T10:00:00Z","message":"busy","errorCode":9}}}`
	objs, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	va, ok := objs[0].(*VolumeAttachment)
	if !ok {
		t.Fatalf("decoded %T, want *VolumeAttachment", objs[0])
	}
	if va.PersistentVolumeName() != "pvc-1" || va.Spec.NodeName != "node-1" || !va.Status.Attached {
		t.Errorf("decoded %+v", va)
	}
	b, err := json.Marshal(va)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != doc {
		t.Errorf("round trip:\ngot  %s\nwant %s", b, doc)
	}
	// A fresh attachment prints attached false, as the API server does.
	fresh := VolumeAttachment{Spec: VolumeAttachmentSpec{Attacher: "d", NodeName: "n"}}
	b, _ = json.Marshal(&fresh)
	if want := `{"spec":{"attacher":"d","source":{},"nodeName":"n"},"status":{"attached":false}}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if (*VolumeAttachment)(nil).PersistentVolumeName() != "" {
		t.Error("nil attachment names a volume")
	}
}
