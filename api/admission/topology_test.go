package admission_test

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/api/admission"
)

func TestPodTopologyLabels(t *testing.T) {
	zoned := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{
		api.LabelTopologyZone: "zone-a", api.LabelTopologyRegion: "eu", api.LabelHostname: "n", "pool": "a"}}}
	zoneOnly := &api.Node{ObjectMeta: api.ObjectMeta{Name: "z", Labels: map[string]string{api.LabelTopologyZone: ""}}}
	bare := &api.Node{ObjectMeta: api.ObjectMeta{Name: "b"}}
	for _, tc := range []struct {
		node *api.Node
		want string
	}{
		{zoned, "map[topology.kubernetes.io/region:eu topology.kubernetes.io/zone:zone-a]"},
		{zoneOnly, "map[topology.kubernetes.io/zone:]"}, // an empty value is a label too
		{bare, "map[]"},
		{nil, "map[]"},
	} {
		if got := fmt.Sprint(admission.PodTopologyLabels(tc.node)); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.node, got, tc.want)
		}
	}

	own := map[string]string{"app": "web", api.LabelTopologyZone: "stale"}
	got := admission.WithPodTopologyLabels(own, zoned)
	if fmt.Sprint(got) != "map[app:web topology.kubernetes.io/region:eu topology.kubernetes.io/zone:zone-a]" {
		t.Errorf("merged: %v", got)
	}
	if own[api.LabelTopologyZone] != "stale" {
		t.Errorf("the pod's own labels were modified: %v", own)
	}
	same := map[string]string{api.LabelTopologyZone: "zone-a", api.LabelTopologyRegion: "eu"}
	if got := admission.WithPodTopologyLabels(same, zoned); fmt.Sprintf("%p", got) != fmt.Sprintf("%p", same) {
		t.Errorf("labels already there: a new map")
	}
	if got := admission.WithPodTopologyLabels(nil, bare); got != nil {
		t.Errorf("nothing to copy: %v", got)
	}
}

func ExamplePodTopologyLabels() {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{
		api.LabelHostname: "node-1", api.LabelTopologyZone: "zone-a"}}}
	pod := map[string]string{"app": "web"}
	fmt.Println(admission.PodTopologyLabels(node))
	fmt.Println(admission.WithPodTopologyLabels(pod, node))
	// Output:
	// map[topology.kubernetes.io/zone:zone-a]
	// map[app:web topology.kubernetes.io/zone:zone-a]
}
