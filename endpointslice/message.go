package endpointslice

import (
	"fmt"
	"strings"

	"github.com/podsem/podsem/api"
)

// message is v's reason in a sentence for a reader of svc and pod;
// addresses and resolved are the pod's endpoint addresses (all address
// types) and ports.
func message(svc *api.Service, pod *api.Pod, types []AddressType, v Verdict, addresses []string, resolved []Port) string {
	addrs := func() string { return strings.Join(addresses, ", ") }
	ports := func() string {
		if len(svc.Spec.Ports) == 0 {
			return "no ports (headless)"
		}
		return "ports " + portsText(resolved)
	}
	switch v.Reason {
	case ReasonExternalName:
		return fmt.Sprintf("Service %s/%s is of type ExternalName: the EndpointSlice controller publishes no endpoints for it", svc.Namespace, svc.Name)
	case ReasonNoSelector:
		return fmt.Sprintf("Service %s/%s has no selector: its EndpointSlices are not the EndpointSlice controller's", svc.Namespace, svc.Name)
	case ReasonServiceDeleting:
		return fmt.Sprintf("Service %s/%s is being deleted: the EndpointSlice controller creates no slices for it", svc.Namespace, svc.Name)
	case ReasonOtherNamespace:
		return fmt.Sprintf("pod is in namespace %q, the Service in %q", pod.Namespace, svc.Namespace)
	case ReasonNotSelected:
		return fmt.Sprintf("pod labels %s do not match the Service's selector %s", api.FormatLabels(pod.Labels), api.FormatLabels(svc.Spec.Selector))
	case ReasonTerminal:
		return fmt.Sprintf("pod has phase %s: a finished pod is no endpoint", pod.Status.Phase)
	case ReasonNoPodIP:
		return "pod has no IP yet"
	case ReasonNoAddressOfFamily:
		return fmt.Sprintf("pod has no IP in status.podIPs of the Service's address types %v", types)
	case ReasonNodeNotFound:
		return fmt.Sprintf("pod's node %q is not known: the pod is left out and the Service synced again", pod.Spec.NodeName)
	case ReasonNoPort:
		var want []string
		for _, p := range svc.Spec.Ports {
			want = append(want, fmt.Sprintf("%s/%s", p.TargetPort.String(), p.Protocol))
		}
		return fmt.Sprintf("endpoint %s has no port: no targetPort of the Service (%s) resolves on the pod's container ports", addrs(), strings.Join(want, ", "))
	case ReasonNotReady:
		return fmt.Sprintf("endpoint %s is not ready: the pod's Ready condition is not True", addrs())
	case ReasonTerminatingServing:
		return fmt.Sprintf("endpoint %s is terminating but still serving (passes readiness), not ready: proxies use it only while the Service has no ready endpoint", addrs())
	case ReasonTerminating:
		return fmt.Sprintf("endpoint %s is terminating and no longer serving", addrs())
	case ReasonPublishNotReady:
		return fmt.Sprintf("endpoint %s on %s is published as ready by publishNotReadyAddresses, though the pod is not ready", addrs(), ports())
	case ReasonReady:
		return fmt.Sprintf("ready endpoint %s on %s", addrs(), ports())
	}
	return string(v.Reason)
}
