package api_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/podsem/podsem/api"
)

// TestDecodeAll: an unknown kind decodes as Unstructured, its metadata
// read and its other fields kept; it encodes back to the same object; a
// List mixing kinds keeps each as its type; Decode still refuses it.
func TestDecodeAll(t *testing.T) {
	doc := `{"kind":"List","apiVersion":"v1","items":[
	  {"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cfg","namespace":"shop","labels":{"a":"b"}},"data":{"k":"v"}},
	  {"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"shop"}}]}`
	if _, err := api.Decode([]byte(doc)); !errors.Is(err, api.ErrUnknownKind) {
		t.Fatalf("Decode: %v, want ErrUnknownKind", err)
	}
	objs, err := api.DecodeAll([]byte(doc))
	if err != nil || len(objs) != 2 {
		t.Fatalf("DecodeAll: %v, %v", objs, err)
	}
	u, ok := objs[0].(*api.Unstructured)
	if !ok || u.Kind != "ConfigMap" || u.Namespace != "shop" || u.Labels["a"] != "b" || string(u.Fields["data"]) != `{"k":"v"}` {
		t.Fatalf("got %#v", objs[0])
	}
	if _, ok := objs[1].(*api.Pod); !ok {
		t.Errorf("the pod decoded as %T", objs[1])
	}
	b, err := json.Marshal(u)
	if err != nil || string(b) != `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cfg","namespace":"shop","labels":{"a":"b"}},"data":{"k":"v"}}` {
		t.Errorf("encoded %s, %v", b, err)
	}
	c := u.DeepCopy()
	c.Fields["data"][2] = 'K'
	c.Labels["a"] = "c"
	if string(u.Fields["data"]) != `{"k":"v"}` || u.Labels["a"] != "b" {
		t.Error("the copy shares memory with the original")
	}
	if _, err := api.DecodeAll([]byte(`{"metadata":{"name":"x"}}`)); err == nil {
		t.Error("an object without a kind decoded")
	}
}

// FuzzDecodeAll: whatever DecodeAll accepts encodes and decodes again,
// and an Unstructured object encodes back to an equal one.
func FuzzDecodeAll(f *testing.F) {
	f.Add([]byte(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"a":"b"}}`))
	f.Add([]byte(`{"kind":"CronJobList","items":[{"metadata":{"name":"j"},"spec":{"schedule":"* * * * *"}}]}`))
	f.Add([]byte(`{"kind":"List","items":[{"kind":"Secret","type":"Opaque"},{"kind":"Pod"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := api.DecodeAll(data)
		if err != nil {
			return
		}
		for _, o := range objs {
			enc, err := json.Marshal(o)
			if err != nil {
				t.Fatalf("encode of a decoded object failed: %v", err)
			}
			again, err := api.DecodeAll(enc)
			if err != nil || len(again) != 1 {
				t.Fatalf("re-decode of %s: %v, %v", enc, again, err)
			}
			if _, ok := o.(*api.Unstructured); ok {
				enc2, err := json.Marshal(again[0])
				if err != nil || string(enc2) != string(enc) {
					t.Fatalf("unstructured %s encoded again as %s (%v)", enc, enc2, err)
				}
			}
		}
	})
}
