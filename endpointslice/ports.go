package endpointslice

import (
	"strconv"
	"strings"

	"github.com/podsem/podsem/api"
)

// FindPort resolves a Service port's targetPort on a pod as the
// EndpointSlice controller does (k8s.io/endpointslice FindPort): a number
// is used as it is, whether or not the pod declares it; a name is looked
// up among the named ports of the pod's containers, then of its sidecars
// (init containers with restartPolicy Always), and must also match the
// Service port's protocol exactly — as written, since the API server
// defaults both to TCP. The first match wins. ok is false when no port
// matches; the controller then leaves that Service port out of the pod's
// slice, which puts the pod in a slice of its own port set. A nil pod or
// port resolves nothing.
func FindPort(pod *api.Pod, port *api.ServicePort) (n int32, ok bool) {
	if pod == nil || port == nil {
		return 0, false
	}
	if !port.TargetPort.IsString {
		return port.TargetPort.IntVal, true
	}
	name := port.TargetPort.StrVal
	for i := range pod.Spec.Containers {
		if n, ok := namedPort(pod.Spec.Containers[i].Ports, name, port.Protocol); ok {
			return n, true
		}
	}
	for i := range pod.Spec.InitContainers {
		if c := &pod.Spec.InitContainers[i]; c.IsSidecar() {
			if n, ok := namedPort(c.Ports, name, port.Protocol); ok {
				return n, true
			}
		}
	}
	return 0, false
}

func namedPort(ports []api.ContainerPort, name string, protocol api.Protocol) (int32, bool) {
	for _, p := range ports {
		if p.Name == name && p.Protocol == protocol {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

// resolvePorts are the slice ports of pod for svc, in the Service's
// order: every Service port that resolves on the pod. A headless Service
// without ports has none.
func resolvePorts(svc *api.Service, pod *api.Pod) []Port {
	out := []Port{}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		n, ok := FindPort(pod, sp)
		if !ok {
			continue
		}
		out = append(out, Port{Name: sp.Name, Port: n, Protocol: sp.Protocol, AppProtocol: sp.AppProtocol})
	}
	return out
}

// portsText renders ports as "name:port/protocol" for messages.
func portsText(ports []Port) string {
	var b strings.Builder
	for i, p := range ports {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Name != "" {
			b.WriteString(p.Name + ":")
		}
		b.WriteString(strconv.Itoa(int(p.Port)) + "/" + string(p.Protocol))
	}
	return b.String()
}
