package api_test

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
)

// %#v, which property-test frameworks use to log drawn values, prints an
// object as its kind and JSON and a quantity as the call that makes it.
func TestGoString(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "shop"},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "app", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{"cpu": api.MustParseQuantity("250m")}}}}}}
	got := fmt.Sprintf("%#v", pod)
	want := `Pod {"metadata":{"name":"web-0","namespace":"shop"},"spec":{"containers":[{"name":"app","resources":{"requests":{"cpu":"250m"}}}],"nodeName":"node-1"}}`
	if got != want {
		t.Errorf("pod:\n got %s\nwant %s", got, want)
	}
	if got := fmt.Sprintf("%#v", api.MustParseQuantity("1.5Gi")); got != `api.MustParseQuantity("1536Mi")` {
		t.Errorf("quantity: %s", got)
	}
	if got := fmt.Sprintf("%#v", []*api.Node{nil}); got != "[]*api.Node{(*api.Node)(nil)}" {
		t.Errorf("nil node: %s", got)
	}
}
