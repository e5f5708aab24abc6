package endpointslice_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/podsem/podsem/api"
	"github.com/podsem/podsem/endpointslice"
)

var rapidPortNames = []string{"http", "metrics", "dns"}
var rapidProtocols = []api.Protocol{api.ProtocolTCP, api.ProtocolUDP, ""}

func rapidService(t *rapid.T) *api.Service {
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"},
			ClusterIP:                rapid.SampledFrom([]string{"10.96.0.10", "None", "", "fd00::a"}).Draw(t, "clusterIP"),
			PublishNotReadyAddresses: rapid.Bool().Draw(t, "publishNotReady")}}
	for _, f := range rapid.SliceOfNDistinct(rapid.SampledFrom([]api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}), 0, 2, rapid.ID).Draw(t, "families") {
		svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, f)
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "ports") {
		sp := api.ServicePort{Name: fmt.Sprintf("p%d", i), Port: int32(80 + i), Protocol: rapid.SampledFrom(rapidProtocols).Draw(t, "protocol")}
		if rapid.Bool().Draw(t, "named") {
			sp.TargetPort = api.FromString(rapid.SampledFrom(rapidPortNames).Draw(t, "targetName"))
		} else {
			sp.TargetPort = api.FromInt32(rapid.Int32Range(0, 9000).Draw(t, "targetNumber"))
		}
		svc.Spec.Ports = append(svc.Spec.Ports, sp)
	}
	return svc
}

func rapidPod(t *rapid.T, i int) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{NodeName: rapid.SampledFrom([]string{"node-1", "node-2", "gone"}).Draw(t, "node")}}
	for c := range rapid.IntRange(1, 2).Draw(t, "containers") {
		ctr := api.Container{Name: fmt.Sprintf("c%d", c)}
		for range rapid.IntRange(0, 2).Draw(t, "containerPorts") {
			ctr.Ports = append(ctr.Ports, api.ContainerPort{Name: rapid.SampledFrom(rapidPortNames).Draw(t, "portName"),
				ContainerPort: rapid.Int32Range(1, 9000).Draw(t, "containerPort"), Protocol: rapid.SampledFrom(rapidProtocols).Draw(t, "portProtocol")})
		}
		p.Spec.Containers = append(p.Spec.Containers, ctr)
	}
	p.Status.Phase = rapid.SampledFrom([]api.PodPhase{api.PodRunning, api.PodPending, api.PodSucceeded, api.PodFailed}).Draw(t, "phase")
	for _, ip := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{fmt.Sprintf("10.244.0.%d", i+1), fmt.Sprintf("fd00::%x", i+1)}), 0, 2, rapid.ID).Draw(t, "ips") {
		p.Status.PodIPs = append(p.Status.PodIPs, api.PodIP{IP: ip})
	}
	if len(p.Status.PodIPs) > 0 {
		p.Status.PodIP = p.Status.PodIPs[0].IP
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: rapid.SampledFrom([]api.ConditionStatus{api.ConditionTrue, api.ConditionFalse}).Draw(t, "ready")}}
	if rapid.Bool().Draw(t, "deleting") {
		p.DeletionTimestamp = &api.Time{}
	}
	return p
}

// TestEndpointInvariants: whatever the Service and its pods,
//   - an endpoint is ready only if its pod is ready and not terminating,
//     or the Service publishes not-ready addresses;
//   - an endpoint is serving exactly when its pod is ready, and
//     terminating exactly when its pod is being deleted;
//   - every port of an endpoint's slice resolves on its pod to that number
//     (FindPort), and every Service port that resolves on the pod is in it;
//   - no slice holds more than MaxEndpointsPerSlice endpoints, and every
//     address is of the slice's address type;
//   - a pod is an endpoint exactly when its verdict says so.
func TestEndpointInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		svc := rapidService(t)
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 6).Draw(t, "pods") {
			pods = append(pods, rapidPod(t, i))
		}
		nodes := []*api.Node{{ObjectMeta: api.ObjectMeta{Name: "node-1"}}, {ObjectMeta: api.ObjectMeta{Name: "node-2"}}}
		res, err := endpointslice.Endpoints(svc, pods, nodes)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*api.Pod{}
		for _, p := range pods {
			byName[p.Name] = p
		}
		inSlices := map[string]bool{}
		for _, s := range res.Slices {
			if len(s.Endpoints) > endpointslice.MaxEndpointsPerSlice {
				t.Fatalf("slice of %d endpoints", len(s.Endpoints))
			}
			for _, ep := range s.Endpoints {
				pod := byName[ep.TargetRef.Name]
				inSlices[pod.Name] = true
				ready, serving, terminating := *ep.Conditions.Ready, *ep.Conditions.Serving, *ep.Conditions.Terminating
				if ready && !svc.Spec.PublishNotReadyAddresses && !(api.IsPodReady(pod) && pod.DeletionTimestamp == nil) {
					t.Fatalf("%s ready although its pod is not ready or terminating", pod.Name)
				}
				if serving != api.IsPodReady(pod) || terminating != (pod.DeletionTimestamp != nil) {
					t.Fatalf("%s: serving %v terminating %v", pod.Name, serving, terminating)
				}
				for _, a := range ep.Addresses {
					if v6 := len(a) > 0 && a[0] == 'f'; v6 != (s.AddressType == endpointslice.AddressTypeIPv6) {
						t.Fatalf("%s address %s in a %s slice", pod.Name, a, s.AddressType)
					}
				}
				resolved := 0
				for i := range svc.Spec.Ports {
					sp := &svc.Spec.Ports[i]
					n, ok := endpointslice.FindPort(pod, sp)
					if !ok {
						continue
					}
					resolved++
					found := false
					for _, p := range s.Ports {
						found = found || (p.Name == sp.Name && p.Port == n && p.Protocol == sp.Protocol)
					}
					if !found {
						t.Fatalf("%s: port %s resolves to %d, missing from slice ports %+v", pod.Name, sp.Name, n, s.Ports)
					}
				}
				if resolved != len(s.Ports) {
					t.Fatalf("%s: slice has %d ports, %d resolve on the pod", pod.Name, len(s.Ports), resolved)
				}
			}
		}
		for _, v := range res.Pods {
			if v.Endpoint != inSlices[v.Name] {
				t.Fatalf("%s: verdict endpoint=%v (%s), in slices %v", v.Name, v.Endpoint, v.Reason, inSlices[v.Name])
			}
			if ok, _ := endpointslice.ReceivesTraffic(svc, byName[v.Name]); ok && !v.Ready && v.Reason != endpointslice.ReasonNodeNotFound {
				t.Fatalf("%s receives traffic but its endpoint is not ready", v.Name)
			}
		}
	})
}
