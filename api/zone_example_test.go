package api_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
)

// The failure zone kube-scheduler's node tree and the node lifecycle
// controller group a node under: its region and zone labels, the
// deprecated failure-domain.beta.kubernetes.io ones first, joined into one
// key that splits back into the two.
func ExampleZoneKey() {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{
		api.LabelTopologyRegion: "eu-west-1",
		api.LabelTopologyZone:   "eu-west-1a",
	}}}
	region, zone := api.NodeZone(n)
	key := api.ZoneKey(n)
	fmt.Println(region, zone)
	fmt.Println(key == api.JoinZoneKey(region, zone))
	fmt.Println(api.SplitZoneKey(key))
	fmt.Printf("%q\n", api.ZoneKey(&api.Node{}))
	// Output:
	// eu-west-1 eu-west-1a
	// true
	// eu-west-1 eu-west-1a
	// ""
}
