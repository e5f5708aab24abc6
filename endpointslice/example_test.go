package endpointslice_test

import (
	"fmt"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/endpointslice"
)

func examplePod(name, ip string, ready bool) *api.Pod {
	status := api.ConditionFalse
	if ready {
		status = api.ConditionTrue
	}
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "web",
			Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: api.ProtocolTCP}}}}},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: ip, PodIPs: []api.PodIP{{IP: ip}},
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: status}}},
	}
}

// Which of my pods does this Service send traffic to, and why not the
// others? The Service targets the container port named "http".
func ExampleEndpoints() {
	svc := &api.Service{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: api.ServiceSpec{
			Selector:   map[string]string{"app": "web"},
			ClusterIP:  "10.96.0.10",
			IPFamilies: []api.IPFamily{api.IPv4Protocol},
			Ports:      []api.ServicePort{{Name: "http", Port: 80, Protocol: api.ProtocolTCP, TargetPort: api.FromString("http")}},
		},
	}
	ready := examplePod("web-ready", "10.244.1.5", true)
	starting := examplePod("web-starting", "10.244.1.6", false)
	draining := examplePod("web-draining", "10.244.1.7", true)
	draining.DeletionTimestamp = &api.Time{}
	pending := examplePod("web-pending", "", false)
	pending.Status.PodIPs = nil
	done := examplePod("web-done", "10.244.1.8", false)
	done.Status.Phase = api.PodSucceeded
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{api.LabelTopologyZone: "europe-west1-b"}}}

	res, err := endpointslice.Endpoints(svc, []*api.Pod{ready, starting, draining, pending, done}, []*api.Node{node})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Slices {
		fmt.Printf("slice %s* %s ports %s:%d\n", s.GenerateName, s.AddressType, s.Ports[0].Name, s.Ports[0].Port)
		for _, ep := range s.Endpoints {
			c := ep.Conditions
			fmt.Printf("  %s %v ready=%v serving=%v terminating=%v zone=%s\n",
				ep.TargetRef.Name, ep.Addresses, *c.Ready, *c.Serving, *c.Terminating, ep.Zone)
		}
	}
	for _, v := range res.Pods {
		fmt.Printf("%s: %s\n", v.Name, v.Message)
	}
	// Output:
	// slice web-* IPv4 ports http:8080
	//   web-ready [10.244.1.5] ready=true serving=true terminating=false zone=europe-west1-b
	//   web-starting [10.244.1.6] ready=false serving=false terminating=false zone=europe-west1-b
	//   web-draining [10.244.1.7] ready=false serving=true terminating=true zone=europe-west1-b
	// web-ready: ready endpoint 10.244.1.5 on ports http:8080/TCP
	// web-starting: endpoint 10.244.1.6 is not ready: the pod's Ready condition is not True
	// web-draining: endpoint 10.244.1.7 is terminating but still serving (passes readiness), not ready: proxies use it only while the Service has no ready endpoint
	// web-pending: pod has no IP yet
	// web-done: pod has phase Succeeded: a finished pod is no endpoint
}

// A StatefulSet's headless Service publishes its pods before they are
// ready, so that peers find each other by name: every endpoint is ready,
// and a pod whose subdomain is the Service gets its hostname published.
func ExampleReceivesTraffic() {
	svc := &api.Service{
		ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "shop"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, ClusterIP: api.ClusterIPNone,
			PublishNotReadyAddresses: true},
	}
	pod := examplePod("db-0", "10.244.2.9", false)
	fmt.Println(endpointslice.ReceivesTraffic(svc, pod))

	svc.Spec.PublishNotReadyAddresses = false
	fmt.Println(endpointslice.ReceivesTraffic(svc, pod))
	// Output:
	// true endpoint 10.244.2.9 on no ports (headless) is published as ready by publishNotReadyAddresses, though the pod is not ready
	// false endpoint 10.244.2.9 is not ready: the pod's Ready condition is not True
}

// A targetPort given by name is resolved on each pod: pods that name
// their port differently land in different slices, and a pod without the
// name gets a slice without that port.
func ExampleFindPort() {
	port := &api.ServicePort{Name: "http", Port: 80, Protocol: api.ProtocolTCP, TargetPort: api.FromString("http")}
	v1 := examplePod("web-v1", "10.244.1.5", true)
	v2 := examplePod("web-v2", "10.244.1.6", true)
	v2.Spec.Containers[0].Ports[0].ContainerPort = 9376
	udp := examplePod("web-udp", "10.244.1.7", true)
	udp.Spec.Containers[0].Ports[0].Protocol = api.ProtocolUDP
	for _, p := range []*api.Pod{v1, v2, udp} {
		n, ok := endpointslice.FindPort(p, port)
		fmt.Println(p.Name, n, ok)
	}
	fmt.Println(endpointslice.GenerateName("web"))
	// Output:
	// web-v1 8080 true
	// web-v2 9376 true
	// web-udp 0 false
	// web-
}
