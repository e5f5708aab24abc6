package managedfields_test

import (
	"encoding/json"
	"fmt"

	"github.com/podsem/podsem/managedfields"
)

// kubectl apply --server-side of a Deployment someone scaled since: the
// scale subresource's write took spec.replicas from the applier, so an
// apply that still says 3 conflicts — unless forced (--force-conflicts),
// as the e2e harness applies; a manifest without replicas leaves the
// scaled 10 alone.
func ExampleApply() {
	decode := func(s string) map[string]any {
		var m map[string]any
		_ = json.Unmarshal([]byte(s), &m)
		return m
	}
	kubectl := managedfields.Manager{Name: "kubectl", APIVersion: "apps/v1"}
	scale := managedfields.Manager{Name: "kubectl", APIVersion: "apps/v1", Subresource: "scale"}
	manifest := decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3}}`)

	live, fields, _ := managedfields.Apply("Deployment", nil, manifest, nil, kubectl, false)
	scaled := decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":10}}`)
	fields, _ = managedfields.Update("Deployment", live, scaled, fields, scale)

	_, _, err := managedfields.Apply("Deployment", scaled, manifest, fields, kubectl, false)
	fmt.Println(err)
	forced, _, _ := managedfields.Apply("Deployment", scaled, manifest, fields, kubectl, true)
	fmt.Println("forced:", forced["spec"])
	without := decode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"paused":false}}`)
	kept, _, _ := managedfields.Apply("Deployment", scaled, without, fields, kubectl, false)
	fmt.Println("without replicas:", kept["spec"])
	// Output:
	// Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas
	// forced: map[replicas:3]
	// without replicas: map[paused:false replicas:10]
}
