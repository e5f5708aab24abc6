package endpointslice_test

import (
	"fmt"
	"testing"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/endpointslice"
)

// BenchmarkEndpoints syncs a dual-stack Service over 5,000 ready pods on
// 100 nodes with one named port: 50 slices per family.
func BenchmarkEndpoints(b *testing.B) {
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.10",
			IPFamilies: []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol},
			Ports:      []api.ServicePort{{Name: "http", Port: 80, Protocol: api.ProtocolTCP, TargetPort: api.FromString("http")}}}}
	var nodes []*api.Node
	for i := range 100 {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%d", i),
			Labels: map[string]string{api.LabelTopologyZone: fmt.Sprintf("zone-%d", i%3)}}})
	}
	var pods []*api.Pod
	for i := range 5000 {
		p := examplePod(fmt.Sprintf("web-%d", i), fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255), true)
		p.Status.PodIPs = append(p.Status.PodIPs, api.PodIP{IP: fmt.Sprintf("fd00::%x", i+1)})
		p.Spec.NodeName = nodes[i%100].Name
		pods = append(pods, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := endpointslice.Endpoints(svc, pods, nodes)
		if err != nil || len(res.Slices) != 100 {
			b.Fatalf("%d slices, %v", len(res.Slices), err)
		}
	}
}
